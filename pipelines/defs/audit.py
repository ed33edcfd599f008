"""The nightly audit's assets: partition hands → rule findings → warehouse → flags → report → snapshot.

Assets are thin wrappers over ``pipelines.steps`` (plain functions, also used by ``floorman
audit``). A partition is a (date, shard); partitioned assets each write their own partition file
inside pool ``partitions``, so partitions run in parallel up to that pool's limit. The parse-rate
check blocks: a partition that fails it stops before ``partition_rule_findings`` and is never
renamed into ``parts/``, so the night never combines or publishes it. Every asset that writes the
combined warehouse is in pool ``warehouse`` (limit 1: DuckDB allows one writer per file), and the
night assets are started by declarative automation once no partition is in progress (a 30-day
backfill runs the night once, not 30 times).
"""


import json
import time
import warnings
from datetime import timedelta
from pathlib import Path

import dagster as dg

from pipelines import steps
from pipelines.partitions import audit_partitions, label, split_key
from pipelines.resources import AuditResource

WAREHOUSE_POOL = "warehouse"
PARTITION_POOL = "partitions"

#: steps are idempotent (a partition or the warehouse is rebuilt from scratch), so a transient
#: failure (a lock held for a moment, a full disk freed, a killed process) is retried
RETRY = dg.RetryPolicy(max_retries=2, delay=10, backoff=dg.Backoff.EXPONENTIAL)

#: the night's assets run when partitions were updated since the night last ran, and only once
#: no partition is in a run or backfill (eager() would also wait for every missing partition
#: since 2024, i.e. never run)
NIGHT_AFTER_PARTITIONS = (
    dg.AutomationCondition.any_deps_updated().since_last_handled()
    & ~dg.AutomationCondition.any_deps_in_progress()
    & ~dg.AutomationCondition.in_progress()
).with_label("partitions updated, none in progress")


def _check_results(asset: str, outcomes: list[steps.CheckOutcome]) -> list[dg.AssetCheckResult]:
    return [
        dg.AssetCheckResult(
            asset_key=asset,
            check_name=o.name,
            passed=o.passed,
            severity=dg.AssetCheckSeverity.ERROR if o.severity == "error" else dg.AssetCheckSeverity.WARN,
            metadata={"detail": o.detail, **{k: v for k, v in o.metadata.items() if isinstance(v, int | float | str)}},
        )
        for o in outcomes
    ]


def _outcomes_path(audit: AuditResource, partition: str, stage: str) -> Path:
    return audit.work_dir / "checks" / f"{partition}.{stage}.json"


def _save_outcomes(path: Path, outcomes: list[steps.CheckOutcome]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([o.__dict__ for o in outcomes], sort_keys=True, default=str), encoding="utf-8")


def _failed_blocking(path: Path) -> list[str]:
    """Names of the error-severity checks that failed in a saved ingest (none if not saved)."""
    if not path.exists():
        return []
    rows = json.loads(path.read_text(encoding="utf-8"))
    return [r["name"] for r in rows if not r["passed"] and r["severity"] == "error"]


def _partition(context: dg.AssetExecutionContext) -> tuple[str, int, str]:
    date, shard = split_key(context.partition_key)
    return date, int(shard), label(date, shard)


