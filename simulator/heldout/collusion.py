"""Colluding teams and how they bend an honest decision in the hands they collude in.

Families (what each does only while the team is *active* in the hand, see ``room``):

* ``soft_play``: members never re-raise a partner's bet, do not isolate a partner's limp or steal
  a partner's blind, and, once only partners are left, check it down instead of betting.
* ``chip_dumping``: one member (the dumper) sends chips to the others. "drip" teams do it in many
  small pots (the dumper limps or flats a receiver's raise, then folds to any receiver bet);
  "big" teams make large bluffs into the receiver (postflop bets, preflop 3-bets), who raises,
  and the dumper folds.
* ``squeeze``: members cold-call a partner's open to get an outsider between them; then a member
  raises over a partner's bet once the outsider has called (whipsaw), re-raises behind a partner
  who raised an outsider's bet, or re-raises an outsider's open that a partner has called; once
  the outsider is gone the weaker member lets go and they check it down.
* ``card_sharing``: members see the hole cards of partners at the table: those are dead cards in
  their hand-strength estimate, they fold or check to leave the pot to a partner holding the better
  hand, and they check it down against each other.

Evidence is logged only when the team behaviour changed what the honest policy would have done.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from simulator.heldout.cards import evaluate, preflop_pct
from simulator.heldout.engine import HandState
from simulator.heldout.policy import Decision, bet_to, raise_to, strength

FAMILIES = ("soft_play", "chip_dumping", "squeeze", "card_sharing")


@dataclass
class Team:
    id: str
    family: str
    members: list[str]
    dedication: float  # share of the intensity this team acts on
    dumper: str | None = None
    mode: str = ""
    evidence: list[dict[str, Any]] = field(default_factory=list)

    def truth(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "family": self.family, "members": list(self.members),
                               "evidence": self.evidence}
        if self.dumper:
            out["dumper"], out["mode"] = self.dumper, self.mode
        return out


Adjusted = tuple[Decision, str | None, list[int]]


def _street_acts(hand: HandState) -> list[tuple[int, int, str, int]]:
    return [h for h in hand.history if h[0] == hand.street]


def _current_value(hand: HandState, k: int) -> float:
    """How good a hand is right now, comparable between players (preflop: 1 - percentile)."""
    hole = hand.seats[k].hole
    if hand.street == 0:
        return 1.0 - preflop_pct(hole)
    return float(evaluate(list(hole) + hand.board))


def adjust(hand: HandState, i: int, team: Team, dec: Decision, rng: random.Random) -> Adjusted:
    """The team's version of decision ``dec``: (decision, act name or None, partners involved)."""
    names = set(team.members)
    live = hand.live()
    mates = [k for k in live if k != i and hand.seats[k].name in names]
    if not mates:
        return dec, None, []
    outsiders = [k for k in live if k != i and k not in mates]
    fn = {"soft_play": _soft, "chip_dumping": _dump, "squeeze": _squeeze, "card_sharing": _share}[team.family]
    new, act, who = fn(hand, i, team, dec, mates, outsiders, rng)
    if act is None or new[0] == dec[0]:
        return dec, None, []
    return new, act, who


def _soft(hand: HandState, i: int, team: Team, dec: Decision, mates: list[int], outs: list[int],
          rng: random.Random) -> Adjusted:
    kind = dec[0]
    agg = hand.aggressor
    if agg in mates and kind == "raise":
        return ("call", 0), "soft_flat", [agg]
    if hand.street == 0 and hand.raises == 0 and kind == "raise":
        limpers = [h[1] for h in _street_acts(hand) if h[1] in mates and h[2] == "call"]
        if limpers:
            return ("call", 0), "soft_limp", limpers[:1]
        if not outs:  # folded round to a partner's blind: no steal
            return ("fold" if rng.random() < 0.6 else "call", 0), "soft_nosteal", mates
    if not outs and hand.street > 0:
        if kind == "bet":
            return ("check", 0), "soft_check", mates
        if kind == "raise":
            return ("call", 0), "soft_flat", mates
    return dec, None, []


