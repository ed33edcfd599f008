"""One no-limit hold'em hand: blinds, betting rounds with min-raise and all-in rules, uncalled bets,
side pots, rake and the showdown. Amounts are integer cents; every hand conserves chips exactly.

The engine knows nothing of styles or teams: it asks ``decide(hand, i)`` for each decision and
records what happened as events that ``writer`` turns into PokerStars text.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from simulator.heldout.cards import evaluate

Event = tuple[Any, ...]
STREET_WORDS = ("before Flop", "on the Flop", "on the Turn", "on the River")


@dataclass
class SeatState:
    """A player in one hand: ``stack`` at the start, ``chips`` still behind."""

    seat_no: int
    name: str
    stack: int
    hole: tuple[int, int]
    chips: int = 0
    street_in: int = 0
    total_in: int = 0
    folded: bool = False
    allin: bool = False
    fold_street: int = -1
    won: int = 0

    def __post_init__(self) -> None:
        self.chips = self.stack


@dataclass
class Pot:
    amount: int  # after rake
    eligible: list[int]
    winners: list[int] = field(default_factory=list)


class HandState:
    """The state a policy may read: seats, board so far, street, bets, and the action history."""

    def __init__(self, seats: list[SeatState], button: int, sb: int, bb: int, board5: list[int],
                 rake_cap: int) -> None:
        self.seats = seats
        self.button = button  # index into seats
        self.sb, self.bb = sb, bb
        self.board5 = board5
        self.board: list[int] = []
        self.street = 0
        self.rake_cap = rake_cap
        self.current_bet = 0
        self.last_inc = bb
        self.raises = 0
        self.aggressor: int | None = None
        self.preflop_raiser: int | None = None
        self.acted: set[int] = set()
        self.faced: dict[int, int] = {}
        self.events: list[Event] = []
        #: (street, seat index, kind, street total after the action)
        self.history: list[tuple[int, int, str, int]] = []
        self.cache: dict[Any, Any] = {}
        self.pots: list[Pot] = []
        self.rake = 0
        self.total_pot = 0
        self.showdown = False
        self.shown: set[int] = set()
        self.mucked: set[int] = set()
        self.values: dict[int, int] = {}

    # --- what a policy reads -------------------------------------------------------------
    def n(self) -> int:
        return len(self.seats)

    def live(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.folded]

    def to_call(self, i: int) -> int:
        s = self.seats[i]
        return min(self.current_bet - s.street_in, s.chips)

    def max_to(self, i: int) -> int:
        s = self.seats[i]
        return s.street_in + s.chips

    def min_raise_to(self) -> int:
        return self.current_bet + self.last_inc

    def pot(self) -> int:
        return sum(s.total_in for s in self.seats)

    def can_raise(self, i: int) -> bool:
        s = self.seats[i]
        if s.chips <= self.current_bet - s.street_in:
            return False
        others = [j for j in self.live() if j != i and not self.seats[j].allin]
        if not others:
            return False
        return i not in self.acted or self.current_bet - self.faced.get(i, 0) >= self.last_inc

    def order_from(self, start: int) -> list[int]:
        n = self.n()
        return [(start + k) % n for k in range(n)]

    def position(self, i: int) -> float:
        """0.0 first to act preflop .. 1.0 on the button (blinds count as early for opening)."""
        n = self.n()
        d = (i - self.button) % n  # 0 button, 1 sb, 2 bb, 3 utg ...
        if d == 0:
            return 1.0
        if d in (1, 2):
            return 0.2
        return (d - 3) / max(n - 3, 1) * 0.8

    # --- actions ---------------------------------------------------------------------------
    def _put(self, i: int, amount: int) -> None:
        s = self.seats[i]
        s.chips -= amount
        s.street_in += amount
        s.total_in += amount
        if s.chips == 0:
            s.allin = True

    def post(self, i: int, amount: int, label: str) -> None:
        s = self.seats[i]
        amount = min(amount, s.chips)
        self._put(i, amount)
        self.current_bet = max(self.current_bet, s.street_in)
        self.events.append(("post", s.name, label, amount, s.allin))

    def apply(self, i: int, kind: str, to: int = 0) -> str:
        """Apply a decision, made legal: returns the kind actually taken."""
        s = self.seats[i]
        owe = self.to_call(i)
        if kind == "check" and owe > 0:
            kind = "fold"
        if kind == "call" and owe == 0:
            kind = "check"
        if kind in ("bet", "raise"):
            if not self.can_raise(i):
                kind = "call" if owe > 0 else "check"
            else:
                to = max(to, self.min_raise_to())
                to = min(to, self.max_to(i))
                kind = "bet" if self.current_bet == 0 else "raise"
        if kind == "fold":
            s.folded = True
            s.fold_street = self.street
            self.events.append(("fold", s.name))
        elif kind == "check":
            self.events.append(("check", s.name))
        elif kind == "call":
            self._put(i, owe)
            self.events.append(("call", s.name, owe, s.allin))
        else:
            prev = self.current_bet
            self._put(i, to - s.street_in)
            if to - prev >= self.last_inc:
                self.last_inc = to - prev
                self.acted = set()
            self.current_bet = to
            self.raises += 1
            self.aggressor = i
            if self.street == 0:
                self.preflop_raiser = i
            if kind == "bet":
                self.events.append(("bet", s.name, to, s.allin))
            else:
                self.events.append(("raise", s.name, to - prev, to, s.allin))
        self.acted.add(i)
        self.faced[i] = self.current_bet
        self.history.append((self.street, i, kind, s.street_in))
        return kind

    def _next_to_act(self, order: list[int]) -> int | None:
        able = [j for j in self.live() if not self.seats[j].allin]
        for j in order:
            s = self.seats[j]
            if s.folded or s.allin:
                continue
            owe = self.current_bet - s.street_in
            if owe > 0 or j not in self.acted:
                if owe <= 0 and len(able) <= 1:
                    continue  # nobody left to bet against
                return j
        return None

    def betting_round(self, start: int, decide: Callable[[HandState, int], tuple[str, int]]) -> None:
        order = self.order_from(start)
        pos = 0
        while len(self.live()) > 1:
            rotated = order[pos:] + order[:pos]
            j = self._next_to_act(rotated)
            if j is None:
                break
            kind, to = decide(self, j)
            self.apply(j, kind, to)
            pos = (order.index(j) + 1) % len(order)
        self._return_uncalled()

    def _return_uncalled(self) -> None:
        ranked = sorted(range(self.n()), key=lambda k: -self.seats[k].total_in)
        top, second = ranked[0], ranked[1]
        extra = self.seats[top].total_in - self.seats[second].total_in
        if extra > 0:
            s = self.seats[top]
            s.chips += extra
            s.total_in -= extra
            s.street_in -= extra
            s.allin = s.chips == 0
            self.events.append(("uncalled", s.name, extra))

    def new_street(self) -> None:
        self.street += 1
        self.board = self.board5[: (0, 3, 4, 5)[self.street]]
        for s in self.seats:
            s.street_in = 0
        self.current_bet = 0
        self.last_inc = self.bb
        self.raises = 0
        self.aggressor = None
        self.acted = set()
        self.faced = {}
        self.events.append(("street", self.street))

    # --- the end of the hand -------------------------------------------------------------
    def _build_pots(self) -> list[Pot]:
        remaining = {k: s.total_in for k, s in enumerate(self.seats)}
        pots: list[Pot] = []
        while any(v > 0 for v in remaining.values()):
            live = [k for k in self.live() if remaining[k] > 0]
            if not live:  # dead money above every live player: the last pot takes it
                pots[-1].amount += sum(remaining.values())
                break
            level = min(remaining[k] for k in live)
            amount = 0
            for k, left in remaining.items():
                take = min(left, level)
                amount += take
                remaining[k] -= take
            if pots and pots[-1].eligible == live:
                pots[-1].amount += amount
            else:
                pots.append(Pot(amount, live))
        return pots

    def _take_rake(self) -> None:
        self.total_pot = self.pot()
        self.rake = min(self.rake_cap, self.total_pot // 20) if self.street >= 1 else 0
        left = self.rake
        for p in self.pots:
            take = min(left, p.amount)
            p.amount -= take
            left -= take

    def _split(self, pot: Pot, winners: list[int]) -> None:
        share, odd = divmod(pot.amount, len(winners))
        by_seat = sorted(winners, key=lambda k: (k - self.button - 1) % self.n())
        pot.winners = winners
        for r, k in enumerate(by_seat):
            self.seats[k].won += share + (1 if r < odd else 0)

    def finish(self, rng: random.Random) -> None:
        """Pots, rake, showdown and awards (events in PokerStars order)."""
        self.pots = self._build_pots()
        self._take_rake()
        live = self.live()
        if len(live) == 1:
            for p in self.pots:
                self._split(p, live)
            w = self.seats[live[0]]
            self.events.append(("collect", w.name, w.won, "pot"))
            if rng.random() < 0.6:
                self.events.append(("noshow", w.name))
            return
        self.showdown = True
        self.events.append(("showdown",))
        for k in live:
            self.values[k] = evaluate(list(self.seats[k].hole) + self.board5)
        for p in self.pots:
            best = max(self.values[k] for k in p.eligible)
            self._split(p, [k for k in p.eligible if self.values[k] == best])
        winners = {k for p in self.pots for k in p.winners}
        allin_runout = any(self.seats[k].allin for k in live)
        last = self.aggressor if self.aggressor is not None and self.street == 3 else None
        first = last if last is not None else next(k for k in self.order_from(self.button + 1) if k in live)
        best_shown = -1
        for k in self.order_from(first):
            if k not in live:
                continue
            v = self.values[k]
            if allin_runout or k in winners or v >= best_shown or rng.random() < 0.08:
                self.shown.add(k)
                best_shown = max(best_shown, v)
                self.events.append(("show", self.seats[k].name, self.seats[k].hole, v))
            else:
                self.mucked.add(k)
                self.events.append(("muck", self.seats[k].name))
        labels = pot_labels(len(self.pots))
        for idx in range(len(self.pots) - 1, -1, -1):
            p = self.pots[idx]
            if p.amount == 0:
                continue
            shares = _shares(p.amount, p.winners, self)
            for k in sorted(p.winners, key=lambda k: (k - self.button - 1) % self.n()):
                self.events.append(("collect", self.seats[k].name, shares[k], labels[idx]))

    def chip_delta(self) -> dict[str, int]:
        return {s.name: s.won - s.total_in for s in self.seats}


def _shares(amount: int, winners: list[int], hand: HandState) -> dict[int, int]:
    share, odd = divmod(amount, len(winners))
    by_seat = sorted(winners, key=lambda k: (k - hand.button - 1) % hand.n())
    return {k: share + (1 if r < odd else 0) for r, k in enumerate(by_seat)}


def pot_labels(n: int) -> list[str]:
    if n == 1:
        return ["pot"]
    if n == 2:
        return ["main pot", "side pot"]
    return ["main pot"] + [f"side pot-{k}" for k in range(1, n)]


def play_hand(seats: list[SeatState], button: int, sb: int, bb: int, rake_cap: int,
              decide: Callable[[HandState, int], tuple[str, int]], rng: random.Random) -> HandState:
    """Deal and play one hand; seats must hold at least three players with chips ≥ big blind."""
    deck = list(range(52))
    rng.shuffle(deck)
    for k, s in enumerate(seats):
        s.hole = (deck[2 * k], deck[2 * k + 1])
    used = 2 * len(seats)
    hand = HandState(seats, button, sb, bb, deck[used: used + 5], rake_cap)
    n = len(seats)
    sbi, bbi = (button + 1) % n, (button + 2) % n
    hand.post(sbi, sb, "small blind")
    hand.post(bbi, bb, "big blind")
    hand.current_bet = bb
    hand.betting_round((bbi + 1) % n, decide)
    while hand.street < 3 and len(hand.live()) > 1:
        hand.new_street()
        if sum(1 for k in hand.live() if not seats[k].allin) >= 2:
            hand.betting_round((button + 1) % n, decide)
    hand.board = hand.board5[: (0, 3, 4, 5)[hand.street]]
    hand.finish(rng)
    return hand
