"""Cards, a 5-7 card hand evaluator, PokerStars hand descriptions and hand-strength estimates.

Cards are ints 0..51: rank = c >> 2 (0 = deuce .. 12 = ace), suit = c & 3 (c, d, h, s).
A hand value is an int that orders hands: category << 20 | five 4-bit kicker ranks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK: tuple[int, ...] = tuple(range(52))

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL, QUADS, STRAIGHT_FLUSH = range(9)

_SINGULAR = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
             "King", "Ace")
_PLURAL = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks",
           "Queens", "Kings", "Aces")


def card_str(c: int) -> str:
    return RANKS[c >> 2] + SUITS[c & 3]


def cards_str(cs: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cs)


def parse_card(text: str) -> int:
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def _straight_high(mask: int) -> int:
    """Highest rank of a straight in a 13-bit rank mask, -1 if none (the wheel counts, high 3)."""
    for hi in range(12, 3, -1):
        want = 0b11111 << (hi - 4)
        if mask & want == want:
            return hi
    if mask & 0b1000000001111 == 0b1000000001111:
        return 3
    return -1


def _top_bits(mask: int, n: int) -> list[int]:
    out = []
    for r in range(12, -1, -1):
        if mask >> r & 1:
            out.append(r)
            if len(out) == n:
                break
    return out


_STRAIGHT = [_straight_high(m) for m in range(1 << 13)]
_FLUSH5 = [0] * (1 << 13)
for _m in range(1 << 13):
    _t = _top_bits(_m, 5)
    if len(_t) == 5:
        _FLUSH5[_m] = _t[0] << 16 | _t[1] << 12 | _t[2] << 8 | _t[3] << 4 | _t[4]
_POP = [bin(m).count("1") for m in range(1 << 13)]


def _pack(cat: int, ks: Sequence[int]) -> int:
    v = cat << 20
    shift = 16
    for k in ks[:5]:
        v |= k << shift
        shift -= 4
    return v


def evaluate(cards: Sequence[int]) -> int:
    """Value of the best five-card hand among 5 to 7 cards (higher is better)."""
    counts = [0] * 13
    smask = [0, 0, 0, 0]
    rmask = 0
    for c in cards:
        r = c >> 2
        counts[r] += 1
        smask[c & 3] |= 1 << r
        rmask |= 1 << r
    for m in smask:
        if _POP[m] >= 5:
            sf = _STRAIGHT[m]
            if sf >= 0:
                return STRAIGHT_FLUSH << 20 | sf << 16
            return FLUSH << 20 | _FLUSH5[m]
    quads = trips = -1
    trips2 = -1
    pairs: list[int] = []
    for r in range(12, -1, -1):
        n = counts[r]
        if n == 4:
            quads = r
        elif n == 3:
            if trips < 0:
                trips = r
            elif trips2 < 0:
                trips2 = r
        elif n == 2:
            pairs.append(r)
    if quads >= 0:
        kick = max(r for r in range(13) if counts[r] and r != quads)
        return _pack(QUADS, (quads, kick))
    if trips >= 0 and (pairs or trips2 >= 0):
        pair = max(pairs[0] if pairs else -1, trips2)
        return _pack(FULL, (trips, pair))
    st = _STRAIGHT[rmask]
    if st >= 0:
        return STRAIGHT << 20 | st << 16
    if trips >= 0:
        return _pack(TRIPS, [trips, *_top_bits(rmask & ~(1 << trips), 2)])
    if len(pairs) >= 2:
        a, b = pairs[0], pairs[1]
        return _pack(TWO_PAIR, [a, b, *_top_bits(rmask & ~(1 << a) & ~(1 << b), 1)])
    if pairs:
        return _pack(PAIR, [pairs[0], *_top_bits(rmask & ~(1 << pairs[0]), 3)])
    return _pack(HIGH, _top_bits(rmask, 5))


def describe(value: int) -> str:
    """PokerStars' words for a hand value, e.g. 'two pair, Aces and Kings'."""
    cat = value >> 20
    k = [(value >> s) & 15 for s in (16, 12, 8, 4, 0)]
    if cat == HIGH:
        return f"high card {_SINGULAR[k[0]]}"
    if cat == PAIR:
        return f"a pair of {_PLURAL[k[0]]}"
    if cat == TWO_PAIR:
        return f"two pair, {_PLURAL[k[0]]} and {_PLURAL[k[1]]}"
    if cat == TRIPS:
        return f"three of a kind, {_PLURAL[k[0]]}"
    if cat in (STRAIGHT, STRAIGHT_FLUSH):
        hi = k[0]
        low = "Ace" if hi == 3 else _SINGULAR[hi - 4]
        if cat == STRAIGHT_FLUSH:
            return "a Royal Flush" if hi == 12 else f"a straight flush, {low} to {_SINGULAR[hi]}"
        return f"a straight, {low} to {_SINGULAR[hi]}"
    if cat == FLUSH:
        return f"a flush, {_SINGULAR[k[0]]} high"
    if cat == FULL:
        return f"a full house, {_PLURAL[k[0]]} full of {_PLURAL[k[1]]}"
    return f"four of a kind, {_PLURAL[k[0]]}"


