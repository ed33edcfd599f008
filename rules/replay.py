"""The replay engine: walk one hand's actions and record, for every decision, the state the player faced.

Why plain lists: the state machine of rules_matrix.md §3.1 (current bet B, full increment F, the
level each player last acted at) is cheap integer work, so a hand replays in a few microseconds when
the per-player state lives in parallel lists indexed by ring position (held by one ``_Betting`` object
per hand, with a method for each job: the set-up, a new round, the posts, a return, a decision, the
end of the hand). The betting checks (minimum raise, reopening, undercalls, order of action, pot-limit
maximum, limit cap) run in the same walk because they need exactly that state; hand-level checks
(blinds, pots, showdown, deck, rake, run it twice) run after it on the replay's result
(``rules.handchecks``).

Mirrored by the numba kernel (``rules.kernel._one_hand``, same state machine, same integers), phase
by phase: ``ring_order`` / ``ring_positions`` / ``sat_out`` by ``_ring``; the blind levels and the
start of the walk (``_Betting``'s set-up, the posts) by ``_blinds``, ``_post_blind`` and ``_post_dead``;
a decision (``next_to_act``, ``_Betting.decide`` and its helpers: reopening, min/max, the betting
findings) by ``_next_to_act``, ``_decision``, ``_reopened``, ``_raise_limits`` and ``_raise``. Every
finding this module emits must have a kernel screen in
``rules.screens.RULE_SCREENS`` (the bail reason that sends such a hand here; tests/rules/test_screens.py).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import NamedTuple

from parsers.model import DECISIONS, Action, Hand, Kind, Provenance, Street

from .articles import cite_article, cite_house
from .findings import DATA, ERROR, INFO, REVIEW, WARNING, Finding, finding, fmt, review, uncited
from .profiles import Profile

_PREFLOP = Street.PREFLOP
_SITTING_OUT = attrgetter("sitting_out")
_SHOWDOWN = Street.SHOWDOWN
_LIVE_POST = {Kind.POST_SB, Kind.POST_BB, Kind.POST_STRADDLE}
_DEAD_POST = {Kind.POST_ANTE, Kind.POST_BB_ANTE, Kind.POST_DEAD}
_AGGR = {Kind.BET, Kind.RAISE}
_NONE = -1  # "has not acted on this street" marker in the level list
_K_SB, _K_BB, _K_STRADDLE = Kind.POST_SB, Kind.POST_BB, Kind.POST_STRADDLE
_K_FOLD, _K_CHECK, _K_CALL, _K_BET, _K_RAISE = Kind.FOLD, Kind.CHECK, Kind.CALL, Kind.BET, Kind.RAISE
_K_RETURN = Kind.UNCALLED_RETURN
_K_ANTE = Kind.POST_ANTE
#: enum → plain str without the enum ``value`` descriptor (a Python-level call per state row)
_VALUE: dict[Street | Kind, str] = {**{s: str(s) for s in Street}, **{k: str(k) for k in Kind}}


class ActionState(NamedTuple):
    """One row of ``action_states``: what the player faced at a decision, and what they did."""

    hand_id: str
    seq: int
    player: str
    street: str
    position: str
    kind: str
    contribution: int
    raise_to: int | None  # the street total after the action, for bets and raises
    to_call: int  # chips needed to call (capped at the player's stack)
    current_bet: int  # B: the highest street total so far
    min_raise_to: int | None  # None: the player may not raise
    max_raise_to: int | None
    last_full_raise: int  # F: the largest full bet/raise increment of the street
    reopened: bool  # the rules let this player raise (not closed by a short all-in)
    pot_before: int  # everything in the pot, street bets included, before the action
    players_to_act: int  # other players still owing an action on this street
    stack_before: int  # chips behind before the action
    committed_before: int  # the player's street total before the action
    facing_aggressor: str | None  # who made the last bet or raise on this street
    all_in: bool  # the action put the player all-in


class Replay(NamedTuple):
    """Everything the hand-level checks and the replay view need from one replay."""

    ring: list[str]  # active players clockwise from the first seat left of the button
    positions: list[str]
    stacks: list[int]
    contributed: list[int]  # per ring index, net of uncalled returns
    folded: list[bool]
    all_in: list[bool]
    states: list[ActionState]
    findings: list[Finding]
    bb_player: int  # ring index of the big blind (-1 when none posted)
    sb_player: int
    dead: list[int]  # per ring index: BB antes and dead blinds (main-pot money, not a betting level)


def position_labels(n: int) -> list[str]:
    """Labels for ring order (first left of the button first, the button last)."""
    if n == 2:
        return ["BB", "BTN"]
    if n < 2:
        return ["BTN"] * n
    tail = ["HJ", "CO", "BTN"][-(n - 2) :] if n - 2 <= 3 else ["HJ", "CO", "BTN"]
    middle = n - 2 - len(tail)
    mids = ["UTG"] + [f"UTG+{i}" for i in range(1, middle)] if middle > 0 else []
    return ["SB", "BB", *mids, *tail]


def sat_out(hand: Hand, ring: list[str]) -> list[int]:
    """Ring indices of seats marked sitting out that take no decision (they may have paid an ante).

    Why: a player who antes and then sits out is dealt no cards; the site never asks them to act,
    so the replay counts their money in the pot but treats them as folded from the deal.
    """
    if not any(map(_SITTING_OUT, hand.seats)):
        return []
    out = {s.player for s in hand.seats if s.sitting_out}
    out -= {a.player for a in hand.actions if a.kind in DECISIONS}
    out -= {aw.player for aw in hand.awards}  # paid: they were in the hand
    return [i for i, p in enumerate(ring) if p in out]


def ring_positions(hand: Hand, ring: list[str], out: list[int]) -> list[str]:
    """Position labels for the ring; seats out of the hand get none and are not counted.

    Heads-up with the button on a seat that is not dealt in (a dead button), the two players are
    the small and the big blind, not the button and the big blind.
    """
    if not out:
        n = len(ring)
        if n == 2 and hand.button_seat is not None and _dead_button(hand, ring):
            return ["SB", "BB"]
        return position_labels(n)
    active = [p for i, p in enumerate(ring) if i not in out]
    labels = iter(ring_positions(hand, active, []))
    return ["" if i in out else next(labels) for i in range(len(ring))]


def _dead_button(hand: Hand, ring: list[str]) -> bool:
    """The written button seat is not one of the ring's players."""
    button = hand.button_seat
    for s in hand.seats:  # a plain loop: heads-up hands (a third of the corpus) all come here
        if s.seat_no == button:
            return s.player not in ring
    return True


def kept_in_hand(hand: Hand, idx: dict[str, int]) -> dict[int, int]:
    """Players the site kept in the hand to the end (shown cards, paid), never folding: ring index to
    the seq of their last decision. Online disconnect protection makes such a player who stops
    acting all-in for what they had in; one who simply left (no cards shown, nothing paid) is not.
    """
    kept = {h.player for h in hand.hole_cards if h.provenance is Provenance.SHOWN}  # not dealt/operator
    kept.update(aw.player for aw in hand.awards)
    kept.update(a.player for a in hand.actions if a.cards and a.kind in (Kind.SHOW, Kind.MUCK))
    kept.difference_update(a.player for a in hand.actions if a.kind is Kind.FOLD)
    last: dict[int, int] = {}
    for p in kept:
        q = idx.get(p, -1)
        if q >= 0:
            last[q] = max((a.seq for a in hand.actions if a.player == p and a.kind in DECISIONS), default=-1)
    return last


def ring_order(hand: Hand) -> list[str]:
    """Players who took part in the hand, clockwise starting left of the button.

    Old Chico skins (ActionPoker, GearPoker) number their seats counter-clockwise: when the
    ascending order puts the small blind out of place and the descending order fits the blinds,
    the ring runs downwards (``replay`` finds this at the small blind's post, at no cost otherwise).
    """
    ring = clockwise(hand)
    if len(ring) > 2 and not _sb_first(hand, ring):
        down = counter_clockwise(hand)
        if down is not None:
            return down
    return ring


def clockwise(hand: Hand) -> list[str]:
    """The ring by ascending seat numbers from the seat after the button."""
    acting = {a.player for a in hand.actions}
    seats = sorted((s.seat_no, s.player) for s in hand.seats if s.player in acting)
    if not seats:
        return sorted(acting)
    button = table_button(hand)
    if button is None:
        # no button written: the small blind is first left of it (heads-up the SB *is* the button)
        sb = next((a.player for a in hand.actions if a.kind is Kind.POST_SB), None)
        names = [p for _, p in seats]
        if sb in names:
            i = names.index(sb)
            names = names[i:] + names[:i]
            if len(names) == 2:
                names = names[1:] + names[:1]
            return names
        # no small blind posted (empty or sitting-out SB seat): the big blind is first left of the button
        bb = next((a.player for a in hand.actions if a.kind is Kind.POST_BB), None)
        if bb in names:
            i = names.index(bb)
            names = names[i:] + names[:i]
        return names
    after = [p for s, p in seats if s > button]
    before = [p for s, p in seats if s <= button]
    return after + before


def table_button(hand: Hand) -> int | None:
    """The written button seat, or None when it names no seat of the table: beyond the table's size and
    nobody's seat (a BetOnline MTT writes "Seat #2684684 is the button"), so the blinds place the ring."""
    button = hand.button_seat
    if button is not None and hand.max_seats and button > hand.max_seats and all(
        s.seat_no != button for s in hand.seats
    ):
        return None
    return button


def counter_clockwise(hand: Hand) -> list[str] | None:
    """The ring by descending seat numbers, when the blinds sit there (else None)."""
    button = table_button(hand)
    acting = {a.player for a in hand.actions}
    seats = sorted(((s.seat_no, s.player) for s in hand.seats if s.player in acting), reverse=True)
    if button is None or len(seats) < 3:
        return None
    down = [p for s, p in seats if s < button] + [p for s, p in seats if s >= button]
    return down if _sb_first(hand, down) and _bb_second(hand, down) else None


