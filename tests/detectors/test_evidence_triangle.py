"""Card-sharing evidence in a team of three: a third member's fold counts for a pair only when
that member is flagged with both and both were live (the simulator logs such a fold against every
live partner). Hands built by hand, so the expected lists are read off the rows below."""

from __future__ import annotations

import duckdb
import polars as pl

from detectors.families import evidence


def _con() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    # pcs: A (folder) against B (live at the fold): did A fold facing a bet, A's baseline fold rate,
    # whether B held the stronger hand, A's strength bucket
    con.execute("""CREATE TABLE pcs AS SELECT * FROM (VALUES
        ('h1', 'x', 'a', TRUE, FALSE, TRUE, 3, 0.2, 0.1, TRUE),
        ('h1', 'x', 'b', TRUE, FALSE, TRUE, 3, 0.2, 0.1, FALSE),
        ('h2', 'a', 'b', TRUE, FALSE, TRUE, 2, 0.3, 0.1, TRUE),
        ('h3', 'x', 'a', TRUE, FALSE, TRUE, 4, 0.1, 0.1, TRUE),
        ('h4', 'b', 'a', FALSE, FALSE, TRUE, 1, 0.4, 0.1, TRUE)
    ) t(hand_id, a, b, fold, aggr, facing, bucket, p_fold, p_aggr, b_stronger)""")
    con.execute("""CREATE TABLE dec AS SELECT * FROM (VALUES
        ('h1', 'x', TRUE, 10.0, 30.0), ('h2', 'a', TRUE, 10.0, 30.0), ('h3', 'x', TRUE, 10.0, 30.0)
    ) t(hand_id, player, fold, to_call, pot_before)""")
    return con


def _flags(pairs: list[tuple[str, str]]) -> pl.DataFrame:
    return pl.DataFrame([(f"k{a}{b}", "card_sharing", a, b) for a, b in pairs],
                        schema=["flag_key", "family", "a", "b"], orient="row")


def test_third_member_fold_counts_inside_a_flagged_triangle() -> None:
    ev = evidence(_con(), _flags([("a", "b"), ("a", "x"), ("b", "x")]))
    # h2: the pair's own fold (a folded to b); h1: x folded with both live; h3: b not live; h4: no fold
    assert ev["kab"] == ["h2", "h1"]
    assert set(ev["kax"]) == {"h1", "h3"}


def test_third_member_fold_ignored_without_the_triangle() -> None:
    ev = evidence(_con(), _flags([("a", "b"), ("a", "x")]))
    assert ev["kab"] == ["h2"]
