"""A bad ``--db`` is one line naming the file and the reason (exit 2), never a new empty warehouse or
a traceback; and a reader that stops early (``| head``) ends the command quietly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pipelines import cli
from tests.conftest import real_data

ROOT = Path(__file__).resolve().parents[2]
HAND_FILE = ("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop",
             "NLHE-FR-USD-0.01-0.02-201005.microgrind.txt")
#: every subcommand that reads a warehouse somebody built before
READERS = [["check"], ["violations"], ["detect"], ["flags"], ["scores"], ["evaluate", "--truth", "t.json"],
           ["labels", "--out", "l.json"]]


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_a_missing_warehouse_is_named_and_not_created(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    missing = tmp_path / "wrong.duckdb"
    with pytest.raises(SystemExit) as stop:
        cli.main([command[0], "--db", str(missing), *command[1:]])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"warehouse {missing} does not exist" in err and "Traceback" not in err
    assert not missing.exists()


@pytest.mark.parametrize(("content", "reason"), [(b"hand notes\n" * 10, "is not a DuckDB warehouse file"),
                                                 (None, "is a folder, not a warehouse file")])
def test_a_file_that_is_no_warehouse_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, reason: str) -> None:
    target = tmp_path / "notes.txt"
    if content is None:
        target.mkdir()
    else:
        target.write_bytes(content)
    with pytest.raises(SystemExit) as stop:
        cli.main(["check", "--db", str(target)])
    assert stop.value.code == 2
    assert f"{target} {reason}" in capsys.readouterr().err
    assert content is None or target.read_bytes() == content  # untouched


def test_a_duckdb_file_without_hands_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import duckdb

    other = tmp_path / "other.duckdb"
    with duckdb.connect(str(other)) as con:
        con.execute("CREATE TABLE notes (line VARCHAR)")
    with pytest.raises(SystemExit) as stop:
        cli.main(["detect", "--db", str(other)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"{other} holds no hands" in err and "Traceback" not in err


def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    floorman = [sys.executable, "-m", "pipelines.cli"]
    subprocess.run([*floorman, "ingest", str(real_data(*HAND_FILE)), "--db", str(db)], check=True, cwd=ROOT,
                   capture_output=True)
    subprocess.run([*floorman, "check", "--db", str(db)], check=True, cwd=ROOT, capture_output=True)
    proc = subprocess.Popen([*floorman, "violations", "--db", str(db), "--format", "json"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader goes away before the listing is written (start-up alone takes a second)
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == cli.EXIT_BROKEN_PIPE, err
    assert "Traceback" not in err and "BrokenPipeError" not in err


def test_operator_mode_on_hands_without_hole_cards_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A site's own export shows only the hero's and the shown cards: operator mode cannot see more."""
    db = tmp_path / "w.duckdb"
    assert cli.main(["ingest", str(real_data(*HAND_FILE)), "--db", str(db)]) == 0
    capsys.readouterr()
    assert cli.main(["detect", "--db", str(db)]) == 0
    err = capsys.readouterr().err
    assert "operator mode read only the cards shown" in err
    assert cli.main(["detect", "--db", str(db), "--mode", "player"]) == 0
    assert "operator mode read only" not in capsys.readouterr().err
