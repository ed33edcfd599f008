"""Held-out room generator (``heldout-1``), written without reference to Floorman's detectors.

``generate(out, truth_path, hands=..., seed=...)`` writes a no-limit hold'em cash room as
PokerStars text files (one per table) and a truth JSON naming the colluding teams, their logged
collusive acts and the honest look-alikes. See ``collusion`` for what each family does and
``population`` for the decoys.
"""

from simulator.heldout.room import generate

__all__ = ["generate"]
