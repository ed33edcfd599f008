"""Honest decision models.

Two unrelated ways to play, so no single statistical fingerprint marks "honest":

* ``equity``: estimates its chance to win (a pre-computed table preflop, a quick Monte Carlo
  against random hands postflop, discounted when opponents show strength) and weighs it against
  the price — pot odds for calls, a value threshold for bets and raises;
* ``style``: no arithmetic; it buckets its hand (nothing, weak or draw, top pair, strong,
  monster) and follows its temperament — how loose, how aggressive, how sticky, how bluffy.

Both take their parameters from a ``Params`` and their randomness from the hand's RNG.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from phevaluator._pheval import evaluate_5cards, evaluate_6cards, evaluate_7cards

from .cards import category, hand_class, monte_carlo, preflop_equity, preflop_percentile, preflop_table
from .engine import Action, Hand


@dataclass(frozen=True)
class Params:
    """Temperament: vpip/pfr are the share of starting hands played/raised."""

    model: str
    vpip: float
    pfr: float
    aggr: float
    bluff: float
    sticky: float
    size: float


class EquitySource(Protocol):
    def __call__(self, hand: Hand, i: int, dead: tuple[int, ...] = ()) -> float: ...


def rank_any(cards: tuple[int, ...]) -> int:
    """Best-five rank of 5, 6 or 7 cards."""
    if len(cards) == 7:
        return int(evaluate_7cards(*cards))
    if len(cards) == 6:
        return int(evaluate_6cards(*cards))
    return int(evaluate_5cards(*cards))


def equity(hand: Hand, i: int, rng: random.Random, dead: tuple[int, ...] = (), samples: int = 48,
           opponents: int | None = None) -> float:
    """Chance to win against the live opponents' (unknown, random) hands; ``dead`` cards are known out."""
    s = hand.seats[i]
    if opponents is None:
        opponents = len(hand.live()) - 1
    if hand.street == 0 and not dead:
        return preflop_equity(s.cards, opponents)
    return monte_carlo(s.cards, tuple(hand.board), min(max(opponents, 1), 3), dead, rng, samples)


def pot_odds(hand: Hand, i: int) -> float:
    owe = hand.to_call(i)
    return owe / (hand.pot() + owe) if owe else 0.0


def sized(hand: Hand, i: int, frac: float) -> Action:
    """A bet or raise of ``frac`` of the pot (PokerStars players think in pot fractions)."""
    pot = hand.pot()
    if hand.current_bet == 0:
        return Action("bet", max(hand.bb, int(pot * frac)))
    owe = hand.current_bet - hand.seats[i].street_bet
    if hand.street == 0:
        return Action("raise", int(hand.current_bet * (2.5 + frac)) + hand.bb * _limpers(hand))
    return Action("raise", hand.current_bet + int((pot + owe) * frac))


def _limpers(hand: Hand) -> int:
    return sum(1 for _, kind in hand.street_actions if kind == "call") if hand.raises == 0 else 0


def percentile(hand: Hand, i: int) -> float:
    return preflop_percentile()[hand_class(*hand.seats[i].cards)]


def loosen(hand: Hand, i: int) -> float:
    """Late position and short tables widen every range (0.7 under the gun .. ~2.6 heads-up)."""
    n = len(hand.seats)
    late = ((i - hand.bb_i) % n) / max(n - 1, 1)
    return (0.7 + 0.6 * late) * (1 + 0.25 * max(0, 6 - n))


def preflop(hand: Hand, i: int, p: Params, rng: random.Random) -> Action:
    """Shared preflop chart: open, flat, 3-bet or fold by hand percentile and temperament."""
    pct = percentile(hand, i) * rng.uniform(0.85, 1.15)
    owe = hand.to_call(i)
    wide = loosen(hand, i)
    if hand.raises == 0:
        if pct < p.pfr * wide:
            return sized(hand, i, p.size)
        limp_ok = p.model == "style" or i == hand.sb_i  # regulars do not open-limp
        if (limp_ok and pct < p.vpip * wide) or owe == 0:
            return Action("call")
        return Action("fold")
    facing = hand.raises
    if p.model == "equity":
        return _preflop_price(hand, i, p, facing)
    if pct < p.pfr * 0.22 / facing or (facing >= 3 and pct < 0.025):
        return Action("raise", hand.current_bet * 3) if facing < 3 else Action("raise", 10**9)
    cheap = owe <= hand.bb * 3
    if pct < p.vpip * (0.55 if cheap else 0.35) / facing or pct < 0.06:
        return Action("call")
    return Action("fold")


