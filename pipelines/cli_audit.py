"""``floorman audit``: the whole nightly audit in-process (same Dagster assets as the schedule)."""

from __future__ import annotations

import argparse
import json
from typing import Any


def print_report(report: dict[str, Any], timings: dict[str, float] | None = None) -> None:
    """The closing summary a floor manager reads in the terminal."""
    print(f"run {report.get('run_id')}: partitions {', '.join(report.get('partitions', [])[-5:]) or '-'}")
    print(f"  hands {report.get('hands', 0):,} ({report.get('new_hands', 0):,} new), "
          f"quarantined {report.get('quarantined', 0)}, unreconciled {report.get('unreconciled', 0)}")
    v = report.get("violations", {})
    if v.get("available"):
        top = ", ".join(f"{r['rule_id']}[{r['severity']}] {r['count']}" for r in v.get("by_rule", [])[:6])
        print(f"  rule findings: {top or 'none'}")
    f = report.get("flags", {})
    if f.get("available"):
        fam = ", ".join(f"{k} {n}" for k, n in sorted(f.get("by_family", {}).items()))
        print(f"  flags: {f.get('total', 0)} ({f.get('new', 0)} new, {f.get('updated', 0)} updated) {fam}")
    failed = [c for c in report.get("checks", []) if not c.get("passed")]
    print(f"  checks: {len(report.get('checks', [])) - len(failed)} passed, {len(failed)} failed")
    for c in failed:
        print(f"    FAILED {c['name']}: {c['detail']}")
    for step, secs in (timings or {}).items():
        print(f"  {step}: {secs:.1f} s")


def cmd_audit(args: argparse.Namespace) -> int:
    from pipelines.audit import run_audit

    result = run_audit(args.paths, args.db, work=args.work, partition=args.partition,
                       rulebook=args.rulebook or "", workers=args.workers, shards=args.shards)
    if args.json:
        print(json.dumps({**result.report, "snapshot": str(result.snapshot), "seconds": round(result.seconds, 2),
                          "timings": result.timings}, sort_keys=True, default=str))
    else:
        print_report(result.report, result.timings)
        print(f"  snapshot for the dashboard: {result.snapshot}")
        print(f"  total {result.seconds:.1f} s")
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("audit", help="run the nightly audit in-process: ingest, check, detect, report, publish")
    p.add_argument("paths", nargs="+", help="files, folders, or a landing folder with YYYY-MM-DD subfolders")
    p.add_argument("--db", required=True, help="combined warehouse to build")
    p.add_argument("--work", help="working folder for partition files (default: next to --db)")
    p.add_argument("--partition", help="partition key for loose files (default: yesterday UTC)")
    p.add_argument("--rulebook", help="override the rulebook profile for every hand")
    p.add_argument("--workers", type=int, default=1, help="build partitions in this many processes")
    p.add_argument("--shards", type=int, default=1, help="split each day's files into this many partitions")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_audit)
