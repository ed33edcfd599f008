"""All-in adjusted winnings: replace the luck of the run-out by the equity when the money went in.

Why: bb/100 over a few thousand hands is dominated by all-in luck; crediting each player their
equity share of the pot (known cards, a showdown after the last bet was made before the river)
removes that variance, as PokerTracker 4's "all-in EV" does. The equity is exact: every run-out of
the missing board cards is dealt, ties split, side pots shared among the players eligible for
them, for heads-up and multiway pots alike.

Why it stays fast: a numba enumerator (``_share_counts``) over a rank-state machine (each card
adds its rank to a multiset of up to 7 ranks in one table lookup; the 7-card multisets' values and
the flushes' are phevaluator's, tabulated once per process) deals the 990 flop and 44 turn
run-outs of thousands of hands in milliseconds, the last card a rank at a time, each distinct
matchup once. Preflop heads-up all-ins, the common expensive case (1,712,304 run-outs each), are
looked up in a table of all 47,008 suit-canonical heads-up matchups (``python -m detectors.allin
--write-preflop-table``, shipped in ``models/``); other preflop pots (multiway: 55 in 200,000
simulated hands) are counted by rank pattern (``_preflop_counts``: the 6,188 five-rank multisets
weighted by their boards, then only the boards on which someone makes a flush walked apart),
about 3 ms each instead of 20 ms dealt. Omaha (``detectors.allin_omaha``) is enumerated exactly
by its own rule. Rake: each player's expected share is scaled to what was paid out and rounded
to whole chips, so a hand's adjusted results add up to its real ones.
"""

from __future__ import annotations

import argparse
import base64
import itertools
import json
import os
import time
import zlib
from importlib import resources
from pathlib import Path

from rules.numba_cache import use_writable_cache

use_writable_cache(__file__)

import duckdb  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from numba import njit  # noqa: E402
from phevaluator import _pheval  # noqa: E402

from detectors.cards import CARD_ID  # noqa: E402

#: share units per run-out: divisible by every number of tied winners (1..9)
SHARE_UNITS = 2520
PREFLOP_RUNOUTS = 1_712_304  # C(48, 5)
TABLE = "allin_preflop_headsup.json"
_SUIT_PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


# --- the evaluator: rank multisets as states, flushes from suit masks -------------------------

def _rank_states() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every multiset of at most 7 ranks (at most 4 of a rank) as a base-5 key, the transition
    table next[state, rank] (-1 when full) and each 7-card and 5-card state's non-flush hand value
    (hold'em reads the 7-card ones, Omaha's two hole plus three board cards the 5-card ones)."""
    pow5 = 5 ** np.arange(13, dtype=np.int64)
    levels = [np.zeros(1, dtype=np.int64)]
    for _ in range(7):
        prev = levels[-1]
        digits = (prev[:, None] // pow5) % 5
        grown = (prev[:, None] + pow5)[digits < 4]
        levels.append(np.unique(grown))
    keys = np.concatenate(levels)
    order = np.argsort(keys)
    keys = keys[order]
    sizes = np.concatenate([np.full(len(lv), k) for k, lv in enumerate(levels)])[order]
    digits = (keys[:, None] // pow5) % 5
    nxt_keys = keys[:, None] + pow5
    nxt = np.searchsorted(keys, nxt_keys).astype(np.int32)
    nxt[(digits >= 4) | (sizes[:, None] >= 7)] = -1
    values = np.zeros(len(keys), dtype=np.int64)
    for size in (5, 7):
        full = np.flatnonzero(sizes == size)
        values[full] = _values_of(digits[full].astype(np.int64), size)
    return keys, nxt, values


def _values_of(counts: np.ndarray, size: int) -> np.ndarray:
    """Non-flush hand values (higher is better) of ``size``-card rank multisets (5 or 7), one row
    of 13 counts each: phevaluator's rank of the cards dealt in rotating suits (a rank's copies in
    different suits, at most two cards a suit: never a flush), turned so that higher is better;
    5 and 7 cards share phevaluator's scale."""
    ranks = np.repeat(np.tile(np.arange(13, dtype=np.int64), len(counts)), counts.ravel()).reshape(-1, size)
    cards = ranks * 4 + np.arange(size) % 4
    ev = _pheval.evaluate_7cards if size == 7 else _pheval.evaluate_5cards
    return np.array([7463 - ev(*row) for row in cards.tolist()], dtype=np.int64)


def _flush_values() -> np.ndarray:
    """Value of the best flush or straight flush (phevaluator's, on the same scale as
    ``_values_of``) in each 13-bit mask of one suit's ranks; 0 under 5 cards (a 7-card hand
    holds at most 7 of a suit)."""
    out = np.zeros(8192, dtype=np.int64)
    evaluate = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}
    for k, ev in evaluate.items():
        for ranks in itertools.combinations(range(13), k):
            out[sum(1 << r for r in ranks)] = 7463 - ev(*(r * 4 for r in ranks))
    return out


