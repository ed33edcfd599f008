"""The nightly audit's assets: partition hands → rule findings → warehouse → flags → report → snapshot.

Assets are thin wrappers over ``pipelines.steps`` (plain functions, also used by ``floorman
audit``). Partitioned assets each write their own partition file, so partitions can run in
parallel processes; every asset that writes the combined warehouse is in the ``warehouse`` pool
(DuckDB allows one writer per file).
"""



import json
import time
from pathlib import Path

import dagster as dg

from pipelines import steps
from pipelines.partitions import daily_hands
from pipelines.resources import AuditResource

WAREHOUSE_POOL = "warehouse"


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


@dg.asset(
    partitions_def=daily_hands,
    group_name="audit",
    kinds={"duckdb"},
    check_specs=[
        dg.AssetCheckSpec("parse_rate", asset="partition_hands", description="≥ 99.5% of hands parse"),
        dg.AssetCheckSpec("unreconciled_hands", asset="partition_hands", description="every hand's chips reconcile"),
    ],
)
def partition_hands(context: dg.AssetExecutionContext, audit: AuditResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    """Parse the partition's landed files into its own DuckDB file (rebuilt from scratch)."""
    partition = context.partition_key
    files = [Path(f) for f in audit.files] if audit.files else steps.landing_files(audit.landing_dir, partition)
    summary = steps.build_partition_hands(files, steps.partition_db(audit.work_dir, partition))
    outcomes = steps.ingest_checks(summary)
    _save_outcomes(_outcomes_path(audit, partition, "ingest"), outcomes)
    return dg.MaterializeResult(
        metadata={"hands": summary.hands, "quarantined": summary.quarantined, "files": summary.files,
                  "unreconciled": summary.unreconciled, "hands_per_second": round(summary.hands_per_second)},
        check_results=_check_results("partition_hands", outcomes),
    )


@dg.asset(
    partitions_def=daily_hands,
    deps=[partition_hands],
    group_name="audit",
    kinds={"duckdb"},
    check_specs=[
        dg.AssetCheckSpec("error_violations_per_table", asset="partition_rule_findings",
                          description="no error-level rule violations at any table"),
    ],
)
def partition_rule_findings(context: dg.AssetExecutionContext, audit: AuditResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    """Replay every hand of the partition under its rulebook: action states and violations."""
    partition = context.partition_key
    result = steps.run_rule_checks(steps.partition_db(audit.work_dir, partition), audit.rulebook or None)
    outcomes = [result.check]
    _save_outcomes(_outcomes_path(audit, partition, "rules"), outcomes)
    checks = _check_results("partition_rule_findings", outcomes)
    return dg.MaterializeResult(metadata=result.metadata, check_results=checks)


@dg.asset(deps=[partition_rule_findings], group_name="audit", kinds={"duckdb"}, pool=WAREHOUSE_POOL)
def warehouse(context: dg.AssetExecutionContext, audit: AuditResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    """The combined warehouse, rebuilt from every partition file."""
    parts = sorted((audit.work_dir / "parts").glob("*.duckdb"))
    added = steps.combine_partitions(parts, audit.build_db)
    return dg.MaterializeResult(metadata={"partitions": len(parts), **{f"rows_{k}": v for k, v in added.items()}})


@dg.asset(
    deps=[warehouse],
    group_name="audit",
    kinds={"duckdb", "scikit-learn"},
    pool=WAREHOUSE_POOL,
    check_specs=[dg.AssetCheckSpec("flag_volume", asset="collusion_flags",
                                   description="flag count within 3x of the recent nightly baseline")],
)
def collusion_flags(context: dg.AssetExecutionContext, audit: AuditResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    """Player and pair statistics, detectors, flags with evidence hands."""
    result = steps.run_detectors(audit.build_db, audit.work_dir)
    checks = _check_results("collusion_flags", [result.check])
    return dg.MaterializeResult(metadata=result.metadata, check_results=checks)


@dg.asset(deps=[collusion_flags], group_name="audit", kinds={"duckdb"}, pool=WAREHOUSE_POOL)
def run_report(context: dg.AssetExecutionContext, audit: AuditResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    """The night's report (hands, findings by rule and table, flags, quarantined files, checks)."""
    outcomes = steps.collect_outcomes(audit.work_dir)
    report = steps.write_run_report(audit.build_db, audit.work_dir, steps.now_utc(), outcomes)
    failed = [c["name"] for c in report["checks"] if not c["passed"]]
    return dg.MaterializeResult(metadata={"run_id": report["run_id"], "hands": report["hands"],
                                          "failed_checks": ", ".join(failed) or "none"})


@dg.asset(deps=[run_report], group_name="audit", kinds={"duckdb"}, pool=WAREHOUSE_POOL)
def published_snapshot(context: dg.AssetExecutionContext, audit: AuditResource) -> dg.MaterializeResult:  # type: ignore[type-arg]
    """A read-only copy for the dashboard; the pointer flips atomically."""
    t0 = time.perf_counter()
    path = steps.publish_snapshot(audit.build_db, audit.serve_root)
    return dg.MaterializeResult(metadata={"snapshot": str(path), "seconds": steps.elapsed(t0)})


partition_assets = [partition_hands, partition_rule_findings]
night_assets = [warehouse, collusion_flags, run_report, published_snapshot]
