"""Honest decision makers: an equity-and-pot-odds thinker and a style-driven feel player.

Why two models: a collusion detector that only ever saw one kind of honest opponent learns that
model's quirks; here half the room counts win probabilities against the price, the other half
plays a stylised range (tight/loose, passive/aggressive) with noise, bluffs and tilt.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from simulator.rival.engine import BET, CALL, CHECK, FOLD, RAISE, Decision, Spot
from simulator.rival.strength import made_strength, mc_equity, preflop_equity, preflop_pct


@dataclass
class Profile:
    """A player's tendencies; ``style`` is the label written to the truth file."""

    style: str
    model: str  # "equity" or "style"
    vpip: float  # share of starting hands played
    pfr: float  # share raised first in
    three_bet: float  # share re-raised
    aggression: float  # 0..1 willingness to bet and raise after the flop
    bluff: float  # 0..1 bluffing rate
    sticky: float  # -0.2..0.2 extra equity a calling station imagines
    buyin_bb: int
    tilt_prone: float  # chance a big loss tips the player into tilt


@dataclass
class Mood:
    """Per-player running state: tilt lasts a number of hands after a big loss."""

    tilt: int = 0


def _noise(rng: random.Random, width: float) -> float:
    return rng.uniform(-width, width)


def _round(amount: int, bb: int) -> int:
    """Bets land on nickel amounts at small stakes, like slider-and-type players."""
    unit = 5 if bb <= 50 else 10
    return max(bb, (amount + unit // 2) // unit * unit)


def _loosened(p: Profile, mood: Mood) -> tuple[float, float, float, float]:
    """Tilt widens ranges and adds aggression."""
    if mood.tilt <= 0:
        return p.vpip, p.pfr, p.aggression, p.bluff
    return min(0.9, p.vpip + 0.2), min(0.6, p.pfr + 0.12), min(1.0, p.aggression + 0.25), min(0.6, p.bluff * 2 + 0.1)


def decide(spot: Spot, p: Profile, mood: Mood, rng: random.Random, dead: tuple[int, ...] = ()) -> Decision:
    """The honest action for ``spot`` (``dead``: cards the player knows are out, for card sharers)."""
    if spot.state.street == 0:
        return _preflop(spot, p, mood, rng, dead)
    strength = _postflop_strength(spot, p, rng, dead)
    return _postflop(spot, p, mood, rng, strength)


def _opponents(spot: Spot) -> int:
    return sum(1 for q in spot.state.live() if q is not spot.me)


def _postflop_strength(spot: Spot, p: Profile, rng: random.Random, dead: tuple[int, ...]) -> float:
    if p.model == "equity":
        opp = min(3, _opponents(spot))
        return mc_equity(spot.state, spot.me, opp, rng, dead)
    s = made_strength(spot.state, spot.me) - 0.06 * max(0, _opponents(spot) - 1)
    return s + _noise(rng, 0.06)


def _preflop(spot: Spot, p: Profile, mood: Mood, rng: random.Random, dead: tuple[int, ...]) -> Decision:
    state, me = spot.state, spot.me
    bb = state.stake.bb
    vpip, pfr, _, _ = _loosened(p, mood)
    pct = preflop_pct(me.hole) + _noise(rng, 0.03 if p.model == "equity" else 0.06)
    if p.model == "equity":
        pct = _equity_shift(spot, pct)
    stack_bb = (me.chips + me.street_in) / bb
    raises = state.raises
    if raises == 0:
        return _unopened(spot, p, rng, pct, vpip, pfr, stack_bb)
    if raises == 1:
        return _facing_open(spot, p, rng, pct, vpip, stack_bb)
    if raises == 2:
        if pct < 0.025 or (pct < 0.05 and stack_bb < 40):
            return Decision(RAISE, spot.max_to if stack_bb < 60 or rng.random() < 0.3 else state.level * 22 // 10)
        if pct < 0.07 + 0.05 * p.sticky or (pct < 0.12 and spot.to_call < 0.15 * me.chips):
            return Decision(CALL)
        return Decision(FOLD)
    if pct < 0.018:
        return Decision(RAISE, spot.max_to)
    if pct < 0.035 or spot.to_call * 4 < state.pot:
        return Decision(CALL)
    return Decision(FOLD)


def _equity_shift(spot: Spot, pct: float) -> float:
    """The equity player tightens when the price is bad and loosens when the pot lays odds."""
    state = spot.state
    if spot.to_call <= 0:
        return pct
    odds = spot.to_call / (state.pot + spot.to_call)
    eq = preflop_equity(spot.me.hole, max(1, len(state.live()) - 1))
    return pct - 0.35 * (eq - odds - 0.1)


def _unopened(spot: Spot, p: Profile, rng: random.Random, pct: float, vpip: float, pfr: float,
              stack_bb: float) -> Decision:
    state = spot.state
    bb = state.stake.bb
    if stack_bb < 16 and pct < pfr * 1.6:
        return Decision(RAISE, spot.max_to)
    if pct < pfr:
        limpers = sum(1 for q in state.players if q.street_in >= bb and q.voluntary)
        size = rng.choice((2.0, 2.2, 2.5, 2.5, 3.0, 3.0, 3.5)) + limpers
        if rng.random() < 0.05:
            size = 2.0  # min-raise
        return Decision(RAISE, int(bb * size))
    if pct < vpip:
        return Decision(CALL) if rng.random() > p.aggression * 0.5 else Decision(RAISE, int(bb * 2.5))
    return Decision(CHECK if spot.to_call == 0 else FOLD)


def _facing_open(spot: Spot, p: Profile, rng: random.Random, pct: float, vpip: float, stack_bb: float) -> Decision:
    state, me = spot.state, spot.me
    in_bb = me.street_in == state.stake.bb and not me.voluntary
    defend = vpip * (0.75 if in_bb else 0.5) + 0.1 * p.sticky
    if pct < p.three_bet:
        if stack_bb < 30:
            return Decision(RAISE, spot.max_to)
        mult = 3.0 if me.street_in == 0 else 3.6
        return Decision(RAISE, int(state.level * mult + rng.choice((0, 0, state.stake.bb))))
    if pct < defend and spot.to_call < 0.25 * me.chips:
        return Decision(CALL)
    if rng.random() < p.bluff * 0.12 and pct < 0.6:
        return Decision(RAISE, int(state.level * 3.2))  # light 3-bet
    return Decision(FOLD)


def _postflop(spot: Spot, p: Profile, mood: Mood, rng: random.Random, strength: float) -> Decision:
    state, me = spot.state, spot.me
    _, _, aggression, bluff = _loosened(p, mood)
    pot = state.pot
    if spot.to_call == 0:
        if strength > 0.62 and rng.random() < 0.45 + 0.5 * aggression:
            return Decision(BET, _bet_size(spot, rng, strength))
        cbet = state.preflop_raiser == me.name and state.street == 1
        if rng.random() < bluff * (1.6 if cbet else 0.6):
            return Decision(BET, _round(int(pot * rng.choice((0.33, 0.5, 0.66))), state.stake.bb))
        return Decision(CHECK)
    odds = spot.to_call / (pot + spot.to_call)
    pressure = 0.06 * min(2.0, spot.to_call / max(1, pot - spot.to_call))
    seen = strength - pressure + p.sticky
    if seen > 0.8 and spot.can_raise and rng.random() < 0.35 + 0.5 * aggression:
        return Decision(RAISE, _raise_size(spot, rng))
    if seen > odds + 0.04:
        return Decision(CALL)
    if spot.can_raise and rng.random() < bluff * 0.15 and state.street < 3:
        return Decision(RAISE, _raise_size(spot, rng))
    return Decision(FOLD)


def _bet_size(spot: Spot, rng: random.Random, strength: float) -> int:
    """A pot fraction: small, standard, pot or (with the nuts-ish) an overbet or a shove."""
    state = spot.state
    pot = state.pot
    fracs = (0.25, 0.33, 0.5, 0.5, 0.66, 0.75, 1.0)
    frac = rng.choice(fracs)
    if strength > 0.9 and rng.random() < 0.25:
        frac = rng.choice((1.25, 1.5, 2.0))
    amount = _round(int(pot * frac), state.stake.bb)
    if amount > 0.6 * spot.me.chips:
        return spot.max_to
    return amount


def _raise_size(spot: Spot, rng: random.Random) -> int:
    """2.5-3.5x the bet, a min-raise now and then, all-in when that commits the stack anyway."""
    state = spot.state
    if rng.random() < 0.08:
        return spot.min_to
    to = int(state.level * rng.choice((2.5, 2.8, 3.0, 3.5)) + spot.me.street_in * 0.2)
    to = _round(to, state.stake.bb)
    if to > 0.5 * (spot.me.chips + spot.me.street_in):
        return spot.max_to
    return to
