"""Cards, hand ranking and equity estimates.

Cards are ints ``rank * 4 + suit`` (rank 0 = deuce, suits c d h s), the encoding phevaluator's
native 7-card evaluator takes, so ranking a hand costs one C call (lower rank = stronger hand).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from phevaluator._pheval import evaluate_7cards as _e7

RANKS = "23456789TJQKA"
SUITS = "cdhs"
_SINGULAR = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace")
_PLURAL = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks", "Queens",
           "Kings", "Aces")
#: phevaluator rank boundaries, strongest category first (upper bound inclusive)
_CATEGORY_BOUNDS = (10, 166, 322, 1599, 1609, 2467, 3325, 6185, 7462)
CATEGORIES = ("straight_flush", "quads", "full_house", "flush", "straight", "trips", "two_pair", "pair", "high")


def card_str(card: int) -> str:
    """PokerStars spelling of one card, e.g. ``Ah``."""
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_str(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def rank7(cards: tuple[int, ...] | list[int]) -> int:
    """Strength of the best five of seven cards (lower is stronger)."""
    return int(_e7(*cards))


def category(rank: int) -> int:
    """Index into CATEGORIES of a phevaluator rank (0 = straight flush, 8 = high card)."""
    for i, bound in enumerate(_CATEGORY_BOUNDS):
        if rank <= bound:
            return i
    return len(_CATEGORY_BOUNDS) - 1


def _straight_high(ranks: set[int]) -> int:
    """Highest straight's top rank among these ranks, -1 if none (the wheel tops at Five)."""
    for top in range(12, 2, -1):
        needed = [top - i for i in range(5)] if top > 3 else [3, 2, 1, 0, 12]
        if all(r in ranks for r in needed):
            return top
    return -1


def _straight_name(top: int) -> str:
    low = "Ace" if top == 3 else _SINGULAR[top - 4]
    return f"{low} to {_SINGULAR[top]}"


def describe(cards: tuple[int, ...] | list[int]) -> str:
    """PokerStars' words for a 7-card hand, as printed after ``shows [..]``."""
    cat = CATEGORIES[category(rank7(cards))]
    counts = Counter(c >> 2 for c in cards)
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    if cat in ("straight_flush", "flush"):
        suit = Counter(c & 3 for c in cards).most_common(1)[0][0]
        suited = {c >> 2 for c in cards if c & 3 == suit}
        if cat == "flush":
            return f"a flush, {_SINGULAR[max(suited)]} high"
        top = _straight_high(suited)
        return "a Royal Flush" if top == 12 else f"a straight flush, {_straight_name(top)}"
    if cat == "quads":
        return f"four of a kind, {_PLURAL[by_count[0]]}"
    if cat == "full_house":
        trips = max(r for r in counts if counts[r] >= 3)
        pair = max(r for r in counts if counts[r] >= 2 and r != trips)
        return f"a full house, {_PLURAL[trips]} full of {_PLURAL[pair]}"
    if cat == "straight":
        return f"a straight, {_straight_name(_straight_high(set(counts)))}"
    if cat == "trips":
        return f"three of a kind, {_PLURAL[by_count[0]]}"
    if cat == "two_pair":
        pairs = sorted((r for r in counts if counts[r] == 2), reverse=True)
        return f"two pair, {_PLURAL[pairs[0]]} and {_PLURAL[pairs[1]]}"
    if cat == "pair":
        return f"a pair of {_PLURAL[by_count[0]]}"
    return f"high card {_SINGULAR[max(counts)]}"


def hand_class(c1: int, c2: int) -> tuple[int, int, bool]:
    """Starting-hand class: (high rank, low rank, suited) — 169 of them."""
    r1, r2 = c1 >> 2, c2 >> 2
    return max(r1, r2), min(r1, r2), (c1 & 3) == (c2 & 3) and r1 != r2


@lru_cache(maxsize=1)
def preflop_table() -> dict[tuple[int, int, bool], float]:
    """Equity of each starting class against one random hand.

    Computed once per process with a fixed seed (about half a second): cheap enough that no
    table has to be shipped, and identical on every run.
    """
    rng = random.Random(20260302)
    table: dict[tuple[int, int, bool], float] = {}
    for hi in range(13):
        for lo in range(hi + 1):
            for suited in (False, True) if hi != lo else (False,):
                hole = (hi * 4, lo * 4 + (0 if suited else 1))
                table[(hi, lo, suited)] = monte_carlo(hole, (), 1, (), rng, 260)
    return table


@lru_cache(maxsize=1)
def preflop_percentile() -> dict[tuple[int, int, bool], float]:
    """Share of all 1326 combos at least as strong as each class (0 = aces, 1 = the worst)."""
    table = preflop_table()
    order = sorted(table, key=lambda k: -table[k])
    combos = {k: 6 if k[0] == k[1] else 4 if k[2] else 12 for k in order}
    out: dict[tuple[int, int, bool], float] = {}
    seen = 0
    for k in order:
        seen += combos[k]
        out[k] = seen / 1326
    return out


def preflop_equity(hole: tuple[int, int], opponents: int) -> float:
    """Heads-up table equity shrunk for several opponents (a rough power law)."""
    eq1 = preflop_table()[hand_class(*hole)]
    return float(eq1 ** (max(opponents, 1) ** 0.75))


def monte_carlo(hole: tuple[int, ...], board: tuple[int, ...], opponents: int, dead: tuple[int, ...],
                rng: random.Random, samples: int) -> float:
    """Share of pots won against random hands, run out ``samples`` times (ties count half)."""
    return _runouts(hole, board, opponents, set(dead), (), rng, samples)[0]


def dead_card_equity(hole: tuple[int, ...], board: tuple[int, ...], opponents: int, dead: tuple[int, ...],
                     rng: random.Random, samples: int) -> tuple[float, float]:
    """(blind, informed) equity from one set of run-outs; informed keeps only the run-outs that use
    no card known to be dead, so the difference is the partners' cards and little noise."""
    return _runouts(hole, board, opponents, set(), dead, rng, samples)


def _runouts(hole: tuple[int, ...], board: tuple[int, ...], opponents: int, removed: set[int],
             gone: tuple[int, ...], rng: random.Random, samples: int) -> tuple[float, float]:
    used = set(hole) | set(board) | removed
    deck = [c for c in range(52) if c not in used]
    need = 5 - len(board)
    opponents = min(opponents, (len(deck) - need) // 2)
    draw_n = need + 2 * opponents
    blind = informed = 0.0
    kept = 0
    for _ in range(samples):
        draw = rng.sample(deck, draw_n)
        full = (*board, *draw[:need])
        mine = _e7(hole[0], hole[1], *full)
        best = min(_e7(draw[i], draw[i + 1], *full) for i in range(need, draw_n, 2))
        result = 1.0 if mine < best else 0.5 if mine == best else 0.0
        blind += result
        if not gone or not set(gone).intersection(draw):
            informed += result
            kept += 1
    return blind / samples, informed / max(kept, 1)
