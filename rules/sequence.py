"""Rules that span consecutive hands of one table: dead button, the heads-up transition, and a misdeal's
redeal against its cancelled original (MISDEAL.REDEAL, ``redeal_findings``).

Why separate: they need hands grouped per table and ordered in time, which the per-hand replay
never sees. Only tournaments use a dead button (CEP, TDA-2009); cash tables move the button freely.

A pair is judged only when the export shows it is consecutive, by the same tests as
``rules.continuity``: hand numbers n and n + 1 (``proven``: ERROR possible), or site-wide numbers
with both hands in one file, less than ``MAX_GAP_S`` apart and the button one step on (``likely``:
at most WARNING); a skip in a per-table counter is a missing hand. The previous big blind must sit
at the same seat in both hands: exports that name seats by position (Bovada's "Big Blind") give a
name that moves seat every hand and says nothing about who posted.
"""

from __future__ import annotations

import re
from itertools import pairwise

from parsers.model import Hand, Kind

from .articles import book_key, cite_article
from .continuity import COUNTER_SHARE, MAX_GAP_S
from .findings import ERROR, REVIEW, WARNING, Finding, finding, fmt
from .profiles import Profile
from .replay import ring_order

#: the hand number, as ``rules.continuity._NUMBER`` reads it (whole id, or digits after a letter
#: prefix or the last ':', '#' or '-')
_NUMBER = re.compile(r"^(?:[A-Za-z]*|.*[:#-])([0-9]{1,18})$")


def _bb(hand: Hand) -> str | None:
    return next((a.player for a in hand.actions if a.kind is Kind.POST_BB), None)


def _sb_seat(hand: Hand) -> int | None:
    sb = next((a.player for a in hand.actions if a.kind is Kind.POST_SB), None)
    return next((s.seat_no for s in hand.seats if s.player == sb), None)


def _order_key(hand: Hand) -> tuple[str, str]:
    started = hand.started_at.isoformat() if hand.started_at else ""
    return (started, hand.site_hand_no.rjust(24, "0"))


def _number(hand: Hand) -> int | None:
    m = _NUMBER.match(hand.site_hand_no)
    return int(m.group(1)) if m else None


def _is_counter(group: list[Hand]) -> bool:
    """The table's numbers are a per-table counter (most steps are +1), so any other step is a gap."""
    steps = [(_number(b) or 0) - (_number(a) or 0) for a, b in pairwise(group)
             if _number(a) is not None and _number(b) is not None]  # fmt: skip
    return bool(steps) and sum(s == 1 for s in steps) >= COUNTER_SHARE * len(steps)


def _button_stepped(prev: Hand, cur: Hand) -> bool:
    """The button moved to the previous small blind's seat (dead button) or to the next seat held by
    the same player in both hands."""
    b0, b1 = prev.button_seat, cur.button_seat
    if b0 is None or b1 is None:
        return False
    before = {s.player: s.seat_no for s in prev.seats}
    stable = [s.seat_no for s in cur.seats if before.get(s.player) == s.seat_no and s.seat_no != b0]
    nxt = min(stable, key=lambda seat: (seat - b0) % 1000, default=None)
    return b1 in (nxt, _sb_seat(prev))


def pair_proof(prev: Hand, cur: Hand, counter: bool) -> str | None:
    """``proven``, ``likely`` or None (not shown consecutive): see the module docstring."""
    n0, n1 = _number(prev), _number(cur)
    if n0 is not None and n1 is not None and n1 - n0 == 1:
        return "proven"
    if counter or prev.source_file != cur.source_file:
        return None
    if prev.started_at and cur.started_at:
        gap = (cur.started_at - prev.started_at).total_seconds()
        if gap < 0 or gap > MAX_GAP_S:
            return None
    elif n0 is None or n1 is None:
        return None  # neither numbers nor times: no order to trust
    return "likely" if _button_stepped(prev, cur) else None


def sequence_findings(hands: list[Hand], prof: Profile) -> list[Finding]:
    """MISDEAL.REDEAL over every redeal and its original, then BLIND.DEAD_BUTTON and
    BLIND.HEADSUP_TRANSITION over each tournament table's hands."""
    out = redeal_findings(hands, prof)
    if not prof.dead_button:
        return out
    tables: dict[tuple[str, str | None, str], list[Hand]] = {}
    for h in hands:
        if h.game_type == "tournament" and not h.cancelled:
            tables.setdefault((h.site, h.tournament_id, h.table_name), []).append(h)
    for group in tables.values():
        group.sort(key=_order_key)
        counter = _is_counter(group)
        for prev, cur in pairwise(group):
            proof = pair_proof(prev, cur, counter)
            if proof is not None:
                out.extend(_pair_findings(prev, cur, prof, proof))
    return out


