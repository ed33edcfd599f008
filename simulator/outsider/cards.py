"""Cards as small ints and a 7-card hand evaluator written for this simulator.

Why: the equity-driven players and the showdown both need hand strength; cards are ints
(rank * 4 + suit) so evaluation is a few table look-ups instead of object juggling.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
              "Jack", "Queen", "King", "Ace")
PLURALS = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
           "Jacks", "Queens", "Kings", "Aces")
DECK: tuple[int, ...] = tuple(range(52))


def card_str(card: int) -> str:
    """PokerStars spelling of one card, e.g. ``Ah``."""
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_str(cards: Sequence[int]) -> str:
    """Cards separated by spaces, as inside the brackets of a hand history."""
    return " ".join(card_str(c) for c in cards)


def _straight_high(mask: int) -> int:
    """Top rank of the best straight in a rank bitmask, or -1 (the wheel counts)."""
    for top in range(12, 3, -1):
        want = 0b11111 << (top - 4)
        if mask & want == want:
            return top
    if mask & 0b1000000001111 == 0b1000000001111:
        return 3
    return -1


def _top_ranks(mask: int, n: int) -> list[int]:
    """The ``n`` highest ranks set in a bitmask, highest first."""
    out: list[int] = []
    r = 12
    while r >= 0 and len(out) < n:
        if mask >> r & 1:
            out.append(r)
        r -= 1
    return out


STRAIGHT = [_straight_high(m) for m in range(1 << 13)]
TOP5 = [0] * (1 << 13)
for _m in range(1 << 13):
    _v = 0
    for _r in _top_ranks(_m, 5):
        _v = _v << 4 | _r
    TOP5[_m] = _v << 4 * (5 - min(5, _m.bit_count()))


def _pack(cat: int, ranks: Sequence[int]) -> int:
    """Category in the high bits, up to five ranks below it, comparable as one int."""
    v = cat
    for i in range(5):
        v = v << 4 | (ranks[i] if i < len(ranks) else 0)
    return v


def evaluate(cards: Sequence[int]) -> int:
    """Strength of the best five-card hand in 5..7 cards; bigger is better."""
    counts = [0] * 13
    suit_masks = [0, 0, 0, 0]
    for c in cards:
        counts[c >> 2] += 1
        suit_masks[c & 3] |= 1 << (c >> 2)
    for m in suit_masks:
        if m.bit_count() >= 5:
            sf = STRAIGHT[m]
            if sf >= 0:
                return _pack(8, (sf,))
            return 5 << 20 | TOP5[m]
    quads: list[int] = []
    trips: list[int] = []
    pairs: list[int] = []
    singles: list[int] = []
    for r in range(12, -1, -1):
        n = counts[r]
        if n == 4:
            quads.append(r)
        elif n == 3:
            trips.append(r)
        elif n == 2:
            pairs.append(r)
        elif n == 1:
            singles.append(r)
    if quads:
        rest = sorted(trips + pairs + singles, reverse=True)
        return _pack(7, (quads[0], rest[0]))
    if trips and (len(trips) > 1 or pairs):
        second = max(trips[1] if len(trips) > 1 else -1, pairs[0] if pairs else -1)
        return _pack(6, (trips[0], second))
    rank_mask = suit_masks[0] | suit_masks[1] | suit_masks[2] | suit_masks[3]
    st = STRAIGHT[rank_mask]
    if st >= 0:
        return _pack(4, (st,))
    if trips:
        return _pack(3, [trips[0], *singles[:2]])
    if len(pairs) >= 2:
        kick = max([*pairs[2:3], *singles[:1]])
        return _pack(2, (pairs[0], pairs[1], kick))
    if pairs:
        return _pack(1, [pairs[0], *singles[:3]])
    return 0 << 20 | TOP5[rank_mask]


def category(score: int) -> int:
    """0 high card .. 8 straight flush."""
    return score >> 20


def describe(score: int) -> str:
    """PokerStars' wording of a made hand, e.g. ``two pair, Kings and Fives``."""
    cat = score >> 20
    r = [(score >> s) & 15 for s in (16, 12, 8, 4, 0)]
    if cat == 8:
        if r[0] == 12:
            return "a Royal Flush"
        return f"a straight flush, {RANK_NAMES[r[0] - 4] if r[0] > 3 else 'Ace'} to {RANK_NAMES[r[0]]}"
    if cat == 7:
        return f"four of a kind, {PLURALS[r[0]]}"
    if cat == 6:
        return f"a full house, {PLURALS[r[0]]} full of {PLURALS[r[1]]}"
    if cat == 5:
        return f"a flush, {RANK_NAMES[r[0]]} high"
    if cat == 4:
        low = "Ace" if r[0] == 3 else RANK_NAMES[r[0] - 4]
        return f"a straight, {low} to {RANK_NAMES[r[0]]}"
    if cat == 3:
        return f"three of a kind, {PLURALS[r[0]]}"
    if cat == 2:
        return f"two pair, {PLURALS[r[0]]} and {PLURALS[r[1]]}"
    if cat == 1:
        return f"a pair of {PLURALS[r[0]]}"
    return f"high card {RANK_NAMES[r[0]]}"


