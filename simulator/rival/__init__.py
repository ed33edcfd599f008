"""Rival: a fourth, independently written PokerStars room with planted collusion rings.

Why it exists: detectors are evaluated on collusion written by someone who never saw them; this
package only shares the PokerStars text format with the rest of Floorman.
"""

from __future__ import annotations

from simulator.rival.generate import generate

__all__ = ["generate"]
