"""`floorman ingest` never loses a run to one file (issue 12): each bad input is one line naming
the path and the reason, no traceback, no half-made warehouse, exit 1 only when nothing was done;
the same bytes twice in one run are stored once, across batch commits too."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest

from tests.conftest import ROOT, SHARED, real_data
from warehouse.ingest import OTHER_SPECIFICS, IngestSummary, ingest_paths

STARS = ("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop")
MICROGRIND = "NLHE-FR-USD-0.01-0.02-201005.microgrind.txt"  # 96 PokerStars hands
PARTY_PAIR = ("hhp", "test", "partypoker", "tourney.mtt.usd.10-max.2013", "hands.txt")


def _ingest(*args: str | Path, batch: int | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``floorman ingest`` as a user would, in its own process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("FLOORMAN_INGEST_BATCH", None)
    if batch is not None:
        env["FLOORMAN_INGEST_BATCH"] = str(batch)
    return subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "ingest", *map(str, args)],
        capture_output=True, text=True, env=env, cwd=ROOT, check=False, timeout=600,
    )  # fmt: skip


def _error_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    assert "Traceback" not in proc.stderr, proc.stderr
    return [line for line in proc.stderr.splitlines() if line.strip()]


def _count(db: Path, sql: str) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute(sql).fetchone()
        return int(row[0]) if row else 0
    finally:
        con.close()


def _good_file() -> Path:
    return real_data(*STARS, MICROGRIND)


# --- bad inputs -------------------------------------------------------------------------------


def test_missing_path_is_one_line_and_no_warehouse(tmp_path: Path) -> None:
    missing, db = tmp_path / "missing.txt", tmp_path / "w.duckdb"
    proc = _ingest(missing, "--db", db)
    assert proc.returncode == 1
    assert _error_lines(proc) == [f"error: {missing}: no such file or folder"]
    assert not db.exists() and not Path(f"{db}.wal").exists()


def test_missing_path_beside_a_good_file_still_ingests(tmp_path: Path) -> None:
    missing, db = tmp_path / "missing.txt", tmp_path / "w.duckdb"
    proc = _ingest(missing, _good_file(), "--db", db)
    assert proc.returncode == 0
    assert _error_lines(proc) == [f"error: {missing}: no such file or folder"]
    assert _count(db, "SELECT count(*) FROM raw_files") == 1


def test_empty_file_is_named_with_its_reason(tmp_path: Path) -> None:
    empty, db = tmp_path / "empty.txt", tmp_path / "w.duckdb"
    empty.write_bytes(b"")
    proc = _ingest(empty, "--db", db)
    assert proc.returncode == 1
    assert f"unrecognised: {empty}: empty file" in proc.stdout.splitlines()
    assert _error_lines(proc) == []
    assert not db.exists()


def test_binary_file_named_txt_is_named_with_its_reason(tmp_path: Path) -> None:
    binary, db = tmp_path / "hands.txt", tmp_path / "w.duckdb"
    binary.write_bytes(bytes(range(256)) * 40)
    proc = _ingest(binary, "--db", db)
    assert proc.returncode == 1
    assert f"unrecognised: {binary}: binary content, not a text hand history" in proc.stdout.splitlines()
    assert not db.exists()
    # beside a good file the run does something: exit 0, the binary file still named
    proc = _ingest(binary, _good_file(), "--db", db)
    assert proc.returncode == 0, proc.stderr
    assert f"unrecognised: {binary}: binary content, not a text hand history" in proc.stdout.splitlines()


def test_text_that_no_format_reads_names_its_first_line(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\nmilk\n")
    proc = _ingest(notes, "--db", tmp_path / "w.duckdb")
    assert proc.returncode == 1
    line = f"unrecognised: {notes}: no supported format recognises its content (first line: 'shopping list')"
    assert line in proc.stdout.splitlines()


def test_db_that_is_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "warehouse"
    folder.mkdir()
    proc = _ingest(_good_file(), "--db", folder)
    assert proc.returncode == 1
    (line,) = _error_lines(proc)
    assert line.startswith(f"error: --db {folder}: is a folder, not a warehouse file")
    assert list(folder.iterdir()) == []


def test_db_that_is_not_a_duckdb_file_is_left_untouched(tmp_path: Path) -> None:
    src = _good_file()
    other = tmp_path / "hands.txt"
    shutil.copy(src, other)
    proc = _ingest(src, "--db", other)
    assert proc.returncode == 1
    expected = f"error: --db {other}: is not a DuckDB warehouse file; nothing from this run was stored"
    assert _error_lines(proc) == [expected]
    assert other.read_bytes() == src.read_bytes()


@contextmanager
def _tmpfs(where: Path, options: str) -> Iterator[Path]:
    """A tmpfs at ``where`` (root only): a read-only or tiny disk without touching real ones."""
    where.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root to mount a tmpfs")
    command = ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)]
    done = subprocess.run(command, capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@contextmanager
def _read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder this process cannot write: chmod for a normal user; root ignores modes, so a
    read-only tmpfs."""
    if os.geteuid() != 0:
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
    else:
        with _tmpfs(tmp_path / "ro", "ro,size=1m") as folder:
            yield folder


