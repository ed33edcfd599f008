"""A third, independently written poker room simulator ("indie").

``generate`` writes PokerStars No-Limit Hold'em cash-game hand histories for a whole room —
honest regulars, recreational players, confounders and colluding teams — plus a truth file
naming the teams and every hand in which a team's tactic changed a decision.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from .brain import Brain
from .dealer import Dealer, run
from .lobby import Lobby
from .population import build_room

GENERATOR = "indie-1"


def generate(out: Path, truth: Path, *, hands: int = 50_000, seed: int = 0, intensity: float = 0.5,
             operator_mode: bool = True, players: int = 400) -> None:
    """Simulate ``hands`` hands in a room of ``players`` and write the histories and the truth."""
    if players < 40:
        raise ValueError("a room needs at least 40 players to hold its teams and confounders")
    if not 0.0 < intensity <= 1.0:
        raise ValueError("intensity must be in (0, 1]")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    room = build_room(players, intensity, random.Random(f"room:{seed}"))
    brain = Brain(room.profiles, room.teams, seed)
    dealer = Dealer(out, Lobby(room, random.Random(f"lobby:{seed}")), brain, seed, operator_mode)
    run(dealer, hands)
    teams = [{"id": t.id, "family": t.family, "implementation": t.implementation, "intensity": t.intensity,
              "members": t.members, "account": t.account or None, "shared_hands": brain.shared[t.id],
              "active_hands": brain.fired[t.id], "evidence": brain.team_evidence(t)} for t in room.teams]
    doc = {
        "generator": GENERATOR, "seed": seed, "hands": dealer.count, "intensity": intensity,
        "operator_mode": operator_mode, "site": "pokerstars", "teams": teams, "confounders": room.confounders,
        "players": {n: {"style": p.style, "model": p.params.model, "hands": dealer.hands_of[n]}
                    for n, p in sorted(room.profiles.items())},
    }
    Path(truth).parent.mkdir(parents=True, exist_ok=True)
    Path(truth).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


__all__ = ["GENERATOR", "generate"]
