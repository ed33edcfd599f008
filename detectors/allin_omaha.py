"""Exact all-in equity for Omaha: 4, 5 and 6 hole cards, high only and 8-or-better hi/lo.

Why a table of three-card subsets: an Omaha hand is exactly two hole cards and three board cards,
so a player's value on a board is the best, over the board's 10 three-card subsets, of that
subset's best completion by two of the player's hole cards. That completion depends on the subset
only, so each hand tabulates it once for every three cards that can still be on the board, and
a run-out of a flop or turn all-in (or Courchevel's, one card known preflop) costs 6 lookups per
player: the 4 subsets without its last card were taken at the level before, and the 6 with it
are rows read in order as the last card runs (``_omaha_counts``).

Preflop (heads-up four-card Omaha: C(44, 5) = 1,086,008 boards) the same idea goes by rank, as
hold'em's ``allin._preflop_counts`` does: without a flush a high hand and a low depend on the
ranks alone, so each multiset of five board ranks is valued once (the best over its 10 rank
triples, tabulated per player) and weighted by its boards; then only the boards with three or
more cards of a suit that a player holds two of are walked by their suited cards, and their
awards corrected where a flush beats the player's best high (``_omaha_preflop``). Both count
every board exactly; none is sampled.

The five-card values are the hold'em evaluator's (``allin._tables``: rank states and flush masks,
phevaluator's scale), the pots' split is hold'em's ``_award``: each run-out is worth two half
pots, both to the best high hand, or, in hi/lo when an eligible player has an 8-or-better low,
one to the best high and one to the best low (ties split within each half).
"""

from __future__ import annotations

from rules.numba_cache import use_writable_cache

use_writable_cache(__file__)

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from detectors.allin import (  # noqa: E402
    _BINOM,
    SHARE_UNITS,
    _advance,
    _award,
    _first_ranks,
    _next_ranks,
    _tables,
)

#: hole cards per player in the Omaha variants the parsers read (Courchevel is five-card Omaha
#: with the first flop card dealt face up before the preflop betting)
OMAHA_HOLE = {"omaha": 4, "omaha_hilo": 4, "omaha5": 5, "omaha5_hilo": 5, "omaha6": 6, "omaha6_hilo": 6,
              "courchevel": 5, "courchevel_hilo": 5}
#: board cards known before the preflop betting, per variant (0 when absent)
PREFLOP_BOARD = {"courchevel": 1, "courchevel_hilo": 1}
#: units of one pot per run-out: two halves of SHARE_UNITS (high and low, or both to the high)
POT_UNITS = 2 * SHARE_UNITS


def is_hilo(variant: str) -> bool:
    """Whether the variant splits the pot with an 8-or-better low."""
    return variant.endswith("_hilo")


def _low_tables() -> tuple[np.ndarray, np.ndarray]:
    """(bit of each rank, value of each OR of five bits). Ranks 2..8 and the ace (as 1) take bits
    2..8 and 1, any higher rank bit 9; five cards make a low when their mask has five bits and no
    bit 9. Masks of five bits compare as lows do, highest card first, so the value is
    512 - mask (higher is better) and 0 is no low."""
    bit = np.array([1 << 9 if 7 <= r <= 11 else 1 << (1 if r == 12 else r + 2) for r in range(13)], dtype=np.int64)
    value = np.zeros(1024, dtype=np.int64)
    for mask in range(512):
        if bin(mask).count("1") == 5:
            value[mask] = 512 - mask
    return bit, value


_LOW = _low_tables()