def _sb_first(hand: Hand, ring: list[str]) -> bool:
    """The small blind (if one is posted) is first left of the button; a plain loop, run for every hand."""
    for a in hand.actions:
        if a.kind is Kind.POST_SB:
            return a.player == ring[0]
    return True


def _bb_second(hand: Hand, ring: list[str]) -> bool:
    """A big blind is posted from the second seat left of the button."""
    second = ring[1]
    return any(a.kind is Kind.POST_BB and a.player == second for a in hand.actions)


def replay(hand: Hand, prof: Profile, ring: list[str] | None = None) -> Replay:
    """Replay one hand under one profile: per-decision states plus the betting findings.

    Why this shape: the loop only routes each action to the ``_Betting`` method for its kind; the state
    machine and its checks live there, one job a method. Speed (issue 3): the action tuple is unpacked
    once, kinds are compared by identity, the hot methods bind the state they read to locals, and the
    state rows are built with ``tuple.__new__``. The split from one loop was proved state-for-state and
    finding-for-finding equal to the single loop (commit 181c881) on every shared hand under every profile.
    """
    may_flip = ring is None  # seats numbered counter-clockwise are found at the small blind's post
    if ring is None:
        ring = clockwise(hand)
    bet = _Betting(hand, prof, ring)
    idx = bet.idx
    street = bet.street  # a local copy of bet.street, read for every action: a method that changes the
    # street besides new_round must also update this copy
    for a in hand.actions:
        seq, a_street, player, kind, _amount, _rt, _ai, c, _cards, _at, _left_table = a
        i = idx.get(player, -1)
        if i < 0:
            continue
        if a_street is not street and a_street is not _SHOWDOWN and kind not in _DEAD_POST:
            bet.new_round(seq, i, a_street)
            street = a_street
        if kind is _K_FOLD or kind is _K_CHECK or kind is _K_CALL or kind is _K_BET or kind is _K_RAISE:
            bet.decide(a, i, seq, player, kind, c)
        elif kind is _K_SB or kind is _K_BB or kind is _K_STRADDLE:
            down = bet.post_live_blind(a, i, may_flip)
            if down is not None:
                return replay(hand, prof, down)
        elif kind in _DEAD_POST:
            bet.post_dead(i, kind, c)
        elif kind is _K_RETURN:
            bet.uncalled_return(a, i)
        # else: show, muck, cash-out: no betting state
    return bet.finish()


_new_row = tuple.__new__  # a state row without NamedTuple.__new__'s Python-level call