def test_db_in_a_read_only_folder(tmp_path: Path) -> None:
    with _read_only_folder(tmp_path) as folder:
        db = folder / "w.duckdb"
        proc = _ingest(_good_file(), "--db", db)
        assert proc.returncode == 1
        (line,) = _error_lines(proc)
        assert line.startswith(f"error: --db {db}: cannot write the warehouse: ")
        assert line.endswith("; no warehouse written")
        assert ("read-only file system" in line) or ("permission denied" in line)
        assert list(folder.iterdir()) == []


def test_db_file_that_cannot_be_written(tmp_path: Path) -> None:
    src = _good_file()
    if os.geteuid() != 0:
        db = tmp_path / "w.duckdb"
        assert _ingest(src, "--db", db).returncode == 0
        db.chmod(0o444)
        tmp_path.chmod(0o555)
        try:
            proc = _ingest(_stars_other(), "--db", db)
        finally:
            tmp_path.chmod(0o755)
    else:
        with _tmpfs(tmp_path / "mnt", "size=4m") as mnt:
            db = mnt / "w.duckdb"
            assert _ingest(src, "--db", db).returncode == 0
            subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
            proc = _ingest(_stars_other(), "--db", db)
            assert db.exists()
    assert proc.returncode == 1
    (line,) = _error_lines(proc)
    assert line.startswith(f"error: --db {db}: cannot write the warehouse: ")
    assert line.endswith("; nothing from this run was stored")


def _stars_other() -> Path:
    return real_data(*STARS, "NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt")


def test_full_disk_leaves_no_half_made_warehouse(tmp_path: Path) -> None:
    folder = real_data("fpdb3_regression")  # 7 MB of hands: a 1 MB disk fills midway
    with _tmpfs(tmp_path / "tiny", "size=1m") as tiny:
        db = tiny / "w.duckdb"
        proc = _ingest(folder, "--db", db)
        assert proc.returncode == 1
        assert _error_lines(proc) == [
            f"error: --db {db}: cannot write the warehouse: disk full (no space left on device); no warehouse written"
        ]
        assert list(tiny.iterdir()) == []
        # committed in small batches, the files stored before the disk filled are kept, whole
        proc = _ingest(folder, "--db", db, batch=50)
        assert proc.returncode == 1
        (line,) = _error_lines(proc)
        assert "disk full" in line and "files stored before it are kept, run again to load the rest" in line
        stored = int(line.split("; the ")[1].split()[0])
        assert _count(db, "SELECT count(*) FROM raw_files") == stored > 0
        mismatched = (
            "SELECT count(*) FROM raw_files r LEFT JOIN (SELECT file_sha256, count(*) n FROM hands GROUP BY 1) h "
            "ON h.file_sha256 = r.sha256 WHERE coalesce(h.n, 0) <> r.new_hands"
        )
        assert _count(db, mismatched) == 0