def _pair_findings(prev: Hand, cur: Hand, prof: Profile, proof: str) -> list[Finding]:
    prev_bb, cur_bb = _bb(prev), _bb(cur)
    if prev_bb is None or cur_bb is None:
        return []
    ring_now = ring_order(cur)
    seats = {s.player: s.seat_no for s in cur.seats}
    before = {s.player: s.seat_no for s in prev.seats}
    if prev_bb not in seats or seats[prev_bb] != before.get(prev_bb):
        return []  # left, moved, or a position label that names someone else each hand
    if len(ring_now) == 2 and len(ring_order(prev)) > 2:
        if cur_bb != prev_bb:
            return []
        # CEP «puede ser necesario ajustar», T09 «puede ser necesario reajustar»: the TD's call
        return [Finding(cur.hand_id, None, "BLIND.HEADSUP_TRANSITION", REVIEW, True, "adjust_button|deal_as_is",
                        f"{cur_bb} not to post the BB twice", f"{cur_bb} posts the BB again",
                        "When play goes heads-up the button may need adjusting so that no player posts the"
                        " big blind twice in a row; the TD decides." + prof.cite("BLIND.HEADSUP_TRANSITION"))]
    # dead button: the BB moves to the next player clockwise who is dealt in now
    order = sorted((seats[p], p) for p in ring_now)
    after = [p for s, p in order if s > seats[prev_bb]] + [p for s, p in order if s <= seats[prev_bb]]
    want = next((p for p in after if p != prev_bb), None)
    if want is None or cur_bb == want:
        return []
    return [Finding(cur.hand_id, None, "BLIND.DEAD_BUTTON", ERROR if proof == "proven" else WARNING, False, None,
                    f"{want} posts the BB", f"{cur_bb} posted the BB",
                    f"With a dead button the big blind moves to the next player after {prev_bb}, so nobody"
                    " skips or repeats it" + ("." if proof == "proven" else
                                              " (the hands are shown consecutive by the button only).")
                    + prof.cite("BLIND.DEAD_BUTTON"))]


#: the books that state what a redeal keeps (rules_matrix §2 MISDEAL.REDEAL: CEP and PKR; T09 and R003 say
#: nothing, and the legend never makes an ERROR of a silent book; online no dealer redeals)
_REDEAL_BOOKS = ("CEP", "PKR")
#: what "the limits stay the same" / "identical" holds fixed between the original deal and the redeal
_LIMITS = ("variant", "betting", "sb", "bb", "ante", "bb_ante")
#: a player's part in a hand beyond posting and folding: a hand that was played, not killed
_PLAYED = frozenset({Kind.CHECK, Kind.CALL, Kind.BET, Kind.RAISE, Kind.SHOW})


def redeal_findings(hands: list[Hand], prof: Profile) -> list[Finding]:
    """MISDEAL.REDEAL: a redeal (``Hand.redeal_of``: the log links it to the cancelled hand it replays; no
    export writes the link) against its original among ``hands``. CEP «Error de Reparto, Mano Nula»: an
    exact repeat, the button does not move, no new players are seated, the limits stay the same, and the
    cards of players not at their seat on the original deal are killed. PKR «Mano nula»: identical, the
    button does not move, but penalized or absent players may come in. So: a moved button or changed
    limits (blinds, antes, game, structure) is ERROR under both; a player dealt in who was not seated at
    the original deal, or one absent from it who then plays his hand, is ERROR under CEP only. The pair
    is judged only when the original is among the hands checked with it (the same batch, or the one
    hand of look-behind), is cancelled and sits at the same table."""
    key = book_key(prof)
    if key not in _REDEAL_BOOKS:
        return []
    by_id = {h.hand_id: h for h in hands}
    out: list[Finding] = []
    for cur in hands:
        orig = by_id.get(cur.redeal_of) if cur.redeal_of else None
        if orig is None or orig is cur or not orig.cancelled or (orig.site, orig.table_name) != (
                cur.site, cur.table_name):
            continue
        out.extend(_redeal(orig, cur, prof, key))
    return out


def _redeal(orig: Hand, cur: Hand, prof: Profile, key: str) -> list[Finding]:
    hid = cur.hand_id
    said = f"Hand {cur.hand_id} redeals misdealt hand {orig.hand_id}: "
    out: list[Finding] = []
    if orig.button_seat is not None and cur.button_seat is not None and orig.button_seat != cur.button_seat:
        out.append(finding(hid, None, "MISDEAL.REDEAL", ERROR, f"button on seat {orig.button_seat}",
                           f"button on seat {cur.button_seat}",
                           said + "the redeal repeats the original deal and the button does not move."
                           + cite_article(prof, "MISDEAL.REDEAL")))
    changed = [f"{k} {_val(getattr(orig, k))} -> {_val(getattr(cur, k))}" for k in _LIMITS
               if getattr(orig, k) != getattr(cur, k)]
    if changed:
        out.append(finding(hid, None, "MISDEAL.REDEAL", ERROR, "the original deal's limits",
                           ", ".join(changed), said + "the redeal repeats the original deal, its blinds and limits"
                           " the same." + cite_article(prof, "MISDEAL.REDEAL")))
    if key != "CEP":  # PKR: penalized or absent players may come in
        return out
    seated = {s.player: s for s in orig.seats}
    dealt = [s.player for s in cur.seats if not s.sitting_out]
    new = [p for p in dealt if p not in seated]
    if new:
        out.append(finding(hid, None, "MISDEAL.REDEAL", ERROR, "no new players seated",
                           f"dealt in: {', '.join(new)}",
                           said + "no new players are seated for the redeal." + cite_article(prof, "MISDEAL.REDEAL")))
    played = {a.player for a in cur.actions if a.kind in _PLAYED}
    absent = [p for p in dealt if p in seated and seated[p].sitting_out and p in played]
    if absent:
        out.append(finding(hid, None, "MISDEAL.REDEAL", ERROR, f"{', '.join(absent)}: hand killed",
                           f"{', '.join(absent)} played the redeal",
                           said + "the cards of players not at their seat on the original deal are killed after"
                           " the redeal." + cite_article(prof, "MISDEAL.REDEAL/killed")))
    return out


def _val(v: object) -> str:
    return fmt(v) if isinstance(v, int) and not isinstance(v, bool) else str(v)
