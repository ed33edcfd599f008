"""The detectors say before they start when their spill will not fit, and say what to change
when DuckDB runs out anyway (``detectors.spill``).

The warehouse is real: Pluribus against five professionals (pkcore's ACPC-style logs).
"""

from __future__ import annotations

import shutil
from collections import namedtuple
from pathlib import Path

import duckdb
import pytest

from detectors import spill
from detectors.run import Params, detect
from pipelines.cli import main
from tests.conftest import real_data
from warehouse.db import open_duckdb
from warehouse.ingest import ingest_paths

DiskUsage = namedtuple("DiskUsage", "total used free")


@pytest.fixture(scope="module")
def pluribus_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("spill") / "w.duckdb"
    ingest_paths([real_data("pluribus_raw_pkcore")], db, progress=False)
    return db


def _runs(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        if "detector_runs" not in tables:
            return 0
        row = con.execute("SELECT count(*) FROM detector_runs").fetchone()
        return int(row[0]) if row else 0
    finally:
        con.close()


def _disk_with_free(monkeypatch: pytest.MonkeyPatch, free: int) -> None:
    """The disk under DuckDB's temp directory reports ``free`` bytes (the machine's disk is not
    ours to fill)."""
    monkeypatch.setattr(shutil, "disk_usage", lambda _path: DiskUsage(10**12, 10**12 - free, free))


@pytest.mark.parametrize(("text", "expected"), [
    ("4GB", 4 * 10**9), ("512 MB", 512 * 10**6), ("3.7 GiB", int(3.7 * 2**30)), ("6G", 6 * 10**9),
    ("100", 100), ("1000 bytes", 1000), ("90% of available disk space", None), ("", None),
])
def test_duckdb_sizes(text: str, expected: int | None) -> None:
    assert spill.parse_size(text) == expected


def test_the_estimate_reproduces_the_measured_spills() -> None:
    # 1M simulated hands, 6,597,245 seats, 4 GB: 2.76 GB; the 10M cluster night, ~66M seats, 6 GB: ~45 GB
    assert spill.spill_estimate(6_597_245, 4 * 10**9) == pytest.approx(2.76e9, rel=0.1)
    assert spill.spill_estimate(66_000_000, 6 * 10**9) == pytest.approx(45e9, rel=0.1)
    assert spill.spill_estimate(10_000, 4 * 10**9) == 0  # a small room fits in memory


def test_a_spill_that_cannot_fit_stops_the_run_before_it_starts(
        pluribus_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    temp = tmp_path / "spill-here"
    monkeypatch.setenv("FLOORMAN_DUCKDB_TEMP", str(temp))
    _disk_with_free(monkeypatch, 1_000)
    before = _runs(pluribus_db)
    with pytest.raises(spill.DetectorSpaceError) as err:
        detect(pluribus_db, Params(memory_limit="1MB"))
    message = str(err.value)
    assert str(temp) in message and "FLOORMAN_DUCKDB_TEMP" in message and "FLOORMAN_DUCKDB_MEMORY" in message
    assert "1MB memory limit" in message and "0.0 GB is usable" in message
    assert _runs(pluribus_db) == before  # nothing half-written


def test_a_spill_that_fits_goes_ahead(pluribus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pluribus's 20,778 seats under a 16 MB limit: about 7 MB to spill, so the disk decides."""
    con = open_duckdb(pluribus_db, read_only=True)
    try:
        _disk_with_free(monkeypatch, 10**9)
        spill.check_room(con, 3_463, "16MB")
        _disk_with_free(monkeypatch, 10**6)
        with pytest.raises(spill.DetectorSpaceError, match=r"about 0\.0 GB of temporary disk for 3,463 hands"):
            spill.check_room(con, 3_463, "16MB")
    finally:
        con.close()


def test_the_deployments_temp_cap_is_the_room(pluribus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLOORMAN_DUCKDB_MAX_TEMP", "2MB")
    con = open_duckdb(pluribus_db, read_only=True)
    try:
        assert spill.temp_room(con).usable == pytest.approx(2 * 10**6, rel=0.05)  # DuckDB shows 1.9 MiB
    finally:
        con.close()


def test_running_out_anyway_names_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """DuckDB's own out-of-memory error, from a real query over the limits, is restated."""
    monkeypatch.setenv("FLOORMAN_DUCKDB_TEMP", str(tmp_path / "t"))
    monkeypatch.setenv("FLOORMAN_DUCKDB_MAX_TEMP", "10MB")
    con = open_duckdb(tmp_path / "x.duckdb")
    try:
        con.execute("SET memory_limit = '50MB'")
        with pytest.raises(duckdb.OutOfMemoryException) as raw:
            con.execute("CREATE TEMP TABLE t AS SELECT range AS a, range::VARCHAR AS b FROM range(20000000)")
        message = str(spill.out_of_room(raw.value, con, "50MB"))
    finally:
        con.close()
    assert message.startswith("the detectors ran out of temporary disk (DuckDB: Out of Memory Error: failed to offload")
    assert "memory limit 50MB" in message and str(tmp_path / "t") in message and "FLOORMAN_DUCKDB_TEMP" in message


def test_the_cli_prints_one_line_and_fails(pluribus_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FLOORMAN_DUCKDB_TEMP", str(tmp_path / "spill-here"))
    monkeypatch.setenv("FLOORMAN_DUCKDB_MAX_TEMP", "1KB")
    monkeypatch.setenv("FLOORMAN_DUCKDB_MEMORY", "1MB")  # the CLI takes the deployment's limit
    assert main(["detect", "--db", str(pluribus_db)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: --db {pluribus_db} (operator): the detectors need about")
    assert "\n" not in err and "Traceback" not in err
