"""``python -m simulator.rival --out DIR --truth FILE ...``: one room from the command line."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from simulator.rival.generate import generate


def main(argv: list[str] | None = None) -> int:
    """Parse the options and generate one room."""
    ap = argparse.ArgumentParser(prog="python -m simulator.rival", description=__doc__)
    ap.add_argument("--out", required=True, type=Path, help="folder for the hand-history files")
    ap.add_argument("--truth", required=True, type=Path, help="ground-truth JSON file")
    ap.add_argument("--hands", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--intensity", type=float, default=0.5)
    ap.add_argument("--players", type=int, default=400)
    ap.add_argument("--player-view", action="store_true", help="no 'Dealt to' lines (cards only at showdown)")
    args = ap.parse_args(argv)
    began = time.perf_counter()
    generate(args.out, args.truth, hands=args.hands, seed=args.seed, intensity=args.intensity,
             operator_mode=not args.player_view, players=args.players)
    print(f"wrote {args.hands:,} hands to {args.out} in {time.perf_counter() - began:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
