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
        world=args.world,
        intensity=args.intensity,
        implementation=args.implementation,
        honest_model=args.honest_model,
        table_size=args.table_size,
        teams=args.teams,
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
    world = result.truth["world"]
    assert isinstance(world, dict)
    impls = sorted({t["implementation"] for t in teams})
    print(f"world {world['kind']}: honest model {world['honest_model']} (equity share {world['equity_share']}), "
          f"tables {', '.join(f'{c} x {k}-max' for k, c in world['tables_by_size'].items())}, "
          f"implementations {', '.join(impls)}")
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
    p.add_argument("--tables", type=int, default=None, help="tables (default: classic one per 450 hands; random drawn)")
    p.add_argument("--players", type=int, default=None,
                   help="population size (default: classic hands / 70; random 30-5,000 log-uniform, <= hands / 5)")
    p.add_argument("--format", choices=("pokerstars", "phh"), default="pokerstars")
    _register_world(p)
    p.add_argument(
        "--start", default=None, help="UTC start: 2026-11-29 or 2026-11-29T19:00 (default: yesterday 19:00)",
    )
    p.set_defaults(func=cmd_simulate)


def _register_world(p: argparse.ArgumentParser) -> None:
    """The world knobs: each one given overrides the random world's draw (or the classic value)."""
    from simulator.collusion import IMPLEMENTATIONS
    from simulator.world import HONEST_MODELS, WORLDS

    names = [name for impls in IMPLEMENTATIONS.values() for name in impls]
    p.add_argument("--world", choices=WORLDS, default="random",
                   help="random: pool, tables, stakes, sessions, honest models and collusion drawn from the seed; "
                        "classic: the fixed night the tests and trained models were built on (default: random)")
    p.add_argument("--intensity", type=float, default=None,
                   help="share of shared hands in which a team's tactic fires, 0-1 (default: drawn per team, 0.1-1)")
    p.add_argument("--implementation", choices=names, default=None, metavar="NAME",
                   help=f"force one implementation on every team of its family: {', '.join(names)}")
    p.add_argument("--honest-model", choices=HONEST_MODELS, default=None,
                   help="honest decisions by equity and pot odds, by style, or a per-player mix (default: drawn)")
    p.add_argument("--table-size", type=int, choices=range(2, 11), default=None, metavar="N",
                   help="every table N-max, 2-10 (default: drawn, mostly 6- and 9-max)")
    p.add_argument("--teams", type=int, default=None, help="collusion teams (default: ~0.3%% of the pairs that meet)")
