"""Independent PokerStars cash-room generator with injected collusion and ground truth.

Written without reference to the project's detectors or its own simulator, so that it
can serve as a held-out check of those detectors.
"""

from __future__ import annotations

import json
import random
from datetime import datetime
from pathlib import Path
from typing import Any

from simulator.foreign.room import Room, build_population, build_tables, run, truth, write_files

FAMILIES = ("soft_play", "chip_dumping", "squeeze", "card_sharing")

__all__ = ["FAMILIES", "generate"]


def generate(out: Path, truth_path: Path, *, hands: int, seed: int, intensity: float = 0.5,
             operator_mode: bool = True, players: int | None = None, teams: int | None = None,
             families: tuple[str, ...] = FAMILIES, start: datetime | None = None,
             ledger: list[tuple[int, int, int, int]] | None = None) -> dict[str, Any]:
    """Write one PokerStars file per table under ``out`` and the truth JSON; return the truth.

    ``ledger``, if given, receives (hand number, chips before, chips after, rake) per hand.
    """
    master = random.Random(seed)
    rng, deck_rng, coin_rng, decision_rng = (random.Random(master.getrandbits(64)) for _ in range(4))
    n_players = players if players is not None else max(16, round(hands * 8 / 1000))
    n_teams = teams if teams is not None else max(len(families), round(n_players / 40))
    pop, team_list, decoys = build_population(rng, decision_rng, n_players, n_teams, families, intensity)
    room = Room(rng=rng, deck_rng=deck_rng, coin_rng=coin_rng, players=pop, tables=build_tables(rng, n_players),
                teams=team_list, confounders=decoys, operator_mode=operator_mode,
                start=start or datetime(2026, 11, 2, 9, 0, 0))
    room.by_name = {p.name: p for p in pop}
    run(room, hands, hand_base=250_000_000_000 + rng.randrange(10**9))
    tables_used = write_files(room, Path(out))
    result = truth(room, seed, hands, intensity, tables_used)
    truth_path = Path(truth_path)
    truth_path.parent.mkdir(parents=True, exist_ok=True)
    truth_path.write_text(json.dumps(result, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    if ledger is not None:
        ledger.extend(room.ledger)
    return result
