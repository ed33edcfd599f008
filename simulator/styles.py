"""Player styles: a few numbers that make an honest population play differently.

Why numbers and not scripts: every decision reads the same view (hand strength, position, pot
odds, bet size) through these knobs, so a nit and a maniac differ in degree, not in code path.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Style:
    name: str
    vpip: float  # share of hands played preflop
    pfr: float  # share of hands raised preflop
    agg: float  # postflop: how often a good hand or a bluff bets / raises (0..1)
    call: float  # postflop: looseness when facing a bet (0 tight .. 1 calls anything)
    skill: float  # 0..1: respect for pot odds, position and bet size; low skill adds noise
    bluff: float  # postflop bluff frequency with air
    buyin_bb: int  # usual buy-in in big blinds
    sizes: tuple[float, ...]  # preferred bet sizes as a share of the pot
    activity: float  # relative chance to be online / join a table
    max_tables: int  # tables played at once


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style("tag", 0.22, 0.17, 0.60, 0.30, 0.80, 0.10, 100, (0.5, 0.66, 0.75), 1.6, 3),
        Style("lag", 0.32, 0.26, 0.75, 0.38, 0.70, 0.20, 100, (0.5, 0.75, 1.0), 1.3, 3),
        Style("nit", 0.12, 0.09, 0.45, 0.18, 0.55, 0.03, 100, (0.5, 0.66), 1.2, 2),
        Style("weak_tight", 0.18, 0.08, 0.30, 0.25, 0.35, 0.04, 100, (0.33, 0.5), 1.0, 1),
        Style("station", 0.45, 0.08, 0.20, 0.75, 0.20, 0.03, 100, (0.33, 0.5), 0.9, 1),
        Style("fish", 0.50, 0.12, 0.35, 0.60, 0.10, 0.08, 60, (0.5, 1.0), 0.8, 1),
        Style("maniac", 0.55, 0.40, 0.90, 0.50, 0.15, 0.35, 100, (0.75, 1.0, 1.5), 0.6, 1),
        Style("short", 0.20, 0.16, 0.70, 0.30, 0.55, 0.08, 25, (0.5, 1.0), 1.0, 2),
        # confounder styles: must not look collusive
        Style("whale", 0.65, 0.15, 0.40, 0.85, 0.05, 0.10, 100, (0.5, 1.0), 1.0, 1),
        Style("shark", 0.25, 0.20, 0.70, 0.32, 0.95, 0.14, 100, (0.5, 0.66, 0.75), 1.8, 3),
    )
}

#: honest styles drawn for ordinary players, with weights
ORDINARY_MIX: tuple[tuple[str, float], ...] = (
    ("tag", 0.22), ("lag", 0.10), ("nit", 0.08), ("weak_tight", 0.15), ("station", 0.14),
    ("fish", 0.14), ("maniac", 0.05), ("short", 0.12),
)
