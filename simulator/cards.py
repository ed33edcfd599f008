"""Cards as small ints (phevaluator ids: rank * 4 + suit), strength tables and hand names.

Why ints and tables: the simulator must play 50,000 hands in seconds, so preflop strength is a
precomputed 52x52 table, postflop strength is a handful of native phevaluator calls, and only
showdown hands are ever turned into PokerStars' words.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from phevaluator import _pheval

from .preflop_equity import EQUITY_VS

RANKS = "23456789TJQKA"
SUITS = "cdhs"
CARD_STR: tuple[str, ...] = tuple(RANKS[i // 4] + SUITS[i % 4] for i in range(52))
RANK_NAME = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
             "Jack", "Queen", "King", "Ace")
RANK_PLURAL = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
               "Jacks", "Queens", "Kings", "Aces")

EVAL = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}
EVAL7 = _pheval.evaluate_7cards


def card_list(cards: Sequence[int]) -> str:
    """'[Ah Kd]' as PokerStars writes a card list."""
    return "[" + " ".join(CARD_STR[c] for c in cards) + "]"


def _chen(r1: int, r2: int, suited: bool) -> float:
    """Chen-formula score (r = 0 for a deuce .. 12 for an ace), with a small high-card tiebreak."""
    hi, lo = max(r1, r2), min(r1, r2)
    points = {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}.get(hi, (hi + 2) / 2)
    if hi == lo:
        return max(points * 2, 5.0) + hi / 100
    score = points + (2.0 if suited else 0.0)
    gap = hi - lo - 1
    score -= (0.0, 1.0, 2.0, 4.0)[gap] if gap < 4 else 5.0
    if gap <= 1 and hi < 10:
        score += 1.0
    return score + (hi + lo) / 100


def _preflop_table() -> list[list[float]]:
    """strength[c1][c2] = share of the 1,326 starting hands that are weaker (AA ~ 1, 72o ~ 0)."""
    classes: dict[tuple[int, int, bool], float] = {}
    for a in range(13):
        for b in range(13):
            for suited in (False, True):
                if a == b and suited:
                    continue
                classes[(a, b, suited)] = _chen(a, b, suited)
    combos = {k: (6 if k[0] == k[1] else 4 if k[2] else 12) / 2 for k in classes}  # ordered pairs
    order = sorted(classes, key=classes.__getitem__)
    total = sum(combos.values())
    below = 0.0
    pct: dict[tuple[int, int, bool], float] = {}
    for k in order:
        pct[k] = (below + combos[k] / 2) / total
        below += combos[k]
    table = [[0.0] * 52 for _ in range(52)]
    for c1 in range(52):
        for c2 in range(52):
            if c1 != c2:
                table[c1][c2] = pct[(c1 // 4, c2 // 4, c1 % 4 == c2 % 4)]
    return table


PREFLOP: list[list[float]] = _preflop_table()


def hand_strength(
    hole: tuple[int, int], board: Sequence[int], rng: random.Random, samples: int = 12, dead: Sequence[int] = ()
) -> float:
    """Share of random opponent holdings our hand beats now (ties half): a fast, honest estimate.

    ``dead`` are cards known to be out of the opponents' hands (a card-sharing partner's)."""
    n = len(board) + 2
    ev = EVAL[n]
    mine = ev(hole[0], hole[1], *board)
    known = {hole[0], hole[1], *board, *dead}
    rest = [c for c in range(52) if c not in known]
    draw = rng.sample(rest, samples * 2)
    score = 0.0
    for k in range(0, samples * 2, 2):
        theirs = ev(draw[k], draw[k + 1], *board)
        if mine < theirs:
            score += 1.0
        elif mine == theirs:
            score += 0.5
    return score / samples


def fast_strength(hole: tuple[int, int], board: Sequence[int], rng: random.Random, samples: int = 12) -> float:
    """``hand_strength`` with opponent holdings drawn by floats and rejection: the same estimate,
    several times cheaper than ``random.sample`` (random worlds only: classic keeps its stream)."""
    ev = EVAL[len(board) + 2]
    h0, h1 = hole
    mine = ev(h0, h1, *board)
    known = {h0, h1, *board}
    rest = [c for c in range(52) if c not in known]
    size = len(rest)
    rand = rng.random
    score = 0.0
    for _ in range(samples):
        a = rest[int(rand() * size)]
        b = a
        while b == a:
            b = rest[int(rand() * size)]
        theirs = ev(a, b, *board)
        if mine < theirs:
            score += 1.0
        elif mine == theirs:
            score += 0.5
    return score / samples


def draw_bonus(hole: tuple[int, int], board: Sequence[int]) -> float:
    """Extra equity for a flush draw or an open-ended straight draw that uses a hole card."""
    if len(board) >= 5:
        return 0.0
    cards = (hole[0], hole[1], *board)
    bonus = 0.0
    for s in (hole[0] % 4, hole[1] % 4):
        if sum(1 for c in cards if c % 4 == s) == 4:
            bonus = 0.18
            break
    ranks = {c // 4 for c in cards}
    if 12 in ranks:
        ranks.add(-1)
    hole_ranks = {hole[0] // 4, hole[1] // 4}
    for lo in range(-1, 9):
        window = set(range(lo, lo + 4))
        if window <= ranks and window & hole_ranks and lo + 4 <= 12 and lo - 1 >= -1:
            bonus += 0.12
            break
    return bonus if len(board) == 3 else bonus / 2


def describe(cards7: Sequence[int]) -> str:
    """The words PokerStars puts after a shown hand, e.g. 'two pair, Kings and Deuces'."""
    rank_value = EVAL[len(cards7)](*cards7)
    counts = [0] * 13
    for c in cards7:
        counts[c // 4] += 1
    if rank_value <= 1609 and rank_value > 322:
        if rank_value >= 1600:  # straight
            top = _straight_top({c // 4 for c in cards7})
            return f"a straight, {RANK_NAME[(top - 4) % 13] if top != 3 else 'Ace'} to {RANK_NAME[top]}"
        suit = max(range(4), key=lambda s: sum(1 for c in cards7 if c % 4 == s))
        top = max(c // 4 for c in cards7 if c % 4 == suit)
        return f"a flush, {RANK_NAME[top]} high"
    if rank_value <= 10:
        suit = max(range(4), key=lambda s: sum(1 for c in cards7 if c % 4 == s))
        top = _straight_top({c // 4 for c in cards7 if c % 4 == suit})
        if top == 12:
            return "a Royal Flush"
        return f"a straight flush, {RANK_NAME[(top - 4) % 13] if top != 3 else 'Ace'} to {RANK_NAME[top]}"
    by_count = sorted(range(13), key=lambda r: (counts[r], r), reverse=True)
    first = by_count[0]
    if rank_value <= 166:
        return f"four of a kind, {RANK_PLURAL[first]}"
    if rank_value <= 322:
        second = max(r for r in range(13) if r != first and counts[r] >= 2)
        return f"a full house, {RANK_PLURAL[first]} full of {RANK_PLURAL[second]}"
    if rank_value <= 2467:
        return f"three of a kind, {RANK_PLURAL[first]}"
    if rank_value <= 3325:
        pairs = sorted((r for r in range(13) if counts[r] == 2), reverse=True)
        return f"two pair, {RANK_PLURAL[pairs[0]]} and {RANK_PLURAL[pairs[1]]}"
    if rank_value <= 6185:
        return f"a pair of {RANK_PLURAL[first]}"
    return f"high card {RANK_NAME[max(c // 4 for c in cards7)]}"


def _straight_top(ranks: set[int]) -> int:
    """Highest straight's top rank in a set of ranks (3 = the five-high wheel)."""
    for top in range(12, 3, -1):
        if all(r in ranks for r in range(top - 4, top + 1)):
            return top
    return 3  # wheel: A-2-3-4-5


