"""Entry point: build the population, run the room, write the truth file.

Why one function: the evaluator and the CLI both call ``generate`` with the same keyword set, so
a room is fully described by (hands, seed, intensity, operator_mode, players).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from simulator.rival.population import Population, build
from simulator.rival.room import Room


def generate(out: Path, truth: Path, *, hands: int = 50_000, seed: int = 0, intensity: float = 0.5,
             operator_mode: bool = True, players: int = 400) -> None:
    """Write ``hands`` PokerStars hands into the folder ``out`` and the ground truth to ``truth``."""
    if players < 60:
        raise ValueError("the room needs at least 60 players (ten rings plus confounders)")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    pop = build(rng, players, intensity)
    Room(pop, rng, out, seed, operator_mode).run(hands)
    data = _truth(pop, seed, hands, intensity, operator_mode)
    Path(truth).parent.mkdir(parents=True, exist_ok=True)
    Path(truth).write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")


def _truth(pop: Population, seed: int, hands: int, intensity: float, operator_mode: bool) -> dict[str, Any]:
    """The evaluator's schema: rings with evidence, honest look-alikes, every player's style and hands."""
    teams = [{"id": t.id, "family": t.family, "implementation": t.implementation, "intensity": t.intensity,
              "members": list(t.members), "evidence": list(t.evidence)} for t in pop.teams]
    players = {name: {"style": p.profile.style, "hands": p.hands} for name, p in pop.people.items()}
    return {"generator": "rival", "seed": seed, "hands": hands, "intensity": intensity,
            "operator_mode": operator_mode, "site": "pokerstars", "teams": teams,
            "confounders": pop.confounders, "players": players}
