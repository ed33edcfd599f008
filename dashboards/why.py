""""Why this hand": one line per evidence hand, from the flag's family and the hand's recorded actions
(issue 14, build item 5), and the evidence ordered consistently with the explanation's direction.

Why from the recorded actions and not from the detector's scores: a reviewer has to be able to check
the line against the replayer. Each line names what the case players did to each other in the hand
(the betting between them, who folded to whom, the money that moved between them), led by what the
family looks for: a squeeze names the raise, the re-raise around the caller and the caller's fold;
soft play the streets the two checked through heads-up; chip dumping and card sharing who gave up
chips to whom and at which bet.

Direction (chip dumping): the detectors write "{a} loses chips to {b}" with the pair in key order,
whichever way the chips went. The direction shown is the one the chips took between the two over
their shared hands (the chip-flow figure's), and evidence hands where the money went the other way
are listed after the consistent ones and marked, never silently first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

STREETS = ("preflop", "flop", "turn", "river")
DECIDE = ("fold", "check", "call", "bet", "raise")


@dataclass(frozen=True)
class Why:
    hand_id: str
    line: str
    #: money between the case players in this hand: (loser, winner, amount in units); None if none moved
    flow: tuple[str, str, int] | None
    #: False when the hand's money went against the case's direction (chip dumping), else True
    consistent: bool = True


def hand_nets(actions: pl.DataFrame, awards: pl.DataFrame) -> dict[str, int]:
    """Each player's net result in one hand: awards minus contributions (integer units)."""
    net: dict[str, int] = {}
    for r in actions.iter_rows(named=True):
        c = r.get("contribution") or 0
        if c:
            net[r["player"]] = net.get(r["player"], 0) - int(c)
    for r in awards.iter_rows(named=True):
        net[r["player"]] = net.get(r["player"], 0) + int(r["amount"] or 0)
    return net


def pair_flow(net: dict[str, int], players: Sequence[str]) -> tuple[str, str, int] | None:
    """The biggest transfer between the case players in a hand: the worst loser among them to the
    best winner among them, at most what either lost or won."""
    ps = [p for p in players if p in net]
    losers = sorted((p for p in ps if net[p] < 0), key=lambda p: (net[p], p))
    winners = sorted((p for p in ps if net[p] > 0), key=lambda p: (-net[p], p))
    if not losers or not winners:
        return None
    lo, wi = losers[0], winners[0]
    return lo, wi, min(-net[lo], net[wi])


def _act(r: dict[str, Any], fmt: Callable[[int], str]) -> str:
    kind = r["kind"]
    if kind == "raise":
        text = f"raises to {fmt(int(r['raise_to']))}" if r.get("raise_to") is not None else "raises"
    elif kind == "bet":
        text = f"bets {fmt(int(r['amount']))}" if r.get("amount") is not None else "bets"
    elif kind == "call":
        text = f"calls {fmt(int(r['amount']))}" if r.get("amount") is not None else "calls"
    else:
        text = f"{kind}s" if kind in ("fold", "check") else kind.replace("_", " ")
    return text + (" all-in" if r.get("all_in") and kind in ("bet", "raise", "call") else "")


def _decisions(actions: pl.DataFrame) -> list[dict[str, Any]]:
    return [r for r in actions.sort("seq").iter_rows(named=True) if r["kind"] in DECIDE]


def _first_fold_to(acts: list[dict[str, Any]], victim: str, aggressor: str) -> dict[str, Any] | None:
    """``victim``'s fold facing a bet or raise whose last maker was ``aggressor``."""
    last_aggr: dict[str, str] = {}
    for r in acts:
        if r["kind"] in ("bet", "raise"):
            last_aggr[r["street"]] = r["player"]
        elif r["kind"] == "fold" and r["player"] == victim and last_aggr.get(r["street"]) == aggressor:
            return r
    return None


