"""Same tables before and after a detector speed change: save a snapshot, compare against it.

    .venv/bin/python bench/detect_equiv.py --db var/bench/detspeed/s7.duckdb --save var/bench/detspeed/before
    .venv/bin/python bench/detect_equiv.py --db var/bench/detspeed/s7.duckdb --compare var/bench/detspeed/before

``--partials WORK`` builds the same tables from a night's partitions' detector tables
(``detectors.partial``) instead: save in one go, compare via the partitions, on the same warehouse.
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

from detectors import partial, snapshot, stats  # noqa: E402
from detectors.stats import MIN_HANDS  # noqa: E402
from pipelines import steps  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--save")
    ap.add_argument("--compare")
    ap.add_argument("--mode", default="operator")
    ap.add_argument("--partials", type=Path,
                    help="the night's work folder: build the tables from its partitions' detector tables "
                         "(detectors.partial; --db is that night's combined warehouse) instead of in one go")
    args = ap.parse_args()
    con = duckdb.connect(str(args.db), read_only=True)
    con.execute("SET threads = 2")
    t = time.perf_counter()
    if args.partials:
        pairs = steps.combined_detector_tables(Path(args.db), args.partials)
        if not partial.load(con, pairs, args.mode, tables=partial.STORED):
            sys.exit("the partitions' detector tables do not match the warehouse")
        stats.pair_stats(con, loaded=True)
        u = snapshot.scored_pairs(con)
    else:
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
