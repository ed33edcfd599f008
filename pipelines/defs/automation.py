"""Jobs, the nightly schedule, the landing-folder sensor and the night-completion sensor."""



import json
import os
from datetime import datetime
from pathlib import Path

import dagster as dg

from pipelines.defs.audit import night_assets, partition_assets

partition_job = dg.define_asset_job(
    "audit_partition_job",
    selection=dg.AssetSelection.assets(*partition_assets),
    description="Parse and rule-check one day's landed hand histories into its partition file.",
)
night_job = dg.define_asset_job(
    "audit_night_job",
    selection=dg.AssetSelection.assets(*night_assets),
    description="Combine partitions, detect collusion, write the run report, publish the snapshot.",
)

#: at 03:00 UTC, audit yesterday's partition (late files have landed by then)
nightly_schedule = dg.build_schedule_from_partitioned_job(partition_job, hour_of_day=3, minute_of_hour=0)


def _is_day(name: str) -> bool:
    try:
        datetime.strptime(name, "%Y-%m-%d")
    except ValueError:
        return False
    return True


def _landing_root() -> Path:
    return Path(os.environ.get("FLOORMAN_LANDING", "var/landing"))


@dg.sensor(job=partition_job, minimum_interval_seconds=60)
def landing_sensor(context: dg.SensorEvaluationContext) -> dg.SensorResult | dg.SkipReason:
    """A run per landing day folder whose files changed since the last tick (cursor: mtimes)."""
    root = _landing_root()
    if not root.exists():
        return dg.SkipReason(f"landing folder {root} does not exist")
    requests = []
    seen: dict[str, int] = {}
    for day in sorted(p for p in root.iterdir() if p.is_dir()):
        if not _is_day(day.name):
            continue  # folders that are not a date are ignored
        newest = max((f.stat().st_mtime_ns for f in day.rglob("*") if f.is_file()), default=0)
        seen[day.name] = newest
        requests.append((day.name, newest))
    before = json.loads(context.cursor) if context.cursor else {}
    run_requests = [
        dg.RunRequest(run_key=f"{day}:{mtime}", partition_key=day)
        for day, mtime in requests
        if mtime and before.get(day) != mtime
    ]
    if not run_requests:
        return dg.SkipReason("no new or changed files in the landing folder")
    return dg.SensorResult(run_requests=run_requests, cursor=json.dumps(seen, sort_keys=True))


@dg.run_status_sensor(
    run_status=dg.DagsterRunStatus.SUCCESS,
    monitored_jobs=[partition_job],
    request_job=night_job,
)
def night_after_partition(context: dg.RunStatusSensorContext) -> dg.RunRequest:
    """When a partition is built, refresh the combined warehouse, flags, report and snapshot."""
    return dg.RunRequest(run_key=f"night-after-{context.dagster_run.run_id}")