def test_fresh_warehouse_calls_repeats_duplicates_within_this_run(tmp_path: Path) -> None:
    folder = real_data(*STARS)
    db = tmp_path / "w.duckdb"
    proc = _ingest(folder, folder, "--db", db, "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["files_already_ingested"] == 0
    assert summary["files_duplicate_in_run"] == summary["files"] > 0
    text = _ingest(folder, folder, "--db", tmp_path / "text.duckdb")
    (files_line,) = [line for line in text.stdout.splitlines() if line.startswith("files: ")]
    assert f"{summary['files_duplicate_in_run']} duplicates within this run, 0 already ingested" in files_line
    again = json.loads(_ingest(folder, "--db", db, "--json").stdout)
    assert again["files"] == 0 and again["files_already_ingested"] == summary["files"]


# --- the same bytes across a batch commit -----------------------------------------------------


def _tournament_copy(original: Path) -> Path:
    """The file under shared/data/tournaments with the same bytes as ``original``."""
    root = SHARED / "data" / "tournaments"
    if not root.is_dir():
        pytest.skip(f"tournament files not available at {root} (set FLOORMAN_SHARED)")
    digest = hashlib.sha256(original.read_bytes()).hexdigest()
    size = original.stat().st_size
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.stat().st_size == size and hashlib.sha256(path.read_bytes()).hexdigest() == digest:
            return path
    pytest.skip(f"no copy of {original} under {root}")


def test_real_pair_across_a_batch_commit_is_stored_once(tmp_path: Path) -> None:
    original = real_data(*PARTY_PAIR)
    copy = _tournament_copy(original)
    db = tmp_path / "w.duckdb"
    proc = _ingest(original.parent, copy.parent, "--db", db, "--json", batch=1)  # commit after every hand
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["files_duplicate_in_run"] >= 1 and summary["files_already_ingested"] == 0
    assert summary["duplicates_in_run"][str(copy)] == str(original)
    digest = hashlib.sha256(copy.read_bytes()).hexdigest()
    assert _count(db, f"SELECT count(*) FROM raw_files WHERE sha256 = '{digest}'") == 1
    again = json.loads(_ingest(original.parent, copy.parent, "--db", db, "--json", batch=1).stdout)
    assert again["files"] == 0 and again["new_hands"] == 0
    assert again["files_already_ingested"] == summary["files"] + summary["files_duplicate_in_run"]


def test_synthetic_copy_across_batches_is_stored_once_and_rerun_adds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FLOORMAN_INGEST_BATCH", raising=False)
    src, between = _good_file(), _stars_other()
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    shutil.copy(src, first / "1.txt")
    shutil.copy(between, first / "2.txt")  # more than a batch of hands lies between the copies
    shutil.copy(src, second / "copy.txt")
    reference = ingest_paths([first], tmp_path / "ref.duckdb", batch_hands=10)
    db = tmp_path / "w.duckdb"
    summary = ingest_paths([first, second], db, batch_hands=10)
    assert summary.files == 2 and summary.files_duplicate_in_run == 1 and summary.files_already_ingested == 0
    assert summary.duplicates_in_run == {str(second / "copy.txt"): str(first / "1.txt")}
    assert summary.new_hands == reference.new_hands
    assert _count(db, "SELECT count(*) FROM raw_files") == 2
    hands = _count(db, "SELECT count(*) FROM hands")
    actions = _count(db, "SELECT count(*) FROM actions")
    assert hands == reference.new_hands
    rerun = ingest_paths([first, second], db, batch_hands=10)
    assert rerun.files == 0 and rerun.files_already_ingested == 3 and rerun.files_duplicate_in_run == 0
    assert rerun.new_hands == 0
    assert _count(db, "SELECT count(*) FROM hands") == hands
    assert _count(db, "SELECT count(*) FROM actions") == actions


# --- the text summary -------------------------------------------------------------------------


def test_text_summary_lists_quarantine_specifics_under_their_group(tmp_path: Path) -> None:
    text = _good_file().read_bytes().replace(b"\r\n", b"\n")
    blocks = [b for b in text.split(b"\n\n\n") if b.strip()]
    for i in range(7):
        line = b"*** HOLE CARDS ***\nDancer%d: dances wildly\n" % i
        blocks[i] = blocks[i].replace(b"*** HOLE CARDS ***\n", line, 1)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\n\n\n".join(blocks))
    proc = _ingest(bad, "--db", tmp_path / "w.duckdb")
    assert proc.returncode == 0, proc.stderr
    lines = [line.strip() for line in proc.stdout.splitlines()]
    at = lines.index("7  unrecognised line '…'")
    shown = [f"1  unrecognised line 'Dancer{i}: dances wildly'" for i in range(5)]
    assert lines[at + 1 : at + 6] == shown
    assert lines[at + 6] == "and 2 more (2 hands)"
    # the counts come last, so they are what a long list of details leaves on the screen
    assert [line.split(":")[0] for line in lines[-4:-1]] == ["files", "hands", "quarantined"]
    assert lines[-2].startswith("quarantined: 7 ") and lines[-1].endswith("hands/s")


def test_specifics_beyond_the_kept_ones_are_counted(capsys: pytest.CaptureFixture[str]) -> None:
    from pipelines.cli import _print_ingest_summary

    summary = IngestSummary(quarantined=12, quarantined_by_reason={"not an amount: '…'": 12})
    specifics = {f"not an amount: '{i}k'": 1 for i in range(6)}
    summary.quarantined_specifics = {"not an amount: '…'": {**specifics, OTHER_SPECIFICS: 6}}
    _print_ingest_summary(summary)
    out = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert "and 1+ more (7 hands)" in out
