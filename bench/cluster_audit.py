"""Cluster benchmark: a multi-day night through the distributed deployment (issue 15).

    .venv/bin/python bench/cluster_audit.py [--days 20] [--hands 500000] [--sources 2] [--workers 2]

Lands ``--days`` day folders of ``--hands`` simulated PokerStars hands each under
var/bench/cluster-<days>x<hands>/landing (cached), then runs ``scripts/cluster_test.sh`` in
benchmark mode (``CLUSTER_BENCH=1``): PostgreSQL, Redis, the code server, the daemon and the
Celery workers on loopback, a backfill of every day as a partition run, then the night run, no
worker killed. The last line gives the hands, the wall time split into partitions and night, the
seconds per million hands, and each worker's peak RSS (a step runs inside its worker process, so
that is the memory one step needed).

Why copies: simulating costs about as much CPU as auditing (0.4 ms a hand), so 10 million hands
would take an hour of both cores before the night starts. ``--sources`` days are simulated (each
its own seed) and every other day is a copy of one of them with fresh hand numbers and table names
(``Table 'Aludra I'`` becomes ``'Aludra I d07'``), so no hand is seen twice and no table's hands
interleave with another copy's. The players, and so the pairs, repeat across copies; time stamps
are the source's.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HAND_NO = re.compile(r"^(PokerStars (?:Zoom )?Hand #)(\d+)", re.M)
TABLE = re.compile(r"^(Table ')([^']*)(')", re.M)
FIRST_DAY = date(2026, 11, 1)


def simulate(source: int, hands: int, sim: Path) -> None:
    """Source day ``source`` (1, 2, ...): classic world, operator mode, as ``make cluster-test`` lands
    it, seed 200 + source, starting on day ``source`` of November 2026."""
    out = sim / f"s{source}"
    if out.exists():
        return
    cmd = [str(ROOT / ".venv" / "bin" / "floorman"), "simulate", "--hands", str(hands), "--seed", str(200 + source),
           "--out", str(out), "--truth", str(sim / f"truth-{source}.json"), "--world", "classic",
           "--operator-mode", "--start", f"2026-11-{source:02d}T00:30"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def copy_day(source: Path, target: Path, tag: int) -> int:
    """``source``'s files into ``target`` with hand numbers prefixed by ``tag`` and table names
    suffixed ``d<tag>``; returns the hands written."""
    target.mkdir(parents=True, exist_ok=True)
    hands = 0
    for f in sorted(source.glob("*.txt")):
        text = f.read_text(encoding="utf-8")
        text, n = HAND_NO.subn(lambda m: f"{m[1]}{tag:02d}{m[2]}", text)
        text = TABLE.sub(lambda m: f"{m[1]}{m[2]} d{tag:02d}{m[3]}", text)
        (target / f.name).write_text(text, encoding="utf-8")
        hands += n
    return hands


def land(base: Path, days: int, hands: int, sources: int) -> Path:
    """The landing folder (built once; a ``DONE`` file marks a complete one)."""
    landing = base / "landing"
    if (base / "DONE").exists():
        return landing
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=min(sources, os.cpu_count() or 1)) as pool:
        list(pool.map(simulate, range(1, sources + 1), [hands] * sources, [base / "sim"] * sources))
    sims = [base / "sim" / f"s{i}" for i in range(1, sources + 1)]
    print(f"simulated {sources} x {hands:,} hands in {time.perf_counter() - t0:.0f} s", flush=True)
    t1 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        jobs = [pool.submit(copy_day, sims[k % sources], landing / str(FIRST_DAY + timedelta(days=k)), k + 1)
                for k in range(days)]
        total = sum(j.result() for j in jobs)
    print(f"landed {days} days, {total:,} hands in {time.perf_counter() - t1:.0f} s (not part of the night)",
          flush=True)
    (base / "DONE").write_text(f"{total}\n", encoding="utf-8")
    return landing


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--days", type=int, default=20)
    ap.add_argument("--hands", type=int, default=500_000, help="hands per day")
    ap.add_argument("--sources", type=int, default=2, help="days simulated; the others are copies of them")
    ap.add_argument("--workers", type=int, default=2, help="Celery workers")
    ap.add_argument("--dir", type=Path, default=ROOT / "var" / "bench")
    args = ap.parse_args()
    print("load average (1, 5, 15 min) at start: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()), flush=True)
    landing = land(args.dir / f"cluster-{args.days}x{args.hands}", args.days, args.hands, args.sources)
    env = {**os.environ, "CLUSTER_BENCH": "1", "CLUSTER_LANDING": str(landing), "CLUSTER_WORKERS": str(args.workers),
           # a step here runs minutes: redelivery before it ends would run it twice (production: 3600 s)
           "CLUSTER_VISIBILITY_TIMEOUT": os.environ.get("CLUSTER_VISIBILITY_TIMEOUT", "7200")}
    done = subprocess.run(["bash", str(ROOT / "scripts" / "cluster_test.sh")], env=env, check=False)
    print("load average (1, 5, 15 min) at end: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()), flush=True)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