class _Betting:
    """One hand's betting while ``replay`` walks its actions: the ring, the per-player lists (indexed by
    ring position) and the street's state machine (rules_matrix.md §3.1: current bet B, full increment F,
    the level each player last acted at), with the betting checks that need exactly that state.

    Why slots: every action reads and writes this state, and slot attributes are the cheapest Python
    attributes; the hot methods still bind what they use to locals first.
    """

    __slots__ = (
        "B", "F", "acted_ctr", "acted_short", "allin", "bb", "bb_player", "bb_ref", "behind",
        "bets_in_round", "big_bet", "button_blind", "call_basis", "cap", "cap_game", "cap_headsup", "capped",
        "contributed", "cumulative", "dead", "decided", "expected", "folded", "full_level", "hand", "hid", "idx",
        "kept", "last_aggr", "last_post_seq", "last_short_inc", "level", "limit", "mississippi", "n", "online",
        "oot_alt", "oot_skip", "out", "positions", "pot", "pot_limit", "prof", "r003", "r003_allin",
        "r003_counted_B", "reopen_ctr", "review_cap", "ring", "rng", "sb_player", "short_ctr", "small_bet", "soft",
        "stacks", "states", "straddle_F", "straddle_alt_F", "straddle_anchor", "straddler", "stray_seq",
        "stray_who", "street", "street_bet",
    )

    # the hand and its ring
    hand: Hand
    prof: Profile
    hid: str
    ring: list[str]  # active players clockwise from the first seat left of the button
    n: int
    rng: range
    idx: dict[str, int]  # player -> ring index
    positions: list[str]
    stacks: list[int]  # starting stacks
    # per ring index
    behind: list[int]  # chips behind now
    contributed: list[int]  # net of uncalled returns
    street_bet: list[int]  # street total
    folded: list[bool]
    dead: list[int]  # BB antes and dead blinds (main-pot money, not a betting level)
    allin: list[bool]
    capped: list[bool]  # PokerStars CAP games: reached the cap (all-in with chips behind)
    level: list[int]  # B when the player last acted on this street (_NONE: has not acted)
    acted_ctr: list[int]  # reopen_ctr when the player last acted on this street
    acted_short: list[int]  # short_ctr when the player last acted on this street
    # what the replay produces
    states: list[ActionState]
    out: list[Finding]
    kept: list[dict[int, int]]  # kept_in_hand, computed on the first skipped turn
    # the rulebook and the game
    cap_game: bool
    limit: bool
    pot_limit: bool
    r003: bool
    cumulative: bool
    online: bool
    soft: bool
    cap: int | None  # limit games: the book's cap on bets + raises per round (None: no cap)
    cap_headsup: bool
    review_cap: int
    # the blinds
    bb: int
    small_bet: int
    big_bet: int
    bb_player: int
    sb_player: int
    button_blind: bool
    bb_ref: int
    last_post_seq: int
    # the betting round and the order of action
    street: Street
    B: int
    call_basis: int
    F: int
    reopen_ctr: int
    bets_in_round: int
    full_level: int
    last_aggr: int
    pot: int
    expected: int
    straddle_anchor: int
    mississippi: bool
    stray_seq: int
    stray_who: str
    straddler: int
    straddle_F: int
    straddle_alt_F: int
    short_ctr: int
    last_short_inc: int
    r003_allin: int
    r003_counted_B: int
    oot_skip: int
    oot_alt: int
    decided: bool

    def __init__(self, hand: Hand, prof: Profile, ring: list[str]) -> None:
        """The hand set up before its first action: ring, stacks, the rulebook's switches, the blinds."""
        self.hand, self.prof, self.hid = hand, prof, hand.hand_id
        self._seat(hand, ring)
        self._read_rulebook(prof, hand.betting)
        self._blind_levels(hand)
        self._start_betting(hand)

    def _seat(self, hand: Hand, ring: list[str]) -> None:
        """The ring's positions and stacks, and the per-player lists (seats sitting out start folded)."""
        n = len(ring)
        self.ring, self.n, self.rng = ring, n, range(n)
        self.idx = {p: i for i, p in enumerate(ring)}
        out_of_hand = sat_out(hand, ring) if any(map(_SITTING_OUT, hand.seats)) else []
        if out_of_hand:
            self.positions = ring_positions(hand, ring, out_of_hand)
        elif n == 2 and hand.button_seat is not None and _dead_button(hand, ring):
            self.positions = ["SB", "BB"]
        else:
            self.positions = position_labels(n)
        stack_of = {s.player: s.stack for s in hand.seats}
        self.stacks = stacks = [stack_of.get(p, 0) for p in ring]
        self.behind = stacks[:]
        self.contributed = [0] * n
        self.street_bet = [0] * n
        self.folded = folded = [False] * n
        self.dead = [0] * n
        for q in out_of_hand:
            folded[q] = True
        self.allin = [False] * n
        # PokerStars CAP games: a player who reaches the cap is treated as all-in (the parser writes the
        # site's "has reached the $X cap" as Action.all_in) though chips remain behind; an uncalled
        # return does not undo it
        self.cap_game = hand.betting == "CAP"
        self.capped = [False] * n
        self.level = [_NONE] * n
        self.acted_ctr = [0] * n
        self.acted_short = [0] * n
        self.states = []
        self.out = []
        self.kept = []

    def _read_rulebook(self, prof: Profile, betting: str) -> None:
        """The game's betting structure and the rulebook's switches the betting checks read."""
        self.limit = betting == "FL"
        self.pot_limit = betting == "PL"
        self.r003 = prof.family == "r003"
        self.cumulative = prof.cumulative_short_allins
        self.online = prof.key == "ONLINE"
        self.soft = prof.software_dealt
        self.cap = prof.limit_raise_cap
        self.cap_headsup = prof.limit_cap_headsup
        # T09 art. 34: the house sets the limit cap, so a long round is the floor's to judge (REVIEW)
        self.review_cap = prof.limit_cap_review_at if prof.limit_cap_source == "house_value" else 0

    def _blind_levels(self, hand: Hand) -> None:
        """The big blind (the written one, else the largest posted), the limit bet sizes, and where the
        blinds are looked for. One plain pass over the actions reads both the big blind posts and the last
        live post (a comprehension or generator apiece cost a frame each, every hand)."""
        n = self.n
        posted_bb: list[int] = []
        live_post_seqs: list[int] = []
        for a in hand.actions:
            kind = a.kind
            if kind is _K_BB:
                posted_bb.append(a.contribution)
            if kind in _LIVE_POST:
                live_post_seqs.append(a.seq)
        bb = hand.bb or (max(posted_bb) if posted_bb else 0)
        small_bet = bb
        if self.limit:
            full_bbs = [c for c in posted_bb if c > 0]
            small_bet = max(full_bbs) if full_bbs else bb
        self.bb, self.small_bet = bb, small_bet
        self.big_bet = 2 * small_bet  # limit games: the turn and river bet (888 writes $0.12/$0.25: see below)
        self.bb_player = -1
        self.sb_player = -1
        self.button_blind = n > 2 and hand.variant == "shortdeck"  # the button posts the only blind
        self.bb_ref = n - 1 if n == 2 else -1  # the big blind is the first BB poster clockwise from here
        self.last_post_seq = max(live_post_seqs, default=-1)

    def _start_betting(self, hand: Hand) -> None:
        """The state machine before the first action: preflop, nothing bet, F one big blind."""
        self.street = _PREFLOP
        self.B = 0  # current bet (street total to match)
        self.call_basis = 0  # R003 «BET MÍNIMO»: what a caller must match after a sub-BB opening all-in
        self.F = self.bb  # full increment
        self.reopen_ctr = 0
        self.bets_in_round = 0  # limit games: bets + raises this round (the blind counts as the first bet)
        self.full_level = 0  # limit games: the street total of the last full bet (a short all-in leaves it below B)
        self.last_aggr = -1
        self.pot = hand.site_added or 0  # money the site added (Cash Drop, STP) is in the pot from the deal
        self.expected = -2  # ring index of the player due to act; -2: not yet known; -1: nobody
        self.straddle_anchor = -1
        self.mississippi = False
        self.stray_seq, self.stray_who = -1, ""  # online: the first action the export writes for a folded player
        self.straddler = -1  # ring index of the last straddle post: who holds the live option (STRADDLE.LIVE_OPTION)
        self.straddle_F = 0  # F right after the straddles (each straddle a live blind)
        self.straddle_alt_F = 0  # F were the straddles raises rather than blinds (the books that do not say)
        self.short_ctr = 0  # short all-ins this street (TDA family, no limit): ALLIN.CUMULATIVE_REOPEN
        self.last_short_inc = 0  # the street's last bet/raise, when it was a short all-in: its increment
        self.r003_allin = 0  # R003: the street's last bet/raise was an all-in short of double: 1 counted (150%), 2 not
        self.r003_counted_B = 0  # R003: the street total of the last bet that counted as a raise
        # live: after an out-of-turn action the skipped player is due next (the action returns to them);
        # if the record goes on with someone else, the order continues from the out-of-turn player
        self.oot_skip = -1
        self.oot_alt = -2
        self.decided = False  # a voluntary decision (other than a sit-out fold) has been taken

    # ---- the ring: who is due ------------------------------------------------------------------

    def next_to_act(self, after: int) -> int:
        """The first player clockwise after ``after`` who still owes an action on this street (-1: nobody)."""
        B, call_basis = self.B, self.call_basis
        target = B if call_basis < B else call_basis
        folded = self.folded
        allin = self.allin
        level = self.level
        street_bet = self.street_bet
        n = self.n
        for k in range(1, n + 1):
            q = (after + k) % n
            if not folded[q] and not allin[q] and (level[q] == _NONE or street_bet[q] < target):
                if street_bet[q] >= target and level[q] == _NONE and self._free_to_act() == 1:
                    # everyone else is all-in or folded and this player is matched: no decision left
                    rng = self.rng
                    others_live = sum(1 for r in rng if r != q and not folded[r])
                    if others_live and all(allin[r] for r in rng if r != q and not folded[r]):
                        return -1
                return q
        return -1

    def _free_to_act(self) -> int:
        """How many players are neither folded nor all-in. ``next_to_act`` counts them only for a matched player
        who has not acted, the one case the count decides, not on every turn (a scan of the ring saved per turn)."""
        folded, allin = self.folded, self.allin
        live_free = 0
        for q in self.rng:
            if not folded[q] and not allin[q]:
                live_free += 1
        return live_free

    def _first_due(self) -> int:
        """Who opens the betting when the posts are in (preflop the straddle or the blinds set the opener)."""
        n = self.n
        if self.street is _PREFLOP:
            if self.mississippi:
                start = n - 1  # button straddle: the small blind opens
            else:
                anchor = self.straddle_anchor
                start = anchor if anchor >= 0 else (1 if n > 2 else 0)
                if anchor < 0 and self.sb_player >= 0 and n > 2:
                    start = self.sb_player  # no big blind posted: the seat after the small blind opens
            return self.next_to_act(start)
        return self.next_to_act(n - 1)

    # ---- a new betting round -------------------------------------------------------------------

    def new_round(self, seq: int, i: int, street: Street) -> None:
        """The action moved to a new street: check the old round closed in order, then reset the street."""
        self._close_round(seq, i, street)
        self._open_round(street)

    def _close_round(self, seq: int, i: int, next_street: Street) -> None:
        """ACTION.ORDER / STRADDLE.LIVE_OPTION: the round closed while a player was still due."""
        expected = self.expected
        allin, folded = self.allin, self.folded
        if expected >= 0 and self.online and not allin[i] and not folded[i] and self.behind[i] > 0:
            expected = _disconnected(
                self.hand, self.prof, self.idx, self.kept, expected, seq, self.ring, allin, folded, self.contributed,
                self.next_to_act, self.out,
            )
        if expected >= 0 and not all(folded[q] or q == expected for q in self.rng):
            straddler = self.straddler
            if (
                self.street is _PREFLOP and expected == straddler and self.level[straddler] == _NONE
                and self.street_bet[straddler] >= self.B
            ):
                self.out.append(_straddle_option(self.hand, self.prof, seq, self.ring[straddler], str(next_street)))
            else:
                self.out.append(
                    _skipped(self.hand, self.prof, seq, self.ring[expected], str(self.street), str(next_street))
                )

    def _open_round(self, street: Street) -> None:
        """Nothing bet on the new street: B and the street totals zero, F the street's bet size."""
        self.street = street
        zeros = [0] * self.n  # the lists are reset in place (slice assignment: one C loop each)
        self.street_bet[:] = zeros
        self.level[:] = [_NONE] * self.n
        self.acted_ctr[:] = zeros
        self.acted_short[:] = zeros
        self.B = self.call_basis = 0
        self.reopen_ctr = 0
        self.short_ctr = self.last_short_inc = self.r003_allin = self.r003_counted_B = 0
        self.bets_in_round = 0
        self.full_level = 0
        self.last_aggr = -1
        limit = self.limit
        self.F = self.big_bet if limit and street in (Street.TURN, Street.RIVER) else (
            self.small_bet if limit else self.bb
        )
        self.expected = self.next_to_act(self.n - 1)
        self.oot_skip = -1

    # ---- posts and returns ----------------------------------------------------------------------

    def post_live_blind(self, a: Action, i: int, may_flip: bool) -> list[str] | None:
        """A small blind, big blind or straddle: chips in, B (and for a straddle F) raised. Returns the
        counter-clockwise ring when the small blind's seat shows the seats run downwards (replay again)."""
        kind, c = a.kind, a.contribution
        behind = self.behind
        behind[i] -= c
        self.contributed[i] += c
        self.pot += c
        self.street_bet[i] += c
        if behind[i] <= 0:
            self.allin[i] = True
        if kind is _K_BB:
            self._post_big_blind(i)
        elif kind is _K_SB:
            if self.sb_player < 0:
                if i and may_flip and self.n > 2:
                    down = counter_clockwise(self.hand)
                    if down is not None:
                        return down
                self.sb_player = self.bb_ref = i
            self.B = max(self.B, self.street_bet[i])
        else:  # straddle: a live blind that raises B and F
            self._post_straddle(i, a.amount if a.amount is not None else c)
        self.expected = -2
        return None

    def _post_big_blind(self, i: int) -> None:
        """A big blind: the first one (clockwise from the small blind) anchors the preflop order."""
        bb_player = self.bb_player
        if bb_player < 0:
            self.bb_player = self.straddle_anchor = i
        elif self.straddle_anchor == bb_player and self.bb_ref >= 0:
            # several live big blinds (a returning player posts one out of position): the
            # big blind is the first of them clockwise from the small blind (heads-up with
            # no small blind posted, from the button), and the action starts left of it
            n, bb_ref = self.n, self.bb_ref
            d_new = (i - bb_ref) % n or n
            if d_new < ((bb_player - bb_ref) % n or n):
                self.bb_player = self.straddle_anchor = i
        self.B = B = max(self.B, self.street_bet[i], self.bb)
        self.bets_in_round = max(self.bets_in_round, 1)
        self.full_level = self.r003_counted_B = B

    def _post_straddle(self, i: int, amount: int) -> None:
        """A straddle: a live blind that raises B and F, and moves the preflop opener left of it."""
        n = self.n
        if self.button_blind and self.bb_player == n - 1:
            self.straddle_anchor = i  # GGPoker Short Deck: any seat straddles, its left opens
        elif n > 2 and i == n - 1 and self.straddle_anchor != n - 2:
            self.mississippi = True
        elif self.straddle_anchor >= 0 and i == (self.straddle_anchor + 1) % n:
            self.straddle_anchor = i
        B = self.B
        self.straddle_alt_F = max(self.straddle_alt_F, self.bb, self.street_bet[i] - B)
        self.F = F = max(self.F, amount)
        self.B = B = max(B, self.street_bet[i])
        self.bets_in_round += 1
        self.full_level = self.r003_counted_B = B
        self.straddler, self.straddle_F = i, F

    def post_dead(self, i: int, kind: Kind, c: int) -> None:
        """An ante, BB ante or dead blind: pot money that sets no betting level."""
        behind = self.behind
        behind[i] -= c
        self.contributed[i] += c
        if kind is not _K_ANTE:
            self.dead[i] += c
        self.pot += c
        if behind[i] <= 0:
            self.allin[i] = True

    def uncalled_return(self, a: Action, i: int) -> None:
        """POT.UNCALLED_RETURN: only the unmatched part of the top bet goes back; then the chips come back."""
        c, street_bet, n = a.contribution, self.street_bet, self.n
        bets = sorted(street_bet, reverse=True)
        excess = bets[0] - (bets[1] if n > 1 else 0) if street_bet[i] == bets[0] else 0
        if -c != excess and a.street is not _SHOWDOWN and not (
            -c > street_bet[i] and _dead_excess(-c, i, self.contributed, self.allin, self.folded)  # reaches a dead post
        ):
            self.out.append(_wrong_return(self.hand, self.prof, a, excess))
        behind = self.behind
        behind[i] -= c
        self.contributed[i] += c
        street_bet[i] += c
        self.pot += c
        if behind[i] > 0 and not self.capped[i]:
            self.allin[i] = False

    # ---- a decision: the state the player faced ----------------------------------------------------

    def decide(self, a: Action, i: int, seq: int, player: str, kind: Kind, c: int) -> None:
        """A fold, check, call, bet or raise (``a``, by player ``i``; its seq, player, kind and contribution
        unpacked once by the caller): whose turn it was, the state the player faced (one state row: the amount
        to match, reopening, who else owes an action, the minimum and maximum raise), the action's checks,
        and the betting state after it.

        Why one method for the common path: it runs for every decision, so what every decision needs is
        computed here on locals; what only some need (out-of-turn play, limit sizes, odd calls, raises) is
        in the helpers it calls.
        """
        if self.expected == i and self.oot_skip < 0 and seq > self.last_post_seq:
            # in turn: nothing to judge. This repeats _whose_turn's own in-turn test to save its call;
            # a check added there that must also run for in-turn actions belongs here too
            sitout, left, skipped = False, False, -1
        else:
            sitout, left, skipped = self._whose_turn(a, i, seq, kind)
        street_bet = self.street_bet  # one name per line: a longer tuple assignment builds a tuple
        behind = self.behind
        level = self.level
        folded = self.folded
        allin = self.allin
        mine = street_bet[i]
        stack_before = behind[i]
        B, call_basis, F = self.B, self.call_basis, self.F
        target = B if call_basis < B else call_basis
        owed = target - mine if target > mine else 0
        to_call = owed if owed < stack_before else stack_before
        lvl_i = level[i]
        if lvl_i == _NONE:
            reopened = True
        elif self.cumulative and not self.r003:
            # limit (TDA "Re-Opening the Bet" 47-B): facing half a full bet or more reopens
            reopened = (2 * (B - lvl_i) if self.limit else B - lvl_i) >= F
        else:
            reopened = self.acted_ctr[i] < self.reopen_ctr
        # one pass over the others: anyone free to act (not folded, not all-in), and who still owes
        others_free = False
        players_to_act = 0
        for q in self.rng:
            if q != i and not folded[q] and not allin[q]:
                others_free = True
                if level[q] == _NONE or street_bet[q] < target:
                    players_to_act += 1
        can_raise = reopened and stack_before > to_call and others_free
        all_max = mine + stack_before
        if self.limit:
            min_to, max_to, cap_reached = self._limit_sizes(a, kind, c, mine, stack_before, target)
        else:
            cap_reached = False
            min_to = (2 * target if target else self.bb) if self.r003 else B + F if B else F
            max_to = all_max
            if self.pot_limit:
                max_to = min(max_to, target + self.pot + owed)
        min_to = min_to if min_to < all_max else all_max
        max_to = max_to if max_to < all_max else all_max
        last_aggr = self.last_aggr
        facing = self.ring[last_aggr] if last_aggr >= 0 else None
        pot_before, full_before = self.pot, self.F

        # ---- apply and check ------------------------------------------------------------------
        raise_to: int | None = None
        if kind is _K_FOLD:
            folded[i] = True
        elif kind is _K_CHECK:
            if owed > 0 and stack_before > 0:
                self.out.append(_illegal_check(self.hand, self.prof, a, owed, to_call))
        elif kind is _K_CALL:
            if c != to_call:  # a call of exactly the amount owed raises nothing
                self._odd_call(a, i, mine, stack_before, to_call)
        else:
            raise_to = self._bet_or_raise(a, i, mine, stack_before, target, to_call, reopened, min_to, max_to,
                                          cap_reached)
        if c:
            behind[i] -= c
            self.contributed[i] += c
            street_bet[i] += c
            self.pot += c
        if kind is not _K_FOLD and kind is not _K_CHECK:
            if behind[i] <= 0:
                allin[i] = True
            elif self.cap_game and a.all_in:
                allin[i] = self.capped[i] = True
        level[i] = self.B
        self.acted_ctr[i] = self.reopen_ctr
        self.acted_short[i] = self.short_ctr
        self.states.append(_new_row(ActionState, (
            self.hid, seq, player, _VALUE[self.street], self.positions[i], _VALUE[kind], c, raise_to, to_call, target,
            min_to if can_raise else None, max_to if can_raise else None, full_before, reopened, pot_before,
            players_to_act, stack_before, mine, facing, allin[i],
        )))
        if sitout:
            self.expected = -2
        elif not left:
            expected = self.next_to_act(i) if seq > self.last_post_seq else -2
            if skipped >= 0 and expected >= 0 and not folded[skipped] and not allin[skipped]:
                self.oot_skip, self.oot_alt, expected = skipped, expected, skipped
            self.expected = expected
            self.decided = True

    def _whose_turn(self, a: Action, i: int, seq: int, kind: Kind) -> tuple[bool, bool, int]:
        """Judge the order of action: returns (sitout, left, skipped). ``sitout``: the site folding a seat
        at the deal (no order; the due player is found again); ``left``: an action that takes nobody's turn;
        ``skipped``: live, the player an out-of-turn action skipped, who stays due (-1: none)."""
        expected = self.expected
        if expected == -2:
            expected = self._first_due()
        if self.oot_skip >= 0:
            if i != self.oot_skip:
                expected = self.oot_alt
            self.oot_skip = -1
        self.expected = expected
        if seq < self.last_post_seq or (
            self.online and kind is _K_FOLD and self.street is _PREFLOP and not self.decided and expected != i
            and self.level[i] == _NONE
        ):
            # a fold before the blinds are in, or (online, where software enforces the order) an
            # out-of-turn fold before anyone has decided: the site folding a sitting-out seat at the deal
            self.expected = -2
            return True, False, -1
        if a.left_table and expected != i:
            # the site folded a player who left the table (Action.left_table), where the export writes the
            # leave: no decision taken in turn, so no order to judge, and the due player is still asked
            return False, True, -1
        if expected != i:
            allin, folded = self.allin, self.folded
            if self.online and not allin[i] and not folded[i] and self.behind[i] > 0:
                # online, a player able to act (not a stray action) skipped a player who left it to the site
                expected = self.expected = _disconnected(
                    self.hand, self.prof, self.idx, self.kept, expected, seq, self.ring, allin, folded,
                    self.contributed, self.next_to_act, self.out,
                )
            if expected != i:
                return self._acted_out_of_turn(a, i, seq, kind, expected)
        return False, False, -1

    def _acted_out_of_turn(self, a: Action, i: int, seq: int, kind: Kind, expected: int) -> tuple[bool, bool, int]:
        """ACTION.ORDER (or STRADDLE.ACTION_ORDER) for an action while ``expected`` was due; returns
        (sitout, left, skipped) as ``_whose_turn``."""
        hand, prof, player = self.hand, self.prof, a.player
        stale = self.behind[i] <= 0 and not self.capped[i]  # nothing behind the export's starting stack
        due = self.ring[expected] if expected >= 0 else None
        oot = _out_of_turn(hand, prof, a, due, stale, self.stacks[i])
        straddler = self.straddler
        if (
            straddler >= 0 and (self.straddle_anchor == straddler or self.mississippi)  # the straddle set the opener
            and self.street is _PREFLOP and not self.decided and oot.severity != DATA
        ):
            oot = _straddle_order(hand, prof, oot, a, due, self.mississippi)
        if self.soft and self.folded[i] and oot.severity == ERROR and self.stray_seq < 0:
            # online the software never asks a folded player: the export writes a stray action
            self.stray_seq, self.stray_who = seq, player
            oot = _stray(oot, player, kind)
        self.out.append(oot)
        if not self.soft:
            return False, False, expected  # live: the skipped player stays due (the action returns to them)
        if kind is _K_FOLD and expected >= 0:
            return False, True, -1  # online a fold out of turn takes nobody's turn: the due player is still asked
        return False, False, -1

    def _limit_sizes(
        self, a: Action, kind: Kind, c: int, mine: int, stack_before: int, target: int
    ) -> tuple[int, int, bool]:
        """Limit games: the fixed raise size (min_to, max_to) and whether the round's raise cap is reached."""
        B, F, big_bet, street = self.B, self.F, self.big_bet, self.street
        if (
            kind is _K_BET
            and not B
            and F == big_bet == 2 * self.small_bet
            and mine + c == big_bet + 1
            and self.hand.unit_scale > 1
            and c < stack_before
            and (street is Street.TURN or street is Street.RIVER)
        ):
            # the small bet was written rounded down (888 "$0.12/$0.25": 12.5 units), so the
            # big bet is one unit above twice it; the hand's own first big bet says so
            self.big_bet = self.F = F = mine + c
        size = F
        full_level = self.full_level
        if self.online and not self.r003 and full_level < B:
            # online limit: a short all-in bet or raise may be completed, or completed and raised
            min_to, max_to = full_level + size, full_level + 2 * size
        else:
            min_to = max_to = target + size if target else size
        bets, cap, folded = self.bets_in_round, self.cap, self.folded
        if self.review_cap and bets + 1 == self.review_cap and kind is _K_RAISE:
            self.out.append(_house_cap(self.hand, self.prof, a, bets + 1, sum(1 for q in self.rng if not folded[q])))
        cap_reached = False
        if cap and bets >= cap:
            live = 0
            for q in self.rng:
                if not folded[q]:
                    live += 1
            if live > 2 or self.cap_headsup:
                cap_reached = True
        return min_to, max_to, cap_reached

    # ---- a decision: apply and check ---------------------------------------------------------------

    def _odd_call(self, a: Action, i: int, mine: int, stack_before: int, to_call: int) -> None:
        """A call of other than the amount owed: a disconnect all-in, an undercall, or an export's overcall."""
        hand, prof, c = self.hand, self.prof, a.contribution
        if self.online and a.all_in and not c and to_call and i in kept_in_hand(hand, self.idx):
            # a call of nothing written all-in (iPoker): the site's disconnect protection
            self.allin[i] = True
            self.out.append(_disconnect(hand, prof, a.seq, a.player, self.contributed[i]))
        elif c < to_call and c < stack_before:
            self.out.append(
                _undercall(hand, prof, a, c, to_call, B=self.B, call_basis=self.call_basis, mine=mine,
                           folded=self.folded, bets=self.bets_in_round)
            )
        elif c > to_call:
            self.out.append(_call_amount(hand, a, to_call))

    def _bet_or_raise(
        self, a: Action, i: int, mine: int, stack_before: int, target: int, to_call: int, reopened: bool,
        min_to: int, max_to: int, cap_reached: bool,
    ) -> int:
        """A bet or raise: its checks, then the new betting state. Returns the street total it raises to."""
        c = a.contribution
        raise_to = mine + c
        if raise_to <= self.B:
            self.out.append(_raise_not_above(self.hand, a, raise_to, self.B))
            return raise_to
        goes_allin = c >= stack_before
        self._check_raise(a, i, raise_to, goes_allin, target, to_call, reopened, min_to, max_to, cap_reached)
        self._raise_level(i, raise_to, goes_allin)
        return raise_to

    def _check_raise(
        self, a: Action, i: int, raise_to: int, goes_allin: bool, target: int, to_call: int, reopened: bool,
        min_to: int, max_to: int, cap_reached: bool,
    ) -> None:
        """A raise's betting findings: not reopened or over the limit cap, below the minimum, above the maximum."""
        hand, prof, out = self.hand, self.prof, self.out
        B, F, limit = self.B, self.F, self.limit
        if not reopened:
            out.append(_not_reopened(hand, prof, a, raise_to, B, F=F, lvl=self.level[i], to_call=to_call, limit=limit,
                                     shorts=self.short_ctr - self.acted_short[i]))
        elif cap_reached:
            out.append(_over_cap(hand, prof, a, self.cap, self.bets_in_round))
        if reopened and raise_to < min_to and not goes_allin:
            alt_min = (
                B + self.straddle_alt_F
                if self.street is _PREFLOP and self.straddler >= 0 and self.straddle_F == F and not self.r003
                and not limit
                else 0
            )
            out.extend(
                _below_min(hand, prof, a, raise_to, target, B=B, F=F, min_to=min_to, limit=limit,
                           short_inc=self.last_short_inc, r003_allin=self.r003_allin, r003_prev=self.r003_counted_B,
                           alt_min=alt_min)
            )
        if raise_to > max_to and (self.pot_limit or limit):
            out.append(_over_max(hand, prof, a, raise_to, max_to, self.pot_limit))

    def _raise_level(self, i: int, raise_to: int, goes_allin: bool) -> None:
        """The betting state after a bet or raise to ``raise_to`` (rules_matrix §3.1): B, F, reopening."""
        B, F = self.B, self.F
        inc = raise_to - B
        if self.r003:
            prof, bb = self.prof, self.bb
            if B == 0:
                counted = raise_to >= bb or not goes_allin
                if goes_allin and raise_to < bb and prof.short_open_allin_call_basis == "bb":
                    self.call_basis = bb
            else:
                counted = not goes_allin or raise_to * prof.allin_raise_den >= B * prof.allin_raise_num
            self.r003_allin = (1 if counted else 2) if B and goes_allin and raise_to < 2 * B else 0
            if counted:
                self.reopen_ctr += 1
                self.r003_counted_B = raise_to
                self.F = max(F, inc) if B else max(bb, raise_to)
        elif self.limit:  # the bet size is fixed; an all-in of half a bet or more reopens (47-B)
            if 2 * inc >= F or not goes_allin:
                self.reopen_ctr += 1
            if raise_to - self.full_level >= F:
                self.full_level = raise_to
        elif inc >= F or not goes_allin:
            self.F = max(F, inc)
            self.reopen_ctr += 1
            self.last_short_inc = 0
        else:  # a short all-in: B rises, F stays (rules_matrix §3.1)
            self.short_ctr += 1
            self.last_short_inc = inc
        self.B = raise_to
        self.bets_in_round += 1
        self.last_aggr = i

    # ---- the end of the hand -------------------------------------------------------------------

    def finish(self) -> Replay:
        """The hand's result, after the findings that rest on the export's own inconsistencies are marked
        DATA and over-stack contributions are reported."""
        out, ring, stacks, contributed = self.out, self.ring, self.stacks, self.contributed
        if self.stray_seq >= 0:
            # the betting state from the stray action on is the export's (its chips count in the street bets)
            out[:] = [_stray_consequence(f, self.stray_who, self.stray_seq) for f in out]
        over = [q for q in self.rng if contributed[q] > stacks[q]]
        if over and self.soft:
            # online: the export's starting stacks contradict its own actions (stale stacks), so the betting
            # state every finding of the hand rests on is the export's inconsistency, not a player's act
            names = ", ".join(f"{ring[q]} on {fmt(stacks[q])}" for q in over)
            out[:] = [_stale_consequence(f, names) for f in out]
        for q in over:
            out.append(over_stack(self.hand, self.prof, ring[q], stacks[q], contributed[q]))
        return Replay(ring, self.positions, stacks, contributed, self.folded, self.allin, self.states, out,
                      self.bb_player, self.sb_player, self.dead)