def hand_class(hole: Sequence[int]) -> int:
    """Index 0..168 of the starting-hand class (pair / suited / offsuit ranks)."""
    a, b = hole[0] >> 2, hole[1] >> 2
    hi, lo = max(a, b), min(a, b)
    suited = (hole[0] & 3) == (hole[1] & 3)
    if hi == lo:
        return hi
    base = 13 + (hi * (hi - 1)) // 2 + lo
    return base + (78 if suited else 0)


def _class_example(idx: int) -> tuple[int, int]:
    """A concrete pair of cards belonging to starting-hand class ``idx``."""
    if idx < 13:
        return idx * 4, idx * 4 + 1
    suited = idx >= 91
    rel = idx - 13 - (78 if suited else 0)
    hi = 1
    while (hi + 1) * hi // 2 <= rel:
        hi += 1
    lo = rel - hi * (hi - 1) // 2
    return hi * 4, lo * 4 + (0 if suited else 1)


def _preflop_table(samples: int = 220) -> list[float]:
    """Equity of each class against one random hand, by a fixed-seed simulation."""
    rng = random.Random(8675309)
    table: list[float] = []
    for idx in range(169):
        hole = _class_example(idx)
        rest = [c for c in DECK if c not in hole]
        won = 0.0
        for _ in range(samples):
            draw = rng.sample(rest, 7)
            board = draw[2:]
            mine = evaluate([*hole, *board])
            theirs = evaluate([draw[0], draw[1], *board])
            won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        table.append(won / samples)
    return table


_PREFLOP: list[float] = []


def preflop_equity(hole: Sequence[int], opponents: int) -> float:
    """Rough all-in equity of a starting hand against ``opponents`` random hands."""
    if not _PREFLOP:
        _PREFLOP.extend(_preflop_table())
    eq1 = _PREFLOP[hand_class(hole)]
    return float(eq1 ** (max(1, opponents) ** 0.75))


def equity(hole: Sequence[int], board: Sequence[int], opponents: int, rng: random.Random,
           dead: Sequence[int] = (), samples: int = 14) -> float:
    """Monte Carlo equity against random hands; ``dead`` are cards known to be out."""
    known = {*hole, *board, *dead}
    rest = [c for c in DECK if c not in known]
    need = 5 - len(board)
    won = 0.0
    for _ in range(samples):
        draw = rng.sample(rest, 2 + need)
        full = [*board, *draw[2:]]
        mine = evaluate([*hole, *full])
        theirs = evaluate([draw[0], draw[1], *full])
        won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    eq1 = won / samples
    return float(eq1 ** (max(1, opponents) ** 0.8))
