"""``python -m simulator.outsider --out DIR --truth FILE``: write one room."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from simulator.outsider.room import generate


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and write the room, reporting how long it took."""
    ap = argparse.ArgumentParser(prog="python -m simulator.outsider", description=__doc__)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--truth", type=Path, required=True)
    ap.add_argument("--hands", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--intensity", type=float, default=0.5)
    ap.add_argument("--players", type=int, default=400)
    ap.add_argument("--player-view", action="store_true", help="no Dealt-to lines (a player's own view)")
    args = ap.parse_args(argv)
    began = time.perf_counter()
    generate(args.out, args.truth, hands=args.hands, seed=args.seed, intensity=args.intensity,
             operator_mode=not args.player_view, players=args.players)
    print(f"wrote {args.hands} hands to {args.out} in {time.perf_counter() - began:.1f}s")


if __name__ == "__main__":
    main()