def _wrong_return(hand: Hand, prof: Profile, a: Action, excess: int) -> Finding:
    """POT.UNCALLED_RETURN: a return of other than the unmatched part of the top bet."""
    back = -a.contribution
    return Finding(
        hand.hand_id,
        a.seq,
        "POT.UNCALLED_RETURN",
        ERROR,
        False,
        None,
        f"return {fmt(excess)}",
        f"returned {fmt(back)}",
        f"{a.player} got {fmt(back)} back as uncalled, but the unmatched part of the bet was"
        f" {fmt(excess)}: the uncalled excess goes back, nothing else."
        + prof.cite("POT.UNCALLED_RETURN"),
    )


def _illegal_check(hand: Hand, prof: Profile, a: Action, owed: int, to_call: int) -> Finding:
    """ACTION.ILLEGAL_CHECK: a check while facing a bet, with chips behind."""
    return Finding(
        hand.hand_id,
        a.seq,
        "ACTION.ILLEGAL_CHECK",
        ERROR,
        False,
        None,
        f"call {fmt(to_call)} or fold",
        "check",
        f"{a.player} checked while facing {fmt(owed)} to call." + prof.cite("ACTION.ILLEGAL_CHECK"),
    )


def _call_amount(hand: Hand, a: Action, to_call: int) -> Finding:
    """DATA.CALL_AMOUNT: the export writes a call above what its own bets and stacks owe."""
    c = a.contribution
    return Finding(
        hand.hand_id,
        a.seq,
        "DATA.CALL_AMOUNT",
        DATA,
        False,
        None,
        f"call {fmt(to_call)}",
        f"call {fmt(c)}",
        f"Export inconsistency (call amount): {a.player}'s call is written as {fmt(c)} but the"
        f" export's own bets and stacks owe {fmt(to_call)}.",
    )


