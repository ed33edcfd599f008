"""Honest player models: an equity / pot-odds model and a simpler style-rule model.

Both read a ``Profile`` (looseness, aggression, sizing) so one population gets nits,
TAGs, LAGs, calling stations, maniacs and weak-passive fish with varied bet sizes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from simulator.foreign.cards import made_strength, mc_equity, preflop_equity, preflop_pct
from simulator.foreign.table import Decision, Hand


@dataclass(frozen=True)
class Profile:
    """Playing style parameters of one screen name."""

    style: str
    model: str  # "equity" or "style"
    vpip: float  # share of hands played
    pfr: float  # share of hands raised preflop
    threebet: float  # share of hands re-raised preflop
    aggression: float  # 0..1 postflop betting tendency
    bluff: float  # bluff frequency
    stickiness: float  # 0..1 reluctance to fold (calling stations high)
    sizes: tuple[float, ...]  # bet sizes as fractions of the pot


STYLES: dict[str, dict[str, object]] = {
    "nit": {"vpip": 0.12, "pfr": 0.09, "threebet": 0.03, "aggression": 0.35, "bluff": 0.03, "stickiness": 0.15,
            "sizes": (0.5, 0.6)},
    "tag": {"vpip": 0.21, "pfr": 0.17, "threebet": 0.06, "aggression": 0.6, "bluff": 0.12, "stickiness": 0.3,
            "sizes": (0.5, 0.66, 0.75)},
    "lag": {"vpip": 0.32, "pfr": 0.26, "threebet": 0.1, "aggression": 0.75, "bluff": 0.22, "stickiness": 0.4,
            "sizes": (0.66, 0.8, 1.0)},
    "station": {"vpip": 0.45, "pfr": 0.06, "threebet": 0.015, "aggression": 0.2, "bluff": 0.04, "stickiness": 0.85,
                "sizes": (0.33, 0.5)},
    "maniac": {"vpip": 0.6, "pfr": 0.4, "threebet": 0.18, "aggression": 0.9, "bluff": 0.4, "stickiness": 0.6,
               "sizes": (0.75, 1.0, 1.5)},
    "whale": {"vpip": 0.62, "pfr": 0.1, "threebet": 0.03, "aggression": 0.35, "bluff": 0.15, "stickiness": 0.92,
              "sizes": (0.33, 1.0, 2.0)},
    "weak_passive": {"vpip": 0.35, "pfr": 0.05, "threebet": 0.01, "aggression": 0.15, "bluff": 0.02,
                     "stickiness": 0.55, "sizes": (0.33,)},
}


def make_profile(style: str, model: str, rng: random.Random) -> Profile:
    """A style's parameters with personal noise, so no two players are identical."""
    base = STYLES[style]

    def jitter(key: str) -> float:
        value = base[key]
        assert isinstance(value, float)
        return max(0.005, value * rng.uniform(0.8, 1.2))

    sizes = base["sizes"]
    assert isinstance(sizes, tuple)
    return Profile(style=style, model=model, vpip=jitter("vpip"), pfr=jitter("pfr"), threebet=jitter("threebet"),
                   aggression=min(0.97, jitter("aggression")), bluff=jitter("bluff"),
                   stickiness=min(0.95, jitter("stickiness")), sizes=tuple(float(x) for x in sizes))


@dataclass
class Brain:
    """Per-hand helper for one player: profile, randomness and a per-street equity cache."""

    profile: Profile
    rng: random.Random
    cache: dict[tuple[int, int, str, int, int], float] = field(default_factory=dict)

    def equity(self, hand: Hand, i: int, dead: tuple[int, ...] = ()) -> float:
        """Equity against the live opponents: preflop table, postflop a 16-sample Monte Carlo."""
        opp = len(hand.active()) - 1
        if hand.street == "preflop":
            return preflop_equity(hand.seats[i].hole, opp)
        key = (hand.serial, i, hand.street, opp, hash(dead))
        if key not in self.cache:
            if len(self.cache) > 64:
                self.cache.clear()
            self.cache[key] = mc_equity(hand.seats[i].hole, hand.board, opp, dead, self.rng, 16 if not dead else 24)
        return self.cache[key]


def bet_to(hand: Hand, i: int, fraction: float) -> int:
    """Street total for a bet or raise of ``fraction`` of the pot (raises add the call first)."""
    owe = hand.to_call(i)
    pot_after_call = hand.pot() + owe
    size = max(hand.bb, int(pot_after_call * fraction))
    target = hand.current_bet + size if hand.current_bet else size
    return max(target, hand.min_raise_to())


def preflop_open_to(hand: Hand, rng: random.Random) -> int:
    """Open-raise size: 2.2-3.5 big blinds plus one per limper."""
    limpers = sum(1 for s in hand.seats if s.street_in == hand.bb and not s.folded) - 1
    return int(hand.bb * (rng.choice((2.2, 2.5, 3.0, 3.0, 3.5)) + max(0, limpers)))


def _position_bonus(hand: Hand, i: int) -> float:
    """Late position plays looser: 0 early .. 1 on the button."""
    n = len(hand.seats)
    return ((i - hand.button - 3) % n) / max(1, n - 1)


