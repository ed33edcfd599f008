"""Replay + all checks rate beside pokerkit's strict replay rate, on the same Pluribus PHH hands.

Run: .venv/bin/python bench/replay.py [N_HANDS]   (needs ../shared/data/hands; single process)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.check import check_hand  # noqa: E402
from rules.profiles import load_profile  # noqa: E402
from tests.conftest import HANDS  # noqa: E402
from tests.rules.phh import phh_to_hand  # noqa: E402


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    files = sorted((HANDS / "phh_pokerkit_history" / "data" / "pluribus").rglob("*.phh"))[:n]
    hands = [phh_to_hand(p) for p in files]
    texts = [Path(p).read_text(encoding="utf-8") for p in files]
    prof = load_profile("online-standard")
    reps = max(1, 20000 // max(len(hands), 1))
    t0 = time.perf_counter()
    for _ in range(reps):
        for h in hands:
            check_hand(h, prof)
    ours = reps * len(hands) / (time.perf_counter() - t0)

    from pokerkit import HandHistory
    from pokerkit.notation import parse_action

    parsed = [HandHistory.loads(t) for t in texts]
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


if __name__ == "__main__":
    main()
