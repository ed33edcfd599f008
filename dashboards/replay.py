"""Street-by-street replay of one hand for reviewers: cards, stacks, pot, to-call, legal range.

Why stored states first: the nightly rule check already replayed every hand under its rulebook and
wrote what each decision faced (``action_states``: position, to-call, pot, legal raise range) and
its findings (``violations``). The replayer and the export read those rows, so the page shows the
very replay the findings came from, and nothing is re-run per view. Only a hand without stored
states (a snapshot older than its rule check) is replayed by the rule engine now
(``apply_rule_view``), and when even that fails, the walk over canonical rows below (no-limit
raise ranges only) is all there is. The walk is also the skeleton in every case: posts, returns,
boards, cards and awards, which the states do not carry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl

STREETS = ("preflop", "flop", "turn", "river", "showdown")
LIVE_POSTS = {"post_sb", "post_bb", "post_straddle"}
DECISIONS = {"fold", "check", "call", "bet", "raise"}
#: board cards visible from each street on (flop 3, turn 4, river 5)
BOARD_CARDS = {"preflop": 0, "flop": 3, "turn": 4, "river": 5, "showdown": 5}


@dataclass(slots=True)
class Step:
    seq: int
    player: str
    kind: str
    amount: int | None
    raise_to: int | None
    contribution: int
    stack_before: int
    pot_before: int
    to_call: int | None
    min_raise_to: int | None
    max_raise_to: int | None
    findings: list[dict[str, Any]] = field(default_factory=list)
    position: str | None = None


@dataclass(slots=True)
class StreetView:
    name: str
    board: list[str]
    steps: list[Step]
    pot_after: int


@dataclass(slots=True)
class HandReplay:
    hand: dict[str, Any]
    seats: list[dict[str, Any]]
    hole_cards: dict[str, str]
    streets: list[StreetView]
    awards: list[dict[str, Any]]
    final_stacks: dict[str, int]
    findings_unplaced: list[dict[str, Any]]
    rulebook: str | None = None  # the rulebook the states and findings come from (None: the walk's own)
    #: where positions, to-call, legal ranges and findings come from: "stored" (the nightly rule
    #: check's action_states and violations), "rule-engine" (replayed now), "walk" (this module)
    source: str = "walk"


def split_cards(cards: str | None) -> list[str]:
    """'AhKd' -> ['Ah', 'Kd'] (also accepts space-separated)."""
    if not cards:
        return []
    s = cards.replace(" ", "")
    return [s[i : i + 2] for i in range(0, len(s), 2)]


def money(units: int | None, hand: dict[str, Any]) -> str:
    """Exact decimal rendering of an integer amount in the hand's currency (no floats)."""
    if units is None:
        return ""
    scale = int(hand.get("unit_scale") or 1)
    sign = "-" if units < 0 else ""
    whole, frac = divmod(abs(units), scale)
    digits = len(str(scale)) - 1
    body = f"{whole:,}" if scale == 1 else f"{whole:,}.{frac:0{digits}d}"
    cur = hand.get("currency") or ""
    symbol = {"USD": "$", "EUR": "€", "GBP": "£"}.get(cur)
    return f"{sign}{symbol}{body}" if symbol else f"{sign}{body} {cur}".rstrip()


