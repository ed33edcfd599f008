"""``make demo``: a believable night end to end, then the dashboard.

1. Simulate a night of multi-table cash games with injected collusion (operator mode), landed in
   ``<dir>/landing/<night>/``, beside the real public sample from ``../shared/data/hands``.
2. Run the nightly audit in-process (the same Dagster assets as the schedule).
3. Print the run report and how the detectors scored against the simulator's truth.
4. Create demo users and serve the dashboard on the published snapshot (skipped with --no-serve).

Dagster logs at INFO (``--log-level DEBUG`` for every step event); checks that did not pass are
printed in the run summary as ``CHECK FAILED <asset> <check>: ...`` (blocking: the partition was
left out) or ``CHECK WARNING ...`` (published anyway, for a look).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from pipelines.audit import default_partition, run_audit
from pipelines.cli_audit import LOG_LEVELS, print_report

ROOT = Path(__file__).resolve().parents[1]
SHARED_HANDS = Path(os.environ.get("FLOORMAN_SHARED", ROOT.parent / "shared")) / "data" / "hands"
DEMO_USERS = {"admin": ("admin", "floorman-admin"), "reviewer": ("reviewer", "floorman-review"),
              "viewer": ("viewer", "floorman-view")}


def simulate_night(out: Path, truth: Path, hands: int, seed: int) -> None:
    if truth.exists() and any(out.rglob("*.txt")):
        print(f"simulated night already at {out} (delete it to regenerate)")
        return
    from pipelines.cli import EXIT_INTERRUPTED
    from pipelines.cli import main as floorman

    code = floorman(["simulate", "--hands", str(hands), "--seed", str(seed), "--out", str(out),
                     "--truth", str(truth), "--operator-mode"])
    if code == EXIT_INTERRUPTED:
        raise SystemExit(code)  # Ctrl-C: the CLI has already said "interrupted"
    if code:
        raise SystemExit(f"simulation failed with exit code {code}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dir", default="var/demo")
    parser.add_argument("--hands", type=int, default=int(os.environ.get("FLOORMAN_DEMO_HANDS", "30000")))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--port", type=int, default=8501)
    parser.add_argument("--no-serve", action="store_true", help="stop after the audit (CI, scripts)")
    parser.add_argument("--log-level", default="INFO", type=str.upper, choices=LOG_LEVELS,
                        help="Dagster console log level (DEBUG shows every step event)")
    args = parser.parse_args(argv)

    base = Path(args.dir)
    night = default_partition()
    landing = base / "landing" / night
    truth = base / "truth.json"
    print(f"== 1. simulating {args.hands:,} hands of {night} with injected collusion -> {landing}")
    simulate_night(landing / "simulated", truth, args.hands, args.seed)
    inputs = [str(landing)]
    if SHARED_HANDS.exists():
        print(f"   and the real public sample from {SHARED_HANDS}")
        inputs.append(str(SHARED_HANDS))
    else:
        print(f"   (real sample not found at {SHARED_HANDS}: simulated night only)")

    db = base / "warehouse.duckdb"
    print("== 2. nightly audit (ingest, rule check, detect, report, publish)")
    result = run_audit(inputs, db, work=base / "work", partition=night, log_level=args.log_level)
    print_report(result.report, result.timings)

    print("== 3. detectors against the simulator's truth")
    try:
        from detectors.api import evaluate_warehouse

        if result.snapshot is None:
            raise FileNotFoundError("the night published no snapshot (no partition passed its checks)")
        scores = evaluate_warehouse(result.snapshot, truth)
        print("   " + ", ".join(f"{k} {v:.3f}" for k, v in scores.items() if isinstance(v, float)))
    except Exception as exc:
        print(f"   evaluation unavailable: {exc}")

    print("== 4. dashboard")
    users_file = base / "users.json"
    from dashboards.auth import ensure_user

    for role, (name, password) in DEMO_USERS.items():
        ensure_user(users_file, name, password, role)
    print("   demo logins: " + ", ".join(f"{n} / {p} ({r})" for r, (n, p) in DEMO_USERS.items()))
    if args.no_serve or os.environ.get("CI"):
        print(f"   not serving (--no-serve); run: floorman serve --root {base / 'published'}")
        return 0
    print(f"   open http://localhost:{args.port}  (Ctrl-C to stop)")
    from pipelines.cli import main as floorman

    return floorman(["serve", "--root", str(db.parent / "published"), "--users", str(users_file),
                     "--review-db", str(base / "review.sqlite"), "--port", str(args.port)])


if __name__ == "__main__":
    from pipelines.cli import interruptible

    raise SystemExit(interruptible(main))  # Ctrl-C: one line and exit 130, as in the CLI
