"""Online exports that contradict themselves: which ERROR findings are the export's, not a player's (DATA).

Why a separate pass: under a profile whose software deals (``Profile.software_dealt``: online-standard)
no player can act out of turn, under-call, or post a blind the software did not post. An ERROR there
says the record breaks the book; most such records on real exports also contradict *themselves* in a
way this module can see in the hand alone (a raise written before the blinds, a call written before
the bet it calls, awards larger than all that went in). Each ``_anomaly_*`` function
names one such self-contradiction, shown on real files (tests/rules/test_real_hands.py), and turns the
findings that rest on it into DATA naming it. Nothing is turned unless the export's own lines show the
contradiction: a hand-written out-of-turn bet, skipped player or undercall on an otherwise consistent
record stays an ERROR (tests/rules/test_export_data.py holds both sides).

Two site rules the online profile defers to (``online-standard.yaml``: "sites deal straddles ... as
their software allows") become INFO instead: a joining player's post of less than the big blind,
and a second straddle posted by the seat that already posted a live blind or straddle.

The pass runs only on hands that already have an ERROR, after every per-hand check, in the Python
engine; the kernel bails on every hand with a finding (rules.screens), so it never decides these.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from parsers.model import DECISIONS, Action, Hand, Kind, Street

from .findings import DATA, ERROR, INFO, Finding, finding, fmt, uncited
from .profiles import Profile
from .replay import Replay

_AGGR = (Kind.BET, Kind.RAISE)
_LIVE_POSTS = (Kind.POST_SB, Kind.POST_BB, Kind.POST_STRADDLE)
#: betting findings measured against the header's big blind (the level in force)
_LEVEL_RULES = ("BET.MIN_BET", "UNDERCALL.FULL_CALL", "ACTION.ILLEGAL_CHECK", "ACTION.ORDER")
#: anomalies that explain the findings they name and nothing after them (``_consequences``)
_IN_PLACE = frozenset({"stale header blinds", "rounding by one unit", "an uncontested pot written as a return",
                       "awards exceed what was put in", "a rounded header small blind",
                       "stacks contradicted by an unbet street", "an equal-blinds header",
                       "an award against the written cards"})
_DUE = re.compile(r"^(?P<who>.+) to act(?: on (?P<street>\w+))?$")
_INT = re.compile(r"-?\d[\d,]*")

#: (the findings to turn, by index) -> the anomaly's name and what the export shows
Verdict = dict[int, tuple[str, str]]


def export_findings(hand: Hand, prof: Profile, rp: Replay, found: list[Finding]) -> list[Finding]:
    """``found`` with the ERRORs that rest on a self-contradiction of the online export turned DATA
    (and the two site rules turned INFO); unchanged under a live book or without an ERROR."""
    if not prof.software_dealt or not any(f.severity == ERROR for f in found):
        return found
    acts = {a.seq: a for a in hand.actions}
    verdict: Verdict = {}
    for anomaly in _ANOMALIES:
        for i, why in anomaly(hand, rp, found, acts).items():
            verdict.setdefault(i, why)
    _consequences(found, verdict)
    info = _site_rules(hand, found, acts)
    return [_turned(f, verdict.get(i), info.get(i)) for i, f in enumerate(found)]


def _turned(f: Finding, data: tuple[str, str] | None, info: str | None) -> Finding:
    """One finding as DATA (naming the anomaly) or INFO (the site's rule), else unchanged."""
    if info is not None and data is None:
        return finding(f.hand_id, f.action_seq, f.rule_id, INFO, f.expected, f.actual, info)
    if data is None:
        return f
    name, shows = data
    return finding(f.hand_id, f.action_seq, f.rule_id, DATA, f.expected, f.actual,
                   f"Export inconsistency ({name}): {shows} So this finding is the export's, not a player's: "
                   + uncited(f.message))


# ---- helpers ---------------------------------------------------------------------------------------
def _errors(found: list[Finding], *rules: str) -> list[tuple[int, Finding]]:
    """The ERROR findings (of ``rules``, or every rule) with their index."""
    return [(i, f) for i, f in enumerate(found) if f.severity == ERROR and (not rules or f.rule_id in rules)]


def _due(f: Finding) -> str | None:
    """The player an ACTION.ORDER finding says was due ("X to act", "X to act on flop"), or None."""
    m = _DUE.match(f.expected)
    if m is None or m.group("who").startswith("nobody"):
        return None
    return m.group("who")


def _skip(f: Finding) -> bool:
    """An ACTION.ORDER finding for a round that closed with a player still due (not an action out of turn)."""
    return " closed, " in f.actual


def _amounts(text: str) -> list[int]:
    """The integer amounts a finding's expected/actual text names (``fmt`` groups them with commas)."""
    return [int(m.replace(",", "")) for m in _INT.findall(text)]


def _later(hand: Hand, player: str, seq: int) -> list[Action]:
    """``player``'s actions after ``seq``."""
    return [a for a in hand.actions if a.player == player and a.seq > seq]


# ---- the anomalies ----------------------------------------------------------------------------------
def _anomaly_blinds_section_raise(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """A bet or raise written before the blinds are posted (Winamax 2014 "*** ANTE/BLINDS *** Player3 raises
    1€ to 3€" before his small blind): no software takes a raise before the blinds, so every betting
    finding of the hand rests on the export's blinds section."""
    last_post = max((a.seq for a in hand.actions if a.kind in _LIVE_POSTS), default=-1)
    early = [a for a in hand.actions if a.kind in _AGGR and a.seq < last_post]
    if not early:
        return {}
    a = early[0]
    shows = f"the export writes {a.player}'s {a.kind} to {fmt(a.raise_to)} before the blinds are posted."
    return {i: ("a raise in the blinds section", shows) for i, f in _errors(found) if f.action_seq is not None}


def _anomaly_header_level(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """The header's blinds shown stale (a BLIND.POSTING DATA finding: both blinds posted off the header in
    its proportion, rules.handchecks): a bet, call or check measured against the header's big blind that is
    full at the posted one (888 "$200/$400 Blinds" posting 150/300, calls and bets of 300), and the preflop
    round "left open" for a player who matched the posted level, rest on the header."""
    if not any(f.rule_id == "BLIND.POSTING" and f.severity == DATA for f in found):
        return {}
    posted = max((a.contribution for a in hand.actions if a.kind is Kind.POST_BB), default=0)
    if not posted or posted >= hand.bb:
        return {}
    states = {s.seq: s for s in rp.states}
    out: Verdict = {}
    shows = (f"the header writes the big blind as {fmt(hand.bb)}, but the site posted {fmt(posted)}, and at that"
             " level this bet or call is full.")
    pre: dict[str, int] = {}
    for a in hand.actions:
        if a.street is Street.PREFLOP and a.kind not in (Kind.POST_ANTE, Kind.POST_BB_ANTE, Kind.POST_DEAD):
            pre[a.player] = pre.get(a.player, 0) + a.contribution
    for i, f in _errors(found, *_LEVEL_RULES):
        if f.rule_id == "ACTION.ORDER":
            who = _due(f)  # the preflop round left open for a player who had matched the posted level
            if _skip(f) and f.expected.endswith("on preflop") and who and pre.get(who, 0) >= max(pre.values()):
                out[i] = ("stale header blinds", shows)
            continue
        s = states.get(f.action_seq) if f.action_seq is not None else None
        if s is None:
            continue
        at_level = s.current_bet == hand.bb  # the bet is still the header's big blind
        full_bet = f.rule_id == "BET.MIN_BET" and s.contribution >= posted
        full_call = f.rule_id == "UNDERCALL.FULL_CALL" and at_level and s.committed_before + s.contribution >= posted
        check = f.rule_id == "ACTION.ILLEGAL_CHECK" and at_level and s.committed_before >= posted
        if full_bet or full_call or check:
            out[i] = ("stale header blinds", shows)
    return out


def _anomaly_call_before_bet(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """A call written where the export's own amounts owe nothing (PokerTracker Zone re-export: "P5: Call
    $14.00" before "Hero: Bet $14.00"): the export's line order is not the order of play, so every
    turn-order finding of the hand rests on it."""
    calls = [f for f in found if f.rule_id == "DATA.CALL_AMOUNT" and f.expected == "call 0"]
    if not calls:
        return {}
    a = acts.get(calls[0].action_seq) if calls[0].action_seq is not None else None
    who = a.player if a else "a player"
    shows = f"the export writes a call by {who} before any bet on the street, so its lines are out of play order."
    return {i: ("calls written before the bets they call", shows) for i, _ in _errors(found, "ACTION.ORDER")}


def _anomaly_walk_as_return(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """The uncontested winner's return and award split differently from the pot arithmetic, with the same
    total (PokerStars "converted walk": the whole big blind returned as uncalled and the small blind paid
    as the pot): every player ends where the pot arithmetic puts them; only the export's split is off."""
    live = [p for i, p in enumerate(rp.ring) if not rp.folded[i]]
    if len(live) != 1 or hand.site_added:
        return {}
    winner = live[0]
    put_in = sum(a.contribution for a in hand.actions if a.contribution > 0)
    back = -sum(a.contribution for a in hand.actions if a.player == winner and a.kind is Kind.UNCALLED_RETURN)
    paid = sum(aw.amount for aw in hand.awards if aw.player == winner)
    others = sum(aw.amount for aw in hand.awards if aw.player != winner)
    rake = (hand.site_rake or 0) + (hand.site_fees or 0)
    if others or back + paid + rake != put_in:
        return {}
    shows = (f"{winner} got back {fmt(back)} as uncalled and {fmt(paid)} as the pot: {fmt(back + paid)} in all, all"
             " that was put in less the rake, as the pot arithmetic gives, split between return and pot otherwise.")
    return {i: ("an uncontested pot written as a return", shows)
            for i, _ in _errors(found, "POT.UNCALLED_RETURN", "SHOWDOWN.CARDS_SPEAK")}


def _anomaly_missing_check(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """After the flop, the player first due facing no bet acts only after a later seat's bet, by folding or
    calling it (BetOnline 2012 PLO: "Player2: bets 1.18" then "Player8: folds", Player8 first to act):
    the site asks the first player before anyone bets, so the record leaves out that player's check. (Bovada
    2601408198 / 2601411038 read this way too: there the parser drops the check, a repeat of the line
    before it; tests/rules/test_real_hands.py PARSER_REPEATS_DROPPED.)"""
    out: Verdict = {}
    for i, f in _errors(found, "ACTION.ORDER"):
        who, a = _due(f), acts.get(f.action_seq) if f.action_seq is not None else None
        if who is None or a is None or _skip(f) or a.street is Street.PREFLOP or a.kind not in _AGGR:
            continue
        before = [b for b in hand.actions if b.street is a.street and b.seq < a.seq]
        if any(b.kind in _AGGR or b.player == who for b in before):
            continue
        nxt = [b for b in _later(hand, who, a.seq) if b.street is a.street]
        if nxt and nxt[0].kind in (Kind.FOLD, Kind.CALL):
            out[i] = ("missing check", f"{who}, first to act on the {a.street} facing no bet, is written only after"
                                       f" {a.player}'s bet ({nxt[0].kind}s it): the site asks {who} first, so the"
                                       f" record as read leaves out {who}'s check.")
    return out


def _anomaly_option_moved(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """A round that closed with a player due, whose check is then the first line of the next round (Merge
    "no.community": the big blind's preflop option, after a reconnect, written in the flop round): the
    export moved the check; the findings from it on rest on the moved line."""
    for _, f in _errors(found, "ACTION.ORDER"):
        who, a = _due(f), acts.get(f.action_seq) if f.action_seq is not None else None
        if who is None or a is None or not _skip(f) or a.player != who or a.kind is not Kind.CHECK:
            continue
        if any(b.street is a.street and b.seq < a.seq for b in hand.actions):
            continue
        shows = f"{who}'s check closing the previous round is written as the first line of the {a.street} round."
        return {i: ("an action written in the next round", shows)
                for i, g in _errors(found) if g.action_seq is not None and g.action_seq >= a.seq}
    return {}


def _anomaly_empty_seat(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """A turn-order finding for a due player the export seats on 0 chips who puts nothing in (Merge
    'dealtin="false"' seats at $0.00): the site deals only players with chips, so that seat was not in
    the hand."""
    stack = {s.player: s.stack for s in hand.seats}
    put = {a.player for a in hand.actions if a.contribution > 0}
    out: Verdict = {}
    for i, f in _errors(found, "ACTION.ORDER"):
        who = _due(f)
        if who is not None and stack.get(who) == 0 and who not in put:
            out[i] = ("a seat on 0 chips", f"the export seats {who} with 0 chips and {who} puts nothing in: the site"
                                           f" deals only players with chips, so {who} was not due.")
    return out


def _anomaly_check_after_close(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """A check written when the betting was closed (no opponent with chips behind: Run It Once writes check
    rounds after an all-in): it moves no chips and the site asked nobody; the line is the export's."""
    out: Verdict = {}
    for i, f in _errors(found, "ACTION.ORDER"):
        a = acts.get(f.action_seq) if f.action_seq is not None else None
        if a is not None and a.kind is Kind.CHECK and f.expected.startswith("nobody"):
            out[i] = ("a check after the betting closed",
                      f"{a.player}'s check is written after the betting closed; it moves no chips.")
    return out


def _anomaly_overpaid(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """Awards larger than everything the export writes going in (Party "silent.post": the $0.58 award needs
    the button's unwritten $0.15 post): the record leaves out chips that went in, so a check facing a bet,
    and the round it leaves open, rest on the unwritten post."""
    put_in = sum(a.contribution for a in hand.actions) + (hand.site_added or 0)
    paid = sum(aw.amount for aw in hand.awards)
    if paid <= put_in:
        return {}
    shows = (f"the site paid {fmt(paid)} from {fmt(put_in)} written going in, so chips went in unwritten (a post)"
             " and the check is measured without them.")
    return {i: ("awards exceed what was put in", shows)
            for i, f in _errors(found, "ACTION.ILLEGAL_CHECK", "ACTION.ORDER")
            if f.rule_id == "ACTION.ILLEGAL_CHECK" or _skip(f)}


def _anomaly_one_unit(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """A call or an uncalled return off by exactly one smallest unit in a currency hand (Cake writes dollar
    amounts converted to euro and rounded to the cent: a $0.25 call of a $0.25 increment reads 0.20 facing
    0.21): the site's software takes full calls and returns the exact excess; one cent is its rounding."""
    if hand.unit_scale < 100:
        return {}
    out: Verdict = {}
    for i, f in _errors(found, "UNDERCALL.FULL_CALL", "POT.UNCALLED_RETURN"):
        exp, act = _amounts(f.expected), _amounts(f.actual)
        if len(exp) == 1 and len(act) == 1 and abs(exp[0] - act[0]) == 1:
            out[i] = ("rounding by one unit", f"the export's amounts differ by one cent ({fmt(exp[0])} against"
                                              f" {fmt(act[0])}), the rounding of a converted amount.")
    return out


#: the findings an all-in excuses: a short raise, bet or call is legal when it is all the player has
_ALLIN_EXCUSED = ("RAISE.MIN", "BET.MIN_BET", "UNDERCALL.FULL_CALL", "ALLIN.MIN_RAISE_AFTER_SHORT")
#: the street dealt with the n-th board card (a board of 3 is the flop, 4 the turn, 5 the river)
_DEALT_BY = {3: Street.FLOP, 4: Street.TURN, 5: Street.RIVER}


def _anomaly_unbet_street(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """A street dealt with no betting at all while, by the export's stacks, two players still have chips
    behind (PokerTracker "HandHQ" re-export: every stack written $100,000.00, the river dealt unbet after
    "Player7: Raise $23.38" over a $14.05 bet): the site deals a street unbet only when at most one player
    can bet, so the written stacks are not the real ones, and the all-in an ERROR's short raise, bet or call
    would be legal as is what those stacks hide. The findings turned are those of the last betting street."""
    if len(hand.boards) != 1 or hand.cancelled:
        return {}
    dealt = [st for k, st in _DEALT_BY.items() if len(hand.boards[0].cards) >= 2 * k]
    bet_on = {a.street for a in hand.actions if a.kind in DECISIONS}
    unbet = [st for st in dealt if st not in bet_on]
    free = [p for q, p in enumerate(rp.ring) if not rp.folded[q] and not rp.all_in[q]]
    if not unbet or len(free) < 2 or not bet_on:
        return {}
    last = max((a for a in hand.actions if a.kind in DECISIONS), key=lambda a: a.seq).street
    shows = (f"the export deals the {unbet[0]} with no betting while {' and '.join(free)} have chips behind by its"
             " stacks; the site deals a street unbet only when at most one player can still bet, so the written"
             " stacks are not the real ones.")
    return {i: ("stacks contradicted by an unbet street", shows) for i, f in _errors(found, *_ALLIN_EXCUSED)
            if f.action_seq is not None and (a := acts.get(f.action_seq)) is not None and a.street is last
            and a.player in free}


def _anomaly_rounded_header_sb(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """The header's small blind is half an odd big blind rounded down (888 "$0.12/$0.25 Blinds", 12.5 cents
    written 12, as its "$0.12/$0.25" limit tables deal a 12.5-cent small bet: rules.replay), so it is no
    amount the site posts; the small blind the site posted at that big blind is measured against nothing the
    export states. A header whose half is exact (75/150) still decides the post."""
    bb = hand.bb
    if bb % 2 == 0 or hand.sb != bb // 2:
        return {}
    posted_bb = [a.contribution for a in hand.actions if a.kind is Kind.POST_BB]
    if bb not in posted_bb:
        return {}
    out: Verdict = {}
    for i, f in _errors(found, "BLIND.POSTING"):
        a = acts.get(f.action_seq) if f.action_seq is not None else None
        if a is not None and a.kind is Kind.POST_SB and 0 < a.contribution < bb:
            out[i] = ("a rounded header small blind",
                      f"the header writes the small blind as {fmt(hand.sb)}, half the {fmt(bb)} big blind rounded down"
                      f" (no amount a site can post as half of it), and the site posted {fmt(a.contribution)}.")
    return out


def _anomaly_equal_blinds_header(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """A header of equal blinds (OnGame "EUR1/EUR1") over a small blind posted at exactly half the big blind,
    with the big blind the header names (R5-21973400-50: "posts small blind (EUR0.50)", "posts big blind (EUR1)",
    every net and the pot-limit raise to 4.50 following those posts): the standard blinds at that big blind.
    The site's software posts one structure for a table, so it is the header's equal small blind that is not
    the level's. A small blind off an unequal header (50 at 75/150) is still a wrong post."""
    if not hand.bb or hand.sb != hand.bb or hand.bb % 2:
        return {}
    if hand.bb not in [a.contribution for a in hand.actions if a.kind is Kind.POST_BB]:
        return {}
    out: Verdict = {}
    for i, f in _errors(found, "BLIND.POSTING"):
        a = acts.get(f.action_seq) if f.action_seq is not None else None
        if a is not None and a.kind is Kind.POST_SB and 2 * a.contribution == hand.bb:
            out[i] = ("an equal-blinds header",
                      f"the header writes equal blinds ({fmt(hand.sb)}/{fmt(hand.bb)}), yet the site posted a small"
                      f" blind of {fmt(a.contribution)}, exactly half the {fmt(hand.bb)} big blind it also posted: the"
                      " standard blinds at that big blind, not an equal-blinds table's.")
    return out


def _anomaly_award_against_cards(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """A pot paid against the cards the export writes (HHSmithy's 888 539478640: "Jack3bet shows [Ah, 6d]",
    "MomWasRight mucks [4s, 4c]" on 5d Ks 7c Jc 7d, "Jack3bet collected"; 888 ranks a hand it writes as
    mucked, 775396118 pays one): online no dealer reads the hands; the site's server ranks them and pays,
    so an award that contradicts the written cards says the written cards or the written award are not the
    server's. Live the dealer pays, and the same record stays an ERROR. Only SHOWDOWN.CARDS_SPEAK: the
    pots' division (POT.SIDE_POTS) is measured from the chips and stays the checker's to get right."""
    out: Verdict = {}
    for i, f in _errors(found, "SHOWDOWN.CARDS_SPEAK"):
        out[i] = ("an award against the written cards",
                  f"the cards the export writes give \"{f.expected}\" but the export writes \"{f.actual}\"; the"
                  " site's server ranks the hands and pays the pot, so its written cards or its written award are not"
                  " what it dealt and paid.")
    return out


#: a raise-not-above-bet finding: the export's raise adds less than the call
_BELOW_CALL = "DATA.RAISE_NOT_ABOVE_BET"


def _anomaly_placeholder_seats(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """A seat list the hand shows is a re-exporter's placeholder (PokerTracker "HandHQ" iPoker 2607756372:
    every seat "$100,000.00 in chips", and "Player3: Raise $31.10" adds less than the call with that stack
    behind, a line the site writes only for an all-in): the seat list is not the site's, so the turn order
    measured from its seat numbers (Player4, written Seat 4, acts after Seat 8) is the export's. Both tells are
    needed: equal stacks alone (a fresh table) or a short raise by a player with no chips behind keep the
    order findings ERRORs."""
    stacks = {s.stack for s in hand.seats}
    if len(hand.seats) < 3 or len(stacks) != 1:
        return {}
    (stack,) = stacks
    hidden = None
    for f in found:
        a = acts.get(f.action_seq) if f.action_seq is not None else None
        if f.rule_id == _BELOW_CALL and a is not None:
            put = sum(b.contribution for b in hand.actions if b.player == a.player and b.seq <= a.seq)
            if put < stack:
                hidden = a
                break
    if hidden is None:
        return {}
    shows = (f"the export writes all {len(hand.seats)} seats with the same {fmt(stack)} stack, and {hidden.player}'s"
             f" {hidden.kind} adds {fmt(hidden.contribution)}, less than the call, with that stack behind (a line the"
             " site writes only for an all-in), so the seat list is a re-exporter's placeholder and the turn order"
             " read from its seat numbers is not the site's.")
    return {i: ("a placeholder seat list", shows) for i, _ in _errors(found, "ACTION.ORDER")}


def _anomaly_limit_level(hand: Hand, rp: Replay, found: list[Finding], acts: dict[int, Action]) -> Verdict:
    """A limit hand whose stated level no big blind posted matches (HHSmithy's Merge 56150235-132: the
    description "Limit $10/$20", a 10.00 big blind and small bet, over posts of 1.00/2.00, then "RAISE 6.00"
    and "BET 6.00", legal at neither level): a limit game's big blind is its small bet, which the site's
    software posts from the table's stakes, so the export states the level two ways, and every bet size,
    call and turn of the hand is measured against one of them. A big blind short of the level because the
    poster is all-in by it is no contradiction, nor is a limit hand that posts its level."""
    if hand.betting != "FL" or not hand.bb:
        return {}
    stack = {s.player: s.stack for s in hand.seats}
    posts = [a for a in hand.actions if a.kind is Kind.POST_BB]
    if not posts or any(a.contribution == hand.bb or a.contribution >= stack.get(a.player, 0) for a in posts):
        return {}
    shows = (f"the export states the limit level as a {fmt(hand.bb)} big blind (the small bet), but the site posted"
             f" {fmt(posts[0].contribution)}; the software posts a limit table's big blind from its stakes, so the"
             " export states the level two ways, and the hand's bet sizes are measured against one of them.")
    return {i: ("a limit level the posts contradict", shows) for i, f in _errors(found) if f.action_seq is not None}


_ANOMALIES: tuple[Callable[[Hand, Replay, list[Finding], dict[int, Action]], Verdict], ...] = (
    _anomaly_blinds_section_raise,
    _anomaly_header_level,
    _anomaly_call_before_bet,
    _anomaly_walk_as_return,
    _anomaly_missing_check,
    _anomaly_option_moved,
    _anomaly_empty_seat,
    _anomaly_check_after_close,
    _anomaly_overpaid,
    _anomaly_one_unit,
    _anomaly_unbet_street,
    _anomaly_rounded_header_sb,
    _anomaly_equal_blinds_header,
    _anomaly_award_against_cards,
    _anomaly_placeholder_seats,
    _anomaly_limit_level,
)


def _contradiction(f: Finding) -> bool:
    """An action-level DATA finding after which the betting state is the export's: a stale-stack or stray
    action, a raise not above the bet, or a call where nothing is owed. An overcall is not one (the extra
    chips are only returned or lost: tests/rules/test_severity.py keeps a skip after one an ERROR)."""
    if f.severity != DATA or f.action_seq is None:
        return False
    if f.rule_id == "DATA.CALL_AMOUNT":
        return f.expected == "call 0"
    return f.rule_id in ("ACTION.ORDER", "DATA.RAISE_NOT_ABOVE_BET")


def _consequences(found: list[Finding], verdict: Verdict) -> None:
    """The ERRORs at or after the first action the export contradicts (an action-level DATA finding) rest
    on the export's betting state from there on: DATA too, naming the first anomaly."""
    first: tuple[int, str, str] | None = None
    for i, f in enumerate(found):
        seq = f.action_seq
        if seq is None:
            continue
        if i not in verdict and not _contradiction(f):
            continue
        if i in verdict and verdict[i][0] in _IN_PLACE:
            continue  # these name what one finding is measured against; the betting state is not the export's
        if first is None or seq < first[0]:
            name = verdict[i][0] if i in verdict else f.message.split("(", 1)[-1].split(")", 1)[0]
            first = (seq, name, f"the export contradicts itself at action {seq} ({f.rule_id}).")
    if first is None:
        return
    seq, name, shows = first
    for i, f in _errors(found):
        if i not in verdict and f.action_seq is not None and f.action_seq >= seq:
            verdict[i] = (name, shows + " The betting state from there on is the export's.")


# ---- the site rules the online profile defers to (INFO) --------------------------------------------
def _site_rules(hand: Hand, found: list[Finding], acts: dict[int, Action]) -> dict[int, str]:
    """BLIND.POSTING for a joining player's post below the big blind, and STRADDLE.* for a seat's second
    live forced bet: the site's software took them under its own rules, which the profile defers to."""
    out: dict[int, str] = {}
    full_bb = {a.player for a in hand.actions if a.kind is Kind.POST_BB and a.contribution >= hand.bb}
    for i, f in _errors(found, "BLIND.POSTING", "STRADDLE.POSITION", "STRADDLE.DOUBLE"):
        a = acts.get(f.action_seq) if f.action_seq is not None else None
        if a is None:
            continue
        if f.rule_id == "BLIND.POSTING" and a.kind is Kind.POST_BB and full_bb - {a.player}:
            out[i] = (f"{a.player} posted {fmt(a.contribution)} to join, less than the big blind {fmt(hand.bb)} that"
                      f" {', '.join(sorted(full_bb - {a.player}))} posted in the blind: a joining post under the"
                      " site's own rule (online-standard states none; the site's software took it).")
        elif f.rule_id != "BLIND.POSTING" and any(
            b.player == a.player and b.kind in (Kind.POST_BB, Kind.POST_STRADDLE) and b.seq < a.seq
            for b in hand.actions
        ):
            out[i] = (f"{a.player} posted a second live forced bet (a straddle on top of their own blind or"
                      " straddle): the site's straddle feature, dealt as its software allows (online-standard:"
                      " sizes and straddles are the site's).")
    return out