def preflop_decision(hand: Hand, i: int, can_raise: bool, brain: Brain) -> Decision:
    """Shared preflop logic: percentile thresholds, widened by position and style."""
    p, rng = brain.profile, brain.rng
    pct = preflop_pct(hand.seats[i].hole)
    widen = 0.7 + 0.6 * _position_bonus(hand, i)
    owe = hand.to_call(i)
    raised = hand.current_bet > hand.bb
    if not raised:
        if pct >= 1 - p.pfr * widen and can_raise:
            return Decision("raise", preflop_open_to(hand, rng))
        if owe == 0:
            return Decision("check")
        limp = p.vpip * widen if p.style in ("station", "weak_passive", "maniac", "whale") else (p.vpip - p.pfr) * 0.5
        return Decision("call") if pct >= 1 - limp else Decision("fold")
    facing_bb = hand.current_bet / hand.bb
    if p.model == "equity":
        return _preflop_equity_call(hand, i, can_raise, brain, pct)
    if hand.raises >= 2:
        if pct >= 0.985 - 0.03 * p.aggression and can_raise:
            return Decision("raise", hand.current_bet * 2 + hand.bb * 2)
        return Decision("call") if pct >= 0.93 - 0.1 * p.stickiness else Decision("fold")
    if pct >= 1 - p.threebet * widen and can_raise:
        return Decision("raise", int(hand.current_bet * rng.choice((3.0, 3.2, 3.5))))
    call_range = p.vpip * widen * (3.0 / max(3.0, facing_bb)) ** 0.5
    return Decision("call") if pct >= 1 - call_range else Decision("fold")


def _preflop_equity_call(hand: Hand, i: int, can_raise: bool, brain: Brain, pct: float) -> Decision:
    """Equity model facing a raise: raise the top of range, call with pot odds plus implied odds."""
    p = brain.profile
    owe = hand.to_call(i)
    if pct >= 1 - p.threebet / (1 + hand.raises - 1) and can_raise:
        return Decision("raise", int(hand.current_bet * brain.rng.choice((2.8, 3.0, 3.4))))
    eq = brain.equity(hand, i)
    odds = owe / (hand.pot() + owe)
    implied = 0.05 + 0.1 * p.stickiness
    # ranges of raisers are stronger than random: discount the table equity
    discount = 0.12 * hand.raises
    if pct < 1 - p.vpip * 1.3:
        return Decision("fold")
    return Decision("call") if eq - discount + implied >= odds else Decision("fold")


def _stab(hand: Hand, p: Profile, rng: random.Random) -> bool:
    """Heads-up on the turn or river after a checked street, players often take a stab."""
    if hand.street == "flop" or len(hand.active()) != 2:
        return False
    checked_through = not any(h[0] == _previous(hand.street) and h[2] in ("bet", "raise") for h in hand.history)
    return checked_through and rng.random() < 0.1 + 0.35 * p.aggression


def _previous(street: str) -> str:
    """The street before ``street``."""
    return {"turn": "flop", "river": "turn"}.get(street, "preflop")


def postflop_equity(hand: Hand, i: int, can_raise: bool, brain: Brain, eq: float) -> Decision:
    """Equity model postflop: value-bet, bluff, raise and call by equity against pot odds."""
    p, rng = brain.profile, brain.rng
    owe = hand.to_call(i)
    size = rng.choice(p.sizes)
    if owe == 0:
        if can_raise and (eq > 0.62 - 0.12 * p.aggression or rng.random() < p.bluff * (1.0 - eq)
                          or _stab(hand, p, rng)):
            return Decision("raise", bet_to(hand, i, size))
        return Decision("check")
    odds = owe / (hand.pot() + owe)
    if can_raise and eq > 0.82 - 0.1 * p.aggression:
        return Decision("raise", bet_to(hand, i, max(size, 0.8)))
    if can_raise and rng.random() < p.bluff * 0.25 and eq < 0.3:
        return Decision("raise", bet_to(hand, i, 1.0))
    margin = 0.08 * (1 - p.stickiness) - 0.06 * p.stickiness
    return Decision("call") if eq >= odds + margin else Decision("fold")


def postflop_style(hand: Hand, i: int, can_raise: bool, brain: Brain) -> Decision:
    """Style model postflop: category strength plus draws against fixed per-style thresholds."""
    p, rng = brain.profile, brain.rng
    made, draw = made_strength(hand.seats[i].hole, hand.board)
    strength = made + draw
    owe = hand.to_call(i)
    size = rng.choice(p.sizes)
    if owe == 0:
        cbet = hand.preflop_raiser == i and hand.street == "flop" and rng.random() < p.aggression * 0.7
        if can_raise and (strength > 0.75 - 0.25 * p.aggression or cbet or rng.random() < p.bluff * 0.5
                          or _stab(hand, p, rng)):
            return Decision("raise", bet_to(hand, i, size))
        return Decision("check")
    pressure = owe / max(1, hand.pot())
    if can_raise and made > 0.85 - 0.1 * p.aggression and rng.random() < 0.5 + 0.4 * p.aggression:
        return Decision("raise", bet_to(hand, i, 0.9))
    threshold = 0.3 + 0.35 * pressure - 0.3 * p.stickiness
    return Decision("call") if strength >= threshold else Decision("fold")


def honest(hand: Hand, i: int, can_raise: bool, brain: Brain) -> Decision:
    """The player's own honest decision."""
    if hand.street == "preflop":
        return preflop_decision(hand, i, can_raise, brain)
    if brain.profile.model == "equity":
        return postflop_equity(hand, i, can_raise, brain, brain.equity(hand, i))
    return postflop_style(hand, i, can_raise, brain)
