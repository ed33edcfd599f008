"""Hand strength for comparable spots: a preflop bucket (Chen formula) and postflop ranks.

Why buckets: detectors compare a player's actions against a partner with the same player's
actions elsewhere *given the cards*; five coarse strength buckets keep every context well
populated while still separating air from monsters. Postflop ranks come from phevaluator
(1 = royal flush, 7462 = worst high card) and are evaluated once per distinct (cards, board).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import polars as pl

RANKS = "23456789TJQKA"
_CHEN_HIGH = {"A": 10.0, "K": 8.0, "Q": 7.0, "J": 6.0}

#: phevaluator rank thresholds (inclusive upper bounds) → bucket; lower rank is stronger
#: 4: straight or better, 3: two pair / trips, 2: pair of tens or better, 1: lower pair, 0: high card
POST_BUCKETS: tuple[tuple[int, int], ...] = ((1609, 4), (3325, 3), (4205, 2), (6185, 1), (7462, 0))


def chen_score(r1: str, r2: str, suited: bool) -> int:
    """Bill Chen's preflop score, rounded up (AA = 20, 72o = -1)."""
    hi, lo = sorted((r1, r2), key=RANKS.index, reverse=True)
    score = _CHEN_HIGH.get(hi, (RANKS.index(hi) + 2) / 2)
    if hi == lo:
        return max(5, math.ceil(score * 2))
    if suited:
        score += 2
    gap = RANKS.index(hi) - RANKS.index(lo) - 1
    score -= {0: 0, 1: 1, 2: 2, 3: 4}.get(gap, 5)
    if gap <= 1 and RANKS.index(hi) < RANKS.index("Q"):
        score += 1
    return math.ceil(score)


def chen_bucket(score: int) -> int:
    """Five preflop buckets: 4 premium (TT+, AKs), 3 strong, 2 playable, 1 marginal, 0 trash."""
    if score >= 12:
        return 4
    if score >= 9:
        return 3
    if score >= 7:
        return 2
    if score >= 5:
        return 1
    return 0


def preflop_table() -> pl.DataFrame:
    """Every (rank1, rank2, suited) with its Chen score and bucket, to join in SQL."""
    rows = [
        (r1, r2, s, chen_score(r1, r2, s), chen_bucket(chen_score(r1, r2, s)))
        for r1 in RANKS
        for r2 in RANKS
        for s in (False, True)
        if not (r1 == r2 and s)
    ]
    return pl.DataFrame(
        rows, schema=["r1", "r2", "suited", "chen", "bucket"], orient="row"
    ).with_columns(pl.col("chen").cast(pl.Int32), pl.col("bucket").cast(pl.Int32))


def post_bucket(rank: int) -> int:
    for bound, bucket in POST_BUCKETS:
        if rank <= bound:
            return bucket
    return 0


#: card id = rank * 4 + suit (2c = 0 ... As = 51), the evaluators' and the all-in enumerator's numbering
CARD_ID = {r + s: i * 4 + j for i, r in enumerate(RANKS) for j, s in enumerate("cdhs")}


def evaluate_many(pairs: Iterable[tuple[str, str]]) -> list[int | None]:
    """phevaluator rank of hole cards + board for each (cards, board); None when unknown.

    Calls the native 5/6/7-card evaluators directly with card ids (phevaluator's encoding:
    rank * 4 + suit, suits c d h s), which is several times faster than its string front end.
    """
    from phevaluator import _pheval

    by_len = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}
    cid = CARD_ID
    out: list[int | None] = []
    for cards, board in pairs:
        s = cards + board
        fn = by_len.get(len(s) // 2)
        if fn is None or len(cards) != 4 or len(s) % 2:
            out.append(None)
            continue
        try:
            ids = [cid[s[i : i + 2]] for i in range(0, len(s), 2)]
        except KeyError:
            out.append(None)
            continue
        out.append(None if len(set(ids)) != len(ids) else int(fn(*ids)))
    return out



def evaluate_frame(cards: pl.Series, board: pl.Series) -> pl.Series:
    """Same ranks as ``evaluate_many`` (Int32, null when unknown) with the card ids parsed by
    polars, so the Python loop only calls the native evaluator (~4x faster; deduplicating the
    (cards, board) pairs first costs more than the repeated evaluations it saves)."""
    from phevaluator import _pheval

    frame = pl.DataFrame({"cards": cards, "board": board}, schema={"cards": pl.String, "board": pl.String})
    frame = frame.with_columns(s=pl.col("cards") + pl.col("board"), i=pl.int_range(pl.len(), dtype=pl.Int64))
    n_cards = pl.col("s").str.len_bytes() // 2
    ok = (pl.col("cards").str.len_bytes() == 4) & (pl.col("s").str.len_bytes() % 2 == 0) & n_cards.is_between(5, 7)
    ids = [pl.col("s").str.slice(2 * i, 2).replace_strict(CARD_ID, default=None, return_dtype=pl.Int32).alias(f"c{i}")
           for i in range(7)]
    frame = frame.select("i", ok.fill_null(False).alias("ok"), n_cards.alias("n"), *ids)
    rank: list[int | None] = [None] * frame.height
    evaluators = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}
    for n, fn in evaluators.items():
        cols = [f"c{i}" for i in range(n)]
        part = frame.filter(pl.col("ok") & (pl.col("n") == n)).drop_nulls(cols)
        # repeated cards (a corrupt record) have no rank, as in evaluate_many
        part = part.filter(*(pl.col(x) != pl.col(y) for i, x in enumerate(cols) for y in cols[i + 1:]))
        for i, r in zip(part["i"].to_list(), map(fn, *(part[c].to_list() for c in cols)), strict=True):
            rank[i] = int(r)
    return pl.Series("rank", rank, dtype=pl.Int32)
