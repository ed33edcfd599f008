"""A production-shaped night on a real (SQLite-backed) Dagster instance: what issue 15 asks of it.

- a partition that fails its blocking parse-rate check is never published;
- a partition re-triggered (landing sensor, then the schedule, then a sensor with a lost cursor)
  runs once for the same files;
- a backfill of N days runs the night once, when the backfill is over (declarative automation);
- ``--workers`` runs the schedule's assets on the persistent instance, everything recorded.
"""

from __future__ import annotations

import json
import shutil
import time
from datetime import datetime, timedelta
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from pipelines import steps
from pipelines.defs.audit import freshness_checks, night_assets, partition_assets
from pipelines.defs.automation import LAUNCH_TAG, landing_sensor, nightly_schedule, run_failure_alert
from pipelines.partitions import partition_key
from pipelines.resources import AuditResource
from tests.conftest import real_data
from tests.pipelines.conftest import DAY1, DAY2, FILES, STARS, audit_resource, break_day

ALL_ASSETS = [*partition_assets, *night_assets]
DEFS = dg.Definitions(assets=ALL_ASSETS, resources={"audit": AuditResource()})


def _hands(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute("SELECT count(*) FROM hands").fetchone()
    finally:
        con.close()
    return int(row[0]) if row else 0


def _build(instance: dg.DagsterInstance, resource: AuditResource, day: str, **kw: object) -> dg.ExecuteInProcessResult:
    return dg.materialize(partition_assets, partition_key=partition_key(day), instance=instance,
                          resources={"audit": resource}, **kw)  # type: ignore[arg-type]


def _night(instance: dg.DagsterInstance, resource: AuditResource) -> dg.ExecuteInProcessResult:
    return dg.materialize(night_assets, instance=instance, resources={"audit": resource})


def test_a_broken_partition_is_not_published(tmp_path: Path, landing: Path, instance: dg.DagsterInstance) -> None:
    resource = audit_resource(tmp_path, landing)
    assert _build(instance, resource, DAY1).success
    assert _build(instance, resource, DAY2).success
    good_day2 = _hands(steps.partition_db(resource.work_dir, DAY2))
    break_day(landing, DAY2)  # tonight's re-landed DAY2 is broken

    broken = _build(instance, resource, DAY2, raise_on_error=False)
    assert not broken.success
    evaluation = {e.check_name: e for e in broken.get_asset_check_evaluations()}["parse_rate"]
    assert not evaluation.passed and evaluation.severity == dg.AssetCheckSeverity.ERROR
    # the blocking check stopped the run before the publishing step, and was not retried
    assert {e.asset_key.to_user_string() for e in broken.get_asset_materialization_events()} == {"partition_hands"}
    assert not [e for e in broken.all_events if e.event_type == dg.DagsterEventType.STEP_UP_FOR_RETRY]
    # parts/ still holds the last good DAY2, whole; the broken ingest stayed in staging
    assert _hands(steps.partition_db(resource.work_dir, DAY2)) == good_day2 > 0
    assert _hands(steps.staging_db(resource.work_dir, DAY2)) < good_day2
    # publishing the broken staging on its own (e.g. from the UI) is refused too
    alone = dg.materialize(partition_assets, selection=["partition_rule_findings"], partition_key=partition_key(DAY2),
                           instance=instance, resources={"audit": resource}, raise_on_error=False)
    assert not alone.success
    assert _hands(steps.partition_db(resource.work_dir, DAY2)) == good_day2

    assert _night(instance, resource).success
    published = resource.serve_root / (resource.serve_root / "CURRENT").read_text().strip()
    day1 = _hands(steps.partition_db(resource.work_dir, DAY1))
    assert _hands(resource.build_db) == day1 + good_day2  # none of the broken file's hands
    assert not list(resource.work_dir.rglob("*.tmp-*"))  # no temporary file left behind
    report = json.loads(duckdb.connect(str(resource.build_db), read_only=True).execute(
        "SELECT report FROM run_reports ORDER BY finished_at DESC LIMIT 1").fetchone()[0])
    assert {c["name"]: c["passed"] for c in report["checks"]}[f"parse_rate[{DAY2}]"] is False
    assert published.exists()


def test_a_first_night_whose_only_partition_is_broken_publishes_nothing_and_fails(
        tmp_path: Path, landing: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No snapshot rather than an empty one (the dashboard would show a night without hands), and
    ``floorman audit`` exits 1 so a scheduler sees the partition it left out."""
    from pipelines import cli

    shutil.rmtree(landing / DAY1)
    break_day(landing, DAY2)
    db = tmp_path / "audit" / "warehouse.duckdb"
    code = cli.main(["audit", str(landing), "--db", str(db), "--log-level", "ERROR"])
    out = capsys.readouterr().out
    assert code == 1
    assert f"NOT PUBLISHED partition {DAY2}" in out
    assert "snapshot for the dashboard: none published" in out
    assert not list((tmp_path / "audit").rglob("CURRENT"))


def test_partitions_are_renamed_into_place(tmp_path: Path, landing: Path, instance: dg.DagsterInstance) -> None:
    """A rebuild replaces the file (new inode, by rename), never rewrites the one a reader has open."""
    resource = audit_resource(tmp_path, landing)
    assert _build(instance, resource, DAY1).success
    part = steps.partition_db(resource.work_dir, DAY1)
    before = part.stat().st_ino
    with part.open("rb") as reader:  # as warehouse's ATTACH holds it
        head = reader.read(4096)
        assert _build(instance, resource, DAY1).success
        reader.seek(0)
        assert reader.read(4096) == head
    assert part.stat().st_ino != before
    assert not list(resource.work_dir.rglob("*.tmp-*"))


def test_a_retriggered_partition_does_not_run_twice(
    tmp_path: Path, landing: Path, instance: dg.DagsterInstance
) -> None:
    resource = audit_resource(tmp_path, landing)
    resources = {"audit": resource}
    shutil.rmtree(landing / DAY2)
    first = landing_sensor(dg.build_sensor_context(instance=instance, resources=resources))
    assert isinstance(first, dg.SensorResult) and len(first.run_requests or []) == 1
    request = (first.run_requests or [])[0]
    assert str(request.partition_key) == f"{DAY1}|0" and request.tags[LAUNCH_TAG].startswith(f"{DAY1}:")
    # the daemon would launch the request; here the same run, with the request's tags, on the instance
    assert _build(instance, resource, DAY1, tags=request.tags).success

    at_three = datetime.strptime(DAY1, "%Y-%m-%d") + timedelta(days=1, hours=3)
    tick = nightly_schedule(dg.build_schedule_context(instance=instance, scheduled_execution_time=at_three,
                                                      resources=resources))
    assert isinstance(tick, dg.SkipReason)  # the 03:00 schedule finds the sensor's run: no second launch
    lost_cursor = landing_sensor(dg.build_sensor_context(instance=instance, resources=resources))
    assert isinstance(lost_cursor, dg.SensorResult) and not lost_cursor.run_requests
    assert len(instance.get_run_records(filters=dg.RunsFilter(tags={LAUNCH_TAG: request.tags[LAUNCH_TAG]}))) == 1

    # new files for the day are new content: exactly one more launch, whichever trigger is first
    shutil.copy(real_data(*STARS, FILES[DAY2][0]), landing / DAY1 / "late.txt")
    tick = nightly_schedule(dg.build_schedule_context(instance=instance, scheduled_execution_time=at_three,
                                                      resources=resources))
    assert isinstance(tick, list) and len(tick) == 1 and tick[0].tags != request.tags
    assert _build(instance, resource, DAY1, tags=tick[0].tags).success
    late = landing_sensor(dg.build_sensor_context(instance=instance, cursor=first.cursor, resources=resources))
    assert isinstance(late, dg.SensorResult) and not late.run_requests


def _add_backfill(instance: dg.DagsterInstance, days: list[str]) -> str:
    """A backfill of the partition assets over ``days`` as the UI records it (status REQUESTED).

    The daemon is what turns a backfill into runs; the test runs them itself, so the backfill is
    recorded through Dagster's own (internal) backfill model, which the automation reads."""
    from dagster._core.execution.backfill import PartitionBackfill

    backfill = PartitionBackfill.from_asset_partitions(
        backfill_id="night-test", asset_graph=DEFS.resolve_asset_graph(),
        partition_names=[str(partition_key(d)) for d in days],
        asset_selection=[a.key for a in partition_assets], backfill_timestamp=time.time(), tags={},
        dynamic_partitions_store=instance, all_partitions=False, title=None, description=None, run_config=None,
    )
    instance.add_backfill(backfill)
    return backfill.backfill_id


def test_a_backfill_of_n_days_runs_the_night_once(tmp_path: Path, instance: dg.DagsterInstance) -> None:
    from dagster._core.execution.backfill import BulkActionStatus

    days = ["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23"]
    landing = tmp_path / "landing"
    for day, name in zip(days, [*FILES[DAY1], *FILES[DAY2]], strict=True):
        (landing / day).mkdir(parents=True)
        shutil.copy(real_data(*STARS, name), landing / day / name)
    resource = audit_resource(tmp_path, landing)
    night_keys = {a.key for a in night_assets}

    def tick(cursor: object = None) -> dg.EvaluateAutomationConditionsResult:
        return dg.evaluate_automation_conditions(defs=DEFS, instance=instance, cursor=cursor)  # type: ignore[arg-type]

    result = tick()
    assert result.total_requested == 0  # nothing landed yet: no night
    backfill_id = _add_backfill(instance, days)
    for day in days:  # the backfill's runs, one per day, with the automation ticking in between
        assert _build(instance, resource, day).success
        result = tick(result.cursor)
        assert result.total_requested == 0, f"night requested during the backfill, after {day}"
    backfill = instance.get_backfill(backfill_id)
    assert backfill is not None
    instance.update_backfill(backfill.with_status(BulkActionStatus.COMPLETED_SUCCESS))

    result = tick(result.cursor)
    assert {k for k in night_keys if result.get_num_requested(k)} == night_keys  # the whole night...
    assert all(result.get_num_requested(k) == 1 for k in night_keys)  # ...once
    assert all(result.get_num_requested(a.key) == 0 for a in partition_assets)
    assert _night(instance, resource).success
    assert tick(result.cursor).total_requested == 0
    assert _hands(resource.build_db) == sum(_hands(steps.partition_db(resource.work_dir, d)) for d in days)


def test_workers_run_the_schedules_assets_on_the_persistent_instance(
    tmp_path: Path, landing: Path, simulated_night: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``floorman audit --workers 2 --shards 2``: one Dagster run per (date, shard) in two
    processes, all on the instance in <work>/dagster, with the same warehouse as one worker.
    The parent's ``__main__`` is a script that must not run in the workers (as when a Streamlit
    page, run by the dashboard tests, is left as ``__main__``: it broke the pool in the full suite)."""
    import os
    import sys
    import types

    from pipelines.audit import run_audit

    script = tmp_path / "page.py"
    script.write_text("raise RuntimeError('the parent __main__ ran in a worker')\n")
    hostile = types.ModuleType("__main__")
    hostile.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", hostile)
    shutil.copytree(simulated_night, landing / DAY1 / "simulated")
    one = run_audit([landing], tmp_path / "one.duckdb", work=tmp_path / "one")
    two = run_audit([landing], tmp_path / "two.duckdb", work=tmp_path / "two", workers=2, shards=2)
    assert sorted(two.worker_pids) == [DAY1, f"{DAY1}.1", DAY2, f"{DAY2}.1"]
    assert len(set(two.worker_pids.values())) == 2 and os.getpid() not in two.worker_pids.values()
    assert two.report["hands"] == one.report["hands"] == _hands(tmp_path / "one.duckdb") > 800
    assert two.report["flags"]["total"] == one.report["flags"]["total"]

    assert two.instance_home == (tmp_path / "two" / "dagster").resolve()
    with dg.DagsterInstance.from_config(str(two.instance_home)) as instance:
        runs = instance.get_run_records()
        assert sorted(r.dagster_run.run_id for r in runs) == sorted(two.run_ids) and len(runs) == 5
        assert all(r.dagster_run.status == dg.DagsterRunStatus.SUCCESS for r in runs)
        parts = instance.fetch_materializations(dg.AssetKey("partition_rule_findings"), limit=10).records
        assert sorted(str(r.partition_key) for r in parts) == [f"{DAY1}|0", f"{DAY1}|1", f"{DAY2}|0", f"{DAY2}|1"]
        assert instance.fetch_materializations(dg.AssetKey("published_snapshot"), limit=10).records
        check = instance.event_log_storage.get_latest_asset_check_execution_by_key(
            [dg.AssetCheckKey(dg.AssetKey("partition_hands"), "parse_rate")])
        assert check  # check results are on the instance too


def test_run_failure_sensor_writes_an_alert(tmp_path: Path, instance: dg.DagsterInstance) -> None:
    @dg.asset
    def fails() -> None:
        raise RuntimeError("disk full")

    run = dg.materialize([fails], instance=instance, raise_on_error=False)
    assert not run.success
    failure = next(e for e in run.all_events if e.event_type == dg.DagsterEventType.RUN_FAILURE)
    resource = AuditResource(work=str(tmp_path / "work"))
    ctx = dg.build_run_status_sensor_context(
        sensor_name="run_failure_alert", dagster_event=failure, dagster_instance=instance,
        dagster_run=run.dagster_run, resources={"audit": resource},
    ).for_run_failure()
    run_failure_alert(ctx)
    alerts = (resource.work_dir / "alerts" / "failed_runs.jsonl").read_text().splitlines()
    assert len(alerts) == 1 and json.loads(alerts[0])["run_id"] == run.run_id


def test_freshness_check_on_the_published_snapshot(
    tmp_path: Path, landing: Path, instance: dg.DagsterInstance
) -> None:
    resource = audit_resource(tmp_path, landing)
    check_keys = [k for c in freshness_checks for k in c.check_keys]

    def evaluate() -> bool:
        result = dg.materialize([*night_assets, *freshness_checks], instance=instance, resources={"audit": resource},
                                selection=dg.AssetSelection.checks(*check_keys), raise_on_error=False)
        return all(e.passed for e in result.get_asset_check_evaluations())

    assert not evaluate()  # never published: overdue
    assert _build(instance, resource, DAY1).success and _night(instance, resource).success
    assert evaluate()


@pytest.mark.parametrize("shards", [1, 3])
def test_the_cli_plan_matches_the_sensors_shards(tmp_path: Path, landing: Path, shards: int) -> None:
    """``floorman audit LANDING --shards k`` builds the partitions the landing sensor would launch."""
    from pipelines.audit import plan_partitions
    from pipelines.defs.automation import landing_state

    plan = plan_partitions([landing], None, shards)
    state = landing_state(AuditResource(landing=str(landing), shards=shards), [DAY1, DAY2])
    assert {(d, s) for d, s, _ in state.values()} == set(plan)
    for (day, shard), files in plan.items():
        assert files == [str(f) for f in steps.landing_files(landing, day, shard, shards)]
