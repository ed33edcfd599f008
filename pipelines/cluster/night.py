"""Driver of ``make cluster-test`` (``scripts/cluster_test.sh`` starts and stops the services).

``simulate`` lands a small multi-day night; ``cluster`` runs it through the deployment (a backfill
of the partition job, then the night job, both queued on the PostgreSQL instance and launched by
the daemon, every step a Celery task) and SIGKILLs one worker while it holds a step; ``compare``
checks the cluster's warehouse against the single-process night's and prints the verdict last.

Why the proof reads the event log: "the night completed" is not enough, the killed worker must
have held a step that then ran again elsewhere. dagster-celery writes an engine event naming the
worker each time a worker starts a step, so the killed step shows two starts, on two workers.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

#: run tag marking the runs of one cluster night
NIGHT_TAG = "floorman/cluster-night"
#: how long the whole cluster night may take before the test gives up
NIGHT_TIMEOUT = 900.0
POLL = 0.25
#: metadata key of the engine event a Celery worker writes when it starts a step
CELERY_WORKER = "Celery worker"


# --------------------------------------------------------------------------- simulate


def simulate(landing: Path, days: Sequence[str], hands: int) -> None:
    """One simulated site export per day folder (same seed per day, same bytes every time)."""
    for i, day in enumerate(days):
        out = landing / day
        cmd = [sys.executable, "-m", "pipelines.cli", "simulate", "--hands", str(hands), "--seed", str(101 + i),
               "--out", str(out), "--truth", str(landing.parent / f"truth-{day}.json"), "--world", "classic",
               "--operator-mode", "--start", f"{day}T00:30"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


# --------------------------------------------------------------------------- the cluster night


@dataclass
class Attempt:
    worker: str
    at: float


@dataclass
class StepLog:
    """What the event log says about one step of one run."""

    attempts: list[Attempt] = field(default_factory=list)
    started: float | None = None
    finished: float | None = None
    outcome: str = ""  # "success" / "failure" once done


@dataclass
class Kill:
    worker: str
    pid: int
    run_id: str
    partition: str
    step: str
    at: float


def partition_keys(days: Sequence[str]) -> list[str]:
    """Partition keys of whole days, in whatever shape ``pipelines.partitions`` defines them."""
    from pipelines import partitions

    make = getattr(partitions, "partition_key", None)
    return [str(make(d, 0)) if make else d for d in days]


def job_names() -> tuple[str, str]:
    from pipelines.defs.automation import night_job, partition_job

    return partition_job.name, night_job.name


def wait_for_workers(n: int, timeout: float = 120.0) -> list[str]:
    """Hostnames of the Celery workers once ``n`` answer a ping."""
    from pipelines.cluster.worker import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        names = sorted(name for reply in app.control.ping(timeout=1.0) for name in reply)
        if len(names) >= n:
            return names
        time.sleep(0.5)
    raise TimeoutError(f"fewer than {n} Celery workers answered within {timeout:.0f} s")


def dagster_cli(*args: str) -> str:
    exe = Path(sys.executable).with_name("dagster")
    done = subprocess.run([str(exe), *args], check=True, capture_output=True, text=True)
    return done.stdout


def _step_logs(instance: Any, run_id: str) -> dict[str, StepLog]:
    from dagster import DagsterEventType as T

    kinds = {T.ENGINE_EVENT, T.STEP_START, T.STEP_SUCCESS, T.STEP_FAILURE}
    logs: dict[str, StepLog] = {}
    for rec in instance.get_records_for_run(run_id, of_type=kinds).records:
        entry = rec.event_log_entry
        event = entry.dagster_event
        if event is None or not entry.step_key:
            continue
        log = logs.setdefault(entry.step_key, StepLog())
        if event.event_type == T.ENGINE_EVENT:
            worker = (event.engine_event_data.metadata or {}).get(CELERY_WORKER)
            if worker is not None:  # "Executing steps ... in celery worker": a worker took the step
                log.attempts.append(Attempt(str(getattr(worker, "value", worker)), entry.timestamp))
        elif event.event_type == T.STEP_START:
            log.started = entry.timestamp
        elif event.event_type in {T.STEP_SUCCESS, T.STEP_FAILURE}:
            log.finished = entry.timestamp
            log.outcome = "success" if event.event_type == T.STEP_SUCCESS else "failure"
    return logs


def _runs(instance: Any, night: str) -> list[Any]:
    import dagster as dg

    return list(instance.get_run_records(filters=dg.RunsFilter(tags={NIGHT_TAG: night})))


def _pick_victim(instance: Any, records: list[Any], pids: dict[str, int]) -> Kill | None:
    """A worker that holds an unfinished step, once some step of the night has finished."""
    logs = {r.dagster_run.run_id: _step_logs(instance, r.dagster_run.run_id) for r in records}
    if not any(s.outcome for steps in logs.values() for s in steps.values()):
        return None  # not in the middle yet
    for rec in records:
        run = rec.dagster_run
        for step, log in logs[run.run_id].items():
            if log.attempts and not log.outcome:
                worker = log.attempts[-1].worker
                short = worker.split("@", 1)[0]
                if short in pids:
                    return Kill(worker, pids[short], run.run_id, run.tags.get("dagster/partition", ""), step,
                                time.time())
    return None


def _terminal(status: Any) -> bool:
    return status.value in {"SUCCESS", "FAILURE", "CANCELED"}


def wait_runs(instance: Any, night: str, expected: int, pids: dict[str, int], kill: Kill | None,
              deadline: float) -> tuple[list[Any], Kill | None]:
    """Poll the night's runs until ``expected`` runs succeeded (killing a worker on the way if
    ``kill`` is still to be done, i.e. None and pids given). Failed runs may be retried by the
    daemon (run_retries), so a failure only ends the wait once nothing is left running."""
    quiet_since: float | None = None
    while time.monotonic() < deadline:
        records = _runs(instance, night)
        if kill is None and pids:
            kill = _pick_victim(instance, [r for r in records if not _terminal(r.dagster_run.status)], pids)
            if kill is not None:
                os.kill(kill.pid, signal.SIGKILL)
                print(f"SIGKILL {kill.worker} (pid {kill.pid}) while it holds step {kill.step} "
                      f"of partition {kill.partition or '-'}", flush=True)
        ok = [r for r in records if r.dagster_run.status.value == "SUCCESS"]
        if len(ok) >= expected:
            return records, kill
        if records and all(_terminal(r.dagster_run.status) for r in records):
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since > 30:  # no retry came
                return records, kill
        else:
            quiet_since = None
        time.sleep(POLL)
    raise TimeoutError("the cluster night did not finish in time")


def run_cluster_night(days: Sequence[str], workspace: Path, pids: dict[str, int], kill_one: bool = True,
                      timeout: float = NIGHT_TIMEOUT) -> dict[str, Any]:
    """The night through the cluster; returns the facts the comparison (or the benchmark) prints.
    ``kill_one``: SIGKILL a worker holding a step (the test); off for a benchmark night."""
    from dagster import DagsterInstance

    t0 = time.monotonic()
    workers = wait_for_workers(len(pids))
    print(f"workers up: {', '.join(workers)}", flush=True)
    part_job, night_job = job_names()
    keys = partition_keys(days)
    night = uuid.uuid4().hex[:12]
    deadline = t0 + timeout
    with DagsterInstance.get() as instance:
        dagster_cli("job", "backfill", "-w", str(workspace), "-j", part_job, "--partitions", ",".join(keys),
                    "--noprompt", "--tags", json.dumps({NIGHT_TAG: night}))
        print(f"backfill of {part_job} submitted: {len(keys)} partitions", flush=True)
        records, kill = wait_runs(instance, night, len(keys), pids if kill_one else {}, None, deadline)
        t_parts = time.monotonic()
        print(f"partitions done in {t_parts - t0:.0f} s", flush=True)
        night_id = str(uuid.uuid4())
        dagster_cli("job", "launch", "-w", str(workspace), "-j", night_job, "--run-id", night_id,
                    "--tags", json.dumps({NIGHT_TAG: night}))
        print(f"{night_job} launched", flush=True)
        records, _ = wait_runs(instance, night, len(keys) + 1, {}, kill, deadline)
        wall = time.monotonic() - t0
        facts = _facts(instance, records, kill, wall, t_parts - t0, part_job)
        return {**facts, "worker_peak_rss_mb": peak_rss_mb(pids)}


def peak_rss_mb(pids: dict[str, int]) -> dict[str, int | None]:
    """Each worker's peak resident memory so far (VmHWM), in MB: with ``--pool solo`` every step a
    worker ran ran inside that process, so this bounds the memory one step needed. None for a
    worker that is gone (killed) or on a system without /proc."""
    out: dict[str, int | None] = {}
    for name, pid in pids.items():
        try:
            status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
        except OSError:
            out[name] = None
            continue
        kb = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), None)
        out[name] = kb // 1024 if kb is not None else None
    return out


def _facts(instance: Any, records: list[Any], kill: Kill | None, wall: float, parts_wall: float,
           part_job: str) -> dict[str, Any]:
    runs = []
    proof: dict[str, Any] = {"killed": asdict(kill) if kill else None, "rerun_on": None}
    for rec in sorted(records, key=lambda r: r.create_timestamp.timestamp()):
        run = rec.dagster_run
        logs = _step_logs(instance, run.run_id)
        seconds = (rec.end_time - rec.start_time) if rec.end_time and rec.start_time else None
        runs.append({"run_id": run.run_id, "job": run.job_name, "status": run.status.value,
                     "partition": run.tags.get("dagster/partition", ""), "seconds": seconds,
                     "retry_of": run.tags.get("dagster/parent_run_id"),
                     "steps": {k: {"workers": [a.worker for a in v.attempts], "outcome": v.outcome,
                                   "seconds": (v.finished - v.started) if v.finished and v.started else None}
                               for k, v in logs.items()}})
        if kill and run.run_id == kill.run_id:
            step = logs.get(kill.step)
            later = [a.worker for a in step.attempts if a.worker != kill.worker] if step else []
            if step and step.outcome == "success" and later:
                proof["rerun_on"] = later[-1]
    part_runs = [r for r in runs if r["job"] == part_job and r["status"] == "SUCCESS"]
    part_seconds = sorted(r["seconds"] for r in part_runs if r["seconds"])
    median = part_seconds[len(part_seconds) // 2] if part_seconds else None  # the killed one waits
    return {"wall_seconds": round(wall, 1), "partitions_wall_seconds": round(parts_wall, 1),
            "partition_run_seconds_median": round(median, 1) if median else None,
            "runs": runs, "retried_runs": sum(1 for r in runs if r["retry_of"]), **proof}


# --------------------------------------------------------------------------- compare


def proof_ok(facts: dict[str, Any]) -> tuple[bool, str]:
    """Whether a worker was killed holding a step that then succeeded on another worker."""
    kill = facts.get("killed")
    if not kill:
        return False, "no worker was killed while holding a step"
    short = kill["worker"].split("@", 1)[0]
    where = f"{kill['step']} of {kill['partition'] or 'the night'}"
    if not facts.get("rerun_on"):
        return False, f"{short} SIGKILLed holding {where}, but the step did not run again elsewhere"
    return True, f"{short} SIGKILLed holding {where}, re-run on {facts['rerun_on'].split('@', 1)[0]}"


def compare(single: Path, cluster: Path, facts_path: Path) -> int:
    from pipelines.cluster import compare as cmp

    facts = json.loads(facts_path.read_text(encoding="utf-8")) if facts_path.exists() else {}
    a = cmp.digest(single)
    b = cmp.digest(cluster) if cluster.exists() else dict.fromkeys(cmp.TABLES)
    print("warehouse tables, single-process night vs cluster night:")
    print("\n".join(cmp.report_lines(a, b)))
    for run in facts.get("runs", []):
        steps = ", ".join(f"{k} on {'→'.join(w.split('@', 1)[0] for w in v['workers']) or '?'}"
                          for k, v in run["steps"].items())
        secs = f"{run['seconds']:.1f} s" if run["seconds"] else "-"
        print(f"  run {run['run_id'][:8]} {run['job']} {run['partition'] or ''} {run['status']} {secs}: {steps}")
    if facts:
        median = facts.get("partition_run_seconds_median")
        print(f"cluster night {facts['wall_seconds']} s wall (partitions {facts['partitions_wall_seconds']} s, "
              f"median partition run {median} s), runs retried: {facts['retried_runs']}")
    proved, why = proof_ok(facts)
    same = not cmp.differing(a, b)
    verdict = "PASS" if same and proved else "FAIL"
    print(f"cluster-test {verdict}: {cmp.headline(a, b)}; {why}")
    return 0 if same and proved else 1


def bench_report(cluster: Path, facts_path: Path) -> int:
    """A benchmark night's figures: hands, wall time and its split, seconds per million hands and
    each worker's peak memory; the last line is the summary."""
    import duckdb

    facts = json.loads(facts_path.read_text(encoding="utf-8"))
    with duckdb.connect(str(cluster), read_only=True) as con:
        row = con.execute("SELECT count(*) FROM hands").fetchone()
    hands = int(row[0]) if row else 0
    failed = [r for r in facts["runs"] if r["status"] != "SUCCESS"]
    for run in facts["runs"]:
        steps = ", ".join(f"{k} {v['seconds']:.0f} s" for k, v in run["steps"].items() if v["seconds"])
        print(f"  {run['job']} {run['partition'] or ''} {run['status']} {run['seconds'] or 0:.0f} s: {steps}")
    wall, parts = facts["wall_seconds"], facts["partitions_wall_seconds"]
    rss = ", ".join(f"{k} {v} MB" for k, v in sorted(facts.get("worker_peak_rss_mb", {}).items()))
    per_million = wall / max(hands, 1) * 1e6
    print(f"cluster-bench {'PASS' if hands and not failed else 'FAIL'}: {hands:,} hands in {wall:.0f} s wall "
          f"({per_million:.0f} s per million hands; partitions {parts:.0f} s, night {wall - parts:.0f} s); "
          f"{len(facts['runs'])} runs, {len(failed)} not successful; worker peak RSS: {rss} "
          f"(DuckDB limit {os.environ.get('FLOORMAN_DUCKDB_MEMORY') or 'default'} each)")
    return 0 if hands and not failed else 1


