"""Street-by-street replay of one hand for reviewers: cards, stacks, pot, to-call, legal range.

Why two sources: the rule engine's ``rules.view.render_hand`` is the authority on what each
decision faced (position, to-call, legal raise range under the hand's rulebook) and on the
findings at each action, so ``apply_rule_view`` overlays it whenever it can replay the hand. The
walk over canonical rows below stays as the skeleton (posts, returns, boards, cards, awards,
which the rule view does not carry) and as the fallback when the rule engine cannot replay a
hand; it then prefers stored ``action_states`` and ``violations`` rows.
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
    rulebook: str | None = None  # set when the rule engine's view was applied


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
        st = states.get(a["seq"])
        if st is not None:
            to_call = st.get("to_call", to_call)
            min_to = st.get("min_raise_to", min_to)
            max_to = st.get("max_raise_to", max_to)
        step = Step(
            seq=a["seq"], player=player, kind=kind, amount=a.get("amount"), raise_to=a.get("raise_to"),
            contribution=contrib, stack_before=stack.get(player, 0), pot_before=pot, to_call=to_call,
            min_raise_to=min_to, max_raise_to=max_to, findings=findings_by_seq.get(a["seq"], []),
        )
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
    return HandReplay(
        hand=hand,
        seats=seats,
        hole_cards={h["player"]: h["cards"] for h in of("hole_cards")},
        streets=streets,
        awards=awards,
        final_stacks=stack,
        findings_unplaced=unplaced,
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
        lines.append(f"  {w['player']} collects {money(w['amount'], h)} (pot {w['pot_no']}, board {w['board_no']})")
    for f in r.findings_unplaced:
        lines.append(f"  ! {f['rule_id']} ({f['rulebook']}): {f['message']}")
    return lines
