"""Same tables before and after a detector speed change: save a snapshot, compare against it.

    .venv/bin/python bench/detect_equiv.py --db var/bench/detspeed/s7.duckdb --save var/bench/detspeed/before
    .venv/bin/python bench/detect_equiv.py --db var/bench/detspeed/s7.duckdb --compare var/bench/detspeed/before

Save a snapshot before a speed change and compare after it (the frozen copy of the pre-speed
code used in the 2026-11 rounds is in git history: ``git show c588baf:tests/detectors/frozen``).
The warehouse is opened read-only; the feature tables are temp tables of this process.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from detectors import snapshot  # noqa: E402
from detectors.stats import MIN_HANDS  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--save")
    ap.add_argument("--compare")
    ap.add_argument("--mode", default="operator")
    args = ap.parse_args()
    con = duckdb.connect(str(args.db), read_only=True)
    con.execute("SET threads = 2")
    t = time.perf_counter()
    u = snapshot.run_all(con, args.mode)
    print(f"live features + statistics: {time.perf_counter() - t:.1f} s, "
          f"{u.height:,} scored pairs")
    snap = snapshot.snapshot(con, u)
    if args.save:
        snapshot.save(snap, Path(args.save))
        print("saved", ", ".join(f"{k} {v.height:,}" for k, v in snap.items()))
    if args.compare:
        # older snapshots hold every pair; the live per-pair tables only the scored ones
        old = snapshot.scored_pairs_only(snapshot.load(Path(args.compare)), MIN_HANDS)
        diffs = snapshot.differences(old, snap)
        print("identical" if not diffs else "\n".join(diffs))
        sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
