"""Run the nightly audit in-process, without the Dagster UI: the same assets, materialised here.

Why materialise the Dagster assets rather than call the steps directly: what an analyst runs by
hand is then exactly what the schedule runs at night, checks included. Partitions are independent
(each writes its own DuckDB file), so ``workers > 1`` builds them in parallel processes.
Dagster's console logger defaults to DEBUG (every step event); run by hand the audit logs at INFO
and the closing summary prints failed checks plainly (see ``cli_audit.print_report``).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import dagster as dg

from pipelines.defs.audit import night_assets, partition_assets
from pipelines.resources import AuditResource

#: Dagster console log level for runs started from the CLI and the demo
LOG_LEVEL = "INFO"


@dataclass
class AuditResult:
    report: dict[str, Any]
    snapshot: Path
    seconds: float
    timings: dict[str, float]
    worker_pids: dict[str, int] = field(default_factory=dict)  # partition key -> process that built it


def default_partition() -> str:
    """The night being audited: yesterday, UTC."""
    return (datetime.now(UTC) - timedelta(days=1)).strftime("%Y-%m-%d")


def plan_partitions(
    paths: Sequence[str | Path], partition: str | None, shards: int = 1
) -> dict[str, list[str]]:
    """Partition key → inputs. A folder holding YYYY-MM-DD subfolders is a landing folder.

    ``shards > 1`` splits each day's files into that many independent partitions (``<day>.<k>``),
    e.g. one per table group, so a single big night can be built by several workers.
    """
    plan: dict[str, list[str]] = {}
    loose: list[str] = []
    for raw in paths:
        path = Path(raw)
        days = sorted(p for p in path.iterdir() if p.is_dir() and _is_day(p.name)) if path.is_dir() else []
        if days:
            for day in days:
                plan.setdefault(day.name, []).append(str(day))
        else:
            loose.append(str(path))
    if loose:
        plan.setdefault(partition or default_partition(), []).extend(loose)
    if shards <= 1:
        return plan
    from warehouse.ingest import iter_input_files

    sharded: dict[str, list[str]] = {}
    for key, inputs in plan.items():
        files = sorted(str(f) for f in iter_input_files(inputs))
        for k in range(shards):
            if files[k::shards]:
                sharded[f"{key}.{k}"] = files[k::shards]
    return sharded


def _is_day(name: str) -> bool:
    try:
        datetime.strptime(name, "%Y-%m-%d")
    except ValueError:
        return False
    return True


def log_config(level: str) -> dict[str, Any]:
    """Run config for Dagster's console logger at ``level``."""
    return {"loggers": {"console": {"config": {"log_level": level.upper()}}}}


def _materialize_partition(key: str, files: list[str], work: str, db: str, rulebook: str, log_level: str) -> float:
    t0 = time.perf_counter()
    resource = AuditResource(files=files, work=work, db=db, rulebook=rulebook)
    result = dg.materialize(partition_assets, partition_key=key, resources={"audit": resource},
                            run_config=log_config(log_level))
    if not result.success:
        raise RuntimeError(f"partition {key} failed")
    return time.perf_counter() - t0


def run_audit(
    paths: Sequence[str | Path],
    db: str | Path,
    *,
    work: str | Path | None = None,
    partition: str | None = None,
    rulebook: str = "",
    workers: int = 1,
    shards: int = 1,
    log_level: str = LOG_LEVEL,
) -> AuditResult:
    """Ingest, check, detect, report and publish; returns the night's report."""
    t0 = time.perf_counter()
    db = Path(db)
    work_dir = Path(work) if work else db.parent / f"{db.stem}-work"
    plan = plan_partitions(paths, partition, shards)
    timings: dict[str, float] = {}
    if workers > 1:
        return _run_fanout(plan, db, work_dir, rulebook, workers, t0, log_level)
    else:
        for key, files in plan.items():
            timings[f"partition {key}"] = round(
                _materialize_partition(key, files, str(work_dir), str(db), rulebook, log_level), 2
            )
    t1 = time.perf_counter()
    resource = AuditResource(work=str(work_dir), db=str(db), rulebook=rulebook)
    result = dg.materialize(night_assets, resources={"audit": resource}, run_config=log_config(log_level))
    if not result.success:
        raise RuntimeError("the night's combine/detect/publish failed")
    timings["combine, detect, report, publish"] = round(time.perf_counter() - t1, 2)
    report = _latest_report(resource)
    from warehouse.snapshot import current_snapshot

    return AuditResult(report, current_snapshot(resource.serve_root), time.perf_counter() - t0, timings)


def _run_fanout(
    plan: dict[str, list[str]], db: Path, work: Path, rulebook: str, workers: int, t0: float, log_level: str
) -> AuditResult:
    """The whole night as one Dagster run on the multiprocess executor (partitions in parallel)."""
    from dagster import DagsterInstance, execute_job, reconstructable

    from pipelines.defs.fanout import fanout_job
    from warehouse.snapshot import current_snapshot

    run_config = {
        "ops": {name: {"config": {"partitions": plan, "work": str(work), "db": str(db), "rulebook": rulebook}}
                for name in ("plan_partitions", "build_partition", "finish_night")},
        "execution": {"config": {"multiprocess": {"max_concurrent": workers}}},
        **log_config(log_level),
    }
    # the multiprocess executor needs a persistent (not ephemeral) instance
    with (
        _one_thread_per_worker(workers),
        # the workers' own step events go through the instance's log level, not the run config's
        DagsterInstance.local_temp(overrides={"python_logs": {"python_log_level": log_level.upper()}}) as instance,
        execute_job(reconstructable(fanout_job), instance=instance, run_config=run_config) as result,
    ):
        if not result.success:
            raise RuntimeError("the fan-out night failed")
        out = result.output_for_node("finish_night")
    resource = AuditResource(work=str(work), db=str(db), rulebook=rulebook)
    timings: dict[str, float] = {}
    for b in out["partitions"]:
        timings[f"partition {b['key']} (pid {b['pid']}): ingest"] = float(b["ingest_seconds"])
        timings[f"partition {b['key']} (pid {b['pid']}): rule check"] = float(b["check_seconds"])
    timings.update({f"finish: {k}": float(v) for k, v in out["timings"].items()})
    pids = {str(b["key"]): int(b["pid"]) for b in out["partitions"]}
    return AuditResult(_latest_report(resource), current_snapshot(resource.serve_root),
                       time.perf_counter() - t0, timings, pids)


@contextmanager
def _one_thread_per_worker(workers: int) -> Iterator[None]:
    """Pin polars and the ingest's DuckDB to one thread in the worker processes when the workers
    fill the machine: each partition is one sequential parse, and extra threads per worker only
    fight each other (measured: a 500k-hand partition 100 s → 76 s wall alone on 2 cores).
    The worker processes inherit the environment; the parent's is restored afterwards."""
    if workers < (os.cpu_count() or 1):
        yield
        return
    pinned = {"POLARS_MAX_THREADS": "1", "FLOORMAN_DUCKDB_THREADS": "1"}
    saved = {k: os.environ.get(k) for k in pinned}
    os.environ.update(pinned)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _latest_report(resource: AuditResource) -> dict[str, Any]:
    from warehouse.db import connect

    con = connect(resource.build_db)
    try:
        row = con.execute("SELECT report FROM run_reports ORDER BY finished_at DESC LIMIT 1").fetchone()
    finally:
        con.close()
    return dict(json.loads(row[0])) if row else {}