def _line_between(acts: list[dict[str, Any]], players: Sequence[str], fmt: Callable[[int], str],
                  limit: int = 6) -> str:
    """The case players' decisions in order, street by street, shortened to the last ``limit``."""
    mine = [r for r in acts if r["player"] in players]
    parts = [f"{r['street']}: {r['player']} {_act(r, fmt)}" for r in mine]
    if len(parts) > limit:
        parts = ["…", *parts[-limit:]]
    return "; ".join(parts)


def _squeeze(acts: list[dict[str, Any]], players: Sequence[str], fmt: Callable[[int], str]) -> str | None:
    """A preflop raise by one case player, a call by a third player, a re-raise by another case
    player, and the third player's fold: the squeeze as it was played."""
    pre = [r for r in acts if r["street"] == "preflop"]
    for i, r in enumerate(pre):
        if r["kind"] != "raise" or r["player"] not in players:
            continue
        callers: list[dict[str, Any]] = []
        for s in pre[i + 1:]:
            if s["kind"] == "call" and s["player"] not in players:
                callers.append(s)
            elif s["kind"] == "raise" and s["player"] in players and s["player"] != r["player"] and callers:
                folds = [x for x in pre if x["seq"] > s["seq"] and x["kind"] == "fold"
                         and x["player"] in {c["player"] for c in callers}]
                text = (f"squeeze: {r['player']} {_act(r, fmt)}, {callers[0]['player']} calls, "
                        f"{s['player']} re-raises to {fmt(int(s['raise_to']))}" if s.get("raise_to") is not None
                        else f"squeeze: {r['player']} raises, {callers[0]['player']} calls, {s['player']} re-raises")
                if folds:
                    text += f", {folds[0]['player']} folds"
                return text
            elif s["kind"] in ("raise", "bet") and s["player"] not in players:
                break
    return None


def _soft(acts: list[dict[str, Any]], players: Sequence[str], seats_live: dict[str, set[str]]) -> str | None:
    """Streets the two case players played heads-up with nothing but checks between them."""
    quiet = []
    for street in STREETS[1:]:
        live = seats_live.get(street, set())
        on = [r for r in acts if r["street"] == street]
        if not on or len(live) != 2 or not live <= set(players):
            continue
        if all(r["kind"] == "check" for r in on):
            quiet.append(street)
    if quiet:
        return f"soft play: heads-up, {' and '.join(players[:2])} check the {', '.join(quiet)} through"
    return None


def _on(street: str) -> str:
    return "preflop" if street == "preflop" else f"on the {street}"


def _cards(hole: pl.DataFrame) -> dict[str, str]:
    """player -> hole cards as written ('Ah Kd'), when the export has them."""
    out: dict[str, str] = {}
    for r in hole.iter_rows(named=True) if not hole.is_empty() else []:
        c = str(r.get("cards") or "")
        out.setdefault(r["player"], " ".join(c[i:i + 2] for i in range(0, len(c), 2)))
    return out


def _card_fold(acts: list[dict[str, Any]], players: Sequence[str], cards: dict[str, str]) -> str | None:
    """A case player's fold facing a bet while a partner is still in the hand: the act card
    sharing is about (the partner's hidden cards told the folder to get out), with both hands."""
    folded: set[str] = set()
    facing: dict[str, bool] = {}
    for r in acts:
        if r["kind"] in ("bet", "raise"):
            facing[r["street"]] = True
        if r["kind"] == "fold":
            if r["player"] in players and facing.get(r["street"]):
                partners = [p for p in players if p != r["player"] and p not in folded]
                if partners:
                    mate = partners[0]
                    mine = f" holding {cards[r['player']]}" if r["player"] in cards else ""
                    theirs = f" with {cards[mate]}" if mate in cards else ""
                    return (f"card sharing: {r['player']} folds {_on(r['street'])}{mine}"
                            f" while {mate} is still in{theirs}")
            folded.add(r["player"])
    return None


