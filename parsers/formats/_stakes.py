"""Fixed-limit stakes: from the bet sizes a header writes to the blinds the model stores.

Why: fixed-limit headers name the bet sizes ("$2.50/$5 Limit": small bet / big bet) while the
model's ``sb``/``bb`` are the posted blinds in every structure (``parsers/model.py``). In fixed
limit the big blind equals the small bet, and the small blind is whatever the site posted: half
the small bet in most structures, but e.g. $10 at $15/$30 and $1 at $3/$6. So the big blind
comes from the header and the small blind from the hand's own live small-blind post.
"""

from __future__ import annotations

from parsers.model import Hand, Kind


def fixed_limit_blinds(hand: Hand, small_bet: int) -> None:
    """Set ``hand.bb`` to the small bet and ``hand.sb`` to the small blind the hand posted.

    A complete (not all-in) small-blind post is the written small blind. When no one posted
    one (empty or sitting-out small-blind seat, or only a short all-in post), the structure's
    usual half small bet is stored, rounded down to the smallest unit: the model needs a value
    and no line of the hand contradicts it.
    """
    hand.bb = small_bet
    posted = next(
        (a.contribution for a in hand.actions if a.kind is Kind.POST_SB and not a.all_in and a.contribution > 0),
        None,
    )
    hand.sb = posted if posted is not None else small_bet // 2
