"""``floorman audit``: the whole nightly audit without the UI (the schedule's Dagster assets, its
runs recorded on a persistent Dagster instance)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from detectors.queue import DEFAULT_CAP_PER_1000_PLAYERS

#: characters of a check's detail shown on its CHECK FAILED (or WARNING) line
DETAIL_WIDTH = 160
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def check_assets() -> dict[str, str]:
    """Check name -> the asset it checks, from the audit assets' check specs."""
    from pipelines.defs.audit import night_assets, partition_assets

    return {spec.name: spec.asset_key.to_user_string()
            for a in (*partition_assets, *night_assets) for spec in a.check_specs}


def failed_check_line(check: dict[str, Any], assets: dict[str, str] | None = None) -> str:
    """One plain line per failed check, e.g. ``CHECK FAILED partition_hands parse_rate: 97.1% < 99.5%
    (partition 2026-11-30)``; report names carry the partition as ``name[partition]``. A check of
    severity ``warn`` (it never blocks publishing) reads ``CHECK WARNING``: a first-time user should
    not read a warning as a failed night."""
    assets = check_assets() if assets is None else assets
    name, _, partition = str(check["name"]).partition("[")
    partition = partition.rstrip("]")
    asset = assets.get(name, "audit")
    where = f" (partition {partition})" if partition and partition != "night" else ""
    return f"CHECK {_verdict(check).upper()} {asset} {name}: {_short_detail(name, check)}{where}"


def _verdict(check: dict[str, Any]) -> str:
    """'passed', 'failed' (a blocking check: severity error) or 'warning'."""
    if check.get("passed"):
        return "passed"
    return "failed" if check.get("severity") == "error" else "warning"


def _short_detail(name: str, check: dict[str, Any]) -> str:
    """The measured value against its threshold where the check records them, else its detail."""
    meta = check.get("metadata") or {}
    if name == "parse_rate" and isinstance(meta.get("parse_rate"), int | float):
        from pipelines.steps import MIN_PARSE_RATE

        return f"{meta['parse_rate']:.1%} < {MIN_PARSE_RATE:.1%}"
    if name == "error_violations_per_table" and "error_violations" in meta:
        return f"{meta['error_violations']} error-level violations at {meta.get('tables_with_errors')} tables"
    detail = " ".join(str(check.get("detail", "")).split())
    return detail if len(detail) <= DETAIL_WIDTH else detail[: DETAIL_WIDTH - 1] + "…"


def print_report(report: dict[str, Any], timings: dict[str, float] | None = None) -> None:
    """The closing summary a floor manager reads in the terminal."""
    dates = report.get("partitions", [])  # the distinct dates of the warehouse's hands (the report's old name)
    span = f"hands dated {dates[0]} to {dates[-1]} ({len(dates):,} days)" if dates else "no hands"
    print(f"run {report.get('run_id')}: {span}")
    print(f"  hands {report.get('hands', 0):,} ({report.get('new_hands', 0):,} new since the last report), "
          f"quarantined {report.get('quarantined', 0)}, unreconciled {report.get('unreconciled', 0)}")
    v = report.get("violations", {})
    if v.get("available"):
        top = ", ".join(f"{r['rule_id']}[{r['severity']}] {r['count']}" for r in v.get("by_rule", [])[:6])
        print(f"  rule findings: {top or 'none'}")
    f = report.get("flags", {})
    if f.get("available"):
        fam = ", ".join(f"{k} {n}" for k, n in sorted(f.get("by_family", {}).items()))
        print(f"  flags: {f.get('total', 0)} ({f.get('new', 0)} new, {f.get('updated', 0)} updated) {fam}")
    checks = report.get("checks", [])
    verdicts = [_verdict(c) for c in checks]
    print(f"  checks: {verdicts.count('passed')} passed, {verdicts.count('failed')} failed (blocking), "
          f"{verdicts.count('warning')} warnings")
    for c, verdict in zip(checks, verdicts, strict=True):
        if verdict != "passed":
            print("    " + failed_check_line(c))
    for step, secs in (timings or {}).items():
        print(f"  {step}: {secs:.1f} s")


def cmd_audit(args: argparse.Namespace) -> int:
    from pipelines.audit import run_audit

    result = run_audit(args.paths, args.db, work=args.work, partition=args.partition,
                       rulebook=args.rulebook or "", workers=args.workers, shards=args.shards,
                       log_level=args.log_level, flag_cap_per_1000_players=args.flag_cap_per_1000_players)
    if args.json:
        snapshot = str(result.snapshot) if result.snapshot else None
        print(json.dumps({**result.report, "snapshot": snapshot, "seconds": round(result.seconds, 2),
                          "timings": result.timings, "dagster_runs": result.run_ids,
                          "dagster_home": str(result.instance_home), "unpublished": result.unpublished},
                         sort_keys=True, default=str))
    else:
        print_report(result.report, result.timings)
        for name in result.unpublished:
            print(f"  NOT PUBLISHED partition {name}: a blocking check failed (see above); the night left it out")
        print(f"  snapshot for the dashboard: {result.snapshot or 'none published (no partition passed its checks)'}")
        print(f"  {len(result.run_ids)} Dagster runs recorded: DAGSTER_HOME={result.instance_home} dagster dev")
        print(f"  total {result.seconds:.1f} s")
    # a partition left out of the night is a failure a scheduler must see, though the rest was published
    return 1 if result.unpublished else 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("audit", help="run the nightly audit in-process: ingest, check, detect, report, publish")
    p.add_argument("paths", nargs="+", help="files, folders, or a landing folder with YYYY-MM-DD subfolders")
    p.add_argument("--db", required=True, help="combined warehouse to build")
    p.add_argument("--work", help="working folder for partition files (default: next to --db)")
    p.add_argument("--partition", help="partition key for loose files (default: yesterday UTC)")
    p.add_argument("--rulebook", help="override the rulebook profile for every hand")
    p.add_argument("--workers", type=int, default=1,
                   help="build partitions in this many processes (one Dagster run per partition)")
    p.add_argument("--shards", type=int, default=1,
                   help="split each day's files into this many partitions (date x shard, at most 8)")
    p.add_argument("--log-level", default="INFO", type=str.upper, choices=LOG_LEVELS,
                   help="Dagster console log level (default INFO; DEBUG shows every step event)")
    p.add_argument("--flag-cap-per-1000-players", type=float, default=DEFAULT_CAP_PER_1000_PLAYERS, metavar="N",
                   help="at most N flags per 1,000 active players in the review queue (default "
                        f"{DEFAULT_CAP_PER_1000_PLAYERS:g}; 0: no cap, 1%% of the scored pairs)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_audit)
