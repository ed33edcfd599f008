"""The ``floorman`` command line: the same functions the Dagster assets run, without the UI.

Subcommands live with their area: this module defines ``ingest`` and ``merge`` and then imports
every ``pipelines/cli_*.py`` module, each of which adds its own subcommands through
``register(subparsers)``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path

from warehouse.ingest import IngestSummary, ingest_paths


def _print_ingest_summary(summary: IngestSummary) -> None:
    print(
        f"files: {summary.files} read, {summary.files_duplicate_in_run} duplicates within this run, "
        f"{summary.files_already_ingested} already ingested, "
        f"{summary.files_unrecognised} unrecognised, {summary.files_failed} unreadable"
    )
    print(
        f"hands: {summary.hands} parsed, {summary.new_hands} new, {summary.duplicate_hands} duplicates, "
        f"{summary.unreconciled} unreconciled"
    )
    print(
        f"quarantined: {summary.quarantined} ({summary.quarantined_unsupported} unsupported games/layouts); "
        f"parse rate of supported hands {summary.parse_rate:.2%}"
    )
    for reason, count in sorted(summary.quarantined_by_reason.items(), key=lambda kv: -kv[1]):
        print(f"  {count:6d}  {reason}")
    if summary.formats:
        print("formats: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.formats.items())))
    for err in summary.errors:
        print(f"error: {err}", file=sys.stderr)
    print(f"{summary.seconds:.2f} s, {summary.hands_per_second:,.0f} hands/s")


def cmd_ingest(args: argparse.Namespace) -> int:
    missing = [p for p in args.paths if not Path(p).exists()]
    for p in missing:
        print(f"error: {p}: no such file or folder", file=sys.stderr)
    present = [p for p in args.paths if Path(p).exists()]
    summary = ingest_paths(present, args.db, progress=None if not args.json else False)
    summary.errors = [f"{p}: no such file or folder" for p in missing] + summary.errors
    summary.files_failed += len(missing)
    if args.json:
        print(json.dumps(summary.as_dict(), sort_keys=True))
    else:
        _print_ingest_summary(summary)
    nothing_done = summary.files == 0 and summary.files_already_ingested == 0
    return 1 if nothing_done and (summary.files_failed or summary.files_unrecognised or not present) else 0


def cmd_merge(args: argparse.Namespace) -> int:
    from warehouse.merge import merge_warehouses

    result = merge_warehouses(args.db, args.parts)
    print(json.dumps(result, sort_keys=True) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="floorman", description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("ingest", help="parse hand-history files or folders into the warehouse")
    p.add_argument("paths", nargs="+", help="files or folders (format sniffed from content)")
    p.add_argument("--db", required=True, help="warehouse DuckDB file (created if missing)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.set_defaults(func=cmd_ingest)

    p = sub.add_parser("merge", help="combine partition warehouses built by other processes")
    p.add_argument("parts", nargs="+", help="partition DuckDB files")
    p.add_argument("--db", required=True, help="target warehouse")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_merge)

    import pipelines

    for info in sorted(pkgutil.iter_modules(pipelines.__path__), key=lambda i: i.name):
        if info.name.startswith("cli_"):
            module = importlib.import_module(f"pipelines.{info.name}")
            module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
