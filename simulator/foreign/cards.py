"""Cards, hand evaluation and cheap strength estimates.

Cards are ints ``rank * 4 + suit`` (rank 0 = deuce .. 12 = ace, suits ``cdhs``),
the same encoding phevaluator uses, so the native evaluator is called directly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from phevaluator import _pheval

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace")
RANK_PLURALS = tuple("Sixes" if n == "Six" else n + "s" for n in RANK_NAMES)

# phevaluator rank thresholds (lower is better): upper bound of each category.
_CATEGORY_BOUNDS = ((10, 8), (166, 7), (322, 6), (1599, 5), (1609, 4), (2467, 3), (3325, 2), (6185, 1), (7462, 0))
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

_EVAL = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}


def card_str(card: int) -> str:
    """Two-character PokerStars spelling of a card."""
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_str(cards: Sequence[int]) -> str:
    """Space-separated cards, as inside PokerStars brackets."""
    return " ".join(card_str(c) for c in cards)


def evaluate(cards: Sequence[int]) -> int:
    """Exact rank of the best five of 5-7 cards; lower is better (phevaluator)."""
    return int(_EVAL[len(cards)](*cards))


def category(rank: int) -> int:
    """Hand category (HIGH_CARD .. STRAIGHT_FLUSH) of a phevaluator rank."""
    for bound, cat in _CATEGORY_BOUNDS:
        if rank <= bound:
            return cat
    return HIGH_CARD


def _straight_high(ranks: set[int]) -> int:
    """Top rank of the best straight in a rank set, or -1."""
    for top in range(12, 2, -1):
        low = top - 4
        need = range(low, top + 1) if low >= 0 else [12, 0, 1, 2, 3]
        if all(r in ranks for r in need):
            return top
    if all(r in ranks for r in (12, 0, 1, 2, 3)):
        return 3
    return -1


def describe(cards: Sequence[int]) -> str:
    """PokerStars wording of the best hand in 5-7 cards, e.g. 'two pair, Aces and Kings'."""
    cat = category(evaluate(cards))
    counts = [0] * 13
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        counts[c >> 2] += 1
        by_suit.setdefault(c & 3, []).append(c >> 2)
    desc_ranks = sorted(range(13), key=lambda r: (counts[r], r), reverse=True)
    top = desc_ranks[0]
    if cat == HIGH_CARD:
        return f"high card {RANK_NAMES[max(c >> 2 for c in cards)]}"
    if cat == PAIR:
        return f"a pair of {RANK_PLURALS[top]}"
    if cat == TWO_PAIR:
        pairs = sorted((r for r in range(13) if counts[r] >= 2), reverse=True)
        return f"two pair, {RANK_PLURALS[pairs[0]]} and {RANK_PLURALS[pairs[1]]}"
    if cat == TRIPS:
        return f"three of a kind, {RANK_PLURALS[top]}"
    if cat == QUADS:
        return f"four of a kind, {RANK_PLURALS[top]}"
    if cat == FULL_HOUSE:
        trips = max(r for r in range(13) if counts[r] >= 3)
        pair = max(r for r in range(13) if counts[r] >= 2 and r != trips)
        return f"a full house, {RANK_PLURALS[trips]} full of {RANK_PLURALS[pair]}"
    if cat == STRAIGHT:
        high = _straight_high({c >> 2 for c in cards})
        return f"a straight, {RANK_NAMES[high - 4 if high > 3 else 12]} to {RANK_NAMES[high]}"
    suited = max(by_suit.values(), key=len)
    if cat == FLUSH:
        return f"a flush, {RANK_NAMES[max(suited)]} high"
    high = _straight_high(set(suited))
    if high == 12:
        return "a Royal Flush"
    return f"a straight flush, {RANK_NAMES[high - 4 if high > 3 else 12]} to {RANK_NAMES[high]}"


def _chen(high: int, low: int, suited: bool) -> float:
    """Chen-formula score of a starting hand: a cheap, monotone preflop ranking."""
    points = (10.0, 8.0, 7.0, 6.0)
    score = points[12 - high] if high >= 9 else (high + 2) / 2.0
    if high == low:
        return max(5.0, score * 2)
    if suited:
        score += 2
    gap = high - low - 1
    score -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and high < 10:
        score += 1
    return score


def _build_preflop_table() -> dict[tuple[int, int, bool], float]:
    """Percentile (0 worst .. 1 best, combo-weighted) of each of the 169 classes."""
    classes: list[tuple[float, int, tuple[int, int, bool]]] = []
    for high in range(13):
        for low in range(high + 1):
            if high == low:
                classes.append((_chen(high, low, False), 6, (high, low, False)))
            else:
                classes.append((_chen(high, low, True), 4, (high, low, True)))
                classes.append((_chen(high, low, False), 12, (high, low, False)))
    classes.sort(key=lambda item: (item[0], item[2]))
    table: dict[tuple[int, int, bool], float] = {}
    seen = 0
    for _, combos, key in classes:
        table[key] = (seen + combos / 2) / 1326.0
        seen += combos
    return table


PREFLOP_PCT = _build_preflop_table()


def preflop_pct(hole: Sequence[int]) -> float:
    """Percentile of a starting hand among all 1,326 combos (1.0 = aces)."""
    a, b = hole[0] >> 2, hole[1] >> 2
    high, low = (a, b) if a >= b else (b, a)
    return PREFLOP_PCT[(high, low, high != low and (hole[0] & 3) == (hole[1] & 3))]


def preflop_equity(hole: Sequence[int], opponents: int) -> float:
    """Rough all-in equity against random hands: AA ~0.85 heads-up, 72o ~0.34."""
    eq1 = 0.34 + 0.51 * preflop_pct(hole)
    return float(eq1 ** (1.0 + 0.85 * max(0, opponents - 1)))


def mc_equity(hole: Sequence[int], board: Sequence[int], opponents: int, dead: Sequence[int],
              rng: random.Random, samples: int) -> float:
    """Small Monte Carlo equity against random hands; ``dead`` cards are removed from the deck."""
    known = set(hole) | set(board) | set(dead)
    deck = [c for c in range(52) if c not in known]
    need_board = 5 - len(board)
    opponents = max(1, min(opponents, 3))
    take = need_board + 2 * opponents
    ev7 = _pheval.evaluate_7cards
    h0, h1 = hole[0], hole[1]
    total = 0.0
    for _ in range(samples):
        draw = rng.sample(deck, take)
        full = list(board) + draw[:need_board]
        mine = ev7(h0, h1, *full)
        best = 9999
        for i in range(need_board, take, 2):
            r = ev7(draw[i], draw[i + 1], *full)
            best = min(best, r)
        if mine < best:
            total += 1.0
        elif mine == best:
            total += 0.5
    return total / samples


def made_strength(hole: Sequence[int], board: Sequence[int]) -> tuple[float, float]:
    """Cheap postflop (made-hand strength, draw bonus), both in 0..1, from categories and draws."""
    cat = category(evaluate([*hole, *board]))
    board_ranks = [c >> 2 for c in board]
    top_board = max(board_ranks)
    board_paired = len(set(board_ranks)) < len(board_ranks)
    h = sorted((hole[0] >> 2, hole[1] >> 2), reverse=True)
    if len(board) == 5 and evaluate(board) <= evaluate([*hole, *board]):
        return 0.12, 0.0  # plays the board
    strength: float
    if cat == HIGH_CARD:
        strength = 0.08 + 0.06 * (h[0] > top_board)
    elif cat == PAIR:
        strength = _pair_strength(h, board_ranks, top_board)
    elif cat == TWO_PAIR:
        uses_both = h[0] in board_ranks and h[1] in board_ranks and h[0] != h[1]
        strength = 0.78 if uses_both else (0.6 if board_paired else 0.7)
    elif cat == TRIPS:
        strength = 0.88 if h[0] == h[1] else (0.45 if board_ranks.count(h[0]) < 2 and board_ranks.count(h[1]) < 2
                                              else 0.8)
    elif cat in (STRAIGHT, FLUSH):
        strength = 0.86 if cat == STRAIGHT else 0.9
    else:
        strength = 0.97
    return strength, _draw_bonus(hole, board) if len(board) < 5 else 0.0


def _pair_strength(h: list[int], board_ranks: list[int], top_board: int) -> float:
    """Strength of a one-pair hand: overpair > top pair (by kicker) > middle > bottom > board pair."""
    if h[0] == h[1]:
        return 0.7 if h[0] > top_board else 0.32
    ordered = sorted(set(board_ranks), reverse=True)
    for card_rank, kicker in ((h[0], h[1]), (h[1], h[0])):
        if card_rank in board_ranks:
            if card_rank == top_board:
                return 0.52 + 0.12 * (kicker / 12.0)
            return 0.4 if len(ordered) > 1 and card_rank == ordered[1] else 0.3
    return 0.15  # the pair is on the board


def _draw_bonus(hole: Sequence[int], board: Sequence[int]) -> float:
    """Equity bonus of flush and straight draws, larger on the flop than on the turn."""
    scale = 1.0 if len(board) == 3 else 0.5
    cards = [*hole, *board]
    bonus = 0.0
    for suit in range(4):
        n = sum(1 for c in cards if c & 3 == suit)
        if n == 4 and any(c & 3 == suit for c in hole):
            bonus += 0.18
    ranks = {c >> 2 for c in cards}
    if 12 in ranks:
        ranks.add(-1)
    hole_ranks = {c >> 2 for c in hole}
    best = 0.0
    for low in range(-1, 9):
        window = set(range(low, low + 5))
        have = window & ranks
        if len(have) == 4 and have & hole_ranks:
            missing = next(iter(window - have))
            best = max(best, 0.15 if missing in (low, low + 4) and 0 <= low < 8 else 0.07)
    return (bonus + best) * scale


def outs_cards(hole: Sequence[int], board: Sequence[int]) -> set[int]:
    """Cards that would complete a flush or straight draw for this hand (for dead-card logic)."""
    if len(board) >= 5:
        return set()
    cards = [*hole, *board]
    outs: set[int] = set()
    for suit in range(4):
        if sum(1 for c in cards if c & 3 == suit) == 4:
            outs |= {r * 4 + suit for r in range(13)} - set(cards)
    ranks = {c >> 2 for c in cards}
    for low in range(0, 9):
        window = set(range(low, low + 5))
        missing = window - ranks
        if len(missing) == 1:
            m = next(iter(missing))
            outs |= {m * 4 + s for s in range(4)} - set(cards)
    return outs
