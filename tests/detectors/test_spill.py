"""The detectors say before they start when their spill will not fit, and say what to change
when DuckDB runs out anyway (``detectors.spill``).

The warehouse is real: Pluribus against five professionals (pkcore's ACPC-style logs, 3,463 hands,
20,778 seats). Faking ``shutil.disk_usage`` fakes the machine's disk (not ours to fill), not the
code under test.
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
WRITTEN = ("detector_runs", "player_stats", "pair_stats", "flags", "pair_scores")


@pytest.fixture(scope="module")
def pluribus_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ingested and detected once, so a refused run has rows it could have added to."""
    db = tmp_path_factory.mktemp("spill") / "w.duckdb"
    ingest_paths([real_data("pluribus_raw_pkcore")], db, progress=False)
    detect(db, Params())
    return db


def _rows(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: int((con.execute(f"SELECT count(*) FROM {t}").fetchone() or (0,))[0]) for t in WRITTEN}
    finally:
        con.close()


def _disk_with_free(monkeypatch: pytest.MonkeyPatch, free: int) -> list[Path]:
    """The disk reports ``free`` bytes; returns the paths it was asked about."""
    asked: list[Path] = []

    def usage(path: str | Path) -> DiskUsage:
        asked.append(Path(path))
        return DiskUsage(10**12, 10**12 - free, free)

    monkeypatch.setattr(shutil, "disk_usage", usage)
    return asked


@pytest.mark.parametrize(("text", "expected"), [
    ("4GB", 4 * 10**9), ("512 MB", 512 * 10**6), ("3.7 GiB", int(3.7 * 2**30)), ("976.5 KiB", int(976.5 * 2**10)),
    ("1000 bytes", 1000), ("4 gigabytes", 4 * 10**9), ("6G", 6 * 10**9), ("16383.9 PiB", int(16383.9 * 2**50)),
    ("90% of available disk space", None), ("none", None), ("-1", None), ("", None),
])
def test_duckdb_sizes(text: str, expected: int | None) -> None:
    assert spill.parse_size(text) == expected


def test_the_estimate_pins_the_two_measured_spills() -> None:
    """A pin of the fit (its two constants come from these two runs), not evidence for it."""
    assert spill.spill_estimate(6_597_245, 4 * 10**9) == pytest.approx(2.76e9, rel=0.1)
    assert spill.spill_estimate(66_000_000, 6 * 10**9) == pytest.approx(45e9, rel=0.1)
    assert spill.spill_estimate(10_000, 4 * 10**9) == 0  # a small room fits in memory


def test_a_spill_that_cannot_fit_stops_the_run_before_it_writes(
        pluribus_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    temp = tmp_path / "not" / "yet" / "there"
    monkeypatch.setenv("FLOORMAN_DUCKDB_TEMP", str(temp))
    asked = _disk_with_free(monkeypatch, 1_000)
    before = _rows(pluribus_db)
    with pytest.raises(spill.DetectorSpaceError) as err:
        detect(pluribus_db, Params(memory_limit="1MB"))
    message = str(err.value)
    assert "about 14.7 MB of temporary disk for 3,463 hands (about 20,778 seated players)" in message
    assert f"0.0 MB is usable in {temp} (90% of the free disk)" in message
    assert "FLOORMAN_DUCKDB_TEMP" in message and "FLOORMAN_DUCKDB_MEMORY" in message
    assert temp.is_dir() and asked == [temp]  # created, parents too, and its own disk measured
    assert _rows(pluribus_db) == before  # nothing written


def test_a_spill_that_fits_goes_ahead(pluribus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pluribus's seats under a 16 MB limit: about 7 MB to spill, so the disk decides."""
    con = open_duckdb(pluribus_db, read_only=True)
    try:
        con.execute("SET memory_limit = '16MB'")
        _disk_with_free(monkeypatch, 10**9)
        spill.check_room(con, 3_463)
        _disk_with_free(monkeypatch, 10**6)
        with pytest.raises(spill.DetectorSpaceError, match=r"about 7\.2 MB of temporary disk"):
            spill.check_room(con, 3_463)
        monkeypatch.setenv("FLOORMAN_DETECT_SPILL_CHECK", "off")
        spill.check_room(con, 3_463)  # the operator's way past a wrong estimate
    finally:
        con.close()


def test_the_deployments_cap_is_the_room_and_the_advice(pluribus_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLOORMAN_DUCKDB_MAX_TEMP", "2MB")
    _disk_with_free(monkeypatch, 10**11)
    con = open_duckdb(pluribus_db, read_only=True)
    try:
        room = spill.temp_room(con)
        con.execute("SET memory_limit = '1MB'")
        with pytest.raises(spill.DetectorSpaceError) as err:
            spill.check_room(con, 3_463)
    finally:
        con.close()
    assert room.usable == 2 * 10**6 and room.capped  # the variable's value, not DuckDB's truncated 1.9 MiB
    assert "the cap FLOORMAN_DUCKDB_MAX_TEMP sets: raise FLOORMAN_DUCKDB_MAX_TEMP" in str(err.value)


def test_running_out_during_the_run_names_the_settings(
        pluribus_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """64 MB passes the estimate (no spill expected), the 1 KB cap then stops DuckDB inside the run.
    ``tests/warehouse/test_db_settings.py`` proves the cap itself is enforced."""
    monkeypatch.setenv("FLOORMAN_DUCKDB_TEMP", str(tmp_path / "t"))
    monkeypatch.setenv("FLOORMAN_DUCKDB_MAX_TEMP", "1KB")
    before = _rows(pluribus_db)
    with pytest.raises(spill.DetectorSpaceError) as err:
        detect(pluribus_db, Params(memory_limit="64MB"))
    message = str(err.value)
    assert isinstance(err.value.__cause__, duckdb.OutOfMemoryException)
    assert message.startswith("the detectors ran out of")
    assert "FLOORMAN_DUCKDB_MEMORY" in message
    assert _rows(pluribus_db) == before


def test_other_duckdb_errors_are_not_restated(tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "x.duckdb"))
    try:
        with pytest.raises(duckdb.CatalogException) as err:
            con.execute("SELECT * FROM no_such_table")
        assert spill.restated(err.value, con) is None
    finally:
        con.close()


def test_the_cli_prints_one_line_and_fails(pluribus_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FLOORMAN_DUCKDB_TEMP", str(tmp_path / "spill-here"))
    monkeypatch.setenv("FLOORMAN_DUCKDB_MAX_TEMP", "1KB")
    monkeypatch.setenv("FLOORMAN_DUCKDB_MEMORY", "1MB")  # the CLI takes the deployment's limit
    assert main(["detect", "--db", str(pluribus_db)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: --db {pluribus_db} (operator): the detectors need about")
    assert "\n" not in err and "Traceback" not in err
