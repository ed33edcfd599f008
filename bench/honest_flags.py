"""Flags on real honest play, per severity and per 1,000 players (issue 11, item 7).

    .venv/bin/python bench/honest_flags.py [--work var/honest_flags] [PATH ...]

The real hand histories in ``../shared/data/hands`` and ``../shared/data/tournaments`` (site samples,
Pluribus and ACPC-bot sessions, tournament files) hold no planted collusion, so every flag on them is
an alert an integrity team would spend time on for nothing. The queue is an alert budget, so low
flags always exist; what must not exist is a high one, and the medium ones should be rare. This
ingests the files into a fresh warehouse, runs ``detect`` in both modes and prints, per mode: flags
by severity, the distinct flagged pairs or groups, the players, and flags per 1,000 players.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from detectors.run import Params, RunSummary, detect  # noqa: E402
from warehouse.ingest import ingest_paths  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
DEFAULT_PATHS = [SHARED / "hands", SHARED / "tournaments"]
SEVERITIES = ("high", "medium", "low")


def flagged_groups(db: Path, run_id: str) -> int:
    """Distinct player sets flagged in one run: one pair with three family flags is one alert to open."""
    with duckdb.connect(str(db), read_only=True) as con:
        row = con.execute("SELECT count(DISTINCT list_sort(players)) FROM flags WHERE run_id = ?",
                          [run_id]).fetchone()
    return int(row[0]) if row else 0


def report_line(run: RunSummary, groups: int) -> str:
    per_k = 1000.0 / max(run.players, 1)
    sev = "  ".join(f"{s} {run.by_severity.get(s, 0):3d} ({run.by_severity.get(s, 0) * per_k:5.1f}/1k)"
                    for s in SEVERITIES)
    return (f"{run.mode:8} {run.hands:7,d} hands {run.players:6,d} players {run.pairs_scored:5,d} pairs scored"
            f" | {sev} | groups {groups:3d} ({groups * per_k:4.1f}/1k)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("paths", nargs="*", default=[str(x) for x in DEFAULT_PATHS])
    p.add_argument("--work", default=str(ROOT / "var" / "honest_flags"))
    a = p.parse_args()
    work = Path(a.work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    db = work / "honest.duckdb"
    t0 = time.perf_counter()
    ingested = ingest_paths(a.paths, db, progress=False)
    print(f"ingest: {ingested.new_hands:,d} hands in {time.perf_counter() - t0:.1f} s from {', '.join(a.paths)}")
    for mode in ("operator", "player"):
        run = detect(db, Params(mode=mode))
        print(report_line(run, flagged_groups(db, run.run_id)))


if __name__ == "__main__":
    main()