def _live_by_street(acts: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Players still in the hand when each street's betting began (those who act on it)."""
    return {street: {r["player"] for r in acts if r["street"] == street} for street in STREETS}


def why_hand(family: str, players: Sequence[str], rows: dict[str, pl.DataFrame], hand_id: str,
             fmt: Callable[[int], str], direction: tuple[str, str] | None = None) -> Why:
    """The one line for ``hand_id`` (its rows from ``data.hand_rows``), and whether its money went
    the case's way (``direction``: (loser, winner) of the case, chip dumping only)."""

    def of(table: str) -> pl.DataFrame:
        df = rows.get(table)
        if df is None or df.is_empty():
            return pl.DataFrame()
        return df.filter(pl.col("hand_id") == hand_id)

    actions, awards = of("actions"), of("awards")
    if actions.is_empty():
        return Why(hand_id, "no actions recorded for this hand", None)
    acts = _decisions(actions)
    here = [p for p in players if p in set(actions["player"].to_list())]
    flow = pair_flow(hand_nets(actions, awards), here)
    lead = None
    if family == "squeeze":
        lead = _squeeze(acts, here, fmt)
    elif family == "soft_play":
        lead = _soft(acts, here, _live_by_street(acts))
    elif family == "card_sharing":
        lead = _card_fold(acts, here, _cards(of("hole_cards")))
    if lead is None and flow is not None:
        loser, winner, amount = flow
        fold = _first_fold_to(acts, loser, winner)
        lead = f"{loser} loses {fmt(amount)} to {winner}"
        if fold is not None:
            lead += f", folding {_on(fold['street'])} to {winner}'s bet"
    if lead is None:
        lead = f"{', '.join(here) or 'the case players'} in the hand together, no chips between them"
    body = _line_between(acts, here, fmt)
    consistent = True
    if family == "chip_dumping" and direction is not None and flow is not None:
        consistent = (flow[0], flow[1]) == direction
    line = lead + (f" — {body}" if body else "")
    if not consistent:
        line = "against the case's direction: " + line
    return Why(hand_id, line, flow, consistent)


def evidence_with_families(flag: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A flag's evidence hands, each with the family it was picked for: a pair's leading flag pools
    every family's hands (detectors 1.11), so a hand's line must explain its own mechanism. Flags
    from before 1.11 name no family per hand, and the flag's own stands in."""
    fams = list(flag.get("evidence_families") or [])
    own = str(flag["family"])
    return [(str(h), str(fams[i]) if i < len(fams) and fams[i] else own)
            for i, h in enumerate(flag.get("evidence_hands") or [])]


def case_direction(flow: dict[tuple[str, str], int], players: Sequence[str]) -> tuple[str, str] | None:
    """(loser, winner): the biggest net transfer between the first two players over their shared
    hands (``data.chip_flow``), None when nothing moved."""
    if len(players) < 2:
        return None
    a, b = players[0], players[1]
    ab, ba = flow.get((a, b), 0), flow.get((b, a), 0)
    if ab == ba:
        return None
    return (a, b) if ab > ba else (b, a)


def ordered(whys: list[Why]) -> list[Why]:
    """Evidence hands in the detector's order, those consistent with the case's direction first."""
    return [w for w in whys if w.consistent] + [w for w in whys if not w.consistent]


def directed_explanation(family: str, explanation: str, players: Sequence[str],
                         direction: tuple[str, str] | None) -> tuple[str, bool]:
    """The flag's explanation naming the players the way the chips went, and whether it was turned.

    Only a chip-dumping text written from the family's template with the pair in key order is turned
    (the detectors fill "{a} loses chips to {b}" with the pair sorted, not by direction); any other
    text is shown as stored.
    """
    if family != "chip_dumping" or direction is None or len(players) < 2:
        return explanation, False
    from detectors.families import TEXT  # read only: the template the text was written from

    template = TEXT["chip_dumping"].explanation
    a, b = players[0], players[1]
    if direction == (b, a) and explanation == template.format(a=a, b=b):
        return template.format(a=b, b=a), True
    return explanation, False
