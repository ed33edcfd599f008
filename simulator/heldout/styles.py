"""Honest playing styles: a few archetypes with jittered parameters.

``vpip``/``pfr`` are the share of starting hands a player enters/raises from middle position,
``three_bet`` the share re-raised, ``agg`` how often a made hand is bet rather than checked or
called, ``bluff`` how often air is bet, ``stick`` how much lighter (+) or tighter (-) than pot odds
the player calls, ``size`` the usual bet as a share of the pot.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Style:
    name: str
    vpip: float
    pfr: float
    three_bet: float
    agg: float
    bluff: float
    stick: float
    size: float

    def as_dict(self) -> dict[str, Any]:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in asdict(self).items()}


#: archetype -> (vpip, pfr, three_bet, agg, bluff, stick, size), and how common it is
ARCHETYPES: dict[str, tuple[tuple[float, ...], float]] = {
    "tag": ((0.21, 0.16, 0.060, 0.62, 0.08, 0.00, 0.62), 0.26),
    "lag": ((0.31, 0.24, 0.090, 0.74, 0.14, 0.03, 0.70), 0.10),
    "weak_tight": ((0.16, 0.07, 0.025, 0.35, 0.03, -0.05, 0.50), 0.14),
    "loose_passive": ((0.42, 0.08, 0.025, 0.28, 0.04, 0.14, 0.45), 0.20),
    "recreational": ((0.33, 0.12, 0.040, 0.45, 0.07, 0.07, 0.60), 0.22),
    "maniac": ((0.58, 0.38, 0.140, 0.88, 0.30, 0.10, 0.95), 0.03),
    "nit": ((0.11, 0.08, 0.030, 0.45, 0.02, -0.10, 0.55), 0.05),
}


def make_style(archetype: str, rng: random.Random, jitter: float = 0.15) -> Style:
    base, _ = ARCHETYPES[archetype]
    vals = [max(0.0, v * (1 + rng.uniform(-jitter, jitter))) if i != 5 else v + rng.uniform(-0.03, 0.03)
            for i, v in enumerate(base)]
    vpip, pfr, tb, agg, bluff, stick, size = vals
    pfr = min(pfr, vpip * 0.95)
    return Style(archetype, vpip, pfr, min(tb, pfr), min(agg, 0.97), bluff, stick, size)


def random_archetype(rng: random.Random) -> str:
    names = list(ARCHETYPES)
    return rng.choices(names, weights=[ARCHETYPES[n][1] for n in names])[0]