@njit(cache=True)
def _subset_values(hole: np.ndarray, uni: np.ndarray, hilo: bool, nxt: np.ndarray, values: np.ndarray,
                   flush: np.ndarray, low_bit: np.ndarray, low_value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each player's best high (and low) value with each three cards of ``uni`` (positions
    a < b < c): the best of their hole pairs completed by those three board cards."""
    n, h = hole.shape
    m = len(uni)
    hi = np.zeros((n, m, m, m), dtype=np.int16)
    lo = np.zeros((n, m, m, m) if hilo else (n, 1, 1, 1), dtype=np.int16)
    for p in range(n):
        for i in range(h):
            for j in range(i + 1, h):
                x, y = hole[p, i], hole[p, j]
                s2 = nxt[nxt[0, x // 4], y // 4]
                suit = x % 4 if x % 4 == y % 4 else -1
                ranks2 = (1 << (x // 4)) | (1 << (y // 4))
                low2 = low_bit[x // 4] | low_bit[y // 4]
                for a in range(m):
                    ca = uni[a]
                    s3 = nxt[s2, ca // 4]
                    for b in range(a + 1, m):
                        cb = uni[b]
                        s4 = nxt[s3, cb // 4]
                        for c in range(b + 1, m):
                            cc = uni[c]
                            v = values[nxt[s4, cc // 4]]
                            if suit >= 0 and ca % 4 == suit and cb % 4 == suit and cc % 4 == suit:
                                v = flush[ranks2 | (1 << (ca // 4)) | (1 << (cb // 4)) | (1 << (cc // 4))]
                            hi[p, a, b, c] = max(hi[p, a, b, c], v)
                            if hilo:
                                lv = low_value[low2 | low_bit[ca // 4] | low_bit[cb // 4] | low_bit[cc // 4]]
                                lo[p, a, b, c] = max(lo[p, a, b, c], lv)
    return hi, lo


@njit(cache=True, inline="always")
def _level(d: int, pos: np.ndarray, table: np.ndarray, best: np.ndarray) -> None:
    """best[d + 1, p]: player p's best over the subsets of the first d + 1 board cards, from
    best[d, p] and the subsets holding card d."""
    for p in range(table.shape[0]):
        v = best[d, p]
        for i in range(d):
            for j in range(i + 1, d):
                v = max(v, table[p, pos[i], pos[j], pos[d]])
        best[d + 1, p] = v


@njit(cache=True, inline="always")
def _last_card(pos: np.ndarray, table: np.ndarray, best: np.ndarray, row: np.ndarray) -> None:
    """row[p, e]: player p's best over the subsets of the first four board cards and card
    position e as the fifth, for every e after the fourth: the 6 subsets holding e are rows of
    the table read in order (the 4 without it are best[4, p])."""
    start = pos[3] + 1
    for p in range(table.shape[0]):
        for e in range(start, table.shape[3]):
            row[p, e] = best[4, p]
        for i in range(4):
            for j in range(i + 1, 4):
                sub = table[p, pos[i], pos[j]]
                for e in range(start, table.shape[3]):
                    row[p, e] = max(row[p, e], sub[e])


@njit(cache=True, inline="always")
def _award_board(hi: np.ndarray, lo: np.ndarray, hilo: bool, elig: np.ndarray, n: int, out: np.ndarray,
                 weight: int = 1) -> None:
    """Both half pots of each layer on ``weight`` boards: to the best high, or in hi/lo, when an
    eligible player has a low, one half to the best high and one to the best low."""
    if not hilo:
        _award(hi, elig, n, out, 2 * weight)
        return
    for j in range(elig.shape[0]):
        low = False
        for p in range(n):
            low = low or (elig[j, p] == 1 and lo[p] > 0)
        if low:
            _award(hi, elig[j : j + 1], n, out[j : j + 1], weight)
            _award(lo, elig[j : j + 1], n, out[j : j + 1], weight)
        else:
            _award(hi, elig[j : j + 1], n, out[j : j + 1], 2 * weight)


@njit(cache=True)
def _omaha_counts(hole: np.ndarray, board: np.ndarray, elig: np.ndarray, hilo: bool, nxt: np.ndarray,
                  values: np.ndarray, flush: np.ndarray, low_bit: np.ndarray,
                  low_value: np.ndarray) -> tuple[np.ndarray, int]:
    """Deal every run-out of the missing board cards: POT_UNITS per run-out shared per (layer,
    player), and the number of run-outs. The known board takes the first positions of the card
    list, the deck the rest; the first missing cards are walked as combinations (each level's
    best subset values kept), the last one runs over the rest of the deck."""
    n = hole.shape[0]
    used = np.zeros(52, dtype=np.bool_)
    for c in board:
        used[c] = True
    for c in hole.ravel():
        used[c] = True
    k = len(board)
    uni = np.concatenate((board, np.array([c for c in range(52) if not used[c]], dtype=np.int64)))
    m, r = len(uni), 5 - k
    hi_t, lo_t = _subset_values(hole, uni, hilo, nxt, values, flush, low_bit, low_value)
    best_hi = np.zeros((6, n), dtype=np.int64)
    best_lo = np.zeros((6, n), dtype=np.int64)
    pos = np.arange(5)
    for d in range(k):
        _level(d, pos, hi_t, best_hi)
        if hilo:
            _level(d, pos, lo_t, best_lo)
    out = np.zeros(elig.shape, dtype=np.int64)
    if r == 0:
        _award_board(best_hi[5], best_lo[5], hilo, elig, n, out)
        return out, 1
    row_hi = np.zeros((n, m), dtype=np.int64)
    row_lo = np.zeros((n, m), dtype=np.int64)
    v_hi = np.zeros(n, dtype=np.int64)
    v_lo = np.zeros(n, dtype=np.int64)
    q = r - 1  # missing cards walked as combinations before the last one
    idx = np.arange(q)
    first = 0
    runouts = 0
    while True:
        for d in range(first, q):
            pos[k + d] = k + idx[d]
            _level(k + d, pos, hi_t, best_hi)
            if hilo:
                _level(k + d, pos, lo_t, best_lo)
        _last_card(pos, hi_t, best_hi, row_hi)
        if hilo:
            _last_card(pos, lo_t, best_lo, row_lo)
        for e in range(pos[3] + 1, m):  # pos[3]: the card before the last, known or walked
            for p in range(n):
                v_hi[p] = row_hi[p, e]
                v_lo[p] = row_lo[p, e]
            _award_board(v_hi, v_lo, hilo, elig, n, out)
            runouts += 1
        first = _advance(idx, m - k - 1)  # the deck after the known board, less room for the last card
        if first < 0:
            return out, runouts


@njit(cache=True)
def _rank_subsets(hole: np.ndarray, hilo: bool, nxt: np.ndarray, values: np.ndarray, low_bit: np.ndarray,
                  low_value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each player's best high as if no flush were made (and low) with each three board ranks
    r1 <= r2 <= r3: the best of their hole pairs with those ranks (suits decide only flushes)."""
    n, h = hole.shape
    hi = np.zeros((n, 13, 13, 13), dtype=np.int64)
    lo = np.zeros((n, 13, 13, 13) if hilo else (n, 1, 1, 1), dtype=np.int64)
    for p in range(n):
        for i in range(h):
            for j in range(i + 1, h):
                x, y = hole[p, i] // 4, hole[p, j] // 4
                s2 = nxt[nxt[0, x], y]
                for a in range(13):
                    s3 = nxt[s2, a]
                    for b in range(a, 13):
                        s4 = nxt[s3, b] if s3 >= 0 else -1
                        for c in range(b, 13):
                            s5 = nxt[s4, c] if s4 >= 0 else -1
                            if s5 < 0:
                                continue  # five of a rank: no such board with these hole cards
                            hi[p, a, b, c] = max(hi[p, a, b, c], values[s5])
                            if hilo:
                                lv = low_value[low_bit[x] | low_bit[y] | low_bit[a] | low_bit[b] | low_bit[c]]
                                lo[p, a, b, c] = max(lo[p, a, b, c], lv)
    return hi, lo


