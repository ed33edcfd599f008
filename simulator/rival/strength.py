"""How strong a holding is: pre-flop percentiles, Monte Carlo equity and a made-hand heuristic.

Why three measures: the equity players think in win probabilities (Monte Carlo against random
hands, a few dozen deals, cached per street), the style players in coarse made-hand classes and
draws, and both open and defend pre-flop by a starting-hand percentile.
"""

from __future__ import annotations

import random

from simulator.rival.cards import (
    FLUSH,
    FULL,
    HIGH,
    PAIR,
    STRAIGHT,
    STRAIGHT_TABLE,
    TRIPS,
    TWO_PAIR,
    category,
    evaluate,
    hand_class,
)
from simulator.rival.engine import HandState, Player
from simulator.rival.preflop_table import HEADS_UP_EQUITY


def _combos(k: int) -> int:
    return 6 if k < 13 else 4 if k < 91 else 12


def _percentiles() -> tuple[float, ...]:
    """Share of all 1,326 starting hands at least as strong as each class (AA ~0.005, 72o ~1.0)."""
    order = sorted(range(169), key=lambda k: -HEADS_UP_EQUITY[k])
    out = [0.0] * 169
    seen = 0
    for k in order:
        seen += _combos(k)
        out[k] = seen / 1326
    return tuple(out)


PERCENTILE = _percentiles()


def preflop_pct(hole: tuple[int, int]) -> float:
    """Starting-hand percentile: small is strong."""
    return PERCENTILE[hand_class(hole[0], hole[1])]


def preflop_equity(hole: tuple[int, int], opponents: int) -> float:
    """Heads-up table equity, shrunk for each extra opponent (a rough multiway correction)."""
    eq = HEADS_UP_EQUITY[hand_class(hole[0], hole[1])]
    return float(eq ** (1.0 + 0.8 * max(0, opponents - 1)))


def mc_equity(state: HandState, me: Player, opponents: int, rng: random.Random, dead: tuple[int, ...] = (),
              samples: int = 24) -> float:
    """Monte Carlo share of the pot against ``opponents`` random hands; ``dead`` cards (a partner's,
    when cards are shared) never come. Cached per hand, player, street and dead set."""
    key = (me.name, state.street, opponents, dead)
    memo = state.memo
    if key in memo:
        return memo[key]
    known = {*me.hole, *state.board, *dead}
    deck = [c for c in range(52) if c not in known]
    need_board = 5 - len(state.board)
    draw = need_board + 2 * opponents
    mine = [*me.hole, *state.board]
    total = 0.0
    for _ in range(samples):
        s = rng.sample(deck, draw)
        runout = s[:need_board]
        my = evaluate(mine + runout)
        board = state.board + runout
        best = 0
        ties = 0
        for k in range(opponents):
            o = evaluate([s[need_board + 2 * k], s[need_board + 2 * k + 1], *board])
            if o > best:
                best, ties = o, 0
            elif o == best:
                ties += 1
        if my > best:
            total += 1.0
        elif my == best:
            total += 1.0 / (ties + 2)
    value = total / samples
    memo[key] = value
    return value


def made_strength(state: HandState, me: Player) -> float:
    """A 0..1 reading of the made hand and draws, the way a feel player sizes up a board."""
    board = state.board
    score = evaluate([*me.hole, *board])
    cat = category(score)
    board_cat = category(evaluate(board)) if len(board) >= 5 else _board_class(board)
    base = _CLASS_VALUE[cat]
    if cat == PAIR:
        base = _pair_value(me, board)
    elif cat in (TWO_PAIR, TRIPS) and board_cat >= cat:
        base = 0.3
    elif cat >= STRAIGHT and board_cat >= cat:
        base = 0.35
    if len(board) < 5:
        base = min(1.0, base + _draw_bonus(me, board))
    return base


_CLASS_VALUE = {HIGH: 0.12, PAIR: 0.45, TWO_PAIR: 0.76, TRIPS: 0.84, STRAIGHT: 0.9, FLUSH: 0.92, FULL: 0.97,
                7: 0.99, 8: 1.0}


def _board_class(board: list[int]) -> int:
    ranks = [c >> 2 for c in board]
    top = max(ranks.count(r) for r in ranks)
    return TRIPS if top >= 3 else PAIR if top == 2 else HIGH


def _pair_value(me: Player, board: list[int]) -> float:
    """Overpair > top pair > middle pair > bottom pair > a pair on the board only."""
    board_ranks = sorted((c >> 2 for c in board), reverse=True)
    h1, h2 = me.hole[0] >> 2, me.hole[1] >> 2
    if h1 == h2:
        return 0.72 if h1 > board_ranks[0] else 0.42
    for h in (h1, h2):
        if h in board_ranks:
            kicker = h2 if h == h1 else h1
            if h == board_ranks[0]:
                return 0.6 + 0.01 * kicker
            return 0.44 if h >= board_ranks[len(board_ranks) // 2] else 0.34
    return 0.2


def _draw_bonus(me: Player, board: list[int]) -> float:
    cards = [*me.hole, *board]
    suits = [c & 3 for c in cards]
    bonus = 0.0
    for s in range(4):
        if suits.count(s) == 4 and s in (me.hole[0] & 3, me.hole[1] & 3):
            bonus += 0.17
    mask = 0
    for c in cards:
        mask |= 1 << (c >> 2)
    for r in range(13):
        if not mask >> r & 1 and STRAIGHT_TABLE[mask | 1 << r] >= 0:
            bonus += 0.07
    return min(bonus, 0.3)