def _dump(hand: HandState, i: int, team: Team, dec: Decision, mates: list[int], outs: list[int],
          rng: random.Random) -> Adjusted:
    kind = dec[0]
    agg = hand.aggressor
    me = hand.seats[i]
    owe = hand.to_call(i)
    big = team.mode == "big"
    if me.name == team.dumper:
        if hand.street == 0:
            if agg in mates and kind == "fold" and hand.raises == 1 and owe <= 0.15 * me.chips:
                return ("call", 0), "dump_flat", [agg]
            if agg is None and kind == "fold" and not big and rng.random() < 0.6:
                return ("call", 0), "dump_limp", mates
            if big and agg in mates and hand.raises == 1 and kind != "raise" and rng.random() < 0.5:
                return ("raise", raise_to(hand, i, rng.uniform(3.0, 4.0))), "dump_3bet", [agg]
            if big and agg in mates and hand.raises >= 2 and kind != "fold":
                return ("fold", 0), "dump_fold", [agg]
            return dec, None, []
        if outs:
            if agg in mates and owe > 0 and kind != "fold":
                return ("fold", 0), "dump_fold", [agg]
            return dec, None, []
        if owe > 0 and agg in mates:
            return ("fold", 0), "dump_fold", [agg]
        if owe == 0:
            frac = rng.uniform(0.9, 1.6) if big else rng.uniform(0.3, 0.6)
            return ("bet", bet_to(hand, i, frac)), "dump_bet", mates
        return dec, None, []
    dumper = next((k for k in mates if hand.seats[k].name == team.dumper), None)
    if dumper is None:
        return dec, None, []
    if hand.street == 0:
        limped = any(h[1] == dumper and h[2] == "call" for h in _street_acts(hand))
        if (agg == dumper or (agg is None and limped)) and kind in ("fold", "call", "check") and hand.raises <= 2:
            return ("raise", raise_to(hand, i, 2.5 if hand.raises == 2 else 3.0)), "dump_iso", [dumper]
        return dec, None, []
    if outs:
        return dec, None, []
    if agg == dumper and kind != "raise":
        return ("raise", raise_to(hand, i, 2.5)), "dump_take", [dumper]
    if owe == 0 and kind == "check":
        return ("bet", bet_to(hand, i, 0.5)), "dump_take", [dumper]
    return dec, None, []


def _squeeze(hand: HandState, i: int, team: Team, dec: Decision, mates: list[int], outs: list[int],
             rng: random.Random) -> Adjusted:
    kind = dec[0]
    acts = _street_acts(hand)
    if not outs:
        if hand.street == 0:
            return dec, None, []
        if kind in ("bet", "raise"):
            return ("check" if hand.to_call(i) == 0 else "call", 0), "whipsaw_checkdown", mates
        agg = hand.aggressor
        if agg in mates and kind == "call" and strength(hand, i, rng) < strength(hand, agg, rng):
            return ("fold", 0), "whipsaw_release", [agg]
        return dec, None, []
    if kind == "raise" or hand.raises >= 3 or not hand.can_raise(i):
        return dec, None, []
    bets = [j for j, h in enumerate(acts) if h[1] in mates and h[2] in ("bet", "raise")]
    last_mate = acts[bets[-1]][1] if bets else None
    out_in_after = bool(bets) and any(h[1] in outs and h[2] in ("call", "raise") for h in acts[bets[-1] + 1:])
    team_best = max(strength(hand, k, rng) for k in [i, *mates])
    if out_in_after and last_mate is not None and (team_best > 0.55 or rng.random() < 0.5):
        return ("raise", raise_to(hand, i, rng.uniform(2.5, 3.2))), "whipsaw_raise", [last_mate]
    if hand.street == 0 and hand.aggressor in outs:
        callers = [h[1] for h in acts if h[1] in mates and h[2] == "call"]
        if callers and (team_best > 0.7 or rng.random() < 0.6):
            return ("raise", raise_to(hand, i, rng.uniform(3.0, 4.0))), "squeeze_raise", callers[:1]
    out_bet = any(h[1] in outs and h[2] == "bet" for h in acts)
    if (hand.street > 0 and hand.aggressor in mates and out_bet
            and team_best > 0.6 and rng.random() < 0.6):  # outsider bet, partner raised: re-raise behind
        return ("raise", raise_to(hand, i, rng.uniform(2.2, 2.8))), "whipsaw_raise", [hand.aggressor]
    if (hand.street == 0 and kind == "fold" and hand.aggressor in mates and hand.raises == 1
            and (any(h[1] in outs and h[2] == "call" for h in acts) or rng.random() < 0.4)
            and 1.0 - strength(hand, i, rng) < 0.6 and hand.to_call(i) <= 0.08 * hand.seats[i].chips):
        return ("call", 0), "whipsaw_setup", [hand.aggressor]
    return dec, None, []


def _share(hand: HandState, i: int, team: Team, dec: Decision, mates: list[int], outs: list[int],
           rng: random.Random) -> Adjusted:
    kind = dec[0]
    mine = _current_value(hand, i)
    best_mate = max(mates, key=lambda k: _current_value(hand, k))
    mate_better = _current_value(hand, best_mate) > mine
    owe = hand.to_call(i)
    if outs:
        if mate_better and kind in ("call", "raise", "bet"):
            if hand.street == 0 and 1.0 - mine < 0.06:
                return dec, None, []
            return ("fold" if owe > 0 else "check", 0), "share_fold", [best_mate]
        return dec, None, []
    if hand.street == 0:
        return dec, None, []
    if owe > 0 and mate_better and kind != "fold":
        return ("fold", 0), "share_fold", [best_mate]
    if kind in ("bet", "raise"):
        return ("check" if owe == 0 else "call", 0), "share_checkdown", mates
    return dec, None, []
