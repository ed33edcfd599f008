"""Money-only checks for the games the betting replay does not model: stud, razz, draw, badugi.

Why apart: the replay (``rules.replay``) and its kernel know hold'em and omaha betting (blinds,
button, who acts next, minimum raises); stud acts by the boards showing and draw games have draw
rounds, so those rules would give false findings there. ``rules.check.check_hand`` (the one
per-hand entry point of both engines: the kernel sends these hands to the Python engine, see
``rules.codes`` F_UNSUPPORTED) sends them here instead of the replay, where only the rules that hold
in every game are checked, with the same rule ids, severities and messages:

* POT.CHIP_CONSERVATION: nobody puts in more than their starting stack; awards + rake + fees =
  everything put in; the site's total pot and final stacks agree (``handchecks.check_chips``,
  which also gives RAKE.NONE_IN_TOURNAMENT and judges an implied rake by ``rules.rake``);
* POT.UNCALLED_RETURN: what comes back as uncalled is exactly the unmatched part of the street's
  top bet (a stud bring-in is live money on third street, antes are dead);
* POT.SIDE_POTS: the pots the site wrote add up to what was put in.
"""

from __future__ import annotations

from parsers.model import DEAD_POSTS, Hand, Kind, Street

from .findings import DATA, ERROR, Finding, finding, fmt
from .handchecks import check_chips
from .profiles import Profile
from .replay import Replay, over_stack


def _ledger(hand: Hand, prof: Profile) -> tuple[Replay, list[Finding]]:
    """Each player's chips put in (net of returns), and the uncalled-return findings on the way."""
    ring = [s.player for s in hand.seats]
    idx = {p: i for i, p in enumerate(ring)}
    put = [0] * len(ring)
    street_bet = [0] * len(ring)
    folded = [False] * len(ring)
    found: list[Finding] = []
    street: Street | None = None
    for a in hand.actions:
        i = idx.get(a.player)
        if i is None:
            continue
        if a.street is not street and a.street is not Street.SHOWDOWN:
            street, street_bet = a.street, [0] * len(ring)
        if a.kind is Kind.FOLD:
            folded[i] = True
        if a.kind is Kind.UNCALLED_RETURN:
            bets = sorted(street_bet, reverse=True)
            excess = bets[0] - (bets[1] if len(bets) > 1 else 0) if street_bet[i] == bets[0] else 0
            # an all-in for less than the ante leaves part of the ante unmatched too: PokerStars hands
            # back the whole-hand excess (2-7 Single Draw, a 1-chip all-in ante against 25 and the blind)
            totals = sorted(put, reverse=True)
            whole = totals[0] - (totals[1] if len(totals) > 1 else 0) if put[i] == totals[0] else 0
            if -a.contribution not in (excess, whole):
                found.append(finding(
                    hand.hand_id, a.seq, "POT.UNCALLED_RETURN", ERROR, f"return {fmt(excess)}",
                    f"returned {fmt(-a.contribution)}",
                    f"{a.player} got {fmt(-a.contribution)} back as uncalled, but the unmatched part of the bet"
                    f" was {fmt(excess)}: the uncalled excess goes back, nothing else."
                    + prof.cite("POT.UNCALLED_RETURN"),
                ))
        put[i] += a.contribution
        if a.kind not in DEAD_POSTS:
            street_bet[i] += a.contribution
    stacks = [s.stack for s in hand.seats]
    n = len(ring)
    rp = Replay(ring, [""] * n, stacks, put, folded, [False] * n, [], [], -1, -1, [0] * n)
    return rp, found


def check_money(hand: Hand, prof: Profile) -> tuple[Replay, list[Finding]]:
    """Every money check of one stud or draw hand, with the ledger as a ``Replay`` (seat order, no
    action states: the betting replay's states need the flop games' betting model)."""
    rp, found = _ledger(hand, prof)
    for who, stack, put_in in zip(rp.ring, rp.stacks, rp.contributed, strict=True):
        if put_in > stack:
            found.append(over_stack(hand, prof, who, stack, put_in))
    found.extend(check_chips(hand, prof, rp))
    total = sum(rp.contributed) + (hand.site_added or 0)
    written = sum(p.amount for p in hand.pots)
    if hand.pots and not hand.cancelled and written != total:
        found.append(finding(
            hand.hand_id, None, "POT.SIDE_POTS", DATA, f"pots adding up to {fmt(total)} put in",
            f"site wrote {fmt(written)}",
            f"Export inconsistency (pots): the pots the site wrote add up to {fmt(written)}, not the"
            f" {fmt(total)} its own actions put in.",
        ))
    return rp, found