@dg.asset(
    partitions_def=audit_partitions,
    group_name="audit",
    kinds={"duckdb"},
    pool=PARTITION_POOL,
    retry_policy=RETRY,
    check_specs=[
        dg.AssetCheckSpec("parse_rate", asset="partition_hands", blocking=True,
                          description="≥ 99.5% of hands parse; blocking: a partition below it is not published"),
        dg.AssetCheckSpec("unreconciled_hands", asset="partition_hands", description="every hand's chips reconcile"),
    ],
)
def partition_hands(context: dg.AssetExecutionContext, audit: AuditResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    """Parse the partition's landed files into its staging file (rebuilt from scratch, renamed in)."""
    date, shard, name = _partition(context)
    files = ([Path(f) for f in audit.files] if audit.files
             else steps.landing_files(audit.landing_dir, date, shard, audit.shards))
    summary = steps.build_partition_hands(files, steps.staging_db(audit.work_dir, name))
    outcomes = steps.ingest_checks(summary)
    _save_outcomes(_outcomes_path(audit, name, "ingest"), outcomes)
    return dg.MaterializeResult(
        metadata={"hands": summary.hands, "quarantined": summary.quarantined, "files": summary.files,
                  "unreconciled": summary.unreconciled, "hands_per_second": round(summary.hands_per_second)},
        check_results=_check_results("partition_hands", outcomes),
    )


@dg.asset(
    partitions_def=audit_partitions,
    deps=[partition_hands],
    group_name="audit",
    kinds={"duckdb"},
    pool=PARTITION_POOL,
    retry_policy=RETRY,
    check_specs=[
        dg.AssetCheckSpec("error_violations_per_table", asset="partition_rule_findings",
                          description="no error-level rule violations at any table"),
    ],
)
def partition_rule_findings(context: dg.AssetExecutionContext, audit: AuditResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    """Replay every hand under its rulebook, then rename the partition into parts/ (published)."""
    _, _, name = _partition(context)
    failed = _failed_blocking(_outcomes_path(audit, name, "ingest"))
    if failed:  # also when run on its own, after a failed ingest: the blocking check still holds
        raise dg.Failure(f"partition {name} is not published: its ingest failed {', '.join(failed)}",
                         allow_retries=False)
    staged = steps.staging_db(audit.work_dir, name)
    if not staged.exists():
        raise dg.Failure(f"partition {name} has no staged hands: materialise partition_hands first",
                         allow_retries=False)
    result = steps.publish_partition(staged, steps.partition_db(audit.work_dir, name), audit.rulebook or None,
                                     detector_out=steps.detector_db(audit.work_dir, name))
    outcomes = [result.check]
    _save_outcomes(_outcomes_path(audit, name, "rules"), outcomes)
    checks = _check_results("partition_rule_findings", outcomes)
    return dg.MaterializeResult(metadata=result.metadata, check_results=checks)


def _published_parts(audit: AuditResource) -> list[Path]:
    return sorted((audit.work_dir / "parts").glob("*.duckdb"))  # temporary files end .tmp-<id>


@dg.asset(deps=[partition_rule_findings], group_name="audit", kinds={"duckdb"}, pool=WAREHOUSE_POOL,
          retry_policy=RETRY, automation_condition=NIGHT_AFTER_PARTITIONS)
def warehouse(context: dg.AssetExecutionContext, audit: AuditResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    """The combined warehouse, rebuilt from every published partition file."""
    parts = _published_parts(audit)
    added = steps.combine_partitions(parts, audit.build_db)
    return dg.MaterializeResult(metadata={"partitions": len(parts), **{f"rows_{k}": v for k, v in added.items()}})


@dg.asset(
    deps=[warehouse],
    group_name="audit",
    kinds={"duckdb", "scikit-learn"},
    pool=WAREHOUSE_POOL,
    retry_policy=RETRY,
    automation_condition=dg.AutomationCondition.eager(),
    check_specs=[dg.AssetCheckSpec("flag_volume", asset="collusion_flags",
                                   description="flag count within 3x of the recent nightly baseline")],
)
def collusion_flags(context: dg.AssetExecutionContext, audit: AuditResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    """Player and pair statistics, detectors, flags with evidence hands."""
    result = steps.run_detectors(audit.build_db, audit.work_dir, audit.flag_cap_per_1000_players or None)
    checks = _check_results("collusion_flags", [result.check])
    return dg.MaterializeResult(metadata=result.metadata, check_results=checks)


@dg.asset(deps=[collusion_flags], group_name="audit", kinds={"duckdb"}, pool=WAREHOUSE_POOL, retry_policy=RETRY,
          automation_condition=dg.AutomationCondition.eager())
def run_report(context: dg.AssetExecutionContext, audit: AuditResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    """The night's report (hands, findings by rule and table, flags, quarantined files, checks)."""
    outcomes = steps.collect_outcomes(audit.work_dir)
    report = steps.write_run_report(audit.build_db, audit.work_dir, steps.now_utc(), outcomes,
                                    extra={"dagster_run_id": context.run.run_id})
    failed = [c["name"] for c in report["checks"] if not c["passed"]]
    return dg.MaterializeResult(metadata={"run_id": report["run_id"], "hands": report["hands"],
                                          "failed_checks": ", ".join(failed) or "none"})


@dg.asset(deps=[run_report], group_name="audit", kinds={"duckdb"}, pool=WAREHOUSE_POOL, retry_policy=RETRY,
          automation_condition=dg.AutomationCondition.eager())
def published_snapshot(context: dg.AssetExecutionContext, audit: AuditResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    """A read-only copy for the dashboard; the pointer flips atomically. Nothing is published while
    no partition has passed its checks: an empty snapshot would replace the dashboard's last good one
    (or show a first night as if it had no hands) instead of leaving the failure visible."""
    t0 = time.perf_counter()
    if not _published_parts(audit):
        context.log.warning("no partition passed its blocking checks: the dashboard keeps its snapshot")
        return dg.MaterializeResult(metadata={"snapshot": "none (no published partition)",
                                              "seconds": steps.elapsed(t0)})
    path = steps.publish_snapshot(audit.build_db, audit.serve_root)
    return dg.MaterializeResult(metadata={"snapshot": str(path), "seconds": steps.elapsed(t0)})


partition_assets = [partition_hands, partition_rule_findings]
night_assets = [warehouse, collusion_flags, run_report, published_snapshot]

#: the dashboard's snapshot is overdue when not published within 26 h of 06:00 UTC (the night
#: starts at 03:00; 26 h leaves a late night one retry before the check fails). Why a freshness
#: *check* although 1.13 calls it superseded by ``FreshnessPolicy``: the policy is a preview that
#: open-source Dagster evaluates only with ``freshness: enabled`` and records no check result; the
#: check is an ordinary asset check (history, alerts, tests) evaluated by ``freshness_checks_sensor``.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", dg.SupersessionWarning)
    freshness_checks = dg.build_last_update_freshness_checks(
        assets=[published_snapshot], lower_bound_delta=timedelta(hours=26), deadline_cron="0 6 * * *",
        timezone="UTC",
    )
