"""Chip-dumping evidence names one dumper even when each player lost the same total to the other:
the first name, so the same warehouse always orders the evidence the same way."""

from __future__ import annotations

import duckdb
import polars as pl

from detectors.families import evidence


def _evidence(loss_a: float, loss_b: float) -> list[str]:
    """h1: a loses ``loss_a`` to b; h2: b loses ``loss_b`` to a (neither folded, neither better)."""
    con = duckdb.connect()
    con.execute(f"""CREATE TABLE pflow AS SELECT * FROM (VALUES
        ('h1', 'a', 'b', {loss_a}, FALSE, FALSE), ('h2', 'b', 'a', {loss_b}, FALSE, FALSE)
    ) t(hand_id, a, b, flow_cbb, a_folded, a_better)""")
    flags = pl.DataFrame([("k", "chip_dumping", "b", "a")], schema=["flag_key", "family", "a", "b"], orient="row")
    return evidence(con, flags)["k"]


def test_the_bigger_loser_is_the_dumper() -> None:
    assert _evidence(100.0, 150.0) == ["h2", "h1"]  # b lost more: b's loss weighs 4x
    assert _evidence(150.0, 100.0) == ["h1", "h2"]


def test_a_tie_goes_to_the_first_name_every_time() -> None:
    # a tie of totals that differ in the last bits (sums in another order) is still a tie
    assert {tuple(_evidence(100.0, 100.0 + 1e-12)) for _ in range(20)} == {("h1", "h2")}