def _raise_not_above(hand: Hand, a: Action, raise_to: int, B: int) -> Finding:
    """DATA.RAISE_NOT_ABOVE_BET: the export's own amounts put a bet or raise at or below the current bet."""
    kind = a.kind
    return Finding(
        hand.hand_id,
        a.seq,
        "DATA.RAISE_NOT_ABOVE_BET",
        DATA,
        False,
        None,
        f"raise above {fmt(B)}",
        f"{kind} to {fmt(raise_to)}",
        f"Export inconsistency (raise amount): {a.player}'s {kind} is written to {fmt(raise_to)}, not"
        f" above the current bet {fmt(B)} of the export's own amounts.",
    )


def _over_cap(hand: Hand, prof: Profile, a: Action, cap: int | None, bets: int) -> Finding:
    """BET.LIMIT_RAISE_CAP: a raise after the round reached the book's cap of ``cap`` bets."""
    return Finding(
        hand.hand_id,
        a.seq,
        "BET.LIMIT_RAISE_CAP",
        ERROR,
        False,
        None,
        f"at most {cap} bets per round",
        f"bet number {bets + 1}",
        f"{a.player} raised after the round was capped at {cap} bets."
        + prof.cite("BET.LIMIT_RAISE_CAP"),
    )


def _over_max(hand: Hand, prof: Profile, a: Action, raise_to: int, max_to: int, pot_limit: bool) -> Finding:
    """BET.POT_LIMIT_MAX / BET.LIMIT_SIZE: a pot-limit or limit bet or raise above the maximum."""
    kind, player = a.kind, a.player
    rule = "BET.POT_LIMIT_MAX" if pot_limit else "BET.LIMIT_SIZE"
    basis = "B + pot + call" if pot_limit else "the fixed bet size"
    return Finding(
        hand.hand_id,
        a.seq,
        rule,
        ERROR,
        False,
        None,
        f"raise to at most {fmt(max_to)} ({basis})",
        f"{kind} to {fmt(raise_to)}",
        f"{player}'s {kind} to {fmt(raise_to)} is above the maximum {fmt(max_to)}." + prof.cite(rule),
    )


def _disconnected(
    hand: Hand,
    prof: Profile,
    idx: dict[str, int],
    kept: list[dict[int, int]],
    q: int,
    seq: int,
    ring: list[str],
    allin: list[bool],
    folded: list[bool],
    contributed: list[int],
    next_to_act: Callable[[int], int],
    out: list[Finding],
) -> int:
    """Online: due players the site kept in the hand who never act again are all-in (disconnect
    protection, reported as info); returns the player due after them. A module function that takes
    ``_Betting``'s lists: it runs only on an online round that closes with someone due.
    """
    if not kept:
        kept.append(kept_in_hand(hand, idx))
    while q >= 0 and kept[0].get(q, seq) < seq and not allin[q] and not folded[q]:
        allin[q] = True
        out.append(_disconnect(hand, prof, seq, ring[q], contributed[q]))
        q = next_to_act(q)
    return q


