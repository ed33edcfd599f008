"""Benchmark: features + detectors on ~1,000,000 hands (time and peak memory per stage).

Usage:
    python bench/detect.py [--source SIM.duckdb] --copies 5 --work /tmp/bench_detect [--threads 2]

Without ``--source`` the simulated 200,000-hand warehouse (seed 101, operator mode) is built once
(simulate + ingest, a few minutes) and cached as var/bench/s101.duckdb.

The 1M-hand warehouse is built from a simulated one by copying it ``copies`` times with fresh
hand ids and per-copy player names (so the pair table grows like a bigger site's would, instead of
piling hands onto the same pairs). Only features + detectors are timed, not the copy.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from detectors import allin, features, pairs, partial, run, stats  # noqa: E402
from detectors.families import rule_scores  # noqa: E402
from detectors.run import Params, build_flags, score  # noqa: E402
from pipelines import steps  # noqa: E402
from pipelines.steps import DETECT_MEMORY  # noqa: E402

CACHED = ROOT / "var" / "bench" / "s101.duckdb"

TABLES = {
    "hands": "hand_id || '#' || $k AS hand_id",
    "seats": "hand_id || '#' || $k AS hand_id, player || '#' || $k AS player",
    "actions": "hand_id || '#' || $k AS hand_id, player || '#' || $k AS player",
    "hole_cards": "hand_id || '#' || $k AS hand_id, player || '#' || $k AS player",
    "boards": "hand_id || '#' || $k AS hand_id",
    "awards": "hand_id || '#' || $k AS hand_id, player || '#' || $k AS player",
}


def build(source: Path, target: Path, copies: int) -> int:
    if target.exists():
        target.unlink()
    con = duckdb.connect(str(target))
    con.execute(f"ATTACH '{source}' AS src (READ_ONLY)")
    for table, repl in TABLES.items():
        cols = [r[0] for r in con.execute(f"DESCRIBE src.{table}").fetchall()]
        replaced = {c.split(" AS ")[-1] for c in repl.split(", ") if " AS " in c}
        keep = ", ".join(c for c in cols if c not in replaced)
        con.execute(f"CREATE TABLE {table} AS SELECT * FROM src.{table} LIMIT 0")
        for k in range(copies):
            con.execute(f"INSERT INTO {table} BY NAME SELECT {repl.replace('$k', repr(str(k)))}, {keep} "
                        f"FROM src.{table}")
    n = con.execute("SELECT count(*) FROM hands").fetchone()
    con.close()
    return int(n[0]) if n else 0


def cached_source(hands: int = 200_000, seed: int = 101) -> Path:
    """The simulated source warehouse, built on first use (simulate + ingest) and kept."""
    if CACHED.exists():
        return CACHED
    from simulator.run import Config, simulate
    from warehouse.ingest import ingest_paths

    CACHED.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        simulate(Config(hands=hands, seed=seed, operator_mode=True), Path(tmp) / "hh", Path(tmp) / "truth.json")
        part = CACHED.with_suffix(".partial")
        ingest_paths([Path(tmp) / "hh"], part, progress=False)
        part.rename(CACHED)
    return CACHED


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", help=f"source warehouse (default: {CACHED}, built when missing)")
    ap.add_argument("--copies", type=int, default=5)
    ap.add_argument("--work", default="/tmp/bench_detect")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--memory", default=DETECT_MEMORY,
                    help="DuckDB memory limit (default: the nightly audit's, pipelines.steps.DETECT_MEMORY)")
    ap.add_argument("--mode", default="operator")
    ap.add_argument("--model", help="pair model file (default: the mode's shipped model; a missing file such as "
                                    "'none' scores by the rules, e.g. while the model's features are being changed)")
    ap.add_argument("--night", type=Path,
                    help="a night's run folder from bench/audit.py (warehouse.duckdb, work/): time the detectors "
                         "as that night runs them, from its partitions' detector tables (detectors.partial)")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    db = work / "bench.duckdb"
    t = time.perf_counter()
    night: list[tuple[Path, str]] = []
    if args.night:
        shutil.copyfile(args.night / "warehouse.duckdb", db)
        night = steps.combined_detector_tables(args.night / "warehouse.duckdb", args.night / "work")
        con = duckdb.connect(str(db), read_only=True)
        n = int((con.execute("SELECT count(*) FROM hands").fetchone() or (0,))[0])
        con.close()
    else:
        n = build(Path(args.source) if args.source else cached_source(), db, args.copies)
    print(f"built {n:,} hands in {time.perf_counter() - t:.1f} s (not timed below)")
    con = duckdb.connect(str(db))
    con.execute(f"SET threads = {args.threads}; SET memory_limit = '{args.memory}'")
    con.execute("SET preserve_insertion_order = false")  # as detect() sets it
    params = Params(mode=args.mode, model=args.model)
    stages: list[tuple[str, float, float]] = []
    t0, c0 = time.perf_counter(), time.process_time()

    def lap(name: str) -> None:
        """Wall and CPU seconds (all threads of this process) since the previous lap."""
        stages.append((name, time.perf_counter() - t0 - sum(s[1] for s in stages),
                       time.process_time() - c0 - sum(s[2] for s in stages)))

    if night:
        if not partial.load(con, night, params.mode):
            raise SystemExit("the night's partition detector tables do not match its warehouse")
        lap("load the partitions' detector tables")
    else:
        features.build(con, params.mode)
        lap("features (hands, strength, decisions)")
        allin.build_allin_ev(con, params.mode)
        lap("all-in equity")
        stats.player_stats(con)
        run.release(con, "player_stats")
        lap("player stats")
    stats.pair_stats(con, params.min_hands, loaded=bool(night))
    run.release(con, "pair_stats")
    lap("pair stats")
    summed = pairs.summed_pair_stats(con)
    if hasattr(run, "frame_from_summed"):  # the pipeline's own pair frame (effect sizes included)
        u = run.frame_from_summed(summed, params.min_hands)
    else:
        u = rule_scores(pairs.unordered(pairs.directional(summed)))
    lap("pair contrasts + rule scores")
    u, model = score(u, params)
    lap("model + isolation forest")
    players = con.execute("SELECT count(DISTINCT pk) FROM k_hp").fetchone()
    flags, _ = build_flags(con, u, params, "bench", model, int(players[0]) if players else 0)
    lap("flags + evidence + graph")
    total, cpu = time.perf_counter() - t0, time.process_time() - c0
    for name, secs, cpu_secs in stages:
        print(f"  {name:40s} {secs:7.1f} s wall {cpu_secs:7.1f} s cpu")
    print(f"total features+detectors: {total:.1f} s wall, {cpu:.1f} s cpu for {n:,} hands ({n / total:,.0f} hands/s), "
          f"{u.height:,} pairs, {flags.height} flags, peak RSS {peak_mb():,.0f} MB, threads {args.threads}, "
          f"model {model.version if model else 'none'}, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
