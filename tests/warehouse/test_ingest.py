"""Ingest: exactly-once files and hands, quarantine without loss, encodings, crash safety."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from tests.conftest import ROOT, real_data
from warehouse.ingest import ingest_paths

STARS = ("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop")


def _stars_file(name: str) -> Path:
    return real_data(*STARS, name)


def _count(db: Path, sql: str) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute(sql).fetchone()
        return int(row[0]) if row else 0
    finally:
        con.close()


def test_reingest_adds_nothing(tmp_path: Path) -> None:
    folder = real_data(*STARS)
    db = tmp_path / "w.duckdb"
    first = ingest_paths([folder], db)
    assert first.new_hands > 50
    hands = _count(db, "SELECT count(*) FROM hands")
    actions = _count(db, "SELECT count(*) FROM actions")
    second = ingest_paths([folder], db)
    assert second.files == 0 and second.files_already_ingested == first.files
    assert second.new_hands == 0
    assert _count(db, "SELECT count(*) FROM hands") == hands
    assert _count(db, "SELECT count(*) FROM actions") == actions
    assert _count(db, "SELECT count(*) FROM quarantine") == first.quarantined


def test_same_hand_in_two_files_is_stored_once(tmp_path: Path) -> None:
    src = _stars_file("NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt")
    copy = tmp_path / "copy.txt"
    # same hands, different bytes (a trailing blank line) so the file itself is new
    copy.write_bytes(src.read_bytes() + b"\n\n")
    db = tmp_path / "w.duckdb"
    a = ingest_paths([src], db)
    b = ingest_paths([copy], db)
    assert a.new_hands >= 1 and b.files == 1
    assert b.new_hands == 0 and b.duplicate_hands == a.new_hands
    assert _count(db, "SELECT count(*) FROM hands") == a.new_hands
    assert _count(db, "SELECT count(*) FROM raw_files") == 2


def _hand_blocks(path: Path) -> list[bytes]:
    text = path.read_bytes().replace(b"\r\n", b"\n")
    return [b for b in text.split(b"\n\n\n") if b.strip()]


def test_corrupt_and_truncated_hands_are_quarantined_rest_loads(tmp_path: Path) -> None:
    src = _stars_file("NLHE-FR-USD-0.01-0.02-201005.microgrind.txt")
    good = ingest_paths([src], tmp_path / "good.duckdb")
    assert good.new_hands >= 5 and good.quarantined == 0
    blocks = _hand_blocks(src)
    assert len(blocks) >= 5
    # corrupt one hand's amounts, truncate the last one mid-hand
    blocks[1] = blocks[1].replace(b"calls $", b"calls $x", 1)
    blocks[-1] = blocks[-1][: len(blocks[-1]) // 2]
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\n\n\n".join(blocks))
    db = tmp_path / "bad.duckdb"
    summary = ingest_paths([bad], db)
    assert summary.quarantined == 2
    assert summary.new_hands == good.new_hands - 2
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        "SELECT source_file, byte_offset, reason, raw_text FROM quarantine ORDER BY byte_offset"
    ).fetchall()
    con.close()
    for source, offset, reason, raw in rows:
        assert source == str(bad) and reason
        assert bad.read_bytes()[offset:].startswith(raw.split("\n", 1)[0].encode())


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "cp1252"])
def test_encodings(tmp_path: Path, encoding: str) -> None:
    src = _stars_file("NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt")
    text = src.read_bytes().decode("cp1252")  # the file is cp1252: '€' is byte 0x80
    ref = ingest_paths([src], tmp_path / "ref.duckdb")
    assert ref.new_hands >= 1 and ref.quarantined == 0
    out = tmp_path / f"hand.{encoding}.txt"
    out.write_bytes(text.encode(encoding))
    db = tmp_path / f"{encoding}.duckdb"
    summary = ingest_paths([out], db)
    assert summary.new_hands == ref.new_hands and summary.quarantined == 0
    con = duckdb.connect(str(db), read_only=True)
    currency, total = con.execute("SELECT currency, site_total_pot FROM hands").fetchone()  # type: ignore[misc]
    con.close()
    assert currency == "EUR" and total == 22532  # "Total pot €225.32" as written in the file


def test_unreadable_and_unknown_inputs_are_named(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("this is not a hand history\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "ingest", str(junk), str(tmp_path / "missing.txt"),
         "--db", str(tmp_path / "w.duckdb"), "--json"],
        capture_output=True, text=True, env=env, cwd=ROOT, check=False,
    )
    assert proc.returncode == 1, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["files_unrecognised"] == 1 and str(junk) in summary["unrecognised"]
    assert any("missing.txt" in e and "no such file" in e for e in summary["errors"])
    for key in ("files", "hands", "quarantined", "unreconciled", "seconds"):
        assert key in summary


def test_killed_ingest_leaves_no_half_file_and_rerun_completes(tmp_path: Path) -> None:
    folder = real_data("fpdb3_regression")
    reference = ingest_paths([folder], tmp_path / "ref.duckdb")
    db = tmp_path / "killed.duckdb"
    wal = Path(f"{db}.wal")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FLOORMAN_INGEST_BATCH": "50"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipelines.cli", "ingest", str(folder), "--db", str(db), "--json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT,
    )
    # kill it once it has committed something (the WAL grows) but long before it is done
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if wal.exists() and wal.stat().st_size > 200_000:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    con = duckdb.connect(str(db))
    committed = con.execute("SELECT count(*) FROM raw_files").fetchone()
    # every committed file has exactly the hands it says it added, and no hand lacks its file
    bad = con.execute(
        "SELECT r.path FROM raw_files r LEFT JOIN (SELECT file_sha256, count(*) n FROM hands GROUP BY 1) h "
        "ON h.file_sha256 = r.sha256 WHERE coalesce(h.n, 0) <> r.new_hands"
    ).fetchall()
    # hands of no committed file may exist only for files marked in progress (batch commits)
    orphans = con.execute(
        "SELECT count(*) FROM hands WHERE file_sha256 NOT IN (SELECT sha256 FROM raw_files) "
        "AND file_sha256 NOT IN (SELECT sha256 FROM ingest_in_progress)"
    ).fetchone()
    con.close()
    assert bad == [] and orphans == (0,)
    assert committed is not None and 0 < committed[0] < reference.files, "the kill did not land mid-ingest"
    rerun = ingest_paths([folder], db)
    assert rerun.files + committed[0] == reference.files
    assert _count(db, "SELECT count(*) FROM hands") == reference.new_hands
    assert _count(db, "SELECT count(*) FROM quarantine") == reference.quarantined
    assert _count(db, "SELECT count(*) FROM ingest_in_progress") == 0
    assert _count(db, "SELECT count(*) FROM hands WHERE file_sha256 NOT IN (SELECT sha256 FROM raw_files)") == 0


def test_interrupted_big_file_is_rolled_back_before_it_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big file commits batch by batch (flat memory); a crash leaves an in-progress marker and
    the next ingest deletes that file's rows first, so nothing is half-loaded or double-counted."""
    import warehouse.ingest as ingest_module

    src = _stars_file("NLHE-FR-USD-0.01-0.02-201005.microgrind.txt")
    db = tmp_path / "w.duckdb"
    reference = ingest_paths([src], tmp_path / "ref.duckdb")
    real_commit = ingest_module._Loader.commit_files
    monkeypatch.setattr(ingest_module, "PIECE_CHUNK_BYTES", 1)  # read PokerStars hands in tiny chunks

    def crash(self: object) -> None:
        raise KeyboardInterrupt("killed before the file's last commit")

    ingest_module._Loader.commit_files = crash  # type: ignore[method-assign]
    try:
        with pytest.raises(KeyboardInterrupt):
            ingest_paths([src], db, batch_hands=2)
    finally:
        ingest_module._Loader.commit_files = real_commit  # type: ignore[method-assign]
    assert _count(db, "SELECT count(*) FROM ingest_in_progress") == 1
    assert 0 < _count(db, "SELECT count(*) FROM hands") < reference.new_hands  # batches were committed
    assert _count(db, "SELECT count(*) FROM raw_files") == 0
    again = ingest_paths([src], db, batch_hands=2)
    assert again.new_hands == reference.new_hands and again.duplicate_hands == 0
    assert _count(db, "SELECT count(*) FROM hands") == reference.new_hands
    assert _count(db, "SELECT count(*) FROM actions") == _count(tmp_path / "ref.duckdb", "SELECT count(*) FROM actions")
    assert _count(db, "SELECT count(*) FROM ingest_in_progress") == 0
    shutil.rmtree(tmp_path, ignore_errors=True)