def build_replay(rows: dict[str, pl.DataFrame], hand_id: str) -> HandReplay:
    """Replay ``hand_id`` from the frames returned by ``data.hand_rows``."""

    def of(table: str) -> list[dict[str, Any]]:
        df = rows.get(table)
        if df is None or df.is_empty():
            return []
        return df.filter(pl.col("hand_id") == hand_id).to_dicts()

    hands = of("hands")
    if not hands:
        raise KeyError(f"hand {hand_id} not in the warehouse snapshot")
    hand = hands[0]
    rec = of("reconciliation")
    hand["reconciliation_status"] = rec[0]["status"] if rec else None
    seats = sorted(of("seats"), key=lambda s: s["seat_no"])
    actions = sorted(of("actions"), key=lambda a: a["seq"])
    states = {s["seq"]: s for s in of("action_states")}
    findings_by_seq: dict[int | None, list[dict[str, Any]]] = {}
    for v in of("violations"):
        findings_by_seq.setdefault(v.get("action_seq"), []).append(v)
    boards = sorted(of("boards"), key=lambda b: b["board_no"])
    board1 = split_cards(boards[0]["cards"]) if boards else []
    bb = int(hand.get("bb") or 0)
    nl = (hand.get("betting") or "NL") == "NL"

    stack = {s["player"]: int(s["stack"]) for s in seats}
    pot = 0
    streets: list[StreetView] = []
    current: StreetView | None = None
    street_bet: dict[str, int] = {}
    max_bet = 0
    last_increment = bb
    seqs_seen: set[int] = set()
    for a in actions:
        if current is None or a["street"] != current.name:
            current = StreetView(a["street"], board1[: BOARD_CARDS.get(a["street"], 0)], [], pot)
            streets.append(current)
            if a["street"] != "preflop":
                street_bet, max_bet, last_increment = {}, 0, bb
        player, kind, contrib = a["player"], a["kind"], int(a["contribution"] or 0)
        mine = street_bet.get(player, 0)
        is_decision = kind in DECISIONS
        to_call = max(0, max_bet - mine) if is_decision else None
        min_to = max_bet + max(last_increment, bb) if is_decision and nl else None
        max_to = mine + stack.get(player, 0) if is_decision and nl else None
        if min_to is not None and max_to is not None:
            if max_to <= max_bet:
                min_to = max_to = None  # cannot raise: calling takes the whole stack
            elif min_to > max_to:
                min_to = max_to  # only an all-in raise is left
        step = Step(
            seq=a["seq"], player=player, kind=kind, amount=a.get("amount"), raise_to=a.get("raise_to"),
            contribution=contrib, stack_before=stack.get(player, 0), pot_before=pot, to_call=to_call,
            min_raise_to=min_to, max_raise_to=max_to, findings=findings_by_seq.get(a["seq"], []),
        )
        st = states.get(a["seq"])
        if st is not None:  # the nightly rule check's state of this decision wins over the walk's
            step.to_call, step.min_raise_to, step.max_raise_to = (
                st.get("to_call", to_call), st.get("min_raise_to"), st.get("max_raise_to"))
            step.position = st.get("position")
            step.pot_before = int(st.get("pot_before", pot))
            step.stack_before = int(st.get("stack_before", step.stack_before))
        seqs_seen.add(a["seq"])
        current.steps.append(step)
        stack[player] = stack.get(player, 0) - contrib
        pot += contrib
        if kind in LIVE_POSTS or kind in {"call", "bet", "raise"} or kind == "uncalled_return":
            street_bet[player] = mine + contrib
            if street_bet[player] > max_bet:
                if kind in {"bet", "raise"}:
                    last_increment = max(last_increment, street_bet[player] - max_bet)
                max_bet = street_bet[player]
        current.pot_after = pot
    if streets and len(board1) > len(streets[-1].board) and streets[-1].name != "showdown":
        # all-in run-out: the remaining board was dealt without further actions
        streets.append(StreetView("showdown", board1, [], pot))
    awards = sorted(of("awards"), key=lambda w: (w["pot_no"], w["board_no"], w["player"]))
    for w in awards:
        stack[w["player"]] = stack.get(w["player"], 0) + int(w["amount"])
    unplaced = [f for seq, fs in findings_by_seq.items() if seq not in seqs_seen for f in fs]
    decisions = [a["seq"] for a in actions if a["kind"] in DECISIONS]
    stored = {str(s_["rulebook"]) for s_ in states.values() if s_.get("rulebook")}
    covered = bool(decisions) and all(q in states for q in decisions) and len(stored) == 1
    return HandReplay(
        hand=hand,
        seats=seats,
        hole_cards={h["player"]: h["cards"] for h in of("hole_cards")},
        streets=streets,
        awards=awards,
        final_stacks=stack,
        findings_unplaced=unplaced,
        rulebook=stored.pop() if covered else None,
        source="stored" if covered else "walk",
    )


