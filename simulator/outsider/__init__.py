"""The outsider room generator: PokerStars cash-game rooms with hidden collusion rings.

Why: written without sight of the detectors, so that rooms test them rather than echo them.
"""

from __future__ import annotations

from simulator.outsider.room import generate

__all__ = ["generate"]