def _disconnect(hand: Hand, prof: Profile, seq: int, who: str, put_in: int) -> Finding:
    """Info: the site made a player who stopped acting all-in (disconnect protection), not an error."""
    return Finding(
        hand.hand_id,
        seq,
        "ACTION.ORDER",
        INFO,
        False,
        None,
        f"{who} to act",
        f"{who} disconnected, all-in for {fmt(put_in)}",
        f"{who} never acted again but the site kept them in the hand, all-in for the {fmt(put_in)} they had"
        " put in (online disconnect protection); the players still in bet on into a side pot."
        + prof.cite("ACTION.ORDER"),
    )


def _undercall(
    hand: Hand,
    prof: Profile,
    a: Action,
    c: int,
    to_call: int,
    *,
    B: int,
    call_basis: int,
    mine: int,
    folded: list[bool],
    bets: int,
) -> Finding:
    """A call that put in less than owed and stood (the player is not all-in).

    ERROR where the book's text decides: CEP's two mandatory cases (the opening bet with more than
    two players, any bet heads-up: a full call), PKR (a lower-value chip is a call), online (the
    software allows no undercall), R003's call based on the big blind after a sub-BB opening all-in.
    REVIEW where the book leaves it to the floor (CEP in every other case, «se somete a la decisión
    del DT»; TDA 2009 and R003 have no undercall rule): the rulings full call / forfeit and fold are
    listed, and the finding says the record shows the partial call standing.
    """
    hid = hand.hand_id
    if call_basis > B and mine + c >= B:
        return Finding(
            hid,
            a.seq,
            "BET.MIN_ALLIN_BELOW_BB",
            ERROR,
            False,
            None,
            f"call {fmt(to_call)} (one big blind)",
            f"call {fmt(c)}",
            f"After an opening all-in smaller than the big blind, {a.player}'s call must be based on the big"
            f" blind ({fmt(call_basis)}), not the all-in amount." + prof.cite("BET.MIN_ALLIN_BELOW_BB"),
        )
    live = sum(1 for f in folded if not f)
    mandatory = (bets <= 1 and live > 2) or live == 2
    msg = f"{a.player} put in {fmt(c)} facing {fmt(to_call)} and stayed in the hand for less than the call."
    shows = f"call {fmt(c)} stood"
    if prof.undercall in ("software_enforced", "lower_value_chip_is_call") or (
        prof.undercall == "mandatory_cases" and mandatory
    ):
        why = {
            "software_enforced": " The site's software takes a full call or an all-in; a partial call cannot stand.",
            "lower_value_chip_is_call": f" {prof.name} counts a chip of lower value as a call, so the full"
            " call is owed.",
        }.get(prof.undercall, " Facing the opening bet with more than two players, or any bet heads-up,"
              " an undercall is a mandatory full call.")
        return finding(
            hid, a.seq, "UNDERCALL.FULL_CALL", ERROR, f"full call {fmt(to_call)}", shows,
            msg + why + prof.cite("UNDERCALL.FULL_CALL"),
        )
    if prof.undercall == "mandatory_cases":
        why = (
            f" Not the opening bet and not heads-up ({live} players in, {bets} bets this round), so {prof.name}"
            " leaves the undercall to the TD: a full call, or the undercall forfeited and the hand folded."
            " The record shows the partial call standing."
        )
    else:
        why = (
            f" {prof.name} has no undercall rule, so the ruling is the floor's: a full call, or the undercall"
            " forfeited and the hand folded (the usual rulings, rules_matrix UNDERCALL.FULL_CALL). The record"
            " shows the partial call standing."
        )
    return review(
        hid, a.seq, "UNDERCALL.FULL_CALL", _UNDERCALL_RULINGS,
        f"floor's ruling: full call {fmt(to_call)} or forfeit {fmt(c)} and fold", shows,
        msg + why + prof.cite("UNDERCALL.FULL_CALL/house"),
    )


#: the rulings a floor may make on an undercall the book leaves to it (rules_matrix §3.2)
_UNDERCALL_RULINGS = ("full_call", "forfeit_undercall_and_fold")


#: the rulings each ``params.oot_policy`` value allows for an out-of-turn action (rules_matrix
#: ACTION.OUT_OF_TURN); "unspecified": the book says nothing, so the floor chooses
_OOT_RULINGS: dict[str, tuple[str, ...]] = {
    "binding": ("action_binding", "action_binding_with_penalty"),
    "binding_with_penalty": ("action_binding_with_penalty",),
    "binding_with_verbal_sanction": ("action_binding_with_verbal_sanction",),
    "return_bet_all_options": ("not_binding_all_options", "not_binding_all_options_with_penalty"),
    "may_change_but_chips_stay": ("may_change_action_chips_stay", "action_binding"),
    "call_or_fold_forfeit_unless_later_raise": ("call_prior_bet", "fold_forfeiting_bet"),
    "any_action": ("any_action",),
    "unspecified": ("action_binding", "action_returned_all_options"),
}
#: what each ``params.oot_policy`` value means, for the finding's message
_OOT_TEXT: dict[str, str] = {
    "binding": "binding",
    "binding_with_penalty": "binding, and the book penalizes it",
    "binding_with_verbal_sanction": "binding, with a verbal sanction",
    "return_bet_all_options": "not binding: any chips go back and the player has every option",
    "may_change_but_chips_stay": "the player may change the action, but chips bet stay in the pot",
    "call_or_fold_forfeit_unless_later_raise": "the bettor must call the bet before their turn or fold,"
    " forfeiting what they bet",
    "any_action": "freed by a later raise: any action",
    "unspecified": "not stated by the book",
}


def _action_changed(hand: Hand, a: Action) -> str | None:
    """Who bet or raised after ``a`` (same street) before its player acted again: the action to them changed."""
    later = False
    for b in hand.actions:
        if b.seq == a.seq:
            later = True
            continue
        if not later or b.street is not a.street:
            continue
        if b.player == a.player:
            return None
        if b.kind is _K_BET or b.kind is _K_RAISE:
            return b.player
    return None


def _out_of_turn(hand: Hand, prof: Profile, a: Action, due: str | None, stale: bool, stack: int) -> Finding:
    """ACTION.ORDER for an action taken when someone else (or nobody) was due.

    Online the software keeps the order: a player with nothing behind who acts is a stale stack in the
    export (DATA); any other out-of-order action is an ERROR (the site's software or the record broke
    it). Live, every book makes an out-of-turn action binding while the action to that player has not
    changed and lets the floor rule otherwise (and on penalties): REVIEW with that book's rulings.
    """
    who = f"{due or 'nobody (betting was closed)'} to act"
    did = f"{a.player} acted"
    if prof.software_dealt:
        if stale:
            return finding(
                hand.hand_id, a.seq, "ACTION.ORDER", DATA, who, did,
                f"Export inconsistency (stale stack): the export starts {a.player} on {fmt(stack)}, all of it"
                f" already in the pot, yet {a.player} acts again; the site only asks players with chips behind.",
            )
        return finding(
            hand.hand_id, a.seq, "ACTION.ORDER", ERROR, who, did,
            f"{a.player} acted when {due or 'nobody'} was due; the site's software keeps the turn order."
            + prof.cite("ACTION.ORDER"),
        )
    pol = prof.oot_policy
    changer = _action_changed(hand, a)
    if a.kind is _K_FOLD and "oot_fold" in pol:
        key, state = pol["oot_fold"], "an out-of-turn fold"
    elif "oot_bettor" in pol and (a.kind is _K_BET or a.kind is _K_RAISE):
        key = "any_action" if changer else pol["oot_bettor"]
        state = f"{changer} raised after it" if changer else "no later player raised"
    else:
        key = pol.get("changed" if changer else "unchanged", "unspecified")
        state = f"the action to {a.player} changed ({changer} bet or raised)" if changer else (
            f"the action to {a.player} did not change before their turn"
        )
    rulings = _OOT_RULINGS.get(key, _OOT_RULINGS["unspecified"])
    basis = _OOT_TEXT.get(key, key.replace("_", " "))
    return review(
        hand.hand_id, a.seq, "ACTION.ORDER", rulings, f"{who}; floor's ruling ({basis})",
        f"{a.player} {a.kind} out of turn, stood",
        f"{a.player} acted out of turn when {due or 'nobody'} was due; {state}. Under {prof.name} that is"
        f" {basis}, and the floor rules (and may penalize). The record shows the action standing."
        + prof.cite(_oot_passage(prof, a.kind, key)),
    )


def _oot_passage(prof: Profile, kind: Kind, key: str) -> str:
    """The citation key of an out-of-turn finding: a book's own passage on out-of-turn folds (PKR, R003),
    else its out-of-turn rule, else (the book silent) its floor clause."""
    if kind is _K_FOLD and "ACTION.ORDER/oot_fold" in prof.citations:
        return "ACTION.ORDER/oot_fold"
    return "ACTION.ORDER/oot" if key != "unspecified" else "ACTION.ORDER/house"


def _stale_consequence(f: Finding, names: str) -> Finding:
    """A betting finding of a hand whose starting stacks the export's own actions contradict, as DATA."""
    if f.severity not in (ERROR, WARNING):
        return f
    return finding(
        f.hand_id, f.action_seq, f.rule_id, DATA, f.expected, f.actual,
        f"Export inconsistency (stale stack: the export starts {names}, less than its own actions put in),"
        " so the betting state this rests on is the export's, not a player's: " + uncited(f.message),
    )


