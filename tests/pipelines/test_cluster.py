"""The distributed deployment: its pieces here, the whole of it (`make cluster-test`) only on demand.

The whole test starts PostgreSQL, Redis, a code server, the daemon and Celery workers and takes
minutes, so it runs only with FLOORMAN_CLUSTER=1. The unit tests need no service.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import duckdb
import pytest

from pipelines.cluster import compare
from pipelines.cluster.night import proof_ok

ROOT = Path(__file__).resolve().parents[2]


def _warehouse(path: Path, rows: list[tuple[str, str, float]]) -> Path:
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE hands (hand_id VARCHAR, run_id VARCHAR, score DOUBLE)")
    con.executemany("INSERT INTO hands VALUES (?, ?, ?)", rows)
    con.close()
    return path


def test_same_rows_in_another_order_and_run_are_equal(tmp_path: Path) -> None:
    a = compare.digest(_warehouse(tmp_path / "a.duckdb", [("h1", "run-1", 0.5), ("h2", "run-1", 1 / 3)]))
    b = compare.digest(_warehouse(tmp_path / "b.duckdb", [("h2", "run-9", 1 / 3 + 1e-13), ("h1", "run-9", 0.5)]))
    assert compare.differing(a, b) == []
    assert a["hands"] == compare.TableDigest(2, a["hands"].sha256)  # type: ignore[union-attr]
    assert a["flags"] is None  # a table neither side has is missing on both: equal
    assert compare.headline(a, b).startswith("EQUAL")


def test_a_changed_or_missing_row_is_different(tmp_path: Path) -> None:
    a = compare.digest(_warehouse(tmp_path / "a.duckdb", [("h1", "r", 0.5), ("h2", "r", 0.25)]))
    b = compare.digest(_warehouse(tmp_path / "b.duckdb", [("h1", "r", 0.5), ("h2", "r", 0.26)]))
    c = compare.digest(_warehouse(tmp_path / "c.duckdb", [("h1", "r", 0.5)]))
    assert compare.differing(a, b) == ["hands"]
    assert compare.differing(a, c) == ["hands"]
    assert compare.headline(a, c).startswith("DIFFERENT in hands")


def test_the_proof_needs_a_kill_and_a_rerun_elsewhere() -> None:
    kill = {"worker": "w1@host", "pid": 1, "run_id": "r", "partition": "2026-11-21|0", "step": "partition_hands",
            "at": 0.0}
    assert proof_ok({})[0] is False
    assert proof_ok({"killed": kill, "rerun_on": None})[0] is False
    ok, why = proof_ok({"killed": kill, "rerun_on": "w2@host"})
    assert ok
    assert why == "w1 SIGKILLed holding partition_hands of 2026-11-21|0, re-run on w2"


def test_every_job_of_the_cluster_location_runs_on_celery(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("dagster_celery")
    from pipelines.cluster.definitions import base_definitions, cluster_definitions

    base = base_definitions()
    repo = cluster_definitions(base, automation=True).get_repository_def()
    assert {j.executor_def.name for j in repo.get_all_jobs()} == {"floorman_celery"}
    assert len(repo.schedule_defs) == len(base.schedules or [])
    quiet = cluster_definitions(base, automation=False).get_repository_def()
    assert not quiet.schedule_defs
    # what is left is the automation-condition sensor Dagster adds by itself (the test instance turns
    # the daemon's automation off: scripts/cluster_test.sh)
    assert all(s.name.startswith("default_automation_condition_sensor") for s in quiet.sensor_defs)


def test_workers_acknowledge_late() -> None:
    pytest.importorskip("dagster_celery")
    from pipelines.cluster import settings

    conf = settings.celery_config()
    assert conf["task_acks_late"] and conf["task_reject_on_worker_lost"]
    assert conf["worker_prefetch_multiplier"] == 1
    assert conf["broker_transport_options"]["visibility_timeout"] == settings.visibility_timeout()


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("FLOORMAN_CLUSTER") != "1", reason="starts services for minutes: FLOORMAN_CLUSTER=1")
def test_make_cluster_test() -> None:
    done = subprocess.run(["bash", str(ROOT / "scripts" / "cluster_test.sh")], cwd=ROOT, capture_output=True,
                          text=True, timeout=1800, check=False)
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert last.startswith("cluster-test PASS: EQUAL"), last
