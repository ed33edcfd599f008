"""The nightly audit's Dagster assets, materialised in-process on a temporary warehouse."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import dagster as dg
import duckdb

from pipelines.defs.audit import night_assets, partition_assets
from pipelines.partitions import partition_key
from pipelines.resources import AuditResource
from tests.conftest import real_data
from tests.pipelines.conftest import DAY1, DAY2, FILES, STARS, break_day


def _resource(tmp_path: Path, landing: Path) -> AuditResource:
    return AuditResource(landing=str(landing), work=str(tmp_path / "work"))


def _night(resource: AuditResource, days: list[str]) -> None:
    for day in days:
        assert dg.materialize(partition_assets, partition_key=partition_key(day), resources={"audit": resource}).success
    assert dg.materialize(night_assets, resources={"audit": resource}).success


#: run bookkeeping that legitimately differs between runs (everything else must be identical)
VOLATILE = {"run_id", "checked_at", "ingested_at", "quarantined_at", "created_at"}


def _digest(db: Path, table: str, order: str) -> tuple[int, str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        cols = [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall() if r[0] not in VOLATILE]
        row = con.execute(
            f"SELECT count(*), md5(string_agg(({', '.join(cols)})::VARCHAR, '|' ORDER BY {order})) FROM {table}"
        ).fetchone()
    finally:
        con.close()
    assert row is not None
    return int(row[0]), str(row[1])


def _report(db: Path) -> dict:
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute("SELECT report FROM run_reports ORDER BY finished_at DESC LIMIT 1").fetchone()
    finally:
        con.close()
    assert row is not None
    return json.loads(row[0])


def test_definitions_load() -> None:
    from pipelines.definitions import defs

    keys = {k.to_user_string() for k in defs.resolve_asset_graph().get_all_asset_keys()}
    assert {"partition_hands", "partition_rule_findings", "warehouse", "collusion_flags", "run_report",
            "published_snapshot"} <= keys
    assert {j.name for j in defs.resolve_all_job_defs()} >= {"audit_partition_job", "audit_night_job"}
    repo = defs.get_repository_def()
    # on by default: a fresh deployment audits without anyone switching the automation on
    assert repo.get_schedule_def("nightly_schedule").default_status == dg.DefaultScheduleStatus.RUNNING
    sensors = {s.name: s for s in repo.sensor_defs}
    assert set(sensors) == {"landing_sensor", "night_automation", "freshness_checks_sensor", "run_failure_alert"}
    assert all(s.default_status == dg.DefaultSensorStatus.RUNNING for s in sensors.values())
    # the partition builds and the warehouse writers are in their pools, every step retries
    for asset in partition_assets:
        assert asset.op.pool == "partitions" and asset.op.retry_policy is not None
    for asset in night_assets:
        assert asset.op.pool == "warehouse" and asset.op.retry_policy is not None
    specs = {s.name: s for a in partition_assets for s in a.check_specs}
    assert specs["parse_rate"].blocking and not specs["unreconciled_hands"].blocking
    checks = {k.name for k in defs.resolve_asset_graph().asset_check_keys}
    assert any("freshness" in name for name in checks)
    # folders come from the environment when a run starts, not at import
    audit = defs.resources["audit"]
    assert isinstance(audit, AuditResource)
    assert audit.landing == dg.EnvVar("FLOORMAN_LANDING") and audit.work == dg.EnvVar("FLOORMAN_WORK")


def test_two_partitions_materialise_and_rerun_is_identical(tmp_path: Path, landing: Path) -> None:
    resource = _resource(tmp_path, landing)
    _night(resource, [DAY1, DAY2])
    work = resource.work_dir
    part1 = work / "parts" / f"{DAY1}.duckdb"
    hands1 = _digest(part1, "hands", "hand_id")
    actions1 = _digest(part1, "actions", "hand_id, seq")
    combined = _digest(resource.build_db, "hands", "hand_id")
    hands2 = _digest(work / "parts" / f"{DAY2}.duckdb", "hands", "hand_id")
    assert hands1[0] > 0 and combined[0] == hands1[0] + hands2[0]
    report = _report(resource.build_db)
    assert report["hands"] == combined[0]
    assert report["new_hands"] == combined[0]  # a first night: every hand is new
    assert (resource.serve_root / "CURRENT").exists()

    # re-running a partition and the night gives identical results, and no hand is new again
    _night(resource, [DAY1])
    assert _report(resource.build_db)["new_hands"] == 0
    assert _digest(part1, "hands", "hand_id") == hands1
    assert _digest(part1, "actions", "hand_id, seq") == actions1
    assert _digest(resource.build_db, "hands", "hand_id") == combined
    violations_order = "hand_id, action_seq, rule_id, message"
    a = _digest(part1, "violations", violations_order)
    s = _digest(part1, "action_states", "hand_id, seq")
    _night(resource, [DAY1])
    assert _digest(part1, "violations", violations_order) == a
    assert _digest(part1, "action_states", "hand_id, seq") == s

    # a file landing late for a day already audited: only its hands are new
    shutil.copy(real_data(*STARS, "2025-NL-uncalled-bet.txt"), landing / DAY2)
    _night(resource, [DAY2])
    after = _report(resource.build_db)
    assert after["hands"] > combined[0] and after["new_hands"] == after["hands"] - combined[0]

    # the late file withdrawn and another landed instead: its hands are new, the withdrawn ones are gone
    (landing / DAY2 / "2025-NL-uncalled-bet.txt").unlink()
    shutil.copy(real_data(*STARS, "NLHE-2max-USD-0.25-0.50-201005.Hitnrun.txt"), landing / DAY2 / "swap.txt")
    _night(resource, [DAY2])
    swapped = _report(resource.build_db)
    assert swapped["new_hands"] == swapped["hands"] - combined[0] > 0


def test_corrupt_file_is_quarantined_and_the_night_succeeds(
    tmp_path: Path, landing: Path, simulated_night: Path
) -> None:
    # one corrupt hand among ~1,000 keeps the day above the blocking parse-rate threshold (99.5%)
    shutil.copytree(simulated_night, landing / DAY1 / "simulated")
    src = (landing / DAY1 / FILES[DAY1][0]).read_bytes()
    (landing / DAY1 / "corrupt.txt").write_bytes(src[: len(src) // 3] + b"\n*** HOLE CARDS ***\nDealt to ???\n")
    resource = _resource(tmp_path, landing)
    _night(resource, [DAY1])
    report = _report(resource.build_db)
    assert report["quarantined"] >= 1
    assert any(f.endswith("corrupt.txt") for f in report["quarantined_files"])
    assert report["hands"] > 0


def test_failed_check_is_visible_in_the_run_report(tmp_path: Path, landing: Path) -> None:
    # a day where most hands are cut short: its blocking parse-rate check fails, the partition
    # is not published, and the night (built from the other day) says so in its report
    break_day(landing, DAY2)
    resource = _resource(tmp_path, landing)
    assert dg.materialize(partition_assets, partition_key=partition_key(DAY1), resources={"audit": resource}).success
    broken = dg.materialize(partition_assets, partition_key=partition_key(DAY2), resources={"audit": resource},
                            raise_on_error=False)
    assert not broken.success
    assert dg.materialize(night_assets, resources={"audit": resource}).success
    checks = {c["name"]: c for c in _report(resource.build_db)["checks"]}
    assert checks[f"parse_rate[{DAY2}]"]["passed"] is False
    assert checks[f"parse_rate[{DAY2}]"]["severity"] == "error"
    assert "quarantined" in checks[f"parse_rate[{DAY2}]"]["detail"]


def test_landing_sensor_requests_changed_days_once(tmp_path: Path, landing: Path) -> None:
    from pipelines.defs.automation import landing_sensor

    resources = {"audit": _resource(tmp_path, landing)}
    with dg.instance_for_test() as instance:
        result = landing_sensor(dg.build_sensor_context(instance=instance, resources=resources))
        assert isinstance(result, dg.SensorResult)
        assert sorted(str(r.partition_key) for r in result.run_requests or []) == [f"{DAY1}|0", f"{DAY2}|0"]
        again = landing_sensor(dg.build_sensor_context(instance=instance, cursor=result.cursor, resources=resources))
        assert isinstance(again, dg.SensorResult) and not again.run_requests
        (landing / DAY2 / "late.txt").write_bytes((landing / DAY2 / FILES[DAY2][0]).read_bytes())
        result3 = landing_sensor(dg.build_sensor_context(instance=instance, cursor=result.cursor, resources=resources))
        assert isinstance(result3, dg.SensorResult)
        assert [str(r.partition_key) for r in result3.run_requests or []] == [f"{DAY2}|0"]
