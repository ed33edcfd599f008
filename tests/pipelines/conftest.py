"""Fixtures of the nightly-audit tests: a small landing folder of real hand files and a
persistent Dagster instance in a temp folder (SQLite storage: runs, events, pools, backfills)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

from pipelines.resources import AuditResource
from tests.conftest import real_data

STARS = ("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop")
DAY1, DAY2 = "2026-11-28", "2026-11-29"
FILES = {
    DAY1: ["NLHE-FR-USD-0.01-0.02-201005.microgrind.txt", "NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt"],
    DAY2: ["PLO-FR-USD-0.01-0.02-201006.sidepots.txt", "NLHE-6max-USD-0.05-0.10-200912.Allin-pre.txt"],
}


@pytest.fixture
def landing(tmp_path: Path) -> Path:
    root = tmp_path / "landing"
    for day, names in FILES.items():
        (root / day).mkdir(parents=True)
        for name in names:
            shutil.copy(real_data(*STARS, name), root / day / name)
    return root


@pytest.fixture(scope="session")
def simulated_night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """800 simulated PokerStars hands (a folder of table files), made once per test session."""
    from pipelines.cli import main as floorman

    out = tmp_path_factory.mktemp("simulated")
    code = floorman(["simulate", "--hands", "800", "--seed", "5", "--out", str(out / "tables"),
                     "--truth", str(out / "truth.json"), "--operator-mode", "--world", "classic"])
    assert code == 0
    return out / "tables"


@pytest.fixture
def instance(tmp_path: Path) -> Iterator[dg.DagsterInstance]:
    home = tmp_path / "dagster_home"
    home.mkdir()
    (home / "dagster.yaml").write_text("concurrency:\n  pools:\n    default_limit: 1\ntelemetry:\n  enabled: false\n")
    with dg.DagsterInstance.from_config(str(home)) as inst:
        yield inst


def audit_resource(tmp_path: Path, landing: Path) -> AuditResource:
    return AuditResource(landing=str(landing), work=str(tmp_path / "work"))


def break_day(landing: Path, day: str) -> None:
    """Replace a day's files by one where every hand is cut in half: its parse rate collapses."""
    src = (landing / day / FILES[day][0]).read_text(encoding="utf-8", errors="replace")
    blocks = [b for b in src.replace("\r\n", "\n").split("\n\n\n") if b.strip()]
    for name in FILES[day]:
        (landing / day / name).unlink()
    (landing / day / "broken.txt").write_text("\n\n\n".join(b[: len(b) // 2] for b in blocks), encoding="utf-8")
