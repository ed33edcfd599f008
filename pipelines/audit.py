"""Run the nightly audit without the Dagster UI: the schedule's own assets, on a persistent instance.

Why materialise the Dagster assets rather than call the steps directly: what an analyst runs by
hand is then exactly what the schedule runs at night, checks included, and every run,
materialisation and check result is recorded on a Dagster instance (``$DAGSTER_HOME`` if set,
else ``<work>/dagster``), so ``dagster dev`` on that instance shows the night's history.
Partitions are independent (each writes its own DuckDB file): ``workers > 1`` runs one Dagster run
per partition in that many processes, inside pool ``partitions`` whose limit is set to ``workers``.
A partition that fails its blocking parse-rate check is reported and left out of the night; any
other failure stops the audit. Dagster's console logger defaults to DEBUG (every step event); run
by hand the audit logs at INFO and the closing summary prints failed checks plainly.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import time
import types
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import dagster as dg

from detectors.queue import DEFAULT_CAP_PER_1000_PLAYERS
from pipelines.defs.audit import PARTITION_POOL, night_assets, partition_assets
from pipelines.partitions import MAX_SHARDS, label, partition_key, shard_of
from pipelines.resources import AuditResource

#: Dagster console log level for runs started from the CLI and the demo
LOG_LEVEL = "INFO"

#: the instance ``floorman audit`` creates when DAGSTER_HOME is not set (pools as in dagster.yaml)
INSTANCE_YAML = """\
concurrency:
  pools:
    default_limit: 1
telemetry:
  enabled: false
"""

#: (date, shard) -> the files that partition is built from
Plan = dict[tuple[str, int], list[str]]


@dataclass
class PartitionRun:
    """One partition's Dagster run, as the process that ran it reports it back."""

    label: str
    run_id: str
    pid: int
    published: bool  # False: a blocking check failed, the partition is left out of the night
    steps: dict[str, float]  # step key -> seconds


@dataclass
class AuditResult:
    report: dict[str, Any]
    snapshot: Path | None  # None: nothing published yet (no partition has passed its checks)
    seconds: float
    timings: dict[str, float]
    worker_pids: dict[str, int] = field(default_factory=dict)  # partition -> process that built it
    run_ids: list[str] = field(default_factory=list)  # Dagster runs of the night, on ``instance_home``
    instance_home: Path | None = None
    unpublished: list[str] = field(default_factory=list)  # partitions that failed a blocking check


def default_partition() -> str:
    """The night being audited: yesterday, UTC."""
    return (datetime.now(UTC) - timedelta(days=1)).strftime("%Y-%m-%d")


def plan_partitions(paths: Sequence[str | Path], partition: str | None, shards: int = 1) -> Plan:
    """(date, shard) → inputs. A folder holding YYYY-MM-DD subfolders is a landing folder.

    ``shards > 1`` splits each day's files into that many partitions by the same stable hash of
    the file's path inside its folder as the schedule and the landing sensor use, so a landing
    folder audited here builds exactly the partitions the schedule would.
    """
    if not 1 <= shards <= MAX_SHARDS:
        raise ValueError(f"--shards must be between 1 and {MAX_SHARDS}")
    from warehouse.ingest import iter_input_files

    roots: dict[str, list[Path]] = {}
    for raw in paths:
        path = Path(raw)
        days = sorted(p for p in path.iterdir() if p.is_dir() and _is_day(p.name)) if path.is_dir() else []
        for day in days:
            roots.setdefault(day.name, []).append(day)
        if not days:
            roots.setdefault(partition or default_partition(), []).append(path)
    plan: Plan = {}
    for date, inputs in roots.items():
        for root in inputs:
            base = root if root.is_dir() else root.parent
            for f in sorted(iter_input_files([root])):
                shard = shard_of(f.relative_to(base).as_posix(), shards)
                plan.setdefault((date, shard), []).append(str(f))
        if not any(d == date for d, _ in plan):
            plan[(date, 0)] = []  # an empty night still builds (and reports) its partition
    return dict(sorted(plan.items()))


def _is_day(name: str) -> bool:
    try:
        datetime.strptime(name, "%Y-%m-%d")
    except ValueError:
        return False
    return True


def log_config(level: str) -> dict[str, Any]:
    """Run config for Dagster's console logger at ``level``."""
    return {"loggers": {"console": {"config": {"log_level": level.upper()}}}}


def instance_home(work: Path) -> Path:
    """Where the night's Dagster runs are recorded: ``$DAGSTER_HOME``, else ``<work>/dagster``."""
    home = Path(os.environ["DAGSTER_HOME"]) if os.environ.get("DAGSTER_HOME") else work / "dagster"
    home.mkdir(parents=True, exist_ok=True)
    config = home / "dagster.yaml"
    if not config.exists():
        config.write_text(INSTANCE_YAML, encoding="utf-8")
    return home.resolve()


@contextmanager
def open_instance(home: Path) -> Iterator[dg.DagsterInstance]:
    """The persistent instance at ``home`` (its ``dagster.yaml``, SQLite storage inside it)."""
    with dg.DagsterInstance.from_config(str(home)) as instance:
        yield instance


