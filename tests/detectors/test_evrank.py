"""The learned evidence ranker: its features read off hands built by hand, it only reorders the
family query's candidates, the SQL order stays without a fitted family model, and the shipped
ranker never saw the held-out seeds."""

from __future__ import annotations

import json

import duckdb
import polars as pl
import pytest

from detectors import evrank
from detectors.families import EVIDENCE_SQL, evidence

#: seeds the quality figures are measured on (bench/quality.py: 11, and 31-35 while developing)
HELD_OUT = {11, 31, 32, 33, 34, 35, 505, 707, 808, 909}


def _con() -> duckdb.DuckDBPyConnection:
    """Pair a/b: h1 a checks a strong hand (bucket 3) against b, h2 b folds air on the flop to a,
    h3 a bets as expected (no soft-play candidate); x is a third player in h1."""
    con = duckdb.connect()
    con.execute("""CREATE TABLE pdec AS SELECT * FROM (VALUES
        ('h1', 'a', 'b', FALSE, FALSE, 3, 'hu_post', 0.6, 0.1),
        ('h2', 'b', 'a', FALSE, TRUE, 0, 'hu_post', 0.5, 0.4),
        ('h3', 'a', 'b', TRUE, FALSE, 2, 'hu_post', 0.9, 0.1)
    ) t(hand_id, a, b, aggr, fold, bucket, grp, p_aggr, p_fold)""")
    con.execute("""CREATE TABLE hp AS SELECT * FROM (VALUES
        ('h1', 'a', 3, 2, 100.0, 20, 100.0, 200.0, NULL, NULL, TRUE, 0, 1, 2, FALSE, TRUE),
        ('h1', 'b', 3, 2, 100.0, 20, -100.0, 0.0, NULL, NULL, TRUE, 0, 1, 2, FALSE, FALSE),
        ('h1', 'x', 3, 2, 20.0, 20, -20.0, 0.0, 2, 'preflop', FALSE, 0, 0, 0, FALSE, FALSE),
        ('h2', 'a', 2, 1, 60.0, 20, 40.0, 100.0, NULL, NULL, TRUE, 1, 0, 0, FALSE, TRUE),
        ('h2', 'b', 2, 1, 40.0, 20, -40.0, 0.0, 5, 'flop', TRUE, 0, 0, 1, FALSE, FALSE),
        ('h3', 'a', 2, 1, 40.0, 20, 20.0, 60.0, NULL, NULL, TRUE, 1, 0, 0, FALSE, TRUE),
        ('h3', 'b', 2, 1, 20.0, 20, -20.0, 0.0, 4, 'flop', TRUE, 0, 0, 1, FALSE, FALSE)
    ) t(hand_id, player, n_dealt, n_live_end, put_in, bb, net, won, fold_seq, fold_street, saw_flop,
        post_aggr, post_call, post_passive, all_in, pfr)""")
    con.execute("""CREATE TABLE dec AS SELECT * FROM (VALUES
        ('h1', 'a', 'check', FALSE, FALSE, FALSE, FALSE, 3, 0.0, 200.0, 0),
        ('h1', 'b', 'call', FALSE, TRUE, FALSE, TRUE, 1, 40.0, 200.0, 1),
        ('h2', 'a', 'bet', TRUE, FALSE, FALSE, FALSE, 2, 0.0, 60.0, 0),
        ('h2', 'b', 'fold', FALSE, FALSE, TRUE, TRUE, 0, 40.0, 60.0, 1)
    ) t(hand_id, player, kind, aggr, calls, fold, facing, bucket, to_call, pot_before, raises_before)""")
    con.execute("CREATE TABLE psq (hand_id VARCHAR, a VARCHAR, b VARCHAR, callers_squeezed BIGINT, "
                "third_folds BIGINT)")
    con.execute("CREATE TABLE pflow AS SELECT 'h2' AS hand_id, 'b' AS a, 'a' AS b, 200.0 AS flow_cbb, "
                "TRUE AS a_folded, FALSE AS a_better")
    return con


def _flags() -> pl.DataFrame:
    return pl.DataFrame([("kab", "soft_play", "a", "b")], schema=["flag_key", "family", "a", "b"], orient="row")


def _candidates(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    con.register("_fp", _flags().select("flag_key", "a", "b").to_arrow())
    try:
        return evrank.candidates(con, EVIDENCE_SQL["soft_play"]).sort("hand_id")
    finally:
        con.unregister("_fp")


def test_features_read_off_the_hands() -> None:
    c = _candidates(_con())
    assert set(evrank.FEATURES) <= set(c.columns)
    assert c["hand_id"].to_list() == ["h1", "h2"]  # h3: a bet as expected, not a candidate
    h1, h2 = c.row(0, named=True), c.row(1, named=True)
    # soft-play score: gap (p_aggr - aggr) x (1 + bucket) x (1 + fold) + 0.01 per decision
    assert h1["s"] == pytest.approx(0.6 * 4 + 0.01) and h2["s"] == pytest.approx(0.5 * 2 + 0.01)
    assert (h1["s_rank"], h2["s_rank"]) == (1, 2)
    assert h2["s_rel"] == pytest.approx(1.01 / 2.41)
    assert (h1["in_bb"], h1["in_max_bb"], h1["both_live"], h1["one_folded"]) == (10, 5, 1, 0)
    assert (h2["one_folded"], h2["fold_street"], h2["fold_bucket"]) == (1, 2, 0)
    assert h2["fold_price"] == pytest.approx(40 / 101)
    assert (h1["n_check"], h1["n_call"], h1["max_bucket"]) == (1, 1, 3)
    assert h2["fl_cbb"] == 200 and h2["fl_folded"] == 1 and h1["fl_cbb"] is None
    assert h1["sq_callers"] is None and h1["pd_gap"] == pytest.approx(0.6)


def test_without_a_family_model_the_sql_order_stays() -> None:
    con = _con()
    empty = evrank.EvidenceRanker({}, list(evrank.FEATURES))
    assert evidence(con, _flags(), ranker=empty) == evidence(con, _flags()) == {"kab": ["h1", "h2"]}


def test_a_fitted_ranker_reorders_only_the_candidates() -> None:
    """A model that learnt 'folds are the acts' puts h2 (b's fold) above h1, which the SQL ranks
    first; h3 never appears (not a candidate of the family's query)."""
    con = _con()
    c = _candidates(con)
    train = pl.concat([c.with_columns(pl.Series("y", [0, 1], dtype=pl.Int8))] * 30)
    ranker = evrank.fit({"soft_play": train}, "operator", {"seeds": []})
    assert evidence(con, _flags(), ranker=ranker) == {"kab": ["h2", "h1"]}
    assert evidence(con, _flags(), top=1, ranker=ranker) == {"kab": ["h2"]}


@pytest.mark.parametrize("mode", ["operator", "player"])
def test_shipped_ranker_never_saw_held_out_seeds(mode: str) -> None:
    path = evrank.model_path(mode)
    if not path.exists():
        pytest.skip(f"no evidence ranker shipped for {mode} mode")
    side = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    assert side["version"] == evrank.RANKER_VERSION and side["features"] == evrank.FEATURES
    assert side["trained_on"]["seeds"] and not set(side["trained_on"]["seeds"]) & HELD_OUT
    ranker = evrank.load(path)
    assert ranker is not None and ranker.mode == mode
    # player mode sees no hidden cards, so card sharing has no candidates there (SQL order, empty)
    assert set(ranker.models) == set(EVIDENCE_SQL) - ({"card_sharing"} if mode == "player" else set())
