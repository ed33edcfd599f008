"""The honest decision: starting-hand percentile before the flop, sampled hand strength (against
as many opponents as are left, plus draws) after it, shaded by the player's ``Style``.

A decision is ``(kind, to)``: kind in fold/check/call/bet/raise, ``to`` the street total a bet or
raise goes to (the engine makes it legal: min-raise, all-in caps).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from simulator.heldout.cards import draw_bonus, hand_strength, preflop_pct
from simulator.heldout.engine import HandState
from simulator.heldout.styles import Style

Decision = tuple[str, int]


def strength(hand: HandState, i: int, rng: random.Random, dead: Sequence[int] = ()) -> float:
    """0..1: preflop 1 - percentile; postflop hand strength against every live opponent + draws.
    ``dead`` are cards known not to be in any opponent's hand (a partner's, when cards are shared)."""
    key = (i, hand.street, len(hand.live()), tuple(dead))
    got = hand.cache.get(key)
    if got is not None:
        return float(got)
    s = hand.seats[i]
    if hand.street == 0:
        val = 1.0 - preflop_pct(s.hole)
    else:
        hs = hand_strength(s.hole, hand.board, dead, rng)
        n_opp = max(1, len(hand.live()) - 1)
        val = min(1.0, hs ** (n_opp ** 0.75) + draw_bonus(s.hole, hand.board))
    hand.cache[key] = val
    return val


def _round(amount: int, bb: int) -> int:
    step = 5 if amount >= 20 * bb and bb >= 10 else 1
    return max(step, amount // step * step)


def bet_to(hand: HandState, i: int, frac: float) -> int:
    """A bet of ``frac`` of the pot (all-in when most of the stack would go in anyway)."""
    want = _round(int(hand.pot() * frac), hand.bb)
    want = max(want, hand.bb)
    top = hand.max_to(i)
    return top if want > 0.6 * top else want


def raise_to(hand: HandState, i: int, mult: float) -> int:
    """A raise to ``mult`` times the current bet (at least a min-raise)."""
    want = max(hand.min_raise_to(), _round(int(hand.current_bet * mult), hand.bb))
    top = hand.max_to(i)
    return top if want > 0.55 * top else want


def preflop(hand: HandState, i: int, st: Style, rng: random.Random) -> Decision:
    s = hand.seats[i]
    pct = 1.0 - strength(hand, i, rng)
    pos = hand.position(i)
    owe = hand.to_call(i)
    bb = hand.bb
    is_bb = (i - hand.button) % hand.n() == 2
    is_sb = (i - hand.button) % hand.n() == 1
    if hand.raises == 0:
        limpers = sum(1 for h in hand.history if h[2] == "call")
        if pct < st.pfr * (0.75 + 0.9 * pos):
            size = rng.choice((2.0, 2.5, 3.0, 3.0, 3.5)) + limpers + (1.0 if st.name == "maniac" else 0.0)
            return "raise", _round(int(bb * size), bb)
        if owe == 0:
            return "check", 0
        enter = st.vpip * (0.8 + 0.6 * pos) * (1.3 if is_sb else 1.0)
        if pct < enter and (st.pfr < 0.6 * st.vpip or rng.random() < 0.3):
            return "call", 0
        return "fold", 0
    size = hand.current_bet / bb
    commit = owe / max(s.chips, 1)
    if hand.raises == 1:
        if pct < st.three_bet * (0.8 + 0.5 * pos):
            return "raise", raise_to(hand, i, rng.uniform(2.8, 3.6))
        call = st.vpip * 0.6 * min(1.5, (3.0 / max(size, 2.0)) ** 0.5) * (1.5 if is_bb else 1.0)
        if commit > 0.3:
            call = min(call, 0.05 + st.stick * 0.2)
        return ("call", 0) if pct < call else ("fold", 0)
    if pct < 0.02 + (0.015 if st.agg > 0.7 else 0.0):
        return "raise", raise_to(hand, i, rng.uniform(2.2, 2.6))
    call = 0.045 + max(0.0, st.vpip - 0.25) * 0.1 + st.stick * 0.1
    if commit > 0.5:
        call = min(call, 0.04)
    return ("call", 0) if pct < call else ("fold", 0)


def postflop(hand: HandState, i: int, st: Style, rng: random.Random, dead: Sequence[int] = ()) -> Decision:
    e = strength(hand, i, rng, dead)
    owe = hand.to_call(i)
    pot = hand.pot()
    n_opp = len(hand.live()) - 1
    size = st.size * rng.uniform(0.75, 1.3)
    draw = draw_bonus(hand.seats[i].hole, hand.board)
    if owe == 0:
        if e > 0.70 - 0.12 * st.agg and rng.random() < 0.40 + 0.55 * st.agg:
            return "bet", bet_to(hand, i, size * (1.2 if hand.street == 3 and e > 0.9 else 1.0))
        if hand.street == 1 and hand.preflop_raiser == i and n_opp <= 2 and rng.random() < 0.25 + 0.45 * st.agg:
            return "bet", bet_to(hand, i, size * 0.7)
        if e < 0.3 and rng.random() < st.bluff * (1.0 if n_opp == 1 else 0.35):
            return "bet", bet_to(hand, i, size)
        if draw > 0.05 and rng.random() < st.agg * 0.4:
            return "bet", bet_to(hand, i, size * 0.8)
        return "check", 0
    odds = owe / (pot + owe)
    if e > 0.90 - 0.08 * st.agg and rng.random() < 0.30 + 0.5 * st.agg:
        return "raise", raise_to(hand, i, rng.uniform(2.3, 3.2))
    if e > 0.18 + 1.1 * odds - st.stick:
        return "call", 0
    if hand.street < 3 and n_opp == 1 and rng.random() < st.bluff * 0.25:
        return "raise", raise_to(hand, i, 2.5)
    return "fold", 0


def honest(hand: HandState, i: int, st: Style, rng: random.Random, dead: Sequence[int] = ()) -> Decision:
    if hand.street == 0:
        return preflop(hand, i, st, rng)
    return postflop(hand, i, st, rng, dead)
