"""Nightly audit benchmark: a night of simulated hands end to end (ingest, check, detect, publish).

    .venv/bin/python bench/audit.py [--hands 1000000] [--workers 2] [--seed 11] [--tables 64] [--players 5000]

The night is simulated once into var/bench/audit-<hands>-t<tables>-p<players>/landing (not timed;
cached), then
``floorman audit`` runs it on the multiprocess executor: the night's files are split into
``--workers`` shards built in parallel worker processes, combined, detected and published.
Goal (issue 15): 1,000,000 hands in at most 150 s on this 2-core machine (issue 6's was 300 s). Prints each step's
time and the hands/s of the whole night, beside pokerkit's replay rate on the same machine for scale.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipelines.audit import run_audit  # noqa: E402
from pipelines.cli import main as floorman  # noqa: E402


def detector_table_seconds(home: Path | None) -> dict[str, float]:
    """Seconds each partition's rule step spent on its detector tables (detectors.partial)."""
    import dagster as dg

    from pipelines.audit import open_instance

    if home is None:
        return {}
    out: dict[str, float] = {}
    with open_instance(home) as instance:
        records = instance.fetch_materializations(dg.AssetKey("partition_rule_findings"), limit=100).records
        for rec in records:
            mat = rec.asset_materialization
            value = mat.metadata.get("detector_tables_seconds") if mat else None
            if mat and value is not None and str(mat.partition) not in out:
                out[str(mat.partition)] = float(value.value)  # type: ignore[arg-type]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--players", type=int, default=5000,
                    help="population of the simulated night (a site dealing a million hands a night has thousands)")
    ap.add_argument("--tables", type=int, default=64,
                    help="tables in the simulated night, one file each (a site's night is many files; shards "
                         "split a day by file, so a night of 3 huge files cannot spread over the workers)")
    ap.add_argument("--dir", type=Path, default=ROOT / "var" / "bench")
    args = ap.parse_args()
    print("load average (1, 5, 15 min) at start: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()), flush=True)

    base = args.dir / f"audit-{args.hands}-t{args.tables}-p{args.players}"
    landing = base / "landing" / "2026-11-29"
    if not (base / "truth.json").exists():
        t0 = time.perf_counter()
        shutil.rmtree(landing, ignore_errors=True)
        code = floorman(["simulate", "--hands", str(args.hands), "--seed", str(args.seed), "--out", str(landing),
                         "--truth", str(base / "truth.json"), "--operator-mode", "--tables", str(args.tables),
                         "--players", str(args.players)])
        if code:
            raise SystemExit(code)
        print(f"simulated {args.hands:,} hands in {time.perf_counter() - t0:.0f} s (not part of the audit time)")
    out = base / "run"
    shutil.rmtree(out, ignore_errors=True)
    result = run_audit([landing], out / "warehouse.duckdb", work=out / "work", partition="2026-11-29",
                       workers=args.workers, shards=max(1, args.workers))
    hands = result.report.get("hands", 0)
    print(f"audit of {hands:,} hands end to end: {result.seconds:.1f} s = {hands / result.seconds:,.0f} hands/s "
          f"(goal: 1,000,000 in 150 s, issue 15)")
    for step, secs in result.timings.items():
        print(f"  {step}: {secs:.1f} s")
    for name, secs in detector_table_seconds(result.instance_home).items():
        print(f"    of which the detector tables of partition {name}: {secs:.1f} s")
    print(f"  flags: {result.report.get('flags', {}).get('total')}, rule findings: "
          f"{sum(r['count'] for r in result.report.get('violations', {}).get('by_rule', []))}")
    print("load average (1, 5, 15 min) at end: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
