"""The other authors' room generators by name, behind one call shape.

Why: the quality grid and the training script both pick a generator by name, and each written
by another author exposes ``generate(out, truth, *, hands, seed, intensity, operator_mode,
players)``; one table keeps the two callers from growing an if-branch per author. (The first
simulator is run through ``floorman simulate`` instead: its worlds are drawn by its own CLI.)
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Protocol

#: generator name -> the package whose ``generate`` writes a room (who wrote it, and for what)
AUTHORS = {
    "foreign": "simulator.foreign",  # second author, written from the description: the test
    "heldout": "simulator.heldout",  # written without sight of the detectors: the test
    "indie": "simulator.indie",  # third author: fitted on since 1.9.0
    "rival": "simulator.rival",  # fourth author: the transfer check for choices made on indie
    "outsider": "simulator.outsider",  # fifth author (2026-12-07): never tuned on, only measured
}


class Generate(Protocol):
    def __call__(self, out: Path, truth: Path, /, *, hands: int, seed: int, intensity: float,
                 operator_mode: bool, players: int) -> Any: ...


def generator(name: str) -> Generate:
    """The ``generate`` function of the named author's package."""
    if name not in AUTHORS:
        raise ValueError(f"unknown generator {name!r}: one of {sorted(AUTHORS)}")
    fn: Generate = importlib.import_module(AUTHORS[name]).generate
    return fn