_TABLES: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(next, values, flush values), built once per process (~0.2 s)."""
    global _TABLES  # noqa: PLW0603  (a per-process cache of immutable arrays)
    if _TABLES is None:
        _, nxt, values = _rank_states()
        _TABLES = (nxt, values, _flush_values())
    return _TABLES


# --- exact enumeration of run-outs -------------------------------------------------------------

@njit(cache=True, inline="always")
def _leaf(st: np.ndarray, bcnt: np.ndarray, bmask: np.ndarray, hole_cnt: np.ndarray, hole_mask: np.ndarray,
          n: int, values: np.ndarray, flush: np.ndarray, v: np.ndarray) -> None:
    """Each player's hand value on one complete board (rank state, or the flush when one is made)."""
    fs = -1
    for s in range(4):
        if bcnt[s] >= 3:
            fs = s
    for p in range(n):
        v[p] = values[st[p]]
        if fs >= 0 and hole_cnt[p, fs] + bcnt[fs] >= 5:
            v[p] = flush[bmask[fs] | hole_mask[p, fs]]


@njit(cache=True, inline="always")
def _award(v: np.ndarray, elig: np.ndarray, n: int, out: np.ndarray, weight: int = 1) -> None:
    """Add ``weight`` run-outs' share units of each contested pot layer to its winners (ties split)."""
    for j in range(elig.shape[0]):
        best = -1
        k = 0
        for p in range(n):
            if elig[j, p]:
                if v[p] > best:
                    best = v[p]
                    k = 1
                elif v[p] == best:
                    k += 1
        if k == 0:
            continue
        unit = SHARE_UNITS // k * weight
        for p in range(n):
            if elig[j, p] and v[p] == best:
                out[j, p] += unit


@njit(cache=True, inline="always")
def _flush_possible(bcnt: np.ndarray, suit: int, most: np.ndarray) -> bool:
    """Whether the board with one more card of ``suit`` could give some player a flush (``most``:
    the most hole cards any player holds in each suit)."""
    for s in range(4):
        b = bcnt[s] + (s == suit)
        if b >= 3 and most[s] + b >= 5:
            return True
    return False


