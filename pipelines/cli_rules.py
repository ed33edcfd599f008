"""`floorman check` and `floorman violations`: run the rule checker over a warehouse and export findings.

Why thin: the CLI only opens the database, picks profiles and calls ``rules``; the same functions
serve the Dagster assets and the dashboard.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import uuid
from collections import Counter
from collections.abc import Generator, Iterator
from typing import Any, cast

import duckdb

from rules.check import CheckedBatch, check_batches
from rules.columnar import ColumnarBatch, check_columnar
from rules.gcpause import collect_between_batches, paused_gc
from rules.profiles import PROFILE_NAMES, load_mapping
from rules.store import (
    DEFAULT_BATCH,
    VIOLATION_FIELDS,
    column_windows,
    ensure_schema,
    hand_batches,
    read_violations,
    write_results,
)
from warehouse import db


def _connect(path: str, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """The warehouse's own connect (creates and migrates the warehouse schema for writers)."""
    return db.connect(path, read_only=read_only)


#: ``kernel`` (default): rules.columnar + rules.kernel, the Python engine only for the hands the kernel
#: marks; ``python``: the Python engine for every hand (the reference; same rows, proved by
#: tests/rules/test_kernel_equivalence.py)
ENGINE_ENV = "FLOORMAN_RULES_ENGINE"
#: DuckDB threads for the check: the checker itself runs on one core, and on the shared 2-core box
#: a second DuckDB thread cost more CPU than it saved wall time (200k simulated hands: load 2.0 ->
#: 1.65 cpu-s, write 4.9 -> 2.4 cpu-s with one thread)
DUCKDB_THREADS = 1


def run_check(
    db_path: str, rulebook: str | None, batch_size: int = DEFAULT_BATCH, engine: str | None = None
) -> dict[str, Any]:
    """Replay every hand in the warehouse, write action_states and violations; return a summary.

    Hands stream in batches of ``batch_size`` in table-and-time order and each batch's results are
    written before the next is read, so peak memory depends on the batch, not the warehouse.
    """
    engine = engine or os.environ.get(ENGINE_ENV, "kernel")
    con = _connect(db_path)
    try:
        con.execute(f"SET threads = {DUCKDB_THREADS}")
        ensure_schema(con)
        run_id = uuid.uuid4().hex[:12]
        hands = states = 0
        sev: Counter[str] = Counter()
        reader = con.cursor()  # the batch reader keeps its temp table; writes go through ``con``
        batches: Generator[Any, None, None]
        checked: Iterator[CheckedBatch | ColumnarBatch]
        if engine == "python":
            batches = hand_batches(reader, batch_size)
            checked = check_batches(batches, rulebook=rulebook, mapping=load_mapping())
        else:
            batches = column_windows(reader, batch_size)
            checked = check_columnar(batches, rulebook=rulebook, mapping=load_mapping())
        try:
            with paused_gc():  # see rules.gcpause: the collector was most of the loading time
                for batch_no, result in enumerate(checked):
                    done = cast("CheckedBatch | ColumnarBatch", result)
                    write_results(con, done, run_id)
                    hands += len(done.hand_ids)
                    states += len(done.states)
                    sev.update(f.severity for f, _ in done.findings)
                    collect_between_batches(batch_no)
        finally:
            batches.close()  # drops the order table before the cursor goes
            reader.close()
        return {
            "run_id": run_id,
            "hands": hands,
            "action_states": states,
            "findings": sum(sev.values()),
            "errors": sev.get("error", 0),
            "warnings": sev.get("warning", 0),
            "info": sev.get("info", 0),
        }
    finally:
        con.close()


def _cmd_check(args: argparse.Namespace) -> int:
    summary = run_check(args.db, args.rulebook, engine=args.engine)
    print(json.dumps(summary))
    return 0


def _cmd_violations(args: argparse.Namespace) -> int:
    con = _connect(args.db, read_only=True)
    try:
        rows = read_violations(con)
    finally:
        con.close()
    if args.format == "json":
        json.dump(rows, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        writer = csv.DictWriter(sys.stdout, fieldnames=list(VIOLATION_FIELDS))
        writer.writeheader()
        writer.writerows(rows)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `check` and `violations` to the main `floorman` CLI."""
    p = subparsers.add_parser("check", help="replay every hand and check it against its rulebook")
    p.add_argument("--db", required=True, help="DuckDB warehouse file")
    p.add_argument("--rulebook", choices=PROFILE_NAMES, help="override the site/table → rulebook map")
    p.add_argument(
        "--engine", choices=("kernel", "python"), help=f"checker engine (default: ${ENGINE_ENV} or kernel)"
    )
    p.set_defaults(func=_cmd_check)
    v = subparsers.add_parser("violations", help="export the findings of the last check")
    v.add_argument("--db", required=True)
    v.add_argument("--format", choices=("json", "csv"), default="json")
    v.set_defaults(func=_cmd_violations)


def main(argv: list[str] | None = None) -> int:
    """Standalone entry point (the main CLI in pipelines/cli.py calls ``register``)."""
    parser = argparse.ArgumentParser(prog="floorman")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