def _step_seconds(result: dg.ExecuteInProcessResult) -> dict[str, float]:
    out: dict[str, float] = {}
    for event in result.all_events:
        if event.event_type == dg.DagsterEventType.STEP_SUCCESS and event.step_key:
            out[event.step_key] = round(event.event_specific_data.duration_ms / 1000, 2)  # type: ignore[union-attr]
    return out


def _failed_blocking_checks(result: dg.ExecuteInProcessResult) -> list[str]:
    return [e.check_name for e in result.get_asset_check_evaluations()
            if not e.passed and e.severity == dg.AssetCheckSeverity.ERROR]


def materialize_partition(
    date: str, shard: int, files: list[str], work: str, db: str, rulebook: str, log_level: str, home: str,
) -> PartitionRun:
    """One partition's run on the instance at ``home`` (module level: worker processes call it)."""
    from pipelines import steps
    from pipelines.defs.automation import LAUNCH_TAG

    name = label(date, shard)
    resource = AuditResource(files=files, work=work, db=db, rulebook=rulebook)
    tags = {LAUNCH_TAG: f"{name}:{steps.fingerprint([Path(f) for f in files])}"}
    with open_instance(Path(home)) as instance:
        result = dg.materialize(partition_assets, partition_key=partition_key(date, shard), instance=instance,
                                resources={"audit": resource}, run_config=log_config(log_level), tags=tags,
                                raise_on_error=False)
    blocked = _failed_blocking_checks(result)
    if not result.success and not blocked:
        raise RuntimeError(f"partition {name} failed (Dagster run {result.run_id})")
    return PartitionRun(name, result.run_id, os.getpid(), result.success, _step_seconds(result))


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
    flag_cap_per_1000_players: float = DEFAULT_CAP_PER_1000_PLAYERS,
) -> AuditResult:
    """Ingest, check, detect, report and publish; returns the night's report."""
    t0 = time.perf_counter()
    db = Path(db)
    work_dir = Path(work) if work else db.parent / f"{db.stem}-work"
    plan = plan_partitions(paths, partition, shards)
    home = instance_home(work_dir)
    args = [(d, s, files, str(work_dir), str(db), rulebook, log_level, str(home)) for (d, s), files in plan.items()]
    with open_instance(home) as instance:
        _size_partition_pool(instance, workers)
    if workers > 1:
        with _one_thread_per_worker(workers), _workers_skip_main(), ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn")
        ) as pool:
            runs = list(pool.map(materialize_partition, *zip(*args, strict=True)))
    else:
        runs = [materialize_partition(*a) for a in args]
    timings: dict[str, float] = {}
    for run in runs:
        where = f" (pid {run.pid})" if workers > 1 else ""
        for step, secs in run.steps.items():
            timings[f"partition {run.label}{where}: {step}"] = secs
    resource = AuditResource(work=str(work_dir), db=str(db), rulebook=rulebook,
                             flag_cap_per_1000_players=flag_cap_per_1000_players)
    with open_instance(home) as instance:
        night = dg.materialize(night_assets, instance=instance, resources={"audit": resource},
                               run_config=log_config(log_level))
    if not night.success:
        raise RuntimeError(f"the night's combine/detect/publish failed (Dagster run {night.run_id})")
    timings.update({f"night: {step}": secs for step, secs in _step_seconds(night).items()})
    return AuditResult(
        _latest_report(resource), _current_snapshot(resource), time.perf_counter() - t0, timings,
        worker_pids={r.label: r.pid for r in runs}, run_ids=[*(r.run_id for r in runs), night.run_id],
        instance_home=home, unpublished=[r.label for r in runs if not r.published],
    )


def _current_snapshot(resource: AuditResource) -> Path | None:
    """The snapshot the dashboard reads after this night, or None when none was ever published."""
    from warehouse.snapshot import current_snapshot

    try:
        return current_snapshot(resource.serve_root)
    except FileNotFoundError:
        return None


def _size_partition_pool(instance: dg.DagsterInstance, workers: int) -> None:
    """Pool ``partitions`` at ``workers`` slots, unless an operator set its limit on a shared
    ``$DAGSTER_HOME`` instance (then the runs wait for that limit, as scheduled runs do)."""
    storage = instance.event_log_storage
    shared = bool(os.environ.get("DAGSTER_HOME")) and PARTITION_POOL in storage.get_concurrency_keys()
    if shared and not storage.get_concurrency_info(PARTITION_POOL).using_default_limit:
        return
    storage.set_concurrency_slots(PARTITION_POOL, max(1, workers))


@contextmanager
def _workers_skip_main() -> Iterator[None]:
    """Spawned workers re-run the parent's ``__main__`` script before their task (multiprocessing's
    preparation). From the CLI that is harmless, but a parent whose ``__main__`` is a Streamlit page
    (it runs pages as ``__main__``; the dashboard tests leave one behind) or a notebook would run it
    in every worker, and the pool breaks. The workers need only ``materialize_partition``, which
    they import by name, so ``__main__`` is a bare module while the pool starts them."""
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main


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