def apply_rule_view(r: HandReplay, view: Any) -> HandReplay:
    """Overlay a ``rules.view.ReplayView`` on ``r``: its states and findings replace ours per action."""
    states = {av.state.seq: av for avs in view.streets.values() for av in avs}
    placed: set[int] = set()
    for street in r.streets:
        for step in street.steps:
            av = states.get(step.seq)
            if av is None:
                continue
            s = av.state
            placed.add(step.seq)
            step.position, step.to_call, step.pot_before, step.stack_before = (
                s.position, s.to_call, s.pot_before, s.stack_before)
            step.min_raise_to, step.max_raise_to = (
                (s.min_raise_to, s.max_raise_to) if s.min_raise_to is not None else (None, None))
            step.findings = [{**f._asdict(), "rulebook": view.rulebook} for f in av.findings]
    r.findings_unplaced = [{**f._asdict(), "rulebook": view.rulebook} for f in view.hand_findings] + [
        {**f._asdict(), "rulebook": view.rulebook} for seq, av in states.items() if seq not in placed
        for f in av.findings
    ]
    r.rulebook = view.rulebook
    r.source = "rule-engine"
    return r


def step_label(step: Step, hand: dict[str, Any]) -> str:
    """'raise to $3.00', 'call $2.00', 'posts BB $1.00'... as a reviewer reads it."""
    k = step.kind
    if k == "bet":
        return f"bet {money(step.raise_to if step.raise_to is not None else step.amount, hand)}"
    if k == "raise":
        return f"raise to {money(step.raise_to if step.raise_to is not None else step.amount, hand)}"
    if k == "uncalled_return":
        return f"uncalled {money(-step.contribution, hand)} returned"
    if k.startswith("post_"):
        return f"posts {k[5:].upper()} {money(step.contribution, hand)}"
    if k == "call":
        return f"call {money(step.contribution, hand)}"
    return k


def finding_tag(f: dict[str, Any]) -> str:
    """'RAISE.MIN (error)', or '... (house decision)' where the rulebook leaves it to the floor."""
    return f"{f['rule_id']} ({'house decision' if f.get('house_decision') else f['severity']})"


def steps_frame(view: StreetView, hand: dict[str, Any]) -> pl.DataFrame:
    """One street as a table for the page and the report (amounts rendered exactly)."""
    return pl.DataFrame(
        {
            "seq": [s.seq for s in view.steps],
            "pos": [s.position or "" for s in view.steps],
            "player": [s.player for s in view.steps],
            "action": [step_label(s, hand) for s in view.steps],
            "stack before": [money(s.stack_before, hand) for s in view.steps],
            "pot before": [money(s.pot_before, hand) for s in view.steps],
            "to call": [money(s.to_call, hand) for s in view.steps],
            "legal raise-to": [
                f"{money(s.min_raise_to, hand)}–{money(s.max_raise_to, hand)}"
                if s.min_raise_to is not None and s.max_raise_to is not None
                else ""
                for s in view.steps
            ],
            "findings": ["; ".join(finding_tag(f) for f in s.findings) for s in view.steps],
        },
        schema={c: (pl.Int64 if c == "seq" else pl.String) for c in (
            "seq", "pos", "player", "action", "stack before", "pot before", "to call", "legal raise-to", "findings")},
    )


def replay_lines(r: HandReplay) -> list[str]:
    """Plain-text replay (used in the PDF)."""
    h = r.hand
    lines = [
        f"Hand {h['hand_id']}  {h['variant']} {h['betting']}  {h['table_name']}  {h.get('started_at') or ''} UTC",
        "Seats: " + ", ".join(
            f"{s['seat_no']}:{s['player']} {money(s['stack'], h)}"
            + (f" [{' '.join(split_cards(r.hole_cards[s['player']]))}]" if s["player"] in r.hole_cards else "")
            for s in r.seats
        ),
    ]
    for v in r.streets:
        lines.append(f"-- {v.name.upper()} {' '.join(v.board)}  (pot {money(v.pot_after, h)} after)")
        for s in v.steps:
            extra = []
            if s.to_call is not None:
                extra.append(f"to call {money(s.to_call, h)}")
            if s.min_raise_to is not None and s.max_raise_to is not None:
                extra.append(f"legal raise-to {money(s.min_raise_to, h)}-{money(s.max_raise_to, h)}")
            lines.append(
                f"  #{s.seq} {s.player}: {step_label(s, h)}  [stack {money(s.stack_before, h)},"
                f" pot {money(s.pot_before, h)}{', ' + ', '.join(extra) if extra else ''}]"
            )
            for f in s.findings:
                lines.append(f"     ! {f['rule_id']} ({f['rulebook']}, {f['severity']}): {f['message']}")
    for w in r.awards:
        lines.append(f"  {award_line(w, r)}")
    for f in r.findings_unplaced:
        lines.append(f"  ! {f['rule_id']} ({f['rulebook']}): {f['message']}")
    return lines