def _chen(hi: int, lo: int, suited: bool) -> float:
    """Bill Chen's preflop score for a starting hand (ranks 0..12)."""
    base = {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}.get(hi, (hi + 2) / 2)
    if hi == lo:
        return max(5.0, base * 2)
    score = base + (2 if suited else 0)
    gap = hi - lo - 1
    score -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and hi < 10:
        score += 1
    return score


def _preflop_table() -> dict[tuple[int, int, bool], float]:
    """Percentile (0 = best, 1 = worst, weighted by combos) of every starting-hand class."""
    classes = []
    for hi in range(13):
        for lo in range(hi + 1):
            for suited in ((False,) if hi == lo else (True, False)):
                combos = 6 if hi == lo else (4 if suited else 12)
                classes.append((_chen(hi, lo, suited), hi, lo, suited, combos))
    classes.sort(key=lambda t: (-t[0], -t[1], -t[2]))
    out: dict[tuple[int, int, bool], float] = {}
    seen = 0
    for _, hi, lo, suited, combos in classes:
        out[(hi, lo, suited)] = (seen + combos / 2) / 1326
        seen += combos
    return out


_PREFLOP = _preflop_table()


def preflop_pct(hole: Sequence[int]) -> float:
    """Starting-hand percentile: 0.0 for aces, near 1.0 for 7-2 offsuit."""
    a, b = hole[0] >> 2, hole[1] >> 2
    hi, lo = (a, b) if a >= b else (b, a)
    return _PREFLOP[(hi, lo, (hole[0] & 3) == (hole[1] & 3) and hi != lo)]


def draw_bonus(hole: Sequence[int], board: Sequence[int]) -> float:
    """Extra strength for flush and straight draws that use a hole card (flop and turn only)."""
    if len(board) >= 5 or not board:
        return 0.0
    allc = list(hole) + list(board)
    bonus = 0.0
    for s in range(4):
        n = sum(1 for c in allc if c & 3 == s)
        if n == 4 and any(c & 3 == s for c in hole):
            bonus = max(bonus, 0.12 if len(board) == 3 else 0.07)
    mask = 0
    for c in allc:
        mask |= 1 << (c >> 2)
    if _STRAIGHT[mask] < 0:
        outs = 0
        for r in range(13):
            if not mask >> r & 1 and _STRAIGHT[mask | 1 << r] >= 0:
                outs += 1
        if outs >= 2:
            bonus = max(bonus, 0.10 if len(board) == 3 else 0.06)
        elif outs == 1:
            bonus = max(bonus, 0.04 if len(board) == 3 else 0.02)
    return bonus


def hand_strength(hole: Sequence[int], board: Sequence[int], dead: Sequence[int], rng: random.Random,
                  samples: int = 24) -> float:
    """Share of random opponent holdings the hand beats now (ties count half), by sampling."""
    mine = evaluate(list(hole) + list(board))
    used = set(hole) | set(board) | set(dead)
    rest = [c for c in DECK if c not in used]
    rng.shuffle(rest)
    board_l = list(board)
    wins = 0.0
    n = min(samples, len(rest) // 2)
    for i in range(n):
        v = evaluate([rest[2 * i], rest[2 * i + 1], *board_l])
        if mine > v:
            wins += 1
        elif mine == v:
            wins += 0.5
    return wins / max(n, 1)
