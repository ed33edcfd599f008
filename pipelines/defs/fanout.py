"""A whole night as one Dagster run whose partitions fan out over worker processes.

Why a second shape beside the partitioned assets: the schedule/sensor path runs one partition per
run (the run queue parallelises runs). This job runs *one* run in which every landed day is a
dynamic step, executed by Dagster's multiprocess executor in separate worker processes (the same
steps as the assets), then combine → detect → report → publish. It is the multi-worker path of
``floorman audit --workers N`` and of ``bench/audit.py``; on a cluster the same job runs with a
distributed executor (e.g. ``dagster-celery``) instead of ``multiprocess_executor``.
"""

import os
import re
import time
from pathlib import Path

import dagster as dg

from pipelines import steps


class NightConfig(dg.Config):
    """Where the night's partitions come from and where it works."""

    partitions: dict[str, list[str]]  # partition key -> files or folders
    work: str
    db: str
    rulebook: str = ""


@dg.op(out=dg.DynamicOut(str))
def plan_partitions(config: NightConfig):  # type: ignore[no-untyped-def]
    """One dynamic output per partition key."""
    for key in sorted(config.partitions):
        yield dg.DynamicOutput(key, mapping_key=re.sub(r"\W", "_", key))


@dg.op
def build_partition(context: dg.OpExecutionContext, config: NightConfig, key: str) -> dict[str, object]:
    """Parse and rule-check one partition into its own DuckDB file (in this worker process)."""
    files = [Path(p) for p in config.partitions[key]]
    part = steps.partition_db(Path(config.work), key)
    summary = steps.build_partition_hands(files, part)
    rules = steps.run_rule_checks(part, config.rulebook or None)
    outcomes = [*steps.ingest_checks(summary), rules.check]
    out = Path(config.work) / "checks" / f"{key}.fanout.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    import json

    out.write_text(json.dumps([o.__dict__ for o in outcomes], sort_keys=True, default=str), encoding="utf-8")
    context.log.info(f"partition {key}: {summary.hands} hands in worker pid {os.getpid()}")
    return {"key": key, "hands": summary.hands, "pid": os.getpid(), "ingest_seconds": round(summary.seconds, 2),
            "check_seconds": float(rules.metadata.get("seconds", 0.0))}


@dg.op
def finish_night(config: NightConfig, built: list[dict[str, object]]) -> dict[str, object]:
    """Combine partitions, detect, report and publish (single writer of the warehouse)."""
    work, db = Path(config.work), Path(config.db)
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    steps.combine_partitions(sorted((work / "parts").glob("*.duckdb")), db)
    timings["combine"] = steps.elapsed(t0)
    detect = steps.run_detectors(db, work)
    timings["detect"] = float(detect.metadata.get("seconds", 0.0))
    t0 = time.perf_counter()
    report = steps.write_run_report(db, work, steps.now_utc(), steps.collect_outcomes(work),
                                    extra={"workers": sorted({b["pid"] for b in built}, key=str)})
    timings["report"] = steps.elapsed(t0)
    t0 = time.perf_counter()
    snapshot = steps.publish_snapshot(db, db.parent / "published", timings)
    timings["summaries + publish"] = steps.elapsed(t0)
    return {"run_id": report["run_id"], "snapshot": str(snapshot), "partitions": built, "timings": timings}


@dg.job(executor_def=dg.multiprocess_executor.configured({"max_concurrent": 2}))
def night_fanout_job() -> None:
    finish_night(plan_partitions().map(build_partition).collect())


def fanout_job() -> dg.JobDefinition:
    """Module-level factory so ``dg.reconstructable`` can rebuild the job in worker processes."""
    return night_fanout_job