def _skipped(hand: Hand, prof: Profile, seq: int, due: str, street: str, next_street: str) -> Finding:
    """ACTION.ORDER for a betting round that closed with a player still due (the skipped player).

    CEP: the skipped player must defend their right to act; otherwise the out-of-turn action stands
    and the TD decides how to treat the skipped hand. The other books are silent: the floor's call.
    Online the software closes rounds, so a skipped player is an ERROR of the software or the record.
    """
    expected, actual = f"{due} to act on {street}", f"{street} closed, {next_street} began"
    text = f"The {street} betting round closed while {due} still had to act."
    if prof.software_dealt:
        return finding(hand.hand_id, seq, "ACTION.ORDER", ERROR, expected, actual, text + prof.cite("ACTION.ORDER"))
    own = "ACTION.ORDER/skipped" in prof.citations
    return review(
        hand.hand_id, seq, "ACTION.ORDER", ("skipped_hand_live", "skipped_hand_dead"), expected, actual,
        text + (" The action that skipped them stands and the TD decides how to treat the skipped hand."
                if own else f" {prof.name} does not say how to treat a skipped player: the floor decides.")
        + prof.cite("ACTION.ORDER/skipped" if own else "ACTION.ORDER/house"),
    )


def over_stack(hand: Hand, prof: Profile, who: str, stack: int, put_in: int) -> Finding:
    """POT.CHIP_CONSERVATION: a player put in more than their starting stack.

    Online the software cannot take chips a player does not have: the starting stack the export
    wrote is stale (DATA). Live, chips came into play during the hand: an ERROR.
    """
    expected, actual = f"at most {fmt(stack)} (starting stack)", f"put in {fmt(put_in)}"
    if prof.software_dealt:
        return finding(
            hand.hand_id, None, "POT.CHIP_CONSERVATION", DATA, expected, actual,
            f"Export inconsistency (stale stack): the export starts {who} on {fmt(stack)}, but its own actions"
            f" put {fmt(put_in)} of {who}'s chips in the pot, {fmt(put_in - stack)} more than the stack.",
        )
    return finding(
        hand.hand_id, None, "POT.CHIP_CONSERVATION", ERROR, expected, actual,
        f"{who} put in {fmt(put_in)}, more than the {fmt(stack)} they started with."
        + prof.cite("POT.CHIP_CONSERVATION"),
    )


def _not_reopened(
    hand: Hand, prof: Profile, a: Action, raise_to: int, B: int, *, F: int, lvl: int, to_call: int, limit: bool = False,
    shorts: int = 0,
) -> Finding:
    """A raise by a player whose betting was not reopened by the short all-in(s) since they acted.

    ``shorts``: short all-ins since the player acted. Two or more that together reach the full raise F
    reopen under the books that say the test is what the player faces (CEP, PKR «no se enfrentan a una
    subida completa»; online, TDA 2022): never here. TDA 2009 art. 31 does not say whether they add up,
    so such a raise is REVIEW with both readings; short all-ins that add up to less than F reopen under
    no reading: ALLIN.CUMULATIVE_REOPEN, ERROR.
    """
    facing = B - lvl
    if shorts >= 2 and not limit and prof.family != "r003":
        expected, actual = f"call {fmt(to_call)} or fold", f"raise to {fmt(raise_to)}"
        if facing >= F:  # the literal reading closed it (the profile's states), the cumulative one reopens
            return review(
                hand.hand_id, a.seq, "ALLIN.CUMULATIVE_REOPEN",
                ("reopened_short_allins_add_up", "not_reopened_no_single_full_raise"),
                f"floor's ruling: raise allowed (the {shorts} short all-ins add up to {fmt(facing)} >= {fmt(F)})"
                " or call/fold only (no single full raise)", f"raise to {fmt(raise_to)} stood",
                f"{a.player} re-raised after {shorts} short all-ins that together raised the bet by {fmt(facing)},"
                f" at least the full raise {fmt(F)}, though none alone was a full raise. {prof.name} does not say"
                " whether short all-ins add up (TDA 2022 says they do), so the floor rules whether betting"
                " reopened." + cite_article(prof, "ALLIN.CUMULATIVE_REOPEN") + cite_house(prof),
            )
        return finding(
            hand.hand_id, a.seq, "ALLIN.CUMULATIVE_REOPEN", ERROR, expected, actual,
            f"{a.player} already acted and the {shorts} short all-ins since add up to {fmt(facing)}, less than the"
            f" full raise {fmt(F)}: betting was not reopened, so they may only call or fold."
            + cite_article(prof, "ALLIN.CUMULATIVE_REOPEN"),
        )
    if prof.family == "r003":
        return Finding(
            hand.hand_id,
            a.seq,
            "ALLIN.RAISE_150PCT",
            ERROR,
            False,
            None,
            f"call {fmt(to_call)} or fold",
            f"raise to {fmt(raise_to)}",
            f"{a.player} re-raised after an all-in below 150% of the previous bet, which is not a raise and"
            " reopens nothing." + prof.cite("ALLIN.RAISE_150PCT"),
        )
    basis = (
        f"faces {fmt(facing)} since acting at {fmt(lvl)}, less than half the fixed bet {fmt(F)} (limit: an"
        " all-in of half a bet or more reopens, TDA 47-B)"
        if limit and prof.cumulative_short_allins
        else f"faces {fmt(facing)} since acting at {fmt(lvl)}, less than the full raise {fmt(F)}"
        if prof.cumulative_short_allins
        else "no full raise since acting (short all-ins do not add up under this rulebook)"
    )
    return Finding(
        hand.hand_id,
        a.seq,
        "ALLIN.SHORT_NO_REOPEN",
        ERROR,
        False,
        None,
        f"call {fmt(to_call)} or fold",
        f"raise to {fmt(raise_to)}",
        f"{a.player} already acted and {basis}, so betting was not reopened: they may only call or fold."
        + prof.cite("ALLIN.SHORT_NO_REOPEN"),
    )


def _below_min(
    hand: Hand, prof: Profile, a: Action, raise_to: int, target: int, *, B: int, F: int, min_to: int, limit: bool,
    short_inc: int = 0, r003_allin: int = 0, r003_prev: int = 0, alt_min: int = 0,
) -> list[Finding]:
    """A non-all-in bet or raise below the minimum that stood.

    After a short all-in (``short_inc``: its increment, the street's last raise) the minimum is
    ALLIN.MIN_RAISE_AFTER_SHORT: CEP (and online) B + the largest full increment, ERROR; TDA 2009 «la
    anterior subida» and PKR «la última apuesta o subida» also read as B + the short increment, so a
    raise between the two is REVIEW; R003 after an all-in that counted (150%) doubles the all-in, ERROR,
    and after one that did not, «la apuesta previa» is the all-in or the last counted bet: REVIEW between.
    Preflop with a straddle (``alt_min``: the minimum were the straddles raises, not blinds), a raise
    between the two is STRADDLE.LIVE_OPTION (ERROR where the book says the straddle is a blind).
    """
    hid = hand.hand_id
    if B == 0 and not limit:
        return [
            Finding(
                hid,
                a.seq,
                "BET.MIN_BET",
                ERROR,
                False,
                None,
                f"bet at least {fmt(min_to)} (one big blind)",
                f"bet {fmt(raise_to)}",
                f"{a.player} opened for {fmt(raise_to)}, less than the big blind, without being all-in."
                + prof.cite("BET.MIN_BET"),
            )
        ]
    if limit:
        return [
            Finding(
                hid,
                a.seq,
                "BET.LIMIT_SIZE",
                ERROR,
                False,
                None,
                f"raise to {fmt(min_to)}",
                f"raise to {fmt(raise_to)}",
                f"{a.player}'s limit raise to {fmt(raise_to)} is not the fixed size." + prof.cite("BET.LIMIT_SIZE"),
            )
        ]
    rule = "RAISE.MIN"
    if alt_min and raise_to >= alt_min:
        return [_straddle_min(hand, prof, a, raise_to, min_to, alt_min)]
    if prof.family == "r003":
        basis = f"at least double the previous bet {fmt(target)}"
        if r003_allin == 1:
            rule, basis = "ALLIN.MIN_RAISE_AFTER_SHORT", f"double the all-in {fmt(target)}, which counted as a raise"
        elif r003_allin == 2:
            rule = "ALLIN.MIN_RAISE_AFTER_SHORT"
            other = 2 * r003_prev
            if prof.r003_prev_bet_after_non_raise_allin == "unstated" and raise_to >= other:
                return [_min_after_short_review(
                    hand, prof, a, raise_to, (min_to, f"double the all-in {fmt(target)}"),
                    (other, f"double the last bet that counted, {fmt(r003_prev)}"),
                    "an all-in under 150% is not a raise, and the book does not say whether «la apuesta previa» is"
                    " then the all-in or the bet before it",
                )]
            basis = f"double the all-in {fmt(target)} (or {fmt(other)}, double the last bet that counted)"
    elif short_inc:
        rule = "ALLIN.MIN_RAISE_AFTER_SHORT"
        other = B + short_inc
        basis = (f"the current bet {fmt(B)} plus the largest full increment {fmt(F)}; the all-in's"
                 f" {fmt(short_inc)} is not one")
        if prof.min_raise_after_short == "unstated" and raise_to >= other:
            return [_min_after_short_review(
                hand, prof, a, raise_to, (min_to, f"{fmt(B)} + the last full raise {fmt(F)}"),
                (other, f"{fmt(B)} + the short all-in's increment {fmt(short_inc)}"),
                "the book's minimum is «the previous raise», which after a short all-in reads as the last full"
                " raise or the all-in's own increment",
            )]
    else:
        basis = f"the current bet {fmt(B)} plus the largest full increment {fmt(F)}"
    aspect = rule + ("/uncounted" if r003_allin == 2 else "")
    found = [
        Finding(
            hid,
            a.seq,
            rule,
            ERROR,
            False,
            None,
            f"raise to at least {fmt(min_to)} ({basis})",
            f"raise to {fmt(raise_to)}",
            f"{a.player} raised to {fmt(raise_to)} without being all-in; the minimum was {fmt(min_to)}, {basis}."
            + (prof.cite(rule) if rule == "RAISE.MIN" else cite_article(prof, aspect)),
        )
    ]
    if prof.fifty_pct_rule:
        found.append(_fifty_pct_ruling(hand, prof, a, raise_to, B=B, F=F, min_to=min_to))
    return found