@njit(cache=True, inline="always")
def _best_of_subsets(br: np.ndarray, table: np.ndarray, v: np.ndarray) -> None:
    """v[p]: player p's best over the 10 three-card subsets of the sorted board ranks ``br``."""
    for p in range(table.shape[0]):
        best = 0
        for i in range(5):
            for j in range(i + 1, 5):
                for k in range(j + 1, 5):
                    best = max(best, table[p, br[i], br[j], br[k]])
        v[p] = best


@njit(cache=True, inline="always")
def _merge(suited: np.ndarray, idx: np.ndarray, rest: np.ndarray, br: np.ndarray) -> None:
    """br: the sorted ranks of the suited cards chosen by ``idx`` and the ``rest`` (both sorted)."""
    a = b = 0
    for t in range(len(br)):
        if b >= len(rest) or (a < len(idx) and suited[idx[a]] <= rest[b]):
            br[t] = suited[idx[a]]
            a += 1
        else:
            br[t] = rest[b]
            b += 1


@njit(cache=True)
def _omaha_preflop(hole: np.ndarray, elig: np.ndarray, hilo: bool, nxt: np.ndarray, values: np.ndarray,
                   flush: np.ndarray, low_bit: np.ndarray, low_value: np.ndarray,
                   binom: np.ndarray) -> tuple[np.ndarray, int]:
    """``_omaha_counts`` with no board known, counted by rank pattern (as hold'em's
    ``_preflop_counts``): every multiset of five board ranks once, weighted by its boards, with
    the values as if no flush were made (lows never depend on suits); then the boards holding
    three or more cards of a suit, when a player holds two of it, walked by their cards of that
    suit (the others by rank) and their awards corrected where a flush changes a high."""
    n, h = hole.shape
    free = np.ones((4, 13), dtype=np.int64)
    for c in hole.ravel():
        free[c % 4, c // 4] = 0
    hi_t, lo_t = _rank_subsets(hole, hilo, nxt, values, low_bit, low_value)
    out = np.zeros(elig.shape, dtype=np.int64)
    hi = np.zeros(n, dtype=np.int64)
    lo = np.zeros(n, dtype=np.int64)
    flushed = np.zeros(n, dtype=np.int64)
    rk = np.zeros(5, dtype=np.int64)
    runouts = 0
    avail = free.sum(axis=0)
    w = _first_ranks(rk, avail, binom)
    while w:
        _best_of_subsets(rk, hi_t, hi)
        if hilo:
            _best_of_subsets(rk, lo_t, lo)
        _award_board(hi, lo, hilo, elig, n, out, w)
        runouts += w
        w = _next_ranks(rk, avail, binom)
    br = np.zeros(5, dtype=np.int64)
    pairs = np.zeros((n, h * (h - 1) // 2), dtype=np.int64)  # rank masks of each player's pairs of the suit
    n_pairs = np.zeros(n, dtype=np.int64)
    for s in range(4):
        suited = np.array([r for r in range(13) if free[s, r]], dtype=np.int64)
        n_pairs[:] = 0
        for p in range(n):
            for i in range(h):
                for j in range(i + 1, h):
                    if hole[p, i] % 4 == s and hole[p, j] % 4 == s:
                        pairs[p, n_pairs[p]] = (1 << (hole[p, i] // 4)) | (1 << (hole[p, j] // 4))
                        n_pairs[p] += 1
        if n_pairs.max() == 0:
            continue  # nobody holds two of the suit: no flush in it
        others = avail - free[s]
        for j in range(3, min(5, len(suited)) + 1):
            idx = np.arange(j)
            rest = np.zeros(5 - j, dtype=np.int64)
            while True:
                for p in range(n):  # each player's best flush with three of these j suited cards
                    best = 0
                    for a in range(j):
                        for b in range(a + 1, j):
                            for c in range(b + 1, j):
                                m3 = (1 << suited[idx[a]]) | (1 << suited[idx[b]]) | (1 << suited[idx[c]])
                                for t in range(n_pairs[p]):
                                    best = max(best, flush[m3 | pairs[p, t]])
                    flushed[p] = best
                w = _first_ranks(rest, others, binom)
                while w:
                    _merge(suited, idx, rest, br)
                    _best_of_subsets(br, hi_t, hi)
                    if hilo:
                        _best_of_subsets(br, lo_t, lo)
                    changed = False
                    for p in range(n):
                        changed = changed or flushed[p] > hi[p]
                    if changed:
                        _award_board(hi, lo, hilo, elig, n, out, -w)
                        for p in range(n):
                            hi[p] = max(hi[p], flushed[p])
                        _award_board(hi, lo, hilo, elig, n, out, w)
                    w = _next_ranks(rest, others, binom)
                if _advance(idx, len(suited)) < 0:
                    break
    return out, runouts


def omaha_share_counts(hole: list[list[int]], board: list[int], elig: list[list[int]],
                       hilo: bool) -> tuple[np.ndarray, int]:
    """Exact share units per (contested layer, player) over every run-out, and the run-out count:
    a player's equity in layer j is out[j, p] / (POT_UNITS * runouts)."""
    nxt, values, flush = _tables()
    low_bit, low_value = _LOW
    holes = np.array(hole, dtype=np.int64)
    layers = np.array(elig, dtype=np.int64).reshape(-1, len(hole))
    if not board:
        return _omaha_preflop(holes, layers, hilo, nxt, values, flush, low_bit, low_value, _BINOM)
    return _omaha_counts(holes, np.array(board, dtype=np.int64), layers, hilo, nxt, values, flush, low_bit, low_value)


def bench(deals: int = 10, seed: int = 14) -> list[tuple[str, float]]:
    """CPU seconds per preflop all-in (the expensive case), random deals with a fixed seed: heads-up
    and three-way four-card Omaha, high and hi/lo, heads-up five- and six-card Omaha."""
    import random
    import time

    omaha_share_counts([[0, 1, 2, 3], [4, 5, 6, 7]], [], [[1, 1]], True)  # compile or load the cache
    rng = random.Random(seed)
    rows = []
    for label, players, hole, hilo in (("PLO heads-up", 2, 4, False), ("PLO8 heads-up", 2, 4, True),
                                       ("PLO three-way", 3, 4, False), ("PLO8 three-way", 3, 4, True),
                                       ("PLO5 heads-up", 2, 5, False), ("PLO6 heads-up", 2, 6, False)):
        took = 0.0
        for _ in range(deals):
            cards = rng.sample(range(52), players * hole)
            hands = [cards[p * hole:(p + 1) * hole] for p in range(players)]
            t = time.process_time()
            omaha_share_counts(hands, [], [[1] * players], hilo)
            took += time.process_time() - t
        rows.append((label, took / deals))
    return rows


if __name__ == "__main__":
    for what, seconds in bench():
        print(f"{what}: {seconds * 1000:.0f} ms CPU per preflop all-in")
