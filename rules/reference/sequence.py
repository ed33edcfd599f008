"""Rules that span consecutive hands of one table: dead button and the heads-up transition.

Why separate: they need hands grouped per table and ordered in time, which the per-hand replay
never sees. Only tournaments use a dead button (CEP, TDA-2009); cash tables move the button freely.
"""

from __future__ import annotations

from itertools import pairwise

from parsers.model import Hand, Kind
from rules.findings import ERROR, WARNING, Finding
from rules.profiles import Profile

from .replay import ring_order


def _bb(hand: Hand) -> str | None:
    return next((a.player for a in hand.actions if a.kind is Kind.POST_BB), None)


def _order_key(hand: Hand) -> tuple[str, str]:
    started = hand.started_at.isoformat() if hand.started_at else ""
    return (started, hand.site_hand_no.rjust(24, "0"))


def sequence_findings(hands: list[Hand], prof: Profile) -> list[Finding]:
    """BLIND.DEAD_BUTTON and BLIND.HEADSUP_TRANSITION over each tournament table's hands."""
    if not prof.dead_button:
        return []
    tables: dict[tuple[str, str | None, str], list[Hand]] = {}
    for h in hands:
        if h.game_type == "tournament" and not h.cancelled:
            tables.setdefault((h.site, h.tournament_id, h.table_name), []).append(h)
    out: list[Finding] = []
    for group in tables.values():
        group.sort(key=_order_key)
        for prev, cur in pairwise(group):
            prev_bb, cur_bb = _bb(prev), _bb(cur)
            if prev_bb is None or cur_bb is None:
                continue
            ring_now = ring_order(cur)
            seats = {s.player: s.seat_no for s in cur.seats}
            if prev_bb not in seats:
                continue
            if len(ring_now) == 2 and len(ring_order(prev)) > 2:
                if cur_bb == prev_bb:
                    out.append(
                        Finding(
                            cur.hand_id,
                            None,
                            "BLIND.HEADSUP_TRANSITION",
                            WARNING,
                            True,
                            "adjust_button|deal_as_is",
                            f"{cur_bb} not to post the BB twice",
                            f"{cur_bb} posts the BB again",
                            "When play goes heads-up the button is adjusted so that no player posts the"
                            " big blind twice in a row." + prof.cite("BLIND.HEADSUP_TRANSITION"),
                        )
                    )
                continue
            # dead button: the BB moves to the next player clockwise who is dealt in now
            order = sorted((seats[p], p) for p in ring_now)
            after = [p for s, p in order if s > seats[prev_bb]] + [p for s, p in order if s <= seats[prev_bb]]
            want = next((p for p in after if p != prev_bb), None)
            if want is not None and cur_bb != want:
                out.append(
                    Finding(
                        cur.hand_id,
                        None,
                        "BLIND.DEAD_BUTTON",
                        ERROR,
                        False,
                        None,
                        f"{want} posts the BB",
                        f"{cur_bb} posted the BB",
                        f"With a dead button the big blind moves to the next player after {prev_bb}, so"
                        " nobody skips or repeats it." + prof.cite("BLIND.DEAD_BUTTON"),
                    )
                )
    return out
