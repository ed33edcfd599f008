"""``python -m simulator.indie --out DIR --truth FILE ...``: one room to disk."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import generate


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m simulator.indie", description=__doc__)
    ap.add_argument("--out", type=Path, required=True, help="folder for the hand-history files")
    ap.add_argument("--truth", type=Path, required=True, help="truth JSON to write")
    ap.add_argument("--hands", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--intensity", type=float, default=0.5)
    ap.add_argument("--players", type=int, default=400)
    ap.add_argument("--player-mode", action="store_true", help="player exports: only the hero's and shown cards")
    args = ap.parse_args(argv)
    generate(args.out, args.truth, hands=args.hands, seed=args.seed, intensity=args.intensity,
             operator_mode=not args.player_mode, players=args.players)


if __name__ == "__main__":
    main()
