"""The reconciliation equations of the brief, checked hand by hand (until warehouse.reconcile lands).

Why a local copy: these tests must be able to fail on a parser's accounting today. Where the
site writes no rake (888, PartyPoker), ``site_rake`` is None and the rake is *implied*
(contributed − awarded); it is reported separately so a test can bound it instead of ignoring it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from parsers.model import Hand


@dataclass
class Balance:
    contributed: int
    awarded: int
    diff_awards: int  # awarded + rake + fees - contributed (rake 0 when not written)
    diff_total_pot: int | None
    diff_pots: int | None
    diff_final_stack: int | None
    overdrawn: list[str]

    def ok(self, rake_written: bool) -> bool:
        awards_ok = self.diff_awards == 0 if rake_written else self.diff_awards <= 0
        return (
            awards_ok
            and not self.diff_total_pot
            and not self.diff_pots
            and not self.diff_final_stack
            and not self.overdrawn
        )


def balance(hand: Hand) -> Balance:
    put_in: dict[str, int] = defaultdict(int)
    for a in hand.actions:
        put_in[a.player] += a.contribution
    won: dict[str, int] = defaultdict(int)
    for w in hand.awards:
        won[w.player] += w.amount
    c = sum(put_in.values())
    awarded = sum(won.values())
    diff_awards = awarded + (hand.site_rake or 0) + (hand.site_fees or 0) - c
    diff_total = None if hand.site_total_pot is None else c - hand.site_total_pot
    diff_pots = sum(p.amount for p in hand.pots) - c if hand.pots else None
    finals = [s for s in hand.seats if s.final_stack is not None]
    diff_final = (
        sum(abs(s.stack - put_in[s.player] + won[s.player] - (s.final_stack or 0)) for s in finals)
        if finals
        else None
    )
    stacks = {s.player: s.stack for s in hand.seats}
    over = [p for p, v in put_in.items() if v > stacks.get(p, 0)]
    return Balance(c, awarded, diff_awards, diff_total, diff_pots, diff_final, over)
