"""The deployment's DuckDB settings (memory, threads, spill folder) reach every warehouse connection.

Why: DuckDB's default memory limit is 80% of RAM per connection; two workers on one machine each
took ~20 GB at ten million hands. The cluster scripts bound each worker through these variables,
so a connection that ignored them would make the bound a fiction.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from warehouse.db import connect, duckdb_config, memory_limit


def _setting(con: object, name: str) -> str:
    row = con.execute("SELECT current_setting(?)", [name]).fetchone()  # type: ignore[attr-defined]
    return str(row[0])


def test_writer_and_reader_take_the_limits_from_the_environment(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLOORMAN_DUCKDB_MEMORY", "300MB")
    monkeypatch.setenv("FLOORMAN_DUCKDB_THREADS", "1")
    monkeypatch.setenv("FLOORMAN_DUCKDB_TEMP", str(tmp_path / "spill"))
    monkeypatch.setenv("FLOORMAN_DUCKDB_MAX_TEMP", "2GB")
    db = tmp_path / "w.duckdb"
    connect(db).close()
    for read_only in (False, True):
        con = connect(db, read_only=read_only)
        try:
            assert _setting(con, "memory_limit") == "286.1 MiB"  # DuckDB reports 300 MB in MiB
            assert _setting(con, "threads") == "1"
            assert _setting(con, "temp_directory") == str(tmp_path / "spill")
            assert _setting(con, "max_temp_directory_size") == "1.8 GiB"
        finally:
            con.close()


def test_unset_or_blank_variables_leave_duckdb_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("FLOORMAN_DUCKDB_MEMORY", "FLOORMAN_DUCKDB_THREADS", "FLOORMAN_DUCKDB_TEMP",
                "FLOORMAN_DUCKDB_MAX_TEMP"):
        monkeypatch.setenv(var, " ")
    assert duckdb_config() == {}
    assert memory_limit("5GB") == "5GB"
    monkeypatch.setenv("FLOORMAN_DUCKDB_MEMORY", "2GB")
    assert memory_limit("5GB") == "2GB"  # the detector step's own default gives way to the deployment's


def test_the_temp_cap_is_enforced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spill past FLOORMAN_DUCKDB_MAX_TEMP fails (DuckDB ignores the cap in connect's config)."""
    import duckdb

    monkeypatch.setenv("FLOORMAN_DUCKDB_TEMP", str(tmp_path / "spill"))
    monkeypatch.setenv("FLOORMAN_DUCKDB_MAX_TEMP", "10MB")
    con = connect(tmp_path / "w.duckdb")
    try:
        con.execute("SET memory_limit = '50MB'")
        with pytest.raises(duckdb.OutOfMemoryException, match="max_temp_directory_size"):
            con.execute("CREATE TEMP TABLE t AS SELECT range AS a, range::VARCHAR AS b FROM range(20000000)")
    finally:
        con.close()


def test_detector_tables_of_a_partition_are_built_under_the_limit(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A limit too small for any work makes the partition's detector build fail: proof it applies."""
    import duckdb

    from detectors import partial

    part = tmp_path / "p.duckdb"
    connect(part).close()
    monkeypatch.setenv("FLOORMAN_DUCKDB_MEMORY", "1KB")
    with pytest.raises(duckdb.OutOfMemoryException):
        partial.build(part, tmp_path / "d.duckdb")



_BAR_PROBE = """
import sys
import duckdb
from warehouse.db import connect
def bar(con):
    return str(con.execute("SELECT current_setting('enable_progress_bar')").fetchone()[0]).lower()
db = sys.argv[1]
connect(db).close()
print(bar(duckdb.connect()), bar(connect(db)), bar(connect(db, read_only=True)))
"""


def test_pipeline_connections_draw_no_progress_bar(tmp_path: Path) -> None:
    """A query over two seconds would draw DuckDB's progress bar into the night's logs.

    DuckDB turns the bar on where Python looks interactive (``python -c``, and the forkserver or
    spawn children Dagster runs steps in) and off under a script or pytest, so the check runs in a
    ``python -c`` process, with a plain connection there as the control."""
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", _BAR_PROBE, str(tmp_path / "w.duckdb")], cwd=root,
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["true", "false", "false"]  # control on; writer and reader off
