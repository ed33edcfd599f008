"""The vectorised strength evaluator against the per-record one it replaced."""

from __future__ import annotations

import random

import polars as pl

from detectors.cards import RANKS, evaluate_frame, evaluate_many


def test_vectorised_ranks_match_the_per_record_evaluator() -> None:
    """evaluate_frame (card ids parsed by polars) gives evaluate_many's rank (phevaluator called
    record by record) for every dealt hand and board prefix of a seeded deck, and None for the same
    malformed records (repeated card, odd length, unknown card, too few or too many cards)."""
    deck = [r + s for r in RANKS for s in "cdhs"]
    rng = random.Random(5)
    rows = []
    for _ in range(3000):
        d = rng.sample(deck, 7)
        rows += [("".join(d[:2]), "".join(d[2:2 + k])) for k in (3, 4, 5)]
    rows += [("AsAs", "KdQdJd"), ("AsK", "QdJdTd"), ("AsKs", "QdJdXx"), ("AsKs", "Qd"), ("AsKs", ""),
             ("AsKs", "QdJdTd9d8d7d"), ("AsKs", "AsJdTd"), ("??Ks", "QdJdTd")]
    want = evaluate_many(rows)
    got = evaluate_frame(pl.Series([r[0] for r in rows]), pl.Series([r[1] for r in rows])).to_list()
    assert got == want
    assert sum(w is None for w in want) == 8 and len(set(want)) > 1000
