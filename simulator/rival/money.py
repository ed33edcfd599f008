"""Cents as PokerStars money text, stakes and the rake schedule.

Why integer cents: every hand must balance to the cent, so no float ever touches a chip amount.
"""

from __future__ import annotations

from dataclasses import dataclass


def usd(cents: int) -> str:
    """PokerStars writes whole dollars bare ('$5') and the rest with two decimals ('$5.50')."""
    whole, frac = divmod(cents, 100)
    return f"${whole}" if frac == 0 else f"${whole}.{frac:02d}"


@dataclass(frozen=True)
class Stake:
    """One cash game level: blinds in cents and the rake caps by players dealt."""

    sb: int
    bb: int
    cap_small: int  # two or three players dealt
    cap_large: int  # four or more

    @property
    def label(self) -> str:
        """'$0.25/$0.50 USD' as in the header (PokerStars keeps two decimals for cents stakes)."""
        return f"{_blind(self.sb)}/{_blind(self.bb)} USD"

    @property
    def file_label(self) -> str:
        """'$0.25-$0.50' as in PokerStars' history file names."""
        return f"{_blind(self.sb)}-{_blind(self.bb)}"

    def rake(self, pot: int, dealt: int, saw_flop: bool) -> int:
        """5% of the pot, no flop no drop, capped by how many were dealt in."""
        if not saw_flop:
            return 0
        cap = self.cap_small if dealt <= 3 else self.cap_large
        return min(cap, pot * 5 // 100)


def _blind(cents: int) -> str:
    whole, frac = divmod(cents, 100)
    return f"${whole}.{frac:02d}" if frac else f"${whole}"


STAKES: tuple[Stake, ...] = (
    Stake(5, 10, 50, 100),
    Stake(10, 25, 50, 125),
    Stake(25, 50, 100, 200),
    Stake(50, 100, 150, 300),
    Stake(100, 200, 200, 300),
)
