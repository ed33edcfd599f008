"""What starts a night: the 03:00 schedule and the landing sensor launch partition runs (one per
partition's content, whichever fires first), declarative automation starts the night's assets
once no partition is in progress, and two sensors watch the outcome (failed runs, a stale snapshot).

Why dedup on content and not on the trigger: Dagster's run keys are unique per sensor or schedule,
so the schedule and the sensor would each launch the same files once. Both tag their runs with
``floorman/landing = <partition>:<fingerprint of its files>`` and skip a partition whose current
files already have a run on the instance.
"""


import json
import warnings
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import dagster as dg

from pipelines import steps
from pipelines.defs.audit import freshness_checks, night_assets, partition_assets
from pipelines.partitions import label, partition_key
from pipelines.resources import AuditResource

LAUNCH_TAG = "floorman/landing"

partition_job = dg.define_asset_job(
    "audit_partition_job",
    selection=dg.AssetSelection.assets(*partition_assets),
    description="Parse and rule-check one (date, shard) of landed hand histories into its partition file.",
)
night_job = dg.define_asset_job(
    "audit_night_job",
    selection=dg.AssetSelection.assets(*night_assets),
    description="Combine partitions, detect collusion, write the run report, publish the snapshot "
                "(started by automation after partitions; this job is for a manual re-run).",
)


def _is_day(name: str) -> bool:
    try:
        datetime.strptime(name, "%Y-%m-%d")
    except ValueError:
        return False
    return True


def landing_days(root: Path) -> list[str]:
    """Day folders of the landing folder (other folders are ignored)."""
    return sorted(p.name for p in root.iterdir() if p.is_dir() and _is_day(p.name)) if root.exists() else []


def landing_state(audit: AuditResource, days: Iterable[str]) -> dict[str, tuple[str, int, str]]:
    """Launch tag value -> (date, shard, fingerprint) for every non-empty shard of ``days``."""
    state: dict[str, tuple[str, int, str]] = {}
    for day in days:
        for shard in range(audit.shards):
            files = steps.landing_files(audit.landing_dir, day, shard, audit.shards)
            if files:
                fp = steps.fingerprint(files)
                state[f"{label(day, shard)}:{fp}"] = (day, shard, fp)
    return state


def already_launched(instance: dg.DagsterInstance, tag_value: str) -> bool:
    """Whether any run (queued, running, done or failed) was launched for exactly these files."""
    return bool(instance.get_run_records(filters=dg.RunsFilter(tags={LAUNCH_TAG: tag_value}), limit=1))


def run_requests(instance: dg.DagsterInstance, state: dict[str, tuple[str, int, str]]) -> list[dg.RunRequest]:
    return [
        dg.RunRequest(run_key=value, partition_key=partition_key(day, shard), tags={LAUNCH_TAG: value})
        for value, (day, shard, _) in sorted(state.items())
        if not already_launched(instance, value)
    ]


@dg.schedule(cron_schedule="0 3 * * *", job=partition_job, execution_timezone="UTC",
             default_status=dg.DefaultScheduleStatus.RUNNING)
def nightly_schedule(
    context: dg.ScheduleEvaluationContext, audit: AuditResource
) -> dg.SkipReason | list[dg.RunRequest]:
    """At 03:00 UTC, yesterday's shards whose files no run has built yet (late files are in by then)."""
    now = context.scheduled_execution_time or datetime.now(UTC)
    day = (now - timedelta(days=1)).strftime("%Y-%m-%d")
    requests = run_requests(context.instance, landing_state(audit, [day]))
    return requests or dg.SkipReason(f"{day}: no landed files, or a run already built them")


@dg.sensor(job=partition_job, minimum_interval_seconds=60, default_status=dg.DefaultSensorStatus.RUNNING)
def landing_sensor(context: dg.SensorEvaluationContext, audit: AuditResource) -> dg.SensorResult | dg.SkipReason:
    """A run per landed (day, shard) whose files changed since the last tick and were not built yet."""
    root = audit.landing_dir
    if not root.exists():
        return dg.SkipReason(f"landing folder {root} does not exist")
    state = landing_state(audit, landing_days(root))
    before = set(json.loads(context.cursor)) if context.cursor else set()
    changed = {k: v for k, v in state.items() if k not in before}
    requests = run_requests(context.instance, changed)
    cursor = json.dumps(sorted(state))
    if not requests:
        return dg.SensorResult(skip_reason=dg.SkipReason("no new or changed files in the landing folder"),
                               cursor=cursor)
    return dg.SensorResult(run_requests=requests, cursor=cursor)


#: the night's assets (warehouse → flags → report → snapshot) and the freshness check's sensor
night_automation = dg.AutomationConditionSensorDefinition(
    "night_automation",
    target=dg.AssetSelection.assets(*night_assets),
    default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=60,
)
with warnings.catch_warnings():  # superseded by FreshnessPolicy: see pipelines.defs.audit.freshness_checks
    warnings.simplefilter("ignore", dg.SupersessionWarning)
    freshness_sensor = dg.build_sensor_for_freshness_checks(
        freshness_checks=freshness_checks, default_status=dg.DefaultSensorStatus.RUNNING
    )


@dg.run_failure_sensor(default_status=dg.DefaultSensorStatus.RUNNING, minimum_interval_seconds=60)
def run_failure_alert(context: dg.RunFailureSensorContext, audit: AuditResource) -> None:
    """Every failed run of the audit (after its retries) as one line in work/alerts/failed_runs.jsonl,
    where the floor's alerting (mail, chat) picks it up; the message is in the sensor's log too."""
    run = context.dagster_run
    alert = {"run_id": run.run_id, "job": run.job_name, "partition": run.tags.get("dagster/partition"),
             "landing": run.tags.get(LAUNCH_TAG), "error": context.failure_event.message,
             "at": datetime.now(UTC).isoformat(timespec="seconds")}
    out = audit.work_dir / "alerts" / "failed_runs.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(alert, sort_keys=True) + "\n")
    context.log.error(f"audit run failed: {alert}")
