"""Honest decisions: hand strength, position, pot odds and bet size read through a Style.

Why one function: every player, colluders included, decides honestly first; collusion is an
override on top (``simulator.collusion``), which is what lets the truth file name the hands
where the collusive act changed the decision.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .styles import Style

FOLD, CHECK, CALL, RAISE = "f", "k", "c", "r"


@dataclass(slots=True)
class View:
    """What the acting player sees (amounts in cents)."""

    street: int  # 0 preflop .. 3 river
    strength: float  # preflop: table percentile; postflop: equity estimate vs the field
    to_call: int
    pot: int  # everything in the middle, current street bets included
    cur_bet: int
    min_to: int  # smallest legal raise-to (may exceed max_to: then only all-in)
    max_to: int  # all-in raise-to (street bet + remaining stack)
    bb: int
    n_opp: int
    late: bool  # acts late (button / cutoff, or last postflop)
    raises: int  # bets and raises so far on this street
    can_raise: bool


def _raise_to(target: int, v: View) -> int:
    return max(v.min_to, min(target, v.max_to)) if v.min_to <= v.max_to else v.max_to


def decide(style: Style, v: View, rng: random.Random) -> tuple[str, int]:
    """An honest (action, raise-to) for the view; the engine enforces legality."""
    noise = (1.0 - style.skill) * rng.gauss(0.0, 0.12)
    s = v.strength + noise
    pos = 1.2 if v.late else 0.9
    stack_bb = v.max_to // max(v.bb, 1)
    if v.street == 0:
        play_thr = 1.0 - style.vpip * pos
        raise_thr = 1.0 - style.pfr * pos
        if v.raises <= 1 and v.cur_bet <= v.bb:  # unopened or limped pot
            if s >= raise_thr and v.can_raise:
                if stack_bb <= 30 and style.name == "short" and s > raise_thr + 0.05:
                    return RAISE, v.max_to
                limp = max(0, v.pot - v.bb * 3 // 2) // v.bb
                mult = rng.choice((2.0, 2.5, 3.0, 3.0, 3.5))
                return RAISE, _raise_to(int(v.bb * (mult + limp)), v)
            if s >= play_thr and (style.skill < 0.6 or v.late):
                return (CALL if v.to_call else CHECK), 0
            return (FOLD if v.to_call else CHECK), 0
        price = v.to_call / max(v.max_to - v.cur_bet + v.to_call, 1)  # share of our stack to call
        threebet_thr = 1.0 - style.pfr * (0.28 if v.raises <= 2 else 0.10) * pos
        if s >= threebet_thr and v.can_raise:
            if stack_bb <= 40 or v.raises >= 3 or rng.random() < 0.1:
                return RAISE, v.max_to
            return RAISE, _raise_to(int(v.cur_bet * rng.choice((2.5, 3.0, 3.3))), v)
        call_thr = 1.0 - style.vpip * 0.55 * pos / (1.0 + 0.6 * (v.raises - 1))
        call_thr += price * (0.45 * style.skill + 0.15) - style.call * 0.12
        if s >= call_thr:
            return CALL, 0
        return FOLD, 0
    # postflop: equity against the field, discounted for the bet's size by careful players
    eq = s ** max(1, v.n_opp) if s > 0 else 0.0
    if v.to_call == 0:
        if (eq > 1.0 - style.agg * 0.45 or (eq < 0.35 and rng.random() < style.bluff * pos)) and v.can_raise:
            size = int(v.pot * rng.choice(style.sizes))
            return RAISE, _raise_to(max(size, v.bb), v)
        return CHECK, 0
    bet_frac = v.to_call / max(v.pot - v.to_call, 1)
    odds = v.to_call / (v.pot + v.to_call)
    eq_adj = eq - style.skill * 0.12 * min(bet_frac, 2.0) + style.call * 0.22
    if v.can_raise and eq_adj > 0.92 - style.agg * 0.12 and rng.random() < style.agg:
        target = int(v.cur_bet * 2.5 + (v.pot - v.to_call) * 0.3)
        return RAISE, (v.max_to if target * 2 > v.max_to else _raise_to(target, v))
    if eq_adj >= odds + (1.0 - style.call) * 0.12:
        return CALL, 0
    return FOLD, 0


@dataclass(frozen=True, slots=True)
class EquityKnobs:
    """One equity player's thresholds (equities 0..1, jittered per player from the style).

    Why separate from ``Style``: the equity model reads a real equity estimate and the price, not
    the style's percentiles, so it needs its own few numbers.
    """

    margin: float  # equity needed above the pot odds to call
    value: float  # equity to bet or raise for value
    open_eq: float  # preflop heads-up equity to open the pot
    bluff: float  # share of checked-to spots bet with air
    sizes: tuple[float, ...]  # bet sizes as a share of the pot


def pot_odds(v: View) -> float:
    """Share of the final pot we must put in to call."""
    return v.to_call / max(v.pot + v.to_call, 1)


def _open(v: View, e: float, k: EquityKnobs, rng: random.Random) -> tuple[str, int]:
    """Unopened or limped pot: raise for value, take a cheap look, or get out."""
    late = 0.03 if v.late else 0.0
    if e >= k.open_eq - late and v.can_raise:
        limp = max(0, v.pot - v.bb * 3 // 2) // v.bb
        return RAISE, _raise_to(int(v.bb * (rng.choice((2.0, 2.5, 3.0)) + limp)), v)
    if v.to_call == 0:
        return CHECK, 0
    if e >= pot_odds(v) + k.margin + 0.25:  # a limp is cheap, but out of position against a range
        return CALL, 0
    return FOLD, 0


def _facing(v: View, e: float, k: EquityKnobs, rng: random.Random) -> tuple[str, int]:
    """Facing a bet or raise: raise for value, call when the equity beats the price, else fold."""
    range_tax = 0.09 * max(0, v.raises - 1) if v.street == 0 else 0.0  # raisers hold better than random
    value = k.open_eq if v.street == 0 else k.value
    if v.can_raise and e >= value + 0.08 + range_tax:
        target = int(v.cur_bet * rng.choice((2.5, 3.0)) + (v.pot - v.to_call) * 0.3)
        return RAISE, (v.max_to if target * 2 > v.max_to else _raise_to(target, v))
    if e >= pot_odds(v) + k.margin + range_tax:
        return CALL, 0
    return FOLD, 0


def decide_equity(style: Style, v: View, equity: float, rng: random.Random, k: EquityKnobs) -> tuple[str, int]:
    """An honest decision from equity against the opponents and the price of the call.

    Calls when equity beats the pot odds plus a margin, raises for value above a threshold, bets
    in proportion to the pot; low-skill players misread their equity a little.
    """
    e = equity + (1.0 - style.skill) * rng.gauss(0.0, 0.06)
    if v.street == 0 and v.raises <= 1 and v.cur_bet <= v.bb:
        return _open(v, e, k, rng)
    if v.to_call > 0:
        return _facing(v, e, k, rng)
    if v.can_raise and (e >= k.value or (e < 0.3 and rng.random() < k.bluff * (1.3 if v.late else 1.0))):
        size = rng.choice(k.sizes) * (1.25 if e > k.value + 0.15 else 1.0)
        return RAISE, _raise_to(max(int(v.pot * size), v.bb), v)
    return CHECK, 0
