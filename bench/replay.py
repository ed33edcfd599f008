"""Replay + all checks rate beside pokerkit's strict replay rate, on the same Pluribus PHH hands.

Run: .venv/bin/python bench/replay.py [N_HANDS] [--warehouse DB]   (needs ../shared/data/hands; one process)

Both replay loops run with the cyclic garbage collector paused, as ``floorman check`` runs its
batches (``rules.gcpause``). With ``--warehouse`` the end-to-end ``floorman check`` path (bulk
load from DuckDB, check, write action_states and violations) is also timed on a copy of DB.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipelines.cli_rules import run_check  # noqa: E402
from rules.check import check_hand  # noqa: E402
from rules.gcpause import paused_gc  # noqa: E402
from rules.profiles import load_profile  # noqa: E402
from tests.conftest import HANDS  # noqa: E402
from tests.rules.phh import phh_to_hand  # noqa: E402


def warehouse_rate(db: Path) -> None:
    """``floorman check`` end to end on a copy of ``db`` (the copy is not timed)."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "w.duckdb"
        shutil.copy(db, work)
        t0 = time.perf_counter()
        summary = run_check(str(work), None)
        secs = time.perf_counter() - t0
    hands = summary["hands"]
    print(f"floorman check (load + check + write) on {db.name}: {hands:,} hands, {summary['action_states']:,} states,"
          f" {summary['findings']:,} findings in {secs:.1f} s = {hands / secs:,.0f} hands/s (1 process)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n_hands", nargs="?", type=int, default=1000)
    ap.add_argument("--warehouse", type=Path, help="also time floorman check on a copy of this warehouse")
    args = ap.parse_args()
    files = sorted((HANDS / "phh_pokerkit_history" / "data" / "pluribus").rglob("*.phh"))[: args.n_hands]
    hands = [phh_to_hand(p) for p in files]
    texts = [Path(p).read_text(encoding="utf-8") for p in files]
    prof = load_profile("online-standard")
    reps = max(1, 20000 // max(len(hands), 1))
    with paused_gc():
        t0 = time.perf_counter()
        for _ in range(reps):
            for h in hands:
                check_hand(h, prof)
        ours = reps * len(hands) / (time.perf_counter() - t0)

    from pokerkit import HandHistory
    from pokerkit.notation import parse_action

    parsed = [HandHistory.loads(t) for t in texts]
    with paused_gc():
        t0 = time.perf_counter()
        for hh in parsed:
            st = hh.create_state()
            for a in hh.actions:
                if st.can_burn_card():
                    st.burn_card("??")
                parse_action(st, a)
        theirs = len(parsed) / (time.perf_counter() - t0)
    print(f"hands: {len(hands)} Pluribus PHH (6-max NLHE, all hole cards, showdowns evaluated)")
    print(f"floorman replay + all checks : {ours:>10,.0f} hands/s (1 core)")
    print(f"pokerkit strict replay       : {theirs:>10,.0f} hands/s (1 core)")
    print(f"ratio                        : {ours / theirs:>10,.1f}x")
    if args.warehouse:
        warehouse_rate(args.warehouse)


if __name__ == "__main__":
    main()
