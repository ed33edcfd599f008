"""Command line: ``python -m simulator.foreign --hands N --seed S --out DIR --truth PATH``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from simulator.foreign import FAMILIES, generate


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, generate the room, print a one-line summary."""
    ap = argparse.ArgumentParser(prog="python -m simulator.foreign", description=__doc__)
    ap.add_argument("--hands", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--intensity", type=float, default=0.5)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--truth", type=Path, required=True)
    ap.add_argument("--operator-mode", action="store_true", help="write every player's hole cards")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--teams", type=int, default=None)
    ap.add_argument("--families", default=None, help="comma-separated family names")
    args = ap.parse_args(argv)
    families = FAMILIES
    if args.families:
        families = tuple(f.strip() for f in args.families.split(",") if f.strip())
    result = generate(args.out, args.truth, hands=args.hands, seed=args.seed, intensity=args.intensity,
                      operator_mode=args.operator_mode, players=args.players, teams=args.teams, families=families)
    print(json.dumps(result["stats"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
