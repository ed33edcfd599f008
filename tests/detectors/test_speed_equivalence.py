"""The fast detector features give the same tables as the pre-speed-round code (issue 5).

Independent reference: ``tests/detectors/frozen`` is the feature code as it stood before the speed
round, run on the same warehouse in the same process; every feature, statistics and evidence
table and the scored unordered pairs must match row for row (floats within a relative 1e-9).
Warehouses: a small seeded simulation (teams injected, so the pair tables are populated), in
both modes, and the real Pluribus sessions (every hole card known). The 20k-hand snapshot saved
before the change is compared too when it is cached under var/bench/detspeed (bench/detect_equiv.py).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import duckdb
import pytest

from detectors import snapshot
from tests.conftest import ROOT, real_data
from tests.detectors.frozen import allin, features, pairs, stats
from warehouse.ingest import ingest_paths

FROZEN = (features, allin, stats, pairs)


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from simulator.run import Config, simulate

    tmp = tmp_path_factory.mktemp("speed_equiv")
    simulate(Config(hands=3000, seed=11, operator_mode=True, teams=3, start=datetime(2026, 11, 29, 23)),
             tmp / "hh", tmp / "truth.json")
    db = tmp / "w.duckdb"
    ingest_paths([tmp / "hh"], db, progress=False)
    return db


def _both(db: Path, mode: str) -> list[str]:
    snaps = []
    for frozen in (True, False):
        con = duckdb.connect(str(db), read_only=True)
        u = snapshot.run_all(con, mode, FROZEN if frozen else None)
        snaps.append(snapshot.snapshot(con, u))
        con.close()
    old, new = snaps
    assert old["t_pair_stats"].height > 100 and old["pdec"].height > 1000 and old["unordered"].height > 10
    return snapshot.differences(old, new)


@pytest.mark.parametrize("mode", ["operator", "player"])
def test_simulated_tables_identical(simulated: Path, mode: str) -> None:
    assert _both(simulated, mode) == []


def test_simulated_spans_two_days(simulated: Path) -> None:
    """The run starts at 23:00, so per-day statistics are exercised across a date boundary."""
    con = duckdb.connect(str(simulated), read_only=True)
    row = con.execute("SELECT count(DISTINCT CAST(started_at AS DATE)) FROM hands").fetchone()
    con.close()
    assert row is not None and row[0] >= 2


def test_real_pluribus_tables_identical(tmp_path: Path) -> None:
    src = real_data("pluribus_raw_pkcore")
    db = tmp_path / "w.duckdb"
    ingest_paths([src], db, progress=False)
    assert _both(db, "operator") == []


def test_saved_20k_snapshot_identical() -> None:
    """Against the outputs saved before the change (skips unless cached by bench/detect_equiv.py)."""
    folder = ROOT / "var" / "bench" / "detspeed"
    if not (folder / "s7.duckdb").exists() or not (folder / "before").exists():
        pytest.skip("20k snapshot not cached (bench/detect_equiv.py --save var/bench/detspeed/before)")
    con = duckdb.connect(str(folder / "s7.duckdb"), read_only=True)
    u = snapshot.run_all(con)
    diffs = snapshot.differences(snapshot.load(folder / "before"), snapshot.snapshot(con, u))
    con.close()
    assert diffs == []