def _fifty_pct_ruling(hand: Hand, prof: Profile, a: Action, raise_to: int, *, B: int, F: int, min_to: int) -> Finding:
    """The books with the 50% rule say what the short raise should have been (INFO beside the finding):
    an increment of at least half the full raise F is a full raise to the minimum, less is a call of B."""
    hid = hand.hand_id
    inc = raise_to - B
    if 2 * inc >= F:
        return Finding(
            hid,
            a.seq,
            "RAISE.FIFTY_PCT",
            INFO,
            False,
            None,
            f"raise to exactly {fmt(min_to)}",
            f"raise to {fmt(raise_to)}",
            f"The increment {fmt(inc)} is at least 50% of {fmt(F)}: the correct ruling was a full"
            f" raise to exactly {fmt(min_to)}." + prof.cite("RAISE.FIFTY_PCT"),
        )
    return Finding(
        hid,
        a.seq,
        "RAISE.UNDER_FIFTY_IS_CALL",
        INFO,
        False,
        None,
        f"call {fmt(B)}, {fmt(raise_to - B)} returned",
        f"raise to {fmt(raise_to)}",
        f"The increment {fmt(inc)} is under 50% of {fmt(F)}: without a declared raise the correct"
        f" ruling was a call of {fmt(B)} with the excess returned."
        + prof.cite("RAISE.UNDER_FIFTY_IS_CALL"),
    )


def _min_after_short_review(
    hand: Hand, prof: Profile, a: Action, raise_to: int, first: tuple[int, str], second: tuple[int, str], why: str
) -> Finding:
    """ALLIN.MIN_RAISE_AFTER_SHORT where the book's minimum reads two ways and the raise is between them."""
    (hi, hi_text), (lo, lo_text) = first, second
    return review(
        hand.hand_id, a.seq, "ALLIN.MIN_RAISE_AFTER_SHORT",
        ("raise_stands_lower_minimum", "raise_corrected_to_minimum"),
        f"floor's ruling: minimum {fmt(hi)} ({hi_text}) or {fmt(lo)} ({lo_text})",
        f"raise to {fmt(raise_to)} stood",
        f"{a.player} raised to {fmt(raise_to)} after a short all-in: legal if the minimum is {fmt(lo)} ({lo_text}),"
        f" short if it is {fmt(hi)} ({hi_text}). Under {prof.name} {why}, so the floor rules."
        + cite_article(prof, "ALLIN.MIN_RAISE_AFTER_SHORT/uncounted" if prof.family == "r003"
                       else "ALLIN.MIN_RAISE_AFTER_SHORT") + cite_house(prof),
    )


def _live_severity(prof: Profile) -> str:
    """STRADDLE.LIVE_OPTION: ERROR where the book says the straddle is a live blind (PKR); online a site
    default no seed states (WARNING); REVIEW where a live book is silent (R003, and the tournament books
    that provide no straddle at all)."""
    if prof.straddle_live_stated:
        return ERROR
    return WARNING if prof.software_dealt else REVIEW


_LIVE_RULINGS = ("straddle_live_blind", "straddle_not_live")


def _straddle_option(hand: Hand, prof: Profile, seq: int, who: str, next_street: str) -> Finding:
    """STRADDLE.LIVE_OPTION: preflop closed on calls of the straddle without the straddler's option."""
    sev = _live_severity(prof)
    expected, actual = f"{who} (straddle) may still raise preflop", f"preflop closed, {next_street} began"
    text = (f"Everyone matched {who}'s straddle and the preflop round closed without {who} acting: a straddle is a"
            " live blind, so its poster keeps the option to raise.")
    if sev == REVIEW:
        return review(
            hand.hand_id, seq, "STRADDLE.LIVE_OPTION", _LIVE_RULINGS, expected, actual,
            text + f" {prof.name} does not say whether a straddle is live, so the floor rules."
            + cite_article(prof, "STRADDLE.LIVE_OPTION") + cite_house(prof),
        )
    return finding(hand.hand_id, seq, "STRADDLE.LIVE_OPTION", sev, expected, actual,
                   text + cite_article(prof, "STRADDLE.LIVE_OPTION"))


def _straddle_min(hand: Hand, prof: Profile, a: Action, raise_to: int, min_to: int, alt_min: int) -> Finding:
    """STRADDLE.LIVE_OPTION: a preflop raise short of the straddle-based minimum, not of the blind-based one."""
    sev = _live_severity(prof)
    expected = f"raise to at least {fmt(min_to)} (the straddle is a blind: the full raise is the straddle)"
    actual = f"raise to {fmt(raise_to)}"
    text = (f"{a.player} raised to {fmt(raise_to)}: enough were the straddle a raise ({fmt(alt_min)}), short of"
            f" {fmt(min_to)} with the straddle a live blind that sets the full raise.")
    if sev == REVIEW:
        return review(
            hand.hand_id, a.seq, "STRADDLE.LIVE_OPTION", _LIVE_RULINGS, expected, f"{actual} stood",
            text + f" {prof.name} does not say, so the floor rules." + cite_article(prof, "STRADDLE.LIVE_OPTION")
            + cite_house(prof),
        )
    return finding(hand.hand_id, a.seq, "STRADDLE.LIVE_OPTION", sev, expected, actual,
                   text + cite_article(prof, "STRADDLE.LIVE_OPTION"))


def _straddle_order(
    hand: Hand, prof: Profile, oot: Finding, a: Action, due: str | None, mississippi: bool
) -> Finding:
    """STRADDLE.ACTION_ORDER: the first preflop action after a straddle came from the wrong seat.

    R003 names the opener (left of the straddle; the small blind after a Mississippi): ERROR. PKR's
    straddle is «una ciega extra», so the seat left of it opens (implied), and the tournament books have
    no straddle: the out-of-turn finding stays a REVIEW under the book's own out-of-turn rulings.
    Online the software keeps the order: the ACTION.ORDER severity stands (ERROR).
    """
    aspect = "STRADDLE.ACTION_ORDER/mississippi" if mississippi else "STRADDLE.ACTION_ORDER"
    seat = "the small blind, after the button straddle" if mississippi else "left of the straddle"
    opener = f"{due or 'nobody'} ({seat})"
    lead = f"After the straddle, {opener} opens the preflop action; {a.player} acted first. "
    if prof.straddle_order_stated:
        return finding(
            hand.hand_id, a.seq, "STRADDLE.ACTION_ORDER", ERROR, f"{due or 'nobody'} opens preflop",
            f"{a.player} opened", lead + "The out-of-turn bettor's own options follow the book's out-of-turn rule."
            + cite_article(prof, aspect),
        )
    return oot._replace(rule_id="STRADDLE.ACTION_ORDER", message=lead + oot.message + cite_article(prof, aspect))


def _house_cap(hand: Hand, prof: Profile, a: Action, bet_no: int, live: int) -> Finding:
    """BET.LIMIT_RAISE_CAP where the book leaves the cap to the house (TDA 2009 art. 34): a long limit
    round is the floor's to check against the house's cap, never an ERROR on a number the book lacks."""
    heads = (" Heads-up the cap still applies, unless only two players are left in the tournament, which one"
             " hand does not show.") if live == 2 else ""
    return review(
        hand.hand_id, a.seq, "BET.LIMIT_RAISE_CAP", ("within_house_cap", "over_house_cap"),
        "the house's raise cap (the book sets no number)", f"bet number {bet_no} stood",
        f"{a.player} made bet number {bet_no} of the round. {prof.name} applies the house's limit on raises"
        f" in limit tournaments, which no record states, so the floor checks it.{heads}"
        + cite_article(prof, "BET.LIMIT_RAISE_CAP"),
    )


def _dead_excess(back: int, i: int, contributed: list[int], allin: list[bool], folded: list[bool]) -> bool:
    """The return is what player ``i`` put in beyond everything any other player put in, with every other
    player all-in or folded: money nobody can match, though part of it was a dead post (antes all-in
    for different amounts: PKR "posts ante of 20 (all-in)" after an ante of 10 all-in, 10 returned)."""
    others = max((contributed[q] for q in range(len(contributed)) if q != i), default=0)
    return (
        back == contributed[i] - others > 0
        and all(allin[q] or folded[q] for q in range(len(contributed)) if q != i)
    )


def _stray(f: Finding, who: str, kind: Kind) -> Finding:
    """ACTION.ORDER online for an action the export writes for a player who had folded (DATA)."""
    return finding(
        f.hand_id, f.action_seq, f.rule_id, DATA, f.expected, f.actual,
        f"Export inconsistency (stray action): the export writes a {kind} for {who} after {who} folded; the"
        " site's software never asks a folded player to act.",
    )


def _stray_consequence(f: Finding, who: str, seq: int) -> Finding:
    """A betting finding at or after an online stray action, as DATA: it rests on the stray chips."""
    if f.severity not in (ERROR, WARNING) or f.action_seq is None or f.action_seq < seq:
        return f
    return finding(
        f.hand_id, f.action_seq, f.rule_id, DATA, f.expected, f.actual,
        f"Export inconsistency (stray action: the export writes an action for {who} after {who} folded), so the"
        " betting state this rests on is the export's, not a player's: " + uncited(f.message),
    )
