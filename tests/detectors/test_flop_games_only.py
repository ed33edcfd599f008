"""The detectors model flop games only: stud and draw hands in a warehouse never reach them.

Their rounds are not preflop..river, so counted as hold'em hands they would be hands dealt with no
preflop entry (lowering VPIP and PFR) and would add to co-presence and chip flow."""

from __future__ import annotations

from pathlib import Path

import duckdb

from detectors import features
from tests.conftest import real_data
from warehouse.ingest import ingest_paths

STARS = ("fpdb3_regression", "regression-test-files", "cash", "Stars")


def test_stud_and_draw_hands_are_left_out_of_the_detectors(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    files = [real_data(*STARS, "Stud", "Razz-USD-0.04-0.08-200911.txt"),
             real_data(*STARS, "Draw", "Badugi-USD-0.25-0.50-201009.txt"),
             real_data("pluribus_raw_pkcore")]
    ingest_paths(files, db, progress=False)
    con = duckdb.connect(str(db))
    try:
        by_variant = dict(con.execute("SELECT variant, count(*) FROM hands GROUP BY ALL").fetchall())
        features.build(con, "operator")
        seen = dict(con.execute("SELECT variant, count(*) FROM k_hand GROUP BY ALL").fetchall())
    finally:
        con.close()
    assert by_variant.get("razz", 0) > 0 and by_variant.get("badugi", 0) > 0  # the warehouse holds them
    assert set(seen) == {v for v in by_variant if v not in ("razz", "badugi")}
    assert sum(seen.values()) == sum(n for v, n in by_variant.items() if v not in ("razz", "badugi"))
