"""`floorman check` and `floorman violations`: run the rule checker over a warehouse and export findings.

Why thin: the CLI only parses arguments and calls ``rules.runner.check_warehouse``; the same function
serves the Dagster step (pipelines/steps.py) and the benchmarks.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import Any

import duckdb

from pipelines.argtypes import existing_warehouse
from rules.findings import DATA, ERROR, INFO, REVIEW, SEVERITIES, WARNING
from rules.profiles import PROFILE_NAMES
from rules.runner import DUCKDB_THREADS, ENGINE_ENV, ENGINES, check_warehouse
from rules.store import DEFAULT_BATCH, VIOLATION_FIELDS, read_violations
from warehouse import db

__all__ = ["DUCKDB_THREADS", "ENGINE_ENV", "main", "register", "run_check"]


def _connect(path: str, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """The warehouse's own connect (creates and migrates the warehouse schema for writers)."""
    return db.connect(path, read_only=read_only)


def run_check(
    db_path: str, rulebook: str | None, batch_size: int = DEFAULT_BATCH, engine: str | None = None
) -> dict[str, Any]:
    """``rules.runner.check_warehouse`` on the warehouse file ``db_path`` (kept for callers of the CLI module)."""
    return check_warehouse(db_path, rulebook, engine=engine, batch_size=batch_size)


def severity_counts(db_path: str, run_id: str) -> dict[str, Any]:
    """Findings of one run by severity, and errors by rule id: REVIEW (house decisions) and DATA
    (export inconsistencies) counted apart from the violations (errors, warnings)."""
    con = _connect(db_path, read_only=True)
    try:
        sev = dict(con.execute("SELECT severity, count(*) FROM violations WHERE run_id = ? GROUP BY 1", [run_id])
                   .fetchall())
        by_rule = con.execute(
            "SELECT rule_id, count(*) FROM violations WHERE run_id = ? AND severity = ? GROUP BY 1 ORDER BY 2 DESC, 1",
            [run_id, ERROR],
        ).fetchall()
    finally:
        con.close()
    return {
        "violations": sev.get(ERROR, 0) + sev.get(WARNING, 0),
        "review": sev.get(REVIEW, 0),
        "data": sev.get(DATA, 0),
        "by_severity": {k: sev.get(k, 0) for k in SEVERITIES},
        "errors_by_rule": dict(by_rule),
    }


def _text(summary: dict[str, Any]) -> str:
    """The summary for a reader: violations first, house decisions and export anomalies apart."""
    by = summary["by_severity"]
    lines = [
        f"checked {summary['hands']:,} hands ({summary['action_states']:,} decisions), run {summary['run_id']}",
        f"violations: {summary['violations']:,} ({by[ERROR]:,} errors, {by[WARNING]:,} warnings)",
        f"house decisions for the floor (review): {summary['review']:,}",
        f"export inconsistencies (data, no player acted): {summary['data']:,}",
        f"info (remedies applied, notes): {by[INFO]:,}",
    ]
    if summary["errors_by_rule"]:
        lines.append("errors by rule: " + ", ".join(f"{r} {n:,}" for r, n in summary["errors_by_rule"].items()))
    return "\n".join(lines)


def _cmd_check(args: argparse.Namespace) -> int:
    summary = check_warehouse(args.db, args.rulebook, engine=args.engine)
    summary.update(severity_counts(args.db, summary["run_id"]))
    if not args.json:
        print(_text(summary))
    print(json.dumps(summary))  # the last line is always the summary as one JSON object (scripts read it)
    return 0


#: what ``floorman violations --review-store`` adds to each finding: the floor's ruling in force on it
RULING_FIELDS = ("floor_ruling", "floor_ruling_allowed", "floor_ruling_note", "floor_ruled_by", "floor_ruled_at")


def with_rulings(rows: list[dict[str, Any]], store_path: str) -> list[dict[str, Any]]:
    """``rows`` with the floor's ruling in force on each finding (the last recorded per finding key, issue 13
    Build item 3), empty where none; the review store is read-only here."""
    from dashboards.review_store import ReviewStore, finding_key

    keys = [finding_key(r["hand_id"], r["action_seq"], r["rule_id"]) for r in rows]
    last = {r.finding_key: r for r in ReviewStore(store_path).rulings(sorted(set(keys)))}
    out = []
    for row, key in zip(rows, keys, strict=True):
        r = last.get(key)
        out.append(row | dict(zip(RULING_FIELDS, (r.ruling, r.allowed, r.note, r.actor, r.at) if r else
                                  (None,) * len(RULING_FIELDS), strict=True)))
    return out


def _cmd_violations(args: argparse.Namespace) -> int:
    con = _connect(args.db, read_only=True)
    try:
        rows = read_violations(con, args.severity or (), args.rule or ())
        if not rows and (args.severity or args.rule):  # an empty export must not read like a clean bill
            present = [r[0] for r in con.execute("SELECT DISTINCT rule_id FROM violations ORDER BY 1").fetchall()]
            print(f"no finding matches {_filters(args)}; rule ids with findings: {', '.join(present) or 'none'}",
                  file=sys.stderr)
    finally:
        con.close()
    fields = list(VIOLATION_FIELDS)
    if args.review_store:
        rows, fields = with_rulings(rows, args.review_store), [*fields, *RULING_FIELDS]
    if args.format == "json":
        json.dump(rows, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        writer = csv.DictWriter(sys.stdout, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return 0


def _filters(args: argparse.Namespace) -> str:
    """The export's filters as the user gave them, for the "nothing matched" line."""
    parts = [f"severity {' or '.join(args.severity)}" if args.severity else "",
             f"rule {' or '.join(args.rule)}" if args.rule else ""]
    return " and ".join(p for p in parts if p)


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `check` and `violations` to the main `floorman` CLI."""
    p = subparsers.add_parser("check", help="replay every hand and check it against its rulebook")
    p.add_argument("--db", required=True, type=existing_warehouse, help="DuckDB warehouse file")
    p.add_argument("--rulebook", choices=PROFILE_NAMES, help="override the site/table → rulebook map")
    p.add_argument(
        "--engine", choices=ENGINES, help=f"checker engine (default: ${ENGINE_ENV} or kernel)"
    )
    p.add_argument("--json", action="store_true", help="print only the summary as one JSON object (without it, a"
                   " readable summary comes first and the JSON object is the last line)")
    p.set_defaults(func=_cmd_check)
    v = subparsers.add_parser("violations", help="export the findings of the last check")
    v.add_argument("--db", required=True, type=existing_warehouse, help="DuckDB warehouse file")
    v.add_argument("--format", choices=("json", "csv"), default="json")
    v.add_argument("--review-store", help="review store (SQLite) whose floor rulings the export carries per finding")
    v.add_argument("--severity", action="append", choices=SEVERITIES,
                   help="only findings of this severity (repeat for several; default: all)")
    v.add_argument("--rule", action="append", metavar="RULE_ID",
                   help="only findings of this rule id, e.g. RAISE.MIN (repeat for several)")
    v.set_defaults(func=_cmd_violations)


def main(argv: list[str] | None = None) -> int:
    """Standalone entry point (the main CLI in pipelines/cli.py calls ``register``)."""
    parser = argparse.ArgumentParser(prog="floorman")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
