"""Cards as small ints and a fast 7-card evaluator.

Why hand-rolled: the room deals ~50,000 hands and runs Monte Carlo equity for some players, so
evaluation must be a few microseconds in pure Python; a card is ``rank * 4 + suit`` (rank 0 = deuce).
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK: tuple[int, ...] = tuple(range(52))

NAMES = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace")
PLURALS = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks", "Queens",
           "Kings", "Aces")

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL, QUADS, STRAIGHT_FLUSH = range(9)


def card_text(card: int) -> str:
    """'Ah' style text for one card."""
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_text(cards: list[int] | tuple[int, ...]) -> str:
    """Space-separated card texts as PokerStars prints them inside brackets."""
    return " ".join(card_text(c) for c in cards)


def _straight_high(mask: int) -> int:
    """Highest rank of a 5-long run in a 13-bit rank mask (wheel counts, high 3), or -1."""
    extended = (mask << 1) | ((mask >> 12) & 1)  # bit 0 = ace-low, bit r+1 = rank r
    for top in range(13, 3, -1):
        run = 0b11111 << (top - 4)
        if extended & run == run:
            return top - 1
    return -1


STRAIGHT_TABLE: tuple[int, ...] = tuple(_straight_high(m) for m in range(8192))


def _top_bits(mask: int, count: int) -> list[int]:
    """The ``count`` highest ranks set in a rank mask, highest first."""
    out: list[int] = []
    r = 12
    while r >= 0 and len(out) < count:
        if mask >> r & 1:
            out.append(r)
        r -= 1
    return out


def _pack(category: int, ranks: list[int]) -> int:
    """Category then up to five ranks, four bits each: comparable as a plain int."""
    value = category
    for i in range(5):
        value = value << 4 | (ranks[i] if i < len(ranks) else 0)
    return value


def evaluate(cards: list[int] | tuple[int, ...]) -> int:
    """Strength of the best five of 5-7 cards (larger is better)."""
    suit_masks = [0, 0, 0, 0]
    counts = [0] * 13
    for c in cards:
        r = c >> 2
        suit_masks[c & 3] |= 1 << r
        counts[r] += 1
    for m in suit_masks:
        if m.bit_count() >= 5:
            high = STRAIGHT_TABLE[m]
            if high >= 0:
                return _pack(STRAIGHT_FLUSH, [high])
            return _pack(FLUSH, _top_bits(m, 5))
    all_mask = suit_masks[0] | suit_masks[1] | suit_masks[2] | suit_masks[3]
    quads = trips = -1
    pairs: list[int] = []
    for r in range(12, -1, -1):
        n = counts[r]
        if n == 4:
            quads = r
        elif n == 3:
            if trips < 0:
                trips = r
            else:
                pairs.append(r)
        elif n == 2:
            pairs.append(r)
    if quads >= 0:
        return _pack(QUADS, [quads, *_top_bits(all_mask & ~(1 << quads), 1)])
    if trips >= 0 and pairs:
        return _pack(FULL, [trips, pairs[0]])
    high = STRAIGHT_TABLE[all_mask]
    if high >= 0:
        return _pack(STRAIGHT, [high])
    if trips >= 0:
        return _pack(TRIPS, [trips, *_top_bits(all_mask & ~(1 << trips), 2)])
    if len(pairs) >= 2:
        rest = all_mask & ~(1 << pairs[0]) & ~(1 << pairs[1])
        return _pack(TWO_PAIR, [pairs[0], pairs[1], *_top_bits(rest, 1)])
    if pairs:
        return _pack(PAIR, [pairs[0], *_top_bits(all_mask & ~(1 << pairs[0]), 3)])
    return _pack(HIGH, _top_bits(all_mask, 5))


def category(score: int) -> int:
    """The hand class (HIGH..STRAIGHT_FLUSH) of an ``evaluate`` score."""
    return score >> 20


def _rank_at(score: int, i: int) -> int:
    return score >> (16 - 4 * i) & 15


def describe(score: int) -> str:
    """PokerStars' words for a made hand, e.g. 'two pair, Aces and Kings'."""
    cat = category(score)
    a, b = _rank_at(score, 0), _rank_at(score, 1)
    if cat == HIGH:
        return f"high card {NAMES[a]}"
    if cat == PAIR:
        return f"a pair of {PLURALS[a]}"
    if cat == TWO_PAIR:
        return f"two pair, {PLURALS[a]} and {PLURALS[b]}"
    if cat == TRIPS:
        return f"three of a kind, {PLURALS[a]}"
    if cat == STRAIGHT:
        low = NAMES[12] if a == 3 else NAMES[a - 4]
        return f"a straight, {low} to {NAMES[a]}"
    if cat == FLUSH:
        return f"a flush, {NAMES[a]} high"
    if cat == FULL:
        return f"a full house, {PLURALS[a]} full of {PLURALS[b]}"
    if cat == QUADS:
        return f"four of a kind, {PLURALS[a]}"
    if a == 12:
        return "a Royal Flush"
    low = NAMES[12] if a == 3 else NAMES[a - 4]
    return f"a straight flush, {low} to {NAMES[a]}"


def hand_class(c1: int, c2: int) -> int:
    """Index 0..168 of a starting hand: pairs 0-12, suited 13-90, offsuit 91-168."""
    r1, r2 = c1 >> 2, c2 >> 2
    if r1 == r2:
        return r1
    hi, lo = (r1, r2) if r1 > r2 else (r2, r1)
    offset = hi * (hi - 1) // 2 + lo  # 0..77
    return 13 + offset if (c1 & 3) == (c2 & 3) else 91 + offset