def _class_index(c1: int, c2: int) -> int:
    """Index into ``EQUITY_VS``: row > column suited, row < column offsuit, diagonal pairs."""
    r1, r2 = c1 // 4, c2 // 4
    hi, lo = max(r1, r2), min(r1, r2)
    if hi == lo:
        return hi * 14
    return hi * 13 + lo if c1 % 4 == c2 % 4 else lo * 13 + hi


def preflop_equity(hole: tuple[int, int], n_opp: int) -> float:
    """All-in equity of a starting hand against ``n_opp`` random hands (table lookup)."""
    return EQUITY_VS[min(max(n_opp, 1), 9) - 1][_class_index(hole[0], hole[1])]


def rollout_equity(
    hole: tuple[int, int], board: Sequence[int], n_opp: int, rng: random.Random, samples: int = 12,
) -> float:
    """Monte Carlo equity against ``n_opp`` random hands, the board run out (ties split).

    Why floats and rejection instead of ``random.sample``, and at most four opponents: it runs in
    equity players' close postflop decisions, where ``sample`` cost more than the whole hand.
    Beyond four opponents the equity of anything but the nuts is small anyway."""
    n_opp = min(max(n_opp, 1), 4)
    h0, h1 = hole
    known = {h0, h1, *board}
    deck = [c for c in range(52) if c not in known]
    size = len(deck)
    need = 5 - len(board)
    k = need + 2 * n_opp
    rand = rng.random
    start = tuple(board)
    score = 0.0
    for _ in range(samples):
        got: list[int] = []
        while len(got) < k:
            c = deck[int(rand() * size)]
            if c not in got:
                got.append(c)
        full = start + tuple(got[:need])
        mine = EVAL7(h0, h1, *full)
        best = min(EVAL7(got[j], got[j + 1], *full) for j in range(need, k, 2))
        if mine < best:
            score += 1.0
        elif mine == best:
            score += 0.5
    return score / samples