def _preflop_price(hand: Hand, i: int, p: Params, facing: int) -> Action:
    """Facing a raise, the equity model prices its hand: the raiser's range is stronger than
    random (a discount per raise) and out of position equity is not fully realised."""
    eq = preflop_table()[hand_class(*hand.seats[i].cards)] - 0.1 * facing
    if eq > 0.7 - 0.1 * p.aggr + 0.03 * facing:
        return Action("raise", hand.current_bet * 3) if facing < 3 else Action("raise", 10**9)
    if eq * (0.72 + 0.2 * p.sticky) >= pot_odds(hand, i):
        return Action("call")
    return Action("fold")


def equity_decide(hand: Hand, i: int, p: Params, rng: random.Random, eq_of: EquitySource) -> Action:
    """Equity against price, with value thresholds and a few bluffs."""
    if hand.street == 0:
        return preflop(hand, i, p, rng)
    # a bettor's range beats random hands: harden the estimate for every bet and raise faced
    eq = eq_of(hand, i) ** (1 + 1.3 * hand.raises) + rng.gauss(0, 0.03)
    owe = hand.to_call(i)
    opponents = len(hand.live()) - 1
    if owe == 0:
        if eq > 0.7 - 0.15 * p.aggr and rng.random() < 0.4 + p.aggr:
            return sized(hand, i, p.size * rng.uniform(0.7, 1.2))
        if eq < 0.3 and opponents <= 2 and rng.random() < p.bluff:
            return sized(hand, i, p.size * 0.8)
        return Action("check")
    if eq > 0.78 - 0.12 * p.aggr and rng.random() < p.aggr:
        return sized(hand, i, p.size)
    if eq >= pot_odds(hand, i) - 0.05 * p.sticky:
        return Action("call")
    if opponents == 1 and rng.random() < p.bluff * 0.25:
        return sized(hand, i, 0.9)
    return Action("fold")


def made_hand(hole: tuple[int, int], board: list[int]) -> tuple[int, bool]:
    """(strength 0 nothing .. 4 monster, has a draw), judged the way a casual player would."""
    cat = category(rank_any((*hole, *board)))
    hr = sorted((c >> 2 for c in hole), reverse=True)
    br = [c >> 2 for c in board]
    top = max(br)
    uses = [r for r in hr if r in br]
    pocket = hr[0] == hr[1]
    if cat <= 4:  # straight or better
        on_board = len(board) == 5 and category(rank_any(tuple(board))) == cat
        strength = 2 if on_board else 4
    elif cat == 5:  # trips
        strength = 4 if pocket else 3 if uses else 0
    elif cat == 6:  # two pair
        strength = 3 if len(set(uses)) == 2 else 2 if (uses and uses[0] == top) or (pocket and hr[0] > top) else 1
    elif cat == 7:  # one pair
        strength = 3 if pocket and hr[0] > top else 2 if top in uses else 1 if (uses or pocket) else 0
    else:
        strength = 0
    return strength, len(board) < 5 and _has_draw(hole, board)


def _has_draw(hole: tuple[int, int], board: list[int]) -> bool:
    cards = (*hole, *board)
    for suit in range(4):
        if sum(1 for c in cards if c & 3 == suit) == 4 and any(c & 3 == suit for c in hole):
            return True
    ranks = {c >> 2 for c in cards}
    hole_ranks = {c >> 2 for c in hole}
    for low in range(9):
        run = set(range(low, low + 4))
        if run <= ranks and run & hole_ranks:
            return True
    return False


def style_decide(hand: Hand, i: int, p: Params, rng: random.Random, eq_of: EquitySource) -> Action:
    """Temperament over a hand bucket; ``eq_of`` is unused, kept for a common signature."""
    if hand.street == 0:
        return preflop(hand, i, p, rng)
    strength, draw = made_hand(hand.seats[i].cards, hand.board)
    if draw:
        strength = max(strength, 1)
    owe = hand.to_call(i)
    roll = rng.random()
    if owe == 0:
        want = (0.0, 0.45 if draw else 0.15, 0.7, 1.0, 1.1)[strength] * p.aggr
        if roll < want or (strength == 0 and roll < p.bluff):
            return sized(hand, i, p.size * rng.uniform(0.6, 1.3))
        return Action("check")
    big = owe > 0.6 * hand.pot() / 2
    if strength >= 3 and roll < p.aggr * (0.9 if strength == 4 else 0.45):
        return sized(hand, i, p.size)
    stay = (p.sticky * 0.3, 0.35 + p.sticky * 0.5, 0.7 + p.sticky * 0.3, 1.0, 1.0)[strength]
    if big:
        stay *= 0.7 if strength < 3 else 1.0
    if rng.random() < stay:
        return Action("call")
    if strength == 0 and rng.random() < p.bluff * 0.3:
        return sized(hand, i, 1.0)
    return Action("fold")


def decide(hand: Hand, i: int, p: Params, rng: random.Random, eq_of: EquitySource) -> Action:
    """The honest action for this player's model."""
    if p.model == "equity":
        return equity_decide(hand, i, p, rng, eq_of)
    return style_decide(hand, i, p, rng, eq_of)
