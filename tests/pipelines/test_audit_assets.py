"""The nightly audit's Dagster assets, materialised in-process on a temporary warehouse."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from pipelines.defs.audit import night_assets, partition_assets
from pipelines.resources import AuditResource
from tests.conftest import real_data

STARS = ("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop")
DAY1, DAY2 = "2026-11-28", "2026-11-29"
FILES = {
    DAY1: ["NLHE-FR-USD-0.01-0.02-201005.microgrind.txt", "NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt"],
    DAY2: ["PLO-FR-USD-0.01-0.02-201006.sidepots.txt", "NLHE-6max-USD-0.05-0.10-200912.Allin-pre.txt"],
}


@pytest.fixture
def landing(tmp_path: Path) -> Path:
    root = tmp_path / "landing"
    for day, names in FILES.items():
        (root / day).mkdir(parents=True)
        for name in names:
            shutil.copy(real_data(*STARS, name), root / day / name)
    return root


def _resource(tmp_path: Path, landing: Path) -> AuditResource:
    return AuditResource(landing=str(landing), work=str(tmp_path / "work"))


def _night(resource: AuditResource, days: list[str]) -> None:
    for day in days:
        assert dg.materialize(partition_assets, partition_key=day, resources={"audit": resource}).success
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
    assert defs.resolve_schedule_def("audit_partition_job_schedule") is not None
    assert defs.resolve_sensor_def("landing_sensor") is not None


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
    assert (resource.serve_root / "CURRENT").exists()

    # re-running a partition and the night gives identical results
    _night(resource, [DAY1])
    assert _digest(part1, "hands", "hand_id") == hands1
    assert _digest(part1, "actions", "hand_id, seq") == actions1
    assert _digest(resource.build_db, "hands", "hand_id") == combined
    violations_order = "hand_id, action_seq, rule_id, message"
    a = _digest(part1, "violations", violations_order)
    s = _digest(part1, "action_states", "hand_id, seq")
    _night(resource, [DAY1])
    assert _digest(part1, "violations", violations_order) == a
    assert _digest(part1, "action_states", "hand_id, seq") == s


def test_corrupt_file_is_quarantined_and_the_night_succeeds(tmp_path: Path, landing: Path) -> None:
    src = (landing / DAY1 / FILES[DAY1][0]).read_bytes()
    (landing / DAY1 / "corrupt.txt").write_bytes(src[: len(src) // 3] + b"\n*** HOLE CARDS ***\nDealt to ???\n")
    resource = _resource(tmp_path, landing)
    _night(resource, [DAY1])
    report = _report(resource.build_db)
    assert report["quarantined"] >= 1
    assert any(f.endswith("corrupt.txt") for f in report["quarantined_files"])
    assert report["hands"] > 0


def test_failed_check_is_visible_in_the_run_report(tmp_path: Path, landing: Path) -> None:
    # a file where most hands are cut short: the parse-rate check must fail, and say so
    src = (landing / DAY2 / FILES[DAY2][0]).read_text(encoding="utf-8", errors="replace")
    blocks = [b for b in src.replace("\r\n", "\n").split("\n\n\n") if b.strip()]
    broken = "\n\n\n".join(b[: len(b) // 2] for b in blocks)
    for name in FILES[DAY2]:
        (landing / DAY2 / name).unlink()
    (landing / DAY2 / "broken.txt").write_text(broken, encoding="utf-8")
    resource = _resource(tmp_path, landing)
    _night(resource, [DAY2])
    checks = {c["name"]: c for c in _report(resource.build_db)["checks"]}
    assert checks[f"parse_rate[{DAY2}]"]["passed"] is False
    assert "quarantined" in checks[f"parse_rate[{DAY2}]"]["detail"]


def test_landing_sensor_requests_changed_days_once(
    tmp_path: Path, landing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipelines.defs.automation import landing_sensor

    monkeypatch.setenv("FLOORMAN_LANDING", str(landing))
    with dg.instance_for_test() as instance:
        ctx = dg.build_sensor_context(instance=instance)
        result = landing_sensor(ctx)
        assert isinstance(result, dg.SensorResult)
        assert sorted(r.partition_key for r in result.run_requests or []) == [DAY1, DAY2]
        ctx2 = dg.build_sensor_context(instance=instance, cursor=result.cursor)
        assert isinstance(landing_sensor(ctx2), dg.SkipReason)
        (landing / DAY2 / "late.txt").write_bytes((landing / DAY2 / FILES[DAY2][0]).read_bytes())
        result3 = landing_sensor(dg.build_sensor_context(instance=instance, cursor=result.cursor))
        assert isinstance(result3, dg.SensorResult)
        assert [r.partition_key for r in result3.run_requests or []] == [DAY2]


def test_fanout_night_runs_partitions_in_separate_worker_processes(tmp_path: Path, landing: Path) -> None:
    """A real multi-worker run: Dagster's multiprocess executor builds each partition in its own process."""
    import os

    from pipelines.audit import run_audit

    result = run_audit([landing], tmp_path / "w.duckdb", work=tmp_path / "work", workers=2)
    assert sorted(result.worker_pids) == ["2026-11-28", "2026-11-29"]
    pids = set(result.worker_pids.values())
    assert len(pids) == 2 and os.getpid() not in pids
    assert {"finish: combine", "finish: detect", "finish: summaries"} <= set(result.timings)
    assert result.report["hands"] == _digest(tmp_path / "w.duckdb", "hands", "hand_id")[0] > 0
    assert result.snapshot.exists()
