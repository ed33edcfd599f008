"""The rake a hand paid: as the site wrote it, or implied when the site writes none.

Why one place: 888/Pacific, PartyPoker, iPoker and others write no rake line, so ``site_rake`` is
None. Unknown rake is not zero rake: like the warehouse's reconciliation (``warehouse.reconcile``)
the rake is then implied as put in − awarded − fees, and only an implausible implied rake (negative,
above ``MAX_IMPLIED_RAKE_PCT`` % of the pot plus one unit in cash, anything in a tournament) is a
chip-conservation error. The chip and pot checks both read this, so they never disagree.
"""

from __future__ import annotations

from typing import NamedTuple

from parsers.model import Hand
from warehouse.reconcile import MAX_IMPLIED_RAKE_PCT

__all__ = ["MAX_IMPLIED_RAKE_PCT", "Rake", "rake_of"]


class Rake(NamedTuple):
    total: int  # C: everything put in (net of uncalled returns) plus money the site added
    awarded: int
    rake: int  # written by the site, or implied
    fees: int
    implied: bool  # the site wrote no rake
    cap: int  # the most an implied rake may be (0 in tournaments)

    @property
    def plausible(self) -> bool:
        """A written rake is taken as written; an implied one must lie in [0, cap]."""
        return not self.implied or 0 <= self.rake <= self.cap


def rake_of(hand: Hand, contributed: int) -> Rake:
    """The hand's rake given the chips its players put in (the replay's net contributions)."""
    total = contributed + (hand.site_added or 0)
    awarded = sum(a.amount for a in hand.awards)
    fees = hand.site_fees or 0
    cap = total * MAX_IMPLIED_RAKE_PCT // 100 + 1 if hand.game_type == "cash" else 0
    if hand.site_rake is None:
        return Rake(total, awarded, total - awarded - fees, fees, True, cap)
    return Rake(total, awarded, hand.site_rake, fees, False, cap)
