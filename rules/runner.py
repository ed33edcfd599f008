"""The rule-check runner: replay every hand of a warehouse, write action_states and violations.

Why here and not in the CLI: ``floorman check`` (pipelines/cli_rules.py), the Dagster step
(pipelines/steps.py) and the benchmarks all run the same check; the CLI only parses arguments and
prints the summary this returns.
"""

from __future__ import annotations

import os
import uuid
from collections import Counter
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import duckdb

from warehouse import db

from .check import CheckedBatch, check_batches
from .codes import BAIL_NAMES
from .columnar import ColumnarBatch, check_columnar
from .continuity import continuity_findings
from .findings import Finding
from .gcpause import collect_between_batches, paused_gc
from .handrecord import record_findings
from .profiles import ProfileMap, load_mapping
from .store import DEFAULT_BATCH, column_windows, delete_results, ensure_schema, hand_batches, write_results

#: ``kernel`` (default): rules.columnar + rules.kernel, the Python engine only for the hands the kernel
#: marks; ``python``: the Python engine for every hand (the reference; same rows, proved by
#: tests/rules/test_kernel_equivalence.py)
ENGINE_ENV = "FLOORMAN_RULES_ENGINE"
ENGINES = ("kernel", "python")
#: DuckDB threads for the check: the checker itself runs on one core, and on the shared 2-core box
#: a second DuckDB thread cost more CPU than it saved wall time (200k simulated hands: load 2.0 ->
#: 1.65 cpu-s, write 4.9 -> 2.4 cpu-s with one thread)
DUCKDB_THREADS = 1
#: ``off`` skips the checks across consecutive hands (rules.continuity), for timing them; default on
CROSS_HAND_ENV = "FLOORMAN_CROSS_HAND"


def _no_fsst(con: duckdb.DuckDBPyConnection) -> str:
    """Leave FSST out of DuckDB's string compression while the states are written; returns the
    setting to restore. Why: DuckDB tries every method on every string segment it writes, and FSST
    (never picked for these hand ids, names and labels: the file is the same size without it) was
    about a fifth of the insert (200k hands: 4.9 -> 4.0 cpu-s)."""
    row = con.execute("SELECT current_setting('disabled_compression_methods')").fetchone()
    before = str(row[0]) if row and row[0] is not None else ""
    methods = [m for m in before.split(",") if m.strip()]
    if "fsst" not in (m.strip().lower() for m in methods):
        con.execute(f"SET disabled_compression_methods = '{','.join([*methods, 'fsst'])}'")
    return before


@dataclass
class _Tally:
    """What the passes counted, for the summary."""

    hands: int = 0
    states: int = 0
    fallback: int = 0
    severities: Counter[str] = field(default_factory=Counter)
    reasons: Counter[int] = field(default_factory=Counter)


def check_warehouse(
    db_or_con: str | Path | duckdb.DuckDBPyConnection,
    rulebook: str | None = None,
    engine: str | None = None,
    batch_size: int = DEFAULT_BATCH,
    cross_hand: bool | None = None,
) -> dict[str, Any]:
    """Replay every hand in the warehouse, write action_states and violations; return a summary.

    ``db_or_con``: a warehouse path (opened through ``warehouse.db.connect`` and closed after) or an
    open writable connection (left open). ``engine``: ``kernel`` or ``python``; None reads
    ``$FLOORMAN_RULES_ENGINE`` (default ``kernel``). Hands stream in batches of ``batch_size`` in
    table-and-time order and each batch's results are written before the next is read, so peak
    memory depends on the batch, not the warehouse.

    After the per-hand pass, ``rules.handrecord`` reads each hand's cards, showdown, cancellation and
    rake off the stored record, and ``rules.continuity`` checks every table's consecutive hands over the
    warehouse tables (stack continuity, button, new players, levels); ``cross_hand=False`` (or
    ``$FLOORMAN_CROSS_HAND=off``) skips it.

    The summary: run id, hands, action_states, findings by severity, and (kernel engine) how many
    hands the kernel sent to the Python engine, by bail reason (``rules.codes.BAIL_NAMES``); with the
    cross-hand checks, ``continuity``: tables and pairs looked at and findings by rule/severity.
    """
    engine = engine or os.environ.get(ENGINE_ENV, "kernel")
    if engine not in ENGINES:
        raise ValueError(f"unknown rules engine {engine!r} (one of {', '.join(ENGINES)})")
    if cross_hand is None:
        cross_hand = os.environ.get(CROSS_HAND_ENV, "on").lower() not in ("off", "0", "false", "no")
    own = not isinstance(db_or_con, duckdb.DuckDBPyConnection)
    con = db.connect(cast("str | Path", db_or_con)) if own else cast("duckdb.DuckDBPyConnection", db_or_con)
    try:
        con.execute(f"SET threads = {DUCKDB_THREADS}")
        ensure_schema(con)
        pmap = load_mapping()
        run_id = uuid.uuid4().hex[:12]
        tally = _per_hand_pass(con, engine, rulebook, pmap, batch_size, run_id)
        continuity: dict[str, Any] | None = None
        if cross_hand:
            # after the per-hand pass, which replaced every checked hand's findings: stored through
            # the same write path, with no hand ids so nothing more is deleted
            cx = continuity_findings(con, rulebook, pmap)
            _store_extra(con, cx.findings, run_id, tally)
            continuity = cx.stats
        record = record_findings(con, rulebook, pmap)  # cards, showdown, misdeals, rake cap (one hand each)
        _store_extra(con, record.findings, run_id, tally)
        return _summary(run_id, tally, continuity, record.stats, engine)
    finally:
        if own:
            con.close()


