"""CLOCK.SHOT_CLOCK and CLOCK.TIME_BANK: decision times against the CEP shot clock and Time Bank cards.

Why per hand, from logged times: only some formats log a time per action (``Action.acted_at``), and
the shot clock runs only in its phase (CEP: Main Event after the bubble), which the table map selects
(``Profile.clock_checks``). A decision's time is its action's time minus the previous logged action's
(or, for the hand's first, the deal's ``started_at``): the log cannot show a paused clock (floor
called, stack count), so a long decision is measured as the wall time the log gives.

Card accounting, rules_matrix §5.12: a decision of t ms uses ceil((t - S) / T) cards (S the seconds
per action, T the seconds a card adds) and expires past S + T x cards held. The hand history does not
say how many cards a player holds, so each player is taken to hold ``tbc_max`` at the hand's start
(or what ``held`` says): the most lenient reading, so a finding never rests on an assumed earlier use.
CLOCK.TIME_BANK: the cards a player's accepted decisions need, summed over the hand, beyond the
cards a player gets per day (the actions stand only if the player had more): counted within the hand
only, a lower bound on the day's use (cross-hand accounting per day is not built).
CLOCK.CALLED_CLOCK needs a "clock called" event, which no supported format writes: not checked.
"""

from __future__ import annotations

from collections.abc import Mapping

from parsers.model import DECISIONS, Hand

from .findings import ERROR, Finding, finding, review
from .profiles import Profile
from .replay import Replay

#: rules_matrix: CLOCK.* is a house decision "inside a ±1 s tolerance" of the limit
TOLERANCE_MS = 1000


def has_times(hand: Hand) -> bool:
    """The hand carries per-action times (the CLOCK checks have something to measure)."""
    return any(a.acted_at is not None for a in hand.actions)


def decision_ms(hand: Hand) -> list[tuple[int, str, int]]:
    """(seq, player, milliseconds taken) per timed decision: from the previous logged time, the
    deal's for the first. A decision with no earlier time (no ``started_at``) is not measured."""
    out: list[tuple[int, str, int]] = []
    prev = hand.started_at
    for a in hand.actions:
        if a.acted_at is None:
            continue
        if a.kind in DECISIONS and prev is not None:
            delta = a.acted_at - prev
            out.append((a.seq, a.player, delta.days * 86_400_000 + delta.seconds * 1000 + delta.microseconds // 1000))
        prev = a.acted_at
    return out


def cards_needed(ms: int, seconds: int, tbc_seconds: int) -> int:
    """Time Bank cards a decision of ``ms`` must use: ceil((t - S) / T), 0 within S."""
    over = ms - seconds * 1000
    return 0 if over <= 0 else -(-over // (tbc_seconds * 1000))


def _sec(ms: int) -> str:
    return f"{ms / 1000:.1f} s"


def clock_findings(hand: Hand, prof: Profile, rp: Replay | None = None, held: Mapping[str, int] | None = None
                   ) -> list[Finding]:
    """CLOCK.SHOT_CLOCK and CLOCK.TIME_BANK findings of one hand (none unless the profile's shot clock
    is on and the hand has times). ``held``: cards each player holds at the hand's start (default the
    profile's maximum); ``rp``: the replay, to tell a player facing a bet (dead hand) from one who
    could check (the seeds disagree: house decision)."""
    if not prof.clock_checks or not has_times(hand):
        return []
    seconds, tbc_s = prof.shot_clock_seconds or 0, prof.tbc_seconds or 0
    most = prof.tbc_max if prof.tbc_max is not None else 0
    per_day = prof.tbc_per_day if prof.tbc_per_day is not None else most
    to_call = {s.seq: s.to_call for s in rp.states} if rp is not None else {}
    cards = {p: most if held is None else held.get(p, most) for p in {a.player for a in hand.actions}}
    used: dict[str, int] = {}
    dead: set[str] = set()
    out: list[Finding] = []
    for seq, player, ms in decision_ms(hand):
        need = cards_needed(ms, seconds, tbc_s)
        before = used.get(player, 0)
        used[player] = before + need
        if before <= per_day < used[player]:  # the action stands only if the player had more cards
            out.append(finding(
                hand.hand_id, seq, "CLOCK.TIME_BANK", ERROR,
                f"at most {per_day} Time Bank cards a day",
                f"{used[player]} cards used in this hand",
                f"{player}'s decisions in this hand need {used[player]} Time Bank cards ({_sec(ms)} on this one),"
                f" more than the {per_day} a player gets per day." + prof.cite("CLOCK.TIME_BANK"),
            ))
        have = cards.get(player, most)
        cards[player] = max(0, have - need)
        limit = (seconds + tbc_s * have) * 1000
        if ms <= limit or player in dead:  # one expiry per player and hand: after it the hand is dead
            continue
        dead.add(player)
        facing = to_call.get(seq, 1) > 0
        near = ms - limit <= TOLERANCE_MS
        hd = near or not facing
        why = ("inside the 1 s tolerance, doubt favours the player" if near
               else "not facing a bet: the shot clock says dead, CEP's called clock says check")
        expected = f"act within {_sec(limit)} ({seconds} s + {have} TBC x {tbc_s} s), else the hand is dead"
        text = (f"{player} acted after {_sec(ms)} holding {have} Time Bank card(s): the shot clock expired at"
                f" {_sec(limit)}")
        if hd:  # the book leaves it to the floor: doubt within the tolerance, or check vs dead
            out.append(review(
                hand.hand_id, seq, "CLOCK.SHOT_CLOCK", ("dead", "action_stands") if near else ("dead", "check"),
                expected, f"acted after {_sec(ms)}, action accepted",
                text + f" ({why}); the floor rules. The record shows the action accepted."
                + prof.cite("CLOCK.SHOT_CLOCK"),
            ))
        else:
            out.append(finding(
                hand.hand_id, seq, "CLOCK.SHOT_CLOCK", ERROR, expected, f"acted after {_sec(ms)}",
                text + ", so the hand was dead, yet the action was accepted." + prof.cite("CLOCK.SHOT_CLOCK"),
            ))
    return out
