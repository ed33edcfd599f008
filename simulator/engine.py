"""One no-limit hold'em cash hand, played exactly: posts, betting, side pots, rake, awards.

Why a plain class with parallel lists: this runs 50,000 times a night's worth in seconds, so the
state is integers in lists indexed by the player's place in the hand (0 = first left of the
button), and the record it leaves is tuples the writers turn into text.

Rules implemented: min bet one big blind; min raise = the last full raise increment; an all-in
for less than a full raise does not reopen the betting for players who already acted; uncalled
chips are returned; side pots by contribution level; rake (5%, capped, rounded down, only once a
flop is dealt) is taken from the pots in proportion, the remainder from the main pot; split pots
give the odd cent to the first winner left of the button.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from datetime import datetime

from .cards import EVAL7, PREFLOP, draw_bonus, fast_strength, hand_strength, preflop_equity, rollout_equity
from .policy import CALL, CHECK, FOLD, RAISE, EquityKnobs, View, decide, decide_equity, pot_odds
from .styles import Style

STREET_NAMES = ("preflop", "flop", "turn", "river")
CLOSE = 0.06  # equity players refine their quick postflop equity by run-outs this near the price


@dataclass(slots=True)
class SimPlayer:
    name: str
    style: Style
    team: int | None = None
    family: str | None = None
    role: str | None = None  # chip dumping: "receiver" or "dumper"
    partners: frozenset[str] = frozenset()
    confounder: str | None = None
    buddies: tuple[str, ...] = ()  # players this one likes to sit with (team or friends)
    impl: str = ""  # the team's implementation of its family (collusion.IMPLEMENTATIONS)
    knobs: EquityKnobs | None = None  # set: decides by the equity model, else by the style
    leave: float = 1 / 70  # chance per hand to end the session
    affinity: float = 1.0  # scales how often this player follows and brings buddies
    stake: int = 0  # big blind of the only games this player joins (0: any)


@dataclass(slots=True)
class TableInfo:
    name: str
    max_seats: int
    sb: int
    bb: int
    rake_cap: int


@dataclass(slots=True)
class HandRecord:
    """Everything a writer needs; indices refer to ``players`` (hand order from the small blind)."""

    hand_no: int
    table: TableInfo
    started_at: datetime
    button_seat: int
    seat_nos: list[int]
    players: list[SimPlayer]
    stacks: list[int]
    sb_i: int
    bb_i: int
    holes: list[tuple[int, int]]
    board: list[int]  # cards actually dealt
    # (street, i, kind, amount, raise_to, all_in, contribution); kind in post_sb post_bb fold check
    # call bet raise uncalled
    actions: list[tuple[int, int, str, int, int, bool, int]] = field(default_factory=list)
    folded_on: list[int] = field(default_factory=list)  # street folded, -1 if never
    contrib: list[int] = field(default_factory=list)
    shown: list[int] = field(default_factory=list)  # showdown order
    pots: list[tuple[int, list[int]]] = field(default_factory=list)  # (amount after rake, eligible)
    awards: list[tuple[int, int, int]] = field(default_factory=list)  # (pot_no, i, amount)
    total: int = 0
    rake: int = 0
    acts: list[tuple[int, str, tuple[str, ...]]] = field(default_factory=list)  # team, act, who
    quiet: frozenset[int] = frozenset()  # teams whose tactic does not fire this hand
    final: list[int] = field(default_factory=list)


class HandSim:
    """Plays one hand. ``players`` are in order from the first seat left of the button."""

    def __init__(
        self,
        rec: HandRecord,
        rng: random.Random,
        collude: bool = True,
        fast: bool = False,
    ) -> None:
        self.rec = rec
        self.rng = rng
        self.collude = collude
        #: random worlds sample strength with floats (several times cheaper); classic keeps its stream
        self.sample_strength = fast_strength if fast else hand_strength
        n = len(rec.players)
        self.n = n
        self.stack = list(rec.stacks)
        self.bet = [0] * n
        self.contrib = [0] * n
        self.folded = [False] * n
        self.allin = [False] * n
        self.acted = [False] * n
        self.folded_on = [-1] * n
        self.street = 0
        self.cur_bet = 0
        self.last_inc = rec.table.bb
        self.raises = 0
        self.aggressor = -1  # last bettor / raiser on the current street
        self.street_log: list[tuple[int, str, int]] = []  # (i, kind, raise_to) this street
        self.strength_cache: dict[tuple[int, int], float] = {}
        self.equity_cache: dict[tuple[int, int, int], float] = {}
        self.replay_state: object = None  # rng state before a dead-card player's honest decision
        #: heads-up the button is the small blind and the big blind acts first after the flop
        self.post_first = 1 if n == 2 else 0

    # -- chips -------------------------------------------------------------------------------
    def _put(self, i: int, amount: int) -> int:
        amount = min(amount, self.stack[i])
        self.stack[i] -= amount
        self.bet[i] += amount
        self.contrib[i] += amount
        if self.stack[i] == 0:
            self.allin[i] = True
        return amount

    def _log(self, i: int, kind: str, amount: int, raise_to: int, contribution: int) -> None:
        self.rec.actions.append((self.street, i, kind, amount, raise_to, self.allin[i], contribution))

    # -- strength ----------------------------------------------------------------------------
    def strength(self, i: int) -> float:
        key = (i, self.street)
        got = self.strength_cache.get(key)
        if got is not None:
            return got
        hole = self.rec.holes[i]
        if self.street == 0:
            s = PREFLOP[hole[0]][hole[1]]
        else:
            board = self.rec.board[: 2 + self.street]
            hs = self.sample_strength(hole, board, self.rng)
            s = min(1.0, hs + draw_bonus(hole, board) * (1.0 - hs))
        self.strength_cache[key] = s
        return s

    def equity(self, i: int, n_opp: int, price: float = -1.0) -> float:
        """Equity against ``n_opp`` random hands: preflop from the table; postflop the strength
        (share of hands beaten now plus draws) to the power of the opponents, refined by run-outs
        when it is within ``CLOSE`` of the ``price`` the player must beat (only there does the
        estimate decide anything, and run-outs are too dear for every decision)."""
        if self.street == 0:
            return preflop_equity(self.rec.holes[i], n_opp)
        quick = self.strength(i) ** min(max(n_opp, 1), 4)
        if abs(quick - price) >= CLOSE:
            return quick
        key = (i, self.street, n_opp)
        got = self.equity_cache.get(key)
        if got is None:
            got = rollout_equity(self.rec.holes[i], self.rec.board[: 2 + self.street], n_opp, self.rng)
            self.equity_cache[key] = got
        return got

    def opponents(self, i: int, v: View) -> int:
        """Opponents the equity is measured against: preflop those who put money in voluntarily."""
        if v.street:
            return v.n_opp
        return max(1, len({j for j, kind, _ in self.street_log if j != i and kind in (CALL, RAISE)
                           and not self.folded[j]}))

    def honest(self, i: int, v: View, delta: float = 0.0) -> tuple[str, int]:
        """The player's honest decision by his own model (style or equity); ``delta`` shifts his
        strength or equity (what a card-sharing player learns from a partner's cards)."""
        player = self.rec.players[i]
        if player.knobs is None:
            if delta:
                v = replace(v, strength=min(1.0, max(0.0, v.strength + delta)))
            return decide(player.style, v, self.rng)
        knobs = player.knobs
        price = pot_odds(v) + knobs.margin if v.to_call else knobs.value
        e = min(1.0, max(0.0, self.equity(i, self.opponents(i, v), price) + delta))
        return decide_equity(player.style, v, e, self.rng, knobs)

    def live(self) -> list[int]:
        return [i for i in range(self.n) if not self.folded[i]]

    # -- play --------------------------------------------------------------------------------
    def play(self) -> HandRecord:
        rec, bb = self.rec, self.rec.table.bb
        paid = self._put(rec.sb_i, rec.table.sb)
        self._log(rec.sb_i, "post_sb", paid, 0, paid)
        paid = self._put(rec.bb_i, bb)
        self._log(rec.bb_i, "post_bb", paid, 0, paid)
        self.cur_bet = bb
        self.raises = 1
        first = (rec.bb_i + 1) % self.n
        for street in range(4):
            self.street = street
            if street:
                rec.board = self.full_board[: 2 + street]
                self.bet = [0] * self.n
                self.cur_bet = 0
                self.last_inc = bb
                self.raises = 0
                self.aggressor = -1
                self.street_log = []
                self.acted = [False] * self.n
                first = self.post_first
            if sum(1 for i in range(self.n) if not self.folded[i] and not self.allin[i]) >= 2 or (
                street == 0
            ):
                self._betting_round(first)
            if self._return_uncalled() or len(self.live()) == 1:
                break
        self._finish()
        return rec

    def _betting_round(self, first: int) -> None:
        n = self.n
        i = first
        idle = 0
        folded, allin, acted, bet = self.folded, self.allin, self.acted, self.bet
        while idle < n:
            if folded[i] or allin[i] or (acted[i] and bet[i] >= self.cur_bet):
                idle += 1
                i = (i + 1) % n
                continue
            if bet[i] >= self.cur_bet and sum(1 for j in range(n) if not folded[j] and not allin[j]) == 1:
                break  # everyone else is all-in and we have matched: nothing to decide
            self._act(i)
            if folded.count(False) == 1:
                return
            idle = 0
            i = (i + 1) % n

    def _view(self, i: int) -> View:
        to_call = min(self.cur_bet - self.bet[i], self.stack[i])
        max_to = self.bet[i] + self.stack[i]
        others = [j for j in range(self.n) if j != i and not self.folded[j]]
        can_raise = (
            not self.acted[i]
            and max_to > self.cur_bet
            # raising is offered only when someone could still call more than the current bet
            and any(not self.allin[j] and self.bet[j] + self.stack[j] > self.cur_bet for j in others)
        )
        n, pf = self.n, self.post_first
        late = (
            i >= n - 2
            if self.street == 0
            else all((j - pf) % n < (i - pf) % n for j in others if not self.allin[j])
        )
        return View(
            street=self.street,
            strength=self.strength(i),
            to_call=to_call,
            pot=sum(self.contrib),
            cur_bet=self.cur_bet,
            min_to=self.cur_bet + self.last_inc if self.cur_bet else self.rec.table.bb,
            max_to=max_to,
            bb=self.rec.table.bb,
            n_opp=len(others),
            late=late,
            raises=self.raises,
            can_raise=can_raise,
        )

    def _act(self, i: int) -> None:
        v = self._view(i)
        player = self.rec.players[i]
        if player.impl == "dead_cards":
            self.replay_state = self.rng.getstate()
        choice = self.honest(i, v)
        if self.collude and player.team is not None and player.team not in self.rec.quiet:
            from .collusion import override

            choice = override(self, i, v, choice)
        kind, to = choice
        if kind == RAISE and not v.can_raise:
            kind = CALL if v.to_call else CHECK
        if kind == CALL and v.to_call == 0:
            kind = CHECK
        if kind == CHECK and v.to_call > 0:
            kind = FOLD
        if kind == FOLD:
            self.folded[i] = True
            self.folded_on[i] = self.street
            self._log(i, "fold", 0, 0, 0)
        elif kind == CHECK:
            self._log(i, "check", 0, 0, 0)
        elif kind == CALL:
            paid = self._put(i, v.to_call)
            self._log(i, "call", paid, 0, paid)
        else:
            to = min(max(to, v.min_to), v.max_to)
            paid = self._put(i, to - self.bet[i])
            inc = to - self.cur_bet
            if self.cur_bet == 0:
                self._log(i, "bet", paid, to, paid)
            else:
                self._log(i, "raise", inc, to, paid)
            if inc >= self.last_inc:  # a full raise reopens the betting
                self.last_inc = inc
                for j in range(self.n):
                    self.acted[j] = False
            self.cur_bet = to
            self.raises += 1
            self.aggressor = i
        self.acted[i] = True
        self.street_log.append((i, kind, to if kind == RAISE else 0))

    def _return_uncalled(self) -> bool:
        """Return the top bet's uncalled part; True when the hand is over (one player left)."""
        order = sorted(range(self.n), key=lambda j: self.bet[j], reverse=True)
        top, second = order[0], order[1]
        excess = self.bet[top] - self.bet[second]
        if excess > 0:
            self.stack[top] += excess
            self.bet[top] -= excess
            self.contrib[top] -= excess
            self.allin[top] = self.stack[top] == 0
            self._log(top, "uncalled", excess, 0, -excess)
        return len(self.live()) == 1

    # -- showdown and awards ----------------------------------------------------------------
    def _finish(self) -> None:
        rec = self.rec
        live = self.live()
        total = sum(self.contrib)
        if len(live) > 1:
            rec.board = self.full_board[:5]
        # no flop, no drop
        rake = min(rec.table.rake_cap, total * 5 // 100) if len(rec.board) >= 3 else 0
        rec.total, rec.rake = total, rake
        # pots by contribution level of the players still in
        levels = sorted({self.contrib[i] for i in live})
        pots: list[tuple[int, list[int]]] = []
        prev = 0
        for k, level in enumerate(levels):
            top = k == len(levels) - 1
            amount = sum(
                (c if top else min(c, level)) - min(c, prev) for c in self.contrib
            )
            if amount > 0:
                pots.append((amount, [i for i in live if self.contrib[i] >= level]))
            prev = level
        # rake in proportion to each pot, the remainder from the main pot
        shares = [amt * rake // total for amt, _ in pots] if total else [0] * len(pots)
        shares[0] += rake - sum(shares)
        rec.pots = [(amt - r, elig) for (amt, elig), r in zip(pots, shares, strict=True)]
        if len(live) == 1:
            rec.awards = [(0, live[0], rec.pots[0][0])]
        else:
            board = rec.board
            ranks = {i: EVAL7(rec.holes[i][0], rec.holes[i][1], *board) for i in live}
            for pot_no, (amt, elig) in enumerate(rec.pots):
                best = min(ranks[i] for i in elig)
                winners = sorted(
                    (i for i in elig if ranks[i] == best), key=lambda j: (j - self.post_first) % self.n
                )  # the odd cent goes to the first winner left of the button
                share, odd = divmod(amt, len(winners))
                for k, w in enumerate(winners):
                    rec.awards.append((pot_no, w, share + (1 if k < odd else 0)))
            rec.shown = self._show_order(live)
        won = [0] * self.n
        for _, w, amt in rec.awards:
            won[w] += amt
        rec.final = [self.stack[i] + won[i] for i in range(self.n)]
        rec.contrib = self.contrib
        rec.folded_on = self.folded_on

    def _show_order(self, live: list[int]) -> list[int]:
        """Last river aggressor shows first, else the first live player left of the button."""
        pf, n = self.post_first, self.n
        ordered = sorted(live, key=lambda j: (j - pf) % n)
        start = self.aggressor if self.street == 3 and self.aggressor in live else ordered[0]
        k = ordered.index(start)
        return ordered[k:] + ordered[:k]

    full_board: list[int]


def play_hand(
    rec: HandRecord, deck: list[int], rng: random.Random, collude: bool = True, fast: bool = False
) -> HandRecord:
    """Deal from ``deck`` (2 per player then 5 board cards) and play the hand out."""
    n = len(rec.players)
    rec.holes = [(deck[2 * k], deck[2 * k + 1]) for k in range(n)]
    sim = HandSim(rec, rng, collude, fast)
    sim.full_board = deck[2 * n : 2 * n + 5]
    rec.board = []
    return sim.play()