def _per_hand_pass(con: duckdb.DuckDBPyConnection, engine: str, rulebook: str | None, pmap: ProfileMap,
                   batch_size: int, run_id: str) -> _Tally:
    """Replay and check every hand, batch by batch, writing each batch's states and findings.

    One transaction (a run that fails midway leaves the previous results whole, not half replaced)
    that first deletes every hand's earlier rows, once: every hand is checked, and a delete per batch
    rescanned the rows inserted so far."""
    tally = _Tally()
    reader = con.cursor()  # the batch reader keeps its temp table; writes go through ``con``
    batches: Generator[Any, None, None]
    checked: Iterator[CheckedBatch | ColumnarBatch]
    if engine == "python":
        batches = hand_batches(reader, batch_size)
        checked = check_batches(batches, rulebook=rulebook, mapping=pmap)
    else:
        batches = column_windows(reader, batch_size, lean=True)
        checked = check_columnar(batches, rulebook=rulebook, mapping=pmap)
    con.execute("BEGIN TRANSACTION")
    disabled = _no_fsst(con)
    try:
        delete_results(con)
        with paused_gc():  # see rules.gcpause: the collector was most of the loading time
            for batch_no, result in enumerate(checked):
                done = cast("CheckedBatch | ColumnarBatch", result)
                write_results(con, done, run_id, in_transaction=True, replace=False)
                tally.hands += len(done.hand_ids)
                tally.states += len(done.states)
                tally.severities.update(f.severity for f, _ in done.findings)
                if isinstance(done, ColumnarBatch):
                    tally.fallback += done.fallback
                    tally.reasons.update(done.bail_reasons)
                collect_between_batches(batch_no)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        con.execute(f"SET disabled_compression_methods = '{disabled}'")
        batches.close()  # drops the order table before the cursor goes
        reader.close()
    return tally


def _store_extra(con: duckdb.DuckDBPyConnection, findings: list[tuple[Finding, str]], run_id: str,
                 tally: _Tally) -> None:
    """Findings of a pass over the stored warehouse (no states, no hand ids: nothing is deleted)."""
    write_results(con, CheckedBatch([], [], findings, {}), run_id)
    tally.severities.update(f.severity for f, _ in findings)


def _summary(run_id: str, tally: _Tally, continuity: dict[str, Any] | None, record: dict[str, Any],
             engine: str) -> dict[str, Any]:
    """The run report ``floorman check`` prints and the night's step records."""
    sev = tally.severities
    summary: dict[str, Any] = {
        "run_id": run_id,
        "hands": tally.hands,
        "action_states": tally.states,
        "findings": sum(sev.values()),
        "errors": sev.get("error", 0),
        "warnings": sev.get("warning", 0),
        "info": sev.get("info", 0),
        "review": sev.get("review", 0),
        "data": sev.get("data", 0),
    }
    if continuity is not None:
        summary["continuity"] = continuity
    summary["record"] = record
    if engine == "kernel":
        summary["python_fallback_hands"] = tally.fallback
        summary["bail_reasons"] = {BAIL_NAMES[code]: n for code, n in sorted(tally.reasons.items())}
    return summary