@njit(cache=True)
def _share_counts(hole: np.ndarray, board: np.ndarray, elig: np.ndarray, nxt: np.ndarray, values: np.ndarray,
                  flush: np.ndarray) -> tuple[np.ndarray, int]:
    """Deal every run-out of the missing board cards: share units per (layer, player) and the
    number of run-outs. ``hole`` is (players, 2) card ids, ``board`` the known cards, ``elig`` a
    (layers, players) 0/1 matrix of who can win each contested pot layer.

    The first cards of a run-out are walked as combinations, each level's rank states and suit
    counts kept; the last card is taken a rank at a time: its cards that can make no flush give
    the same hand values, so they are evaluated once and weighted (the deck is sorted by rank)."""
    n = hole.shape[0]
    used = np.zeros(52, dtype=np.bool_)
    for c in board:
        used[c] = True
    for p in range(n):
        used[hole[p, 0]] = True
        used[hole[p, 1]] = True
    deck = np.array([c for c in range(52) if not used[c]], dtype=np.int64)
    m, r = len(deck), 5 - len(board)
    # level 0: hole cards and the known board; level d + 1: after the d-th run-out card
    st = np.zeros((r + 1, n), dtype=np.int64)
    bcnt = np.zeros((r + 1, 4), dtype=np.int64)
    bmask = np.zeros((r + 1, 4), dtype=np.int64)
    hole_cnt = np.zeros((n, 4), dtype=np.int64)
    hole_mask = np.zeros((n, 4), dtype=np.int64)
    for p in range(n):
        s = 0
        for c in (hole[p, 0], hole[p, 1]):
            s = nxt[s, c // 4]
            hole_cnt[p, c % 4] += 1
            hole_mask[p, c % 4] |= 1 << (c // 4)
        for c in board:
            s = nxt[s, c // 4]
        st[0, p] = s
    for c in board:
        bcnt[0, c % 4] += 1
        bmask[0, c % 4] |= 1 << (c // 4)
    out = np.zeros(elig.shape, dtype=np.int64)
    v = np.zeros(n, dtype=np.int64)
    if r == 0:
        _leaf(st[0], bcnt[0], bmask[0], hole_cnt, hole_mask, n, values, flush, v)
        _award(v, elig, n, out)
        return out, 1
    q = r - 1  # cards walked as combinations before the last one
    can_flush = np.zeros(4, dtype=np.bool_)  # per last card's suit, for the current first cards
    most = np.zeros(4, dtype=np.int64)
    for p in range(n):
        for s in range(4):
            most[s] = max(most[s], hole_cnt[p, s])
    idx = np.arange(q)
    first = 0  # the first level whose card changed since the last pass
    runouts = 0
    while True:
        for d in range(first, q):
            c = deck[idx[d]]
            for p in range(n):
                st[d + 1, p] = nxt[st[d, p], c // 4]
            for s in range(4):
                bcnt[d + 1, s] = bcnt[d, s]
                bmask[d + 1, s] = bmask[d, s]
            bcnt[d + 1, c % 4] += 1
            bmask[d + 1, c % 4] |= 1 << (c // 4)
        for s in range(4):
            can_flush[s] = _flush_possible(bcnt[q], s, most)
        i = idx[q - 1] + 1 if q > 0 else 0
        while i < m:
            rank = deck[i] // 4
            plain = 0
            while i < m and deck[i] // 4 == rank:
                c = deck[i]
                if can_flush[c % 4]:
                    for s in range(4):
                        bcnt[r, s] = bcnt[q, s]
                        bmask[r, s] = bmask[q, s]
                    bcnt[r, c % 4] += 1
                    bmask[r, c % 4] |= 1 << rank
                    for p in range(n):
                        st[r, p] = nxt[st[q, p], rank]
                    _leaf(st[r], bcnt[r], bmask[r], hole_cnt, hole_mask, n, values, flush, v)
                    _award(v, elig, n, out)
                else:
                    plain += 1
                runouts += 1
                i += 1
            if plain:
                for p in range(n):
                    v[p] = values[nxt[st[q, p], rank]]
                _award(v, elig, n, out, plain)
        first = _advance(idx, m - 1)  # the last card needs one card after the others
        if first < 0:
            return out, runouts


@njit(cache=True, inline="always")
def _advance(idx: np.ndarray, m: int) -> int:
    """Step the sorted combination ``idx`` of range(m) to the next one: the first position that
    changed, or -1 after the last combination."""
    k = len(idx)
    j = k - 1
    while j >= 0 and idx[j] == m - k + j:
        j -= 1
    if j < 0:
        return -1
    idx[j] += 1
    for t in range(j + 1, k):
        idx[t] = idx[t - 1] + 1
    return j


_BINOM = np.array([[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0], [1, 4, 6, 4, 1]],
                  dtype=np.int64)  # C(a, k) for a, k <= 4


@njit(cache=True, inline="always")
def _ranks_weight(rk: np.ndarray, avail: np.ndarray, binom: np.ndarray) -> int:
    """Boards with the nondecreasing board ranks ``rk`` when ``avail[r]`` cards of rank r are
    left: the product of C(avail[r], copies of r), 0 when a rank is short."""
    w = 1
    i = 0
    while i < len(rk):
        j = i
        while j < len(rk) and rk[j] == rk[i]:
            j += 1
        if j - i > avail[rk[i]]:
            return 0
        w *= binom[avail[rk[i]], j - i]
        i = j
    return w


@njit(cache=True, inline="always")
def _next_ranks(rk: np.ndarray, avail: np.ndarray, binom: np.ndarray) -> int:
    """Step ``rk`` to the next multiset of board ranks (nondecreasing, from 13) that the deck can
    deal; its number of boards, or 0 after the last. Start from ``_first_ranks``."""
    k = len(rk)
    while True:
        i = k - 1
        while i >= 0 and rk[i] == 12:
            i -= 1
        if i < 0:
            return 0
        rk[i] += 1
        for t in range(i + 1, k):
            rk[t] = rk[i]
        w = _ranks_weight(rk, avail, binom)
        if w:
            return w


@njit(cache=True, inline="always")
def _first_ranks(rk: np.ndarray, avail: np.ndarray, binom: np.ndarray) -> int:
    """Set ``rk`` to the first multiset of board ranks the deck can deal; its number of boards
    (1 for no cards)."""
    rk[:] = 0
    w = _ranks_weight(rk, avail, binom)
    return w if w else _next_ranks(rk, avail, binom)


@njit(cache=True)
def _rank_boards(size: int, avail: np.ndarray, start: np.ndarray, nxt: np.ndarray, values: np.ndarray,
                 binom: np.ndarray, elig: np.ndarray, out: np.ndarray, sign: int, flushed: np.ndarray) -> int:
    """Award every multiset of ``size`` board ranks (``avail[r]`` cards of rank r to choose from)
    weighted by its number of boards, with the rank-state values from ``start`` (players'
    states before these cards) or ``flushed[p]`` where it is above 0; and with ``sign`` -1 the
    rank values alone taken back. Returns the number of boards."""
    n = start.shape[0]
    rk = np.zeros(size, dtype=np.int64)
    v = np.zeros(n, dtype=np.int64)
    plain = np.zeros(n, dtype=np.int64)
    boards = 0
    w = _first_ranks(rk, avail, binom)
    while w:
        for p in range(n):
            st = start[p]
            for r in rk:
                st = nxt[st, r]
            plain[p] = values[st]
            v[p] = flushed[p] if flushed[p] > 0 else plain[p]
        _award(v, elig, n, out, w)
        if sign < 0:
            _award(plain, elig, n, out, -w)
        boards += w
        w = _next_ranks(rk, avail, binom)
    return boards


@njit(cache=True)
def _preflop_counts(hole: np.ndarray, elig: np.ndarray, nxt: np.ndarray, values: np.ndarray, flush: np.ndarray,
                    binom: np.ndarray) -> tuple[np.ndarray, int]:
    """``_share_counts`` with no board known, counted by rank pattern instead of dealt: every
    multiset of five board ranks once, weighted by its boards, as if no flush were made; then
    the boards on which someone makes a flush (three or more of one suit, at most one such suit)
    are walked by their cards of that suit, the other cards again by rank, and their awards
    corrected. About 90,000 evaluations for any number of players instead of 1.7M boards each."""
    n = hole.shape[0]
    free = np.ones((4, 13), dtype=np.int64)  # free[suit, rank]: the card is still in the deck
    start = np.zeros(n, dtype=np.int64)
    hole_cnt = np.zeros((n, 4), dtype=np.int64)
    hole_mask = np.zeros((n, 4), dtype=np.int64)
    for p in range(n):
        for c in (hole[p, 0], hole[p, 1]):
            free[c % 4, c // 4] = 0
            start[p] = nxt[start[p], c // 4]
            hole_cnt[p, c % 4] += 1
            hole_mask[p, c % 4] |= 1 << (c // 4)
    out = np.zeros(elig.shape, dtype=np.int64)
    none = np.zeros(n, dtype=np.int64)
    runouts = _rank_boards(5, free.sum(axis=0), start, nxt, values, binom, elig, out, 1, none)
    flushed = np.zeros(n, dtype=np.int64)
    for s in range(4):
        suited = np.array([r for r in range(13) if free[s, r]], dtype=np.int64)
        others = free.sum(axis=0) - free[s]
        most = 0
        for p in range(n):
            most = max(most, hole_cnt[p, s])
        for j in range(max(3, 5 - most), min(5, len(suited)) + 1):
            idx = np.arange(j)
            while True:
                mask = 0
                st = start.copy()
                for t in range(j):
                    mask |= 1 << suited[idx[t]]
                    for p in range(n):
                        st[p] = nxt[st[p], suited[idx[t]]]
                for p in range(n):
                    flushed[p] = flush[mask | hole_mask[p, s]] if hole_cnt[p, s] + j >= 5 else 0
                _rank_boards(5 - j, others, st, nxt, values, binom, elig, out, -1, flushed)
                if _advance(idx, len(suited)) < 0:
                    break
    return out, runouts


def share_counts(hole: list[list[int]], board: list[int], elig: list[list[int]]) -> tuple[np.ndarray, int]:
    """Exact share units per (contested layer, player) over every run-out, and the run-out count:
    a player's equity in layer j is out[j, p] / (SHARE_UNITS * runouts)."""
    nxt, values, flush = _tables()
    holes = np.array(hole, dtype=np.int64).reshape(-1, 2)
    layers = np.array(elig, dtype=np.int64).reshape(-1, len(hole))
    if not board:
        return _preflop_counts(holes, layers, nxt, values, flush, _BINOM)
    return _share_counts(holes, np.array(board, dtype=np.int64), layers, nxt, values, flush)


# --- the preflop heads-up table -------------------------------------------------------------

def canonical_headsup(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Suit-canonical key of heads-up matchups, one row (h1a, h1b, h2a, h2b) of card ids each:
    the smallest packing over the 24 suit relabelings and the two seat orders, and whether the
    key's first hand is the row's second player (so its equity is the complement)."""
    cards = np.asarray(cards, dtype=np.int64).reshape(-1, 4)
    ranks, suits = cards // 4, cards % 4
    best = np.full(len(cards), np.iinfo(np.int64).max, dtype=np.int64)
    swapped = np.zeros(len(cards), dtype=np.bool_)
    for perm in _SUIT_PERMS:
        ids = ranks * 4 + perm[suits]
        h1 = np.sort(ids[:, :2], axis=1)
        h2 = np.sort(ids[:, 2:], axis=1)
        for flip, (a, b) in enumerate(((h1, h2), (h2, h1))):
            key = (a[:, 1] << 18) | (a[:, 0] << 12) | (b[:, 1] << 6) | b[:, 0]
            better = key < best
            best[better] = key[better]
            swapped[better] = bool(flip)
    return best, swapped


def _all_headsup_keys() -> np.ndarray:
    """Every distinct canonical heads-up preflop matchup (47k of the 812k card pairs)."""
    hands = np.array(list(itertools.combinations(range(52), 2)), dtype=np.int64)
    i, j = np.triu_indices(len(hands), k=1)
    rows = np.concatenate([hands[i], hands[j]], axis=1)
    rows = rows[(rows[:, :2, None] != rows[:, None, 2:]).all(axis=(1, 2))]
    keys, _ = canonical_headsup(rows)
    return np.unique(keys)


def _unpack(key: int) -> list[list[int]]:
    """The two hands of a packed heads-up key."""
    return [[(key >> 18) & 63, (key >> 12) & 63], [(key >> 6) & 63, key & 63]]


def _preflop_halves(keys: np.ndarray) -> np.ndarray:
    """Player 1's preflop equity in half-pots (2 * wins + ties) for each packed heads-up key."""
    halves = np.zeros(len(keys), dtype=np.int64)
    for n, key in enumerate(keys):
        out, runouts = share_counts(_unpack(int(key)), [], [[1, 1]])
        assert runouts == PREFLOP_RUNOUTS
        halves[n] = out[0, 0] * 2 // SHARE_UNITS
    return halves


def write_preflop_table(path: Path, jobs: int = 1, progress: bool = True) -> None:
    """Compute every canonical heads-up preflop matchup exactly and write the table (JSON with
    base64 zlib int arrays: packed keys, and player 1's equity in half-pots over C(48, 5) boards).
    47,008 matchups by ``share_counts`` (rank patterns, a few ms each), split over ``jobs``
    processes."""
    from concurrent.futures import ProcessPoolExecutor

    keys = _all_headsup_keys()
    chunks = np.array_split(keys, max(1, len(keys) // 500))
    t = time.perf_counter()
    parts: list[np.ndarray] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(_preflop_halves, chunks):
            parts.append(part)
            if progress:
                done = sum(len(x) for x in parts)
                print(f"{done:,}/{len(keys):,} in {time.perf_counter() - t:.0f} s", flush=True)
    halves = np.concatenate(parts)
    doc = {"about": "exact heads-up preflop equity of every suit-canonical matchup (detectors/allin.py)",
           "runouts": PREFLOP_RUNOUTS, "count": len(keys),
           "keys": base64.b64encode(zlib.compress(keys.astype("<i4").tobytes(), 9)).decode(),
           "half_pots": base64.b64encode(zlib.compress(halves.astype("<u4").tobytes(), 9)).decode()}
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


_PREFLOP: tuple[np.ndarray, np.ndarray] | None = None


def preflop_table() -> tuple[np.ndarray, np.ndarray] | None:
    """(sorted keys, half-pot counts) of the shipped table, or None when it is missing."""
    global _PREFLOP  # noqa: PLW0603  (a per-process cache of the shipped table)
    if _PREFLOP is None:
        ref = resources.files("detectors").joinpath("models", TABLE)
        if not ref.is_file():
            return None
        doc = json.loads(ref.read_text(encoding="utf-8"))
        keys = np.frombuffer(zlib.decompress(base64.b64decode(doc["keys"])), dtype="<i4").astype(np.int64)
        halves = np.frombuffer(zlib.decompress(base64.b64decode(doc["half_pots"])), dtype="<u4").astype(np.int64)
        _PREFLOP = (keys, halves)
    return _PREFLOP


def preflop_headsup_equity(cards: np.ndarray) -> np.ndarray | None:
    """Player 1's exact preflop equity (ties split) for rows (h1a, h1b, h2a, h2b), from the table."""
    table = preflop_table()
    if table is None:
        return None
    keys, halves = table
    key, swapped = canonical_headsup(cards)
    at = np.searchsorted(keys, key)
    if not (at < len(keys)).all() or not (keys[np.minimum(at, len(keys) - 1)] == key).all():
        raise ValueError("preflop table is incomplete: rebuild it with --write-preflop-table")
    eq = halves[at] / (2 * PREFLOP_RUNOUTS)
    return np.where(swapped, 1.0 - eq, eq)


# --- pots and the per-hand expected winnings ---------------------------------------------------

def pot_layers(live: list[int], dead: list[int]) -> tuple[list[int], list[list[int]]]:
    """Main and side pots from what each player put in: each layer's amount and who of the live
    players (by index) can win it. Folded players' chips are dead money in the layers they reached;
    anything above the deepest live stack goes to the top layer."""
    levels = sorted(set(live))
    amounts, eligible = [], []
    below = 0
    for level in levels:
        amounts.append(sum(min(c, level) - min(c, below) for c in (*live, *dead)))
        eligible.append([int(c >= level) for c in live])
        below = level
    amounts[-1] += sum(max(0, c - below) for c in dead)
    return amounts, eligible


def apportion(expected: list[float], total: int) -> list[int]:
    """Integer amounts summing to ``total``, each within one chip of ``expected`` (largest
    remainder), so a hand's adjusted results add up to what was really paid out."""
    scale = total / sum(expected) if sum(expected) else 0.0
    want = [e * scale for e in expected]
    base = [int(np.floor(w)) for w in want]
    order = sorted(range(len(want)), key=lambda i: base[i] - want[i])
    for i in order[: total - sum(base)]:
        base[i] += 1
    return base


def _cards(text: str) -> list[int]:
    """Card ids of a card string ('AsKd' → [51, 46])."""
    return [CARD_ID[text[i : i + 2]] for i in range(0, len(text), 2)]


class _Equities:
    """Exact shares per contested layer, each distinct (game, cards, board, eligibility) dealt once."""

    def __init__(self) -> None:
        self.seen: dict[tuple[object, ...], np.ndarray] = {}

    def shares(self, hole: list[list[int]], board: list[int], elig: list[list[int]],
               variant: str = "holdem") -> np.ndarray:
        """(layers, players) equity of each live player in each layer (0 where not eligible)."""
        contested = [row for row in elig if sum(row) >= 2]
        out = np.array(elig, dtype=np.float64)  # uncontested layers go to their one player
        if not contested:
            return out
        key = (variant, tuple(map(tuple, hole)), tuple(board), tuple(map(tuple, contested)))
        got = self.seen.get(key)
        if got is None:
            got = self.seen[key] = _exact_shares(variant, hole, board, contested)
        out[[sum(r) >= 2 for r in elig]] = got
        return out


def _exact_shares(variant: str, hole: list[list[int]], board: list[int], elig: list[list[int]]) -> np.ndarray:
    """Each player's exact equity in each contested layer: hold'em's enumerator, or Omaha's
    (two hole cards and three of the board, hi/lo where the variant splits)."""
    if variant == "holdem":
        counts, runouts = share_counts(hole, board, elig)
        return counts / (SHARE_UNITS * runouts)
    from detectors import allin_omaha

    counts, runouts = allin_omaha.omaha_share_counts(hole, board, elig, allin_omaha.is_hilo(variant))
    return counts / (allin_omaha.POT_UNITS * runouts)


def _variants_sql() -> str:
    """(variant, hole card characters, board characters known before the preflop betting) of
    every variant with exact all-in EV, as a SQL VALUES list."""
    from detectors import allin_omaha

    rows = [("holdem", 4, 0)] + [(v, 2 * n, 2 * allin_omaha.PREFLOP_BOARD.get(v, 0))
                                  for v, n in allin_omaha.OMAHA_HOLE.items()]
    return "(VALUES " + ", ".join(f"('{v}', {n}, {b})" for v, n, b in rows) + ") AS g(variant, n_chars, pre_chars)"


def _cards_mode(con: duckdb.DuckDBPyConnection) -> str:
    """The mode ``features.build`` ran in, read from its cards: 'operator' when k_cards holds a
    hold'em card that only the operator's export gives (no deal to the hero, no show), else
    'player' (also when no such card exists: never more cards than a player would see)."""
    row = con.execute(
        """SELECT count(k.cards) FROM (
            SELECT h.hk, p.pk, c.cards FROM hole_cards c JOIN k_hand h USING (hand_id)
            JOIN k_player p ON p.site = h.site AND p.name = c.player
            WHERE h.variant = 'holdem' AND c.provenance = 'operator' AND length(c.cards) = 4
              AND c.cards NOT LIKE '%?%'
              AND NOT EXISTS (SELECT 1 FROM hole_cards d WHERE d.hand_id = c.hand_id AND d.player = c.player
                              AND d.provenance IN ('dealt', 'shown'))
              AND NOT EXISTS (SELECT 1 FROM k_act a WHERE a.hk = h.hk AND a.pk = p.pk AND a.kind IN ('show', 'muck'))
            LIMIT 1) o JOIN k_cards k USING (hk, pk)"""
    ).fetchone()
    return "operator" if row and row[0] else "player"


def _omaha_cards_sql(con: duckdb.DuckDBPyConnection, mode: str | None) -> str:
    """A query of (hk, pk, cards) for the flop games other than hold'em, whose hole cards the
    feature tables do not keep (they hold two-card hands only), by the same provenance rule
    (operator cards in operator mode only); empty when the window has no such all-in."""
    from detectors import allin_omaha

    names = ", ".join(f"'{v}'" for v in allin_omaha.OMAHA_HOLE)
    row = con.execute(f"SELECT count(*) FROM k_hand WHERE variant IN ({names})").fetchone()
    if not row or not row[0]:
        return "SELECT NULL::INTEGER AS hk, NULL::INTEGER AS pk, NULL::VARCHAR AS cards LIMIT 0"
    prov = "('dealt', 'shown', 'operator')" if (mode or _cards_mode(con)) == "operator" else "('dealt', 'shown')"
    return f"""SELECT hk, pk, any_value(cards) AS cards FROM (
            SELECT h.hk, p.pk, c.cards, h.variant FROM hole_cards c JOIN k_hand h USING (hand_id)
            JOIN k_player p ON p.site = h.site AND p.name = c.player
            WHERE h.variant IN ({names}) AND c.provenance IN {prov}
            UNION ALL
            SELECT a.hk, a.pk, a.cards, h.variant FROM k_act a JOIN k_hand h USING (hk)
            WHERE h.variant IN ({names}) AND a.kind IN ('show', 'muck')
        ) JOIN {_variants_sql()} USING (variant)
        WHERE length(cards) = n_chars AND cards NOT LIKE '%?%'
        GROUP BY hk, pk"""


def _candidates(con: duckdb.DuckDBPyConnection, mode: str | None = None) -> pl.DataFrame:
    """Hold'em and Omaha showdowns where someone was all-in and the last decision came before
    the river, with every live player's cards known: the variant, the live players, their cards
    and chips in, the dead money of those who folded, what was paid out, and the board when the
    money was in (Courchevel's first card is known preflop)."""
    return con.execute(
        f"""WITH ai AS (
            SELECT DISTINCT hk FROM k_hp WHERE all_in AND fold_seq IS NULL
        ), other AS ({_omaha_cards_sql(con, mode)}
        ), hole AS (
            SELECT hp.hk, hp.pk, hp.put_in, hp.won,
                   CASE WHEN h.variant = 'holdem' THEN hp.cards ELSE o.cards END AS cards
            FROM k_hp hp JOIN k_hand h USING (hk) LEFT JOIN other o USING (hk, pk)
            WHERE hp.fold_seq IS NULL AND hp.hk IN (SELECT hk FROM ai)
        ), live AS (
            SELECT hp.hk, list(p.player ORDER BY p.player) AS ps, list(hp.cards ORDER BY p.player) AS cs,
                   list(CAST(hp.put_in AS BIGINT) ORDER BY p.player) AS puts, CAST(sum(hp.won) AS BIGINT) AS pot
            FROM hole hp JOIN k_player p USING (pk)
            GROUP BY hp.hk
            HAVING count(*) >= 2 AND count(*) = count(hp.cards)
        ), dead AS (
            SELECT hk, list(CAST(put_in AS BIGINT)) AS dead FROM k_hp
            WHERE fold_seq IS NOT NULL AND put_in > 0 AND hk IN (SELECT hk FROM live) GROUP BY hk
        ), last AS (
            -- the street of the hand's last decision: the money was all in after it
            SELECT hk, max(list_position(['preflop', 'flop', 'turn', 'river'], street)) AS st
            FROM k_dec WHERE hk IN (SELECT hk FROM live) GROUP BY hk
        )
        SELECT h.hand_id, h.variant, live.ps, live.cs, live.puts, coalesce(dead.dead, []) AS dead, live.pot,
               substr(h.board, 1, greatest((ARRAY[0, 6, 8, 10])[last.st], g.pre_chars)) AS board_then
        FROM live JOIN last USING (hk) JOIN k_hand h USING (hk) JOIN {_variants_sql()} USING (variant)
        LEFT JOIN dead USING (hk)
        WHERE last.st < 4 AND length(h.board) = 10
        ORDER BY h.hand_id"""
    ).pl()


@njit(cache=True)
def _headsup_batch(cards: np.ndarray, boards: np.ndarray, n_board: np.ndarray, nxt: np.ndarray,
                   values: np.ndarray, flush: np.ndarray) -> np.ndarray:
    """Player 1's exact equity (ties split) for heads-up rows (h1a, h1b, h2a, h2b), each with its
    first ``n_board`` known board cards: one compiled loop, no Python call per hand."""
    elig = np.ones((1, 2), dtype=np.int64)
    eq = np.zeros(len(cards), dtype=np.float64)
    for i in range(len(cards)):
        hole = cards[i].reshape(2, 2)
        if n_board[i]:
            out, runouts = _share_counts(hole, boards[i, : n_board[i]], elig, nxt, values, flush)
        else:
            out, runouts = _preflop_counts(hole, elig, nxt, values, flush, _BINOM)
        eq[i] = out[0, 0] / (SHARE_UNITS * runouts)
    return eq


def headsup_equity(cards: np.ndarray, boards: list[str]) -> np.ndarray:
    """Player 1's exact equity for heads-up rows of card ids given the board when the money went
    in: preflop rows from the shipped table, the others (and all, without the table) enumerated
    once per distinct (cards, board)."""
    eq = np.zeros(len(cards), dtype=np.float64)
    preflop = np.array([not b for b in boards], dtype=np.bool_)
    from_table = preflop_headsup_equity(cards[preflop]) if preflop.any() else None
    if from_table is not None:
        eq[preflop] = from_table
    todo = np.flatnonzero(~preflop) if from_table is not None or not preflop.any() else np.arange(len(cards))
    if len(todo):
        board_ids = np.full((len(cards), 5), -1, dtype=np.int64)
        for i in todo:
            b = _cards(boards[i])
            board_ids[i, : len(b)] = b
        rows = np.concatenate([cards[todo], board_ids[todo]], axis=1)
        uniq, back = np.unique(rows, axis=0, return_inverse=True)
        n_board = (uniq[:, 4:] >= 0).sum(axis=1)
        nxt, values, flush = _tables()
        eq[todo] = _headsup_batch(uniq[:, :4].copy(), uniq[:, 4:].copy(), n_board, nxt, values, flush)[back.ravel()]
    return eq


def _headsup_ev(hu: pl.DataFrame) -> pl.DataFrame:
    """ev_net of both players of each heads-up candidate, vectorised: the pot both can win (twice
    the shorter stack plus the dead money up to it) split by equity, the rest back to the deeper
    stack (all of it contested when the stacks are equal, as ``pot_layers`` does), scaled to what
    was paid out and rounded so the two add up to it (``apportion``'s rule for two players)."""
    puts = np.array(hu["puts"].to_list(), dtype=np.int64).reshape(-1, 2)
    pot = hu["pot"].to_numpy().astype(np.int64)
    lo, hi = puts.min(axis=1), puts.max(axis=1)
    dead = hu.select(pl.int_range(pl.len()).alias("row"), "dead").explode("dead").drop_nulls()
    row, d = dead["row"].to_numpy(), dead["dead"].to_numpy().astype(np.int64)
    dead_lo = np.bincount(row, np.minimum(d, lo[row]), minlength=len(hu))
    dead_all = np.bincount(row, d, minlength=len(hu))
    contested = 2 * lo + dead_lo
    excess = (hi - lo) + (dead_all - dead_lo)
    even = lo == hi
    contested = np.where(even, contested + excess, contested)
    excess = np.where(even, 0, excess)
    cards = np.array([_cards(a + b) for a, b in hu["cs"].to_list()], dtype=np.int64).reshape(-1, 4)
    eq = headsup_equity(cards, [b or "" for b in hu["board_then"].to_list()])
    want1 = eq * contested + np.where(puts[:, 0] > puts[:, 1], excess, 0)
    want2 = (1 - eq) * contested + np.where(puts[:, 1] > puts[:, 0], excess, 0)
    total = want1 + want2
    scale = np.divide(pot, total, out=np.zeros(len(hu)), where=total > 0)
    w1, w2 = want1 * scale, want2 * scale
    f1, f2 = np.floor(w1).astype(np.int64), np.floor(w2).astype(np.int64)
    extra = pot - f1 - f2  # 0 or 1: the larger remainder takes it, player 1 on a tie
    first = (w1 - f1) >= (w2 - f2)
    got1 = f1 + np.where(extra >= 2, 1, np.where(extra == 1, first, 0))
    got2 = pot - got1
    hid = hu["hand_id"].to_list()
    ps = hu["ps"].to_list()
    return pl.DataFrame({
        "hand_id": [h for h in hid for _ in range(2)],
        "player": [p for pair in ps for p in pair],
        "ev_net": np.column_stack([got1 - puts[:, 0], got2 - puts[:, 1]]).ravel(),
    }, schema={"hand_id": pl.String, "player": pl.String, "ev_net": pl.Int64})


def _multiway_ev(multi: pl.DataFrame) -> pl.DataFrame:
    """ev_net of every live player of each candidate taken one at a time (multiway hold'em, and
    every Omaha hand): pot layers, exact shares per layer, each distinct matchup dealt once."""
    equities = _Equities()
    rows: list[tuple[str, str, int]] = []
    for hid, variant, ps, cs, puts, dead, pot, board in multi.select(
            "hand_id", "variant", "ps", "cs", "puts", "dead", "pot", "board_then").iter_rows():
        amounts, elig = pot_layers(list(puts), list(dead))
        shares = equities.shares([_cards(c) for c in cs], _cards(board or ""), elig, variant)
        expected = (np.array(amounts, dtype=np.float64) @ shares).tolist()
        for player, paid, got in zip(ps, puts, apportion(expected, int(pot)), strict=True):
            rows.append((hid, player, got - paid))
    return pl.DataFrame(rows, schema={"hand_id": pl.String, "player": pl.String, "ev_net": pl.Int64},
                        orient="row")


def build_allin_ev(con: duckdb.DuckDBPyConnection, mode: str | None = None) -> None:
    """Temp table allin_ev (hand_id, player, ev_net) for all-in showdowns with every card known.
    ``mode``: the features' mode, for which Omaha hole cards count (read from k_cards when None)."""
    cand = _candidates(con, mode)
    two = (cand["ps"].list.len() == 2) & (cand["variant"] == "holdem")
    frame = pl.concat([_headsup_ev(cand.filter(two)), _multiway_ev(cand.filter(~two))])
    con.register("_allin", frame.to_arrow())
    con.execute("CREATE OR REPLACE TEMP TABLE allin_ev AS SELECT * FROM _allin")
    con.unregister("_allin")


def main() -> None:
    """``python -m detectors.allin --write-preflop-table``: (re)compute the shipped table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write-preflop-table", action="store_true")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for the table")
    args = ap.parse_args()
    if args.write_preflop_table:
        write_preflop_table(Path(__file__).resolve().parent / "models" / TABLE, args.jobs)


if __name__ == "__main__":
    main()