# -- the table at a step (step-through view) ------------------------------------------------------

#: four-colour deck as PokerTracker and most sites draw it: spades black, hearts red, diamonds blue, clubs green
SUITS = {"s": ("\u2660", "#1f1f1f"), "h": ("\u2665", "#d62728"), "d": ("\u2666", "#1f5fd6"), "c": ("\u2663", "#1a8a3a")}
#: the same colours as Streamlit markdown colour names
SUIT_MD = {"s": "gray", "h": "red", "d": "blue", "c": "green"}


def card_text(card: str) -> str:
    """'Ah' -> 'A♥', 'Td' -> '10♦'; unknown cards ('??') unchanged."""
    if len(card) != 2 or card[1].lower() not in SUITS:
        return card
    rank = "10" if card[0].upper() == "T" else card[0].upper()
    return rank + SUITS[card[1].lower()][0]


def card_md(card: str) -> str:
    """A card for ``st.markdown`` in its suit colour (``:red[A♥]``)."""
    suit = card[1:].lower()
    return f":{SUIT_MD[suit]}[**{card_text(card)}**]" if suit in SUIT_MD else card


def card_html(card: str) -> str:
    suit = card[1:].lower()
    if suit not in SUITS:
        return f"<span class='card'>{card}</span>"
    return (f"<span style='color:{SUITS[suit][1]};font-weight:700;border:1px solid #ccc;border-radius:4px;"
            f"padding:0 3px;margin-right:2px;background:#fff'>{card_text(card)}</span>")


@dataclass(frozen=True, slots=True)
class SeatAt:
    seat_no: int
    player: str
    position: str
    stack: int  # behind, after the step
    street_bet: int  # put in on the current street so far
    folded: bool
    acting: bool  # made the step's action


@dataclass(frozen=True, slots=True)
class TableAt:
    """The table after ``step`` actions (0: before the first post)."""

    step: int
    street: str
    board: list[str]
    pot: int
    seats: list[SeatAt]
    last: Step | None


def all_steps(r: HandReplay) -> list[tuple[str, Step]]:
    return [(v.name, s) for v in r.streets for s in v.steps]


def table_at(r: HandReplay, step: int) -> TableAt:
    """Stacks, street bets, folds, pot and board after the first ``step`` actions of the hand."""
    steps = all_steps(r)
    step = max(0, min(step, len(steps)))
    stack = {s["player"]: int(s["stack"]) for s in r.seats}
    positions: dict[str, str] = {}
    bets: dict[str, int] = {}
    folded: set[str] = set()
    street, pot, last = "preflop", 0, None
    for name, s in steps[:step]:
        if name != street:
            street, bets = name, {}
        stack[s.player] = stack.get(s.player, 0) - s.contribution
        bets[s.player] = bets.get(s.player, 0) + s.contribution
        pot += s.contribution
        if s.kind == "fold":
            folded.add(s.player)
        last = s
    for _, s in steps:
        if s.position and s.player not in positions:
            positions[s.player] = s.position
    board = next((v.board for v in r.streets if v.name == street), [])
    return TableAt(
        step=step, street=street, board=list(board), pot=pot, last=last,
        seats=[SeatAt(int(x["seat_no"]), x["player"], positions.get(x["player"], ""), stack.get(x["player"], 0),
                      bets.get(x["player"], 0), x["player"] in folded, last is not None and last.player == x["player"])
               for x in r.seats],
    )


def award_line(w: dict[str, Any], r: HandReplay) -> str:
    """'alice wins $40.50 from the main pot' (side pots and second boards named, not numbered)."""
    pot = "the main pot" if int(w.get("pot_no") or 0) == 0 else f"side pot {w['pot_no']}"
    boards = {int(a.get("board_no") or 1) for a in r.awards}
    board = f" on board {w['board_no']}" if len(boards) > 1 else ""
    return f"{w['player']} wins {money(int(w['amount']), r.hand)} from {pot}{board}"
