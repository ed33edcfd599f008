"""``floorman simulate``: a synthetic night of NLHE cash tables with injected collusion and truth."""

from __future__ import annotations

import argparse
import time
from datetime import datetime
from pathlib import Path


def _start(text: str) -> datetime:
    """'2026-11-29' (19:00 UTC that day) or '2026-11-29T21:30[:00]' (UTC)."""
    moment = datetime.fromisoformat(text)
    if len(text) <= 10:
        moment = moment.replace(hour=19)
    return moment.replace(tzinfo=None)


def cmd_simulate(args: argparse.Namespace) -> int:
    from simulator.run import Config, simulate

    cfg = Config(
        hands=args.hands,
        seed=args.seed,
        tables=args.tables,
        players=args.players,
        operator_mode=args.operator_mode,
        fmt=args.format,
        start=_start(args.start) if args.start else None,
    )
    began = time.perf_counter()
    result = simulate(cfg, Path(args.out), Path(args.truth))
    secs = time.perf_counter() - began
    stats = result.truth["stats"]
    assert isinstance(stats, dict)
    print(
        f"{result.hands:,} hands in {len(result.files)} files ({stats['tables']} tables, "
        f"{stats['players']} players) in {secs:.2f} s ({result.hands / secs:,.0f} hands/s)"
    )
    teams = result.truth["teams"]
    assert isinstance(teams, list)
    print(
        f"teams {len(teams)}: colluding pairs {stats['colluding_pairs_met']} of "
        f"{stats['candidate_pairs']} pairs that met ({100 * stats['colluding_share']:.2f}%); truth -> {args.truth}"
    )
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("simulate", help="write synthetic hand histories with injected collusion and truth")
    p.add_argument("--hands", type=int, required=True, help="number of hands to play")
    p.add_argument("--seed", type=int, required=True, help="same seed, same bytes")
    p.add_argument("--out", required=True, help="folder for the hand-history files (one per table)")
    p.add_argument("--truth", required=True, help="path of the ground-truth JSON")
    p.add_argument("--operator-mode", action="store_true", help="write every player's hole cards (site export)")
    p.add_argument("--tables", type=int, default=None, help="tables (default: about one per 450 hands)")
    p.add_argument("--players", type=int, default=None, help="population size (default: hands / 70)")
    p.add_argument("--format", choices=("pokerstars", "phh"), default="pokerstars")
    p.add_argument(
        "--start", default=None, help="UTC start: 2026-11-29 or 2026-11-29T19:00 (default: yesterday 19:00)",
    )
    p.set_defaults(func=cmd_simulate)