# --------------------------------------------------------------------------- CLI


def _pids(text: str) -> dict[str, int]:
    """``w1=123,w2=456`` -> {"w1": 123, "w2": 456}"""
    return {name: int(pid) for name, _, pid in (p.partition("=") for p in text.split(",") if p)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pipelines.cluster.night", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("simulate")
    s.add_argument("--landing", type=Path, required=True)
    s.add_argument("--days", required=True, help="comma-separated YYYY-MM-DD")
    s.add_argument("--hands", type=int, default=3000, help="hands per day")
    c = sub.add_parser("cluster")
    c.add_argument("--days", required=True)
    c.add_argument("--workspace", type=Path, required=True)
    c.add_argument("--workers", type=_pids, required=True, help="name=pid,... of the Celery workers")
    c.add_argument("--out", type=Path, required=True, help="where the night's facts are written (JSON)")
    c.add_argument("--no-kill", dest="kill", action="store_false", help="kill no worker (a benchmark night)")
    c.add_argument("--timeout", type=float, default=NIGHT_TIMEOUT, help="seconds the whole night may take")
    b = sub.add_parser("bench")
    b.add_argument("--cluster", type=Path, required=True, help="the cluster night's warehouse")
    b.add_argument("--facts", type=Path, required=True)
    k = sub.add_parser("compare")
    k.add_argument("--single", type=Path, required=True)
    k.add_argument("--cluster", type=Path, required=True)
    k.add_argument("--facts", type=Path, required=True)
    args = p.parse_args(argv)
    if args.cmd == "simulate":
        simulate(args.landing, args.days.split(","), args.hands)
        return 0
    if args.cmd == "cluster":
        facts = run_cluster_night(args.days.split(","), args.workspace, args.workers, kill_one=args.kill,
                                  timeout=args.timeout)
        args.out.write_text(json.dumps(facts, indent=1, default=str), encoding="utf-8")
        return 0
    if args.cmd == "bench":
        return bench_report(args.cluster, args.facts)
    return compare(args.single, args.cluster, args.facts)


if __name__ == "__main__":
    sys.exit(main())
