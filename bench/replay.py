"""Replay + all checks rate beside pokerkit's strict replay rate, on the same Pluribus PHH hands.

Run: .venv/bin/python bench/replay.py [N_HANDS] [--warehouse DB [--repeat N]] [--no-compile-probe]
(needs ../shared/data/hands; one process, one core for the checker)

What is timed, on the same hands in one run:

* floorman fast path (``rules.columnar`` + ``rules.kernel``): the hands sit in a DuckDB warehouse
  (in memory, built untimed from the parsed hands, as ``floorman check`` finds them); timed are the
  bulk load (DuckDB → Arrow, ``rules.store.column_windows``, every column) and,
  separately, the replay + ALL checks: kernel, the Python engine for every hand the kernel marks
  (their ``Hand`` objects are rebuilt inside the timed region), the cross-hand checks and the
  action_states Arrow table. With ``--warehouse``: ``floorman check`` as a whole process.
* the Python engine alone (``rules.check.check_hand`` on ready ``Hand`` objects), for reference.
* pokerkit's strict replay of the same PHH hands.

The numba kernel is compiled once and cached on disk (``cache=True``, rules/__pycache__); the rates
exclude compilation, which is measured separately in a fresh process with an empty cache.
All loops run with the cyclic garbage collector paused, as ``floorman check`` runs its batches.
CPU seconds (process time) are printed beside wall time: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import duckdb  # noqa: E402

from parsers.model import Hand  # noqa: E402
from rules.check import check_hand  # noqa: E402
from rules.columnar import check_columnar  # noqa: E402
from rules.gcpause import paused_gc  # noqa: E402
from rules.profiles import load_mapping, load_profile  # noqa: E402
from rules.runner import DUCKDB_THREADS  # noqa: E402
from rules.store import DEFAULT_BATCH, column_windows  # noqa: E402
from tests.conftest import HANDS  # noqa: E402
from tests.rules.phh import phh_to_hand  # noqa: E402
from warehouse.db import connect  # noqa: E402
from warehouse.frames import hands_to_frames  # noqa: E402

_PROBE = """
import importlib.util, sys, time
sys.path.insert(0, '.')
spec = importlib.util.spec_from_file_location('bench_replay', 'bench/replay.py')
br = importlib.util.module_from_spec(spec)
spec.loader.exec_module(br)
con = br._warehouse(br._hands(2))
from rules.store import column_windows
from rules.columnar import check_columnar
t = time.perf_counter()
list(check_columnar(column_windows(con, 20000), rulebook='online-standard'))
print(time.perf_counter() - t)
"""


def _hands(n: int) -> tuple[list[Hand], list[Path]]:
    files = sorted((HANDS / "phh_pokerkit_history" / "data" / "pluribus").rglob("*.phh"))[:n]
    return [phh_to_hand(p) for p in files], files


def _warehouse(parsed: tuple[list[Hand], list[Path]]) -> duckdb.DuckDBPyConnection:
    """An in-memory warehouse holding the hands (the warehouse's own schema and frames), then set as
    ``floorman check`` sets its connection (DuckDB threads), so the timed load is the CLI's load."""
    hands, _files = parsed
    con = connect(":memory:")
    frames = hands_to_frames(hands)
    for name, frame in frames.tables.items():
        con.register("_f", frame.to_arrow())
        con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM _f")
        con.unregister("_f")
    con.execute(f"SET threads = {DUCKDB_THREADS}")
    return con


class _Clock:
    wall = cpu = 0.0

    def __enter__(self) -> _Clock:
        self.w, self.c = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self.w, time.process_time() - self.c


def fast_rates(con: duckdb.DuckDBPyConnection, n: int, reps: int) -> tuple[float, float, float, float, float, int]:
    """(load hands/s wall, load hands/s cpu, check hands/s wall, check hands/s cpu, load+check hands/s cpu,
    fallback hands). The load reads through a cursor with the CLI's batch size, as ``floorman check``."""
    pmap = load_mapping()
    load_w = load_c = chk_w = chk_c = 0.0
    fallback = 0
    with paused_gc():
        for _ in range(reps):
            with _Clock() as t_load:
                windows = list(column_windows(con.cursor(), DEFAULT_BATCH))
            with _Clock() as t_chk:
                done = list(check_columnar(windows, rulebook="online-standard", mapping=pmap))
            load_w += t_load.wall
            load_c += t_load.cpu
            chk_w += t_chk.wall
            chk_c += t_chk.cpu
            fallback = sum(b.fallback for b in done)
    total = n * reps
    return total / load_w, total / load_c, total / chk_w, total / chk_c, total / (load_c + chk_c), fallback


def compile_seconds() -> float:
    """Cold numba compile + first call, in a fresh process with an empty cache directory."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        out = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                             check=True)
    return float(out.stdout.strip().splitlines()[-1])


def warehouse_rate(db: Path, repeat: int) -> None:
    """``floorman check`` as a whole process (start-up, load, check, write, cross-hand and record
    passes) on a fresh copy of ``db`` per run (the copy is not timed); ``repeat`` runs, each line
    printed, then best and median. CPU is the child's user + system time (the machine is shared)."""
    walls: list[float] = []
    cpus: list[float] = []
    summary: dict[str, object] = {}
    for _ in range(max(1, repeat)):
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp) / "w.duckdb"
            shutil.copy(db, work)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "pipelines.cli", "check", "--db", str(work), "--json"],
                                 cwd=ROOT, capture_output=True, text=True, check=True)
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        summary = json.loads(out.stdout.strip().splitlines()[-1])
        walls.append(wall)
        cpus.append(cpu)
        print(f"  floorman check run: {wall:.1f} s wall, {cpu:.1f} s cpu", flush=True)
    hands = int(str(summary["hands"]))
    print(f"floorman check, whole process, on {db.name}: {hands:,} hands, {summary['action_states']:,} states,"
          f" {summary['findings']:,} findings; {len(walls)} runs: best {hands / min(walls):,.0f} hands/s wall"
          f" (median {hands / statistics.median(walls):,.0f}), best {hands / min(cpus):,.0f} hands per cpu-second"
          f" (median {hands / statistics.median(cpus):,.0f})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n_hands", nargs="?", type=int, default=1000)
    ap.add_argument("--warehouse", type=Path, help="also time floorman check, a whole process, on copies of this")
    ap.add_argument("--repeat", type=int, default=3, help="runs of floorman check on --warehouse (best and median)")
    ap.add_argument("--no-compile-probe", action="store_true", help="skip the cold numba compile measurement")
    args = ap.parse_args()
    print("load average (1, 5, 15 min) at start: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()), flush=True)
    parsed = _hands(args.n_hands)
    hands, files = parsed
    n = len(hands)
    con = _warehouse(parsed)
    prof = load_profile("online-standard")
    list(check_columnar(column_windows(con, 20_000), rulebook="online-standard"))  # load the cached kernel
    reps = max(1, 50_000 // max(n, 1))
    load_rate, load_cpu_rate, chk_rate, chk_cpu_rate, all_cpu_rate, fallback = fast_rates(con, n, reps)

    py_reps = max(1, 5000 // max(n, 1))
    with paused_gc(), _Clock() as t_py:
        for _ in range(py_reps):
            for h in hands:
                check_hand(h, prof)
    py_rate = py_reps * n / t_py.wall

    from pokerkit import HandHistory
    from pokerkit.notation import parse_action

    texts = [Path(p).read_text(encoding="utf-8") for p in files]
    hhs = [HandHistory.loads(t) for t in texts]
    with paused_gc(), _Clock() as t_pk:
        for hh in hhs:
            st = hh.create_state()
            for a in hh.actions:
                if st.can_burn_card():
                    st.burn_card("??")
                parse_action(st, a)
    theirs = n / t_pk.wall
    print(f"hands: {n} Pluribus PHH (6-max NLHE, all hole cards, showdowns evaluated), rulebook online-standard")
    print(f"floorman replay + ALL checks (kernel + {fallback} fallback hands in Python): {chk_rate:>10,.0f} hands/s"
          f" wall, {chk_cpu_rate:,.0f} hands/s per cpu-second (1 core)")
    print(f"  bulk load DuckDB -> Arrow (not in the rate above)        : {load_rate:>10,.0f} hands/s wall,"
          f" {load_cpu_rate:,.0f} hands/s per cpu-s (DuckDB threads = {DUCKDB_THREADS}, as floorman check)")
    print(f"  load + replay + all checks                                : {all_cpu_rate:>10,.0f} hands/s per cpu-s")
    print(f"floorman Python engine alone (check_hand on Hand objects)   : {py_rate:>10,.0f} hands/s wall")
    print(f"pokerkit strict replay                                      : {theirs:>10,.0f} hands/s wall")
    print(f"ratio fast path / pokerkit                                  : {chk_rate / theirs:>10,.1f}x")
    if not args.no_compile_probe:
        print(f"numba cold compile + first call (fresh process, empty cache; cached on disk after): "
              f"{compile_seconds():.1f} s")
    if args.warehouse:
        warehouse_rate(args.warehouse, args.repeat)
    print("load average (1, 5, 15 min) at end: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
