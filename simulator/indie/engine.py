"""One No-Limit Hold'em hand: blinds, betting rounds, all-ins, side pots, rake and showdown.

The engine owns the rules and the chips; it asks a ``decide`` callback for each action and makes
whatever comes back legal (a too-small raise becomes a call, a fold facing no bet a check), so a
policy bug can make odd poker but never an illegal or unbalanced hand. Everything that happens
is appended to ``Hand.events`` for the writer. Amounts are integer cents.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from .cards import rank7

STREETS = ("Preflop", "Flop", "Turn", "River")


@dataclass
class Seat:
    """A player dealt into this hand, and what they did in it."""

    seat: int
    name: str
    stack: int
    start: int = 0
    cards: tuple[int, int] = (0, 0)
    street_bet: int = 0
    total: int = 0
    folded: bool = False
    allin: bool = False
    acted_at: int = -1
    fold_street: int = -1
    won: int = 0
    shown: bool = False
    mucked: bool = False


@dataclass(frozen=True)
class Action:
    kind: str  # fold | check | call | bet | raise
    to: int = 0  # street total after a bet or raise


@dataclass(frozen=True)
class Event:
    """One line's worth of what happened; ``label`` is the verb, blind or pot name."""

    kind: str  # post | act | street | uncalled | show | muck | collect
    seat: int = -1
    amount: int = 0
    to: int = 0
    allin: bool = False
    label: str = ""


@dataclass
class Hand:
    """State of the hand in play; policies read it, only the engine writes it."""

    number: int
    bb: int
    seats: list[Seat]
    button: int  # index into seats
    sb_i: int
    bb_i: int
    posters: list[int]  # newcomers posting a big blind out of position
    board: list[int] = field(default_factory=list)
    street: int = 0
    current_bet: int = 0
    last_raise: int = 0
    raises: int = 0
    aggressor: int = -1
    street_actions: list[tuple[int, str]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    pots: list[tuple[int, list[int]]] = field(default_factory=list)
    rake: int = 0
    total_pot: int = 0
    showdown: bool = False

    @property
    def sb(self) -> int:
        return self.bb // 2

    def live(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.folded]

    def pot(self) -> int:
        return sum(s.total for s in self.seats)

    def to_call(self, i: int) -> int:
        s = self.seats[i]
        return min(self.current_bet - s.street_bet, s.stack)

    def min_raise_to(self) -> int:
        return self.current_bet + max(self.last_raise, self.bb) if self.current_bet else self.bb

    def can_raise(self, i: int) -> bool:
        s = self.seats[i]
        others = [j for j in self.live() if j != i and not self.seats[j].allin]
        return s.acted_at < self.raises and bool(others) and s.stack > self.current_bet - s.street_bet


Decide = Callable[[Hand, int], Action]


def _put(hand: Hand, i: int, amount: int) -> None:
    s = hand.seats[i]
    s.stack -= amount
    s.street_bet += amount
    s.total += amount
    if s.stack == 0:
        s.allin = True


def post_blinds(hand: Hand) -> None:
    """Small blind, big blind, then any newcomer's big blind (live, with the option)."""
    for i, label, amount in [(hand.sb_i, "small blind", hand.sb), (hand.bb_i, "big blind", hand.bb)] + [
        (p, "big blind", hand.bb) for p in hand.posters
    ]:
        paid = min(amount, hand.seats[i].stack)
        _put(hand, i, paid)
        hand.events.append(Event("post", i, paid, allin=hand.seats[i].allin, label=label))
    hand.current_bet = hand.bb
    hand.last_raise = hand.bb


def legalize(hand: Hand, i: int, act: Action) -> Action:
    """Nearest legal action to what the policy asked for."""
    s = hand.seats[i]
    owe = hand.to_call(i)
    kind = act.kind
    if kind in ("bet", "raise") and not hand.can_raise(i):
        kind = "call"
    if kind == "fold" and owe == 0:
        kind = "check"
    if kind == "check" and owe > 0:
        kind = "fold"
    if kind == "call" and owe == 0:
        kind = "check"
    if kind in ("fold", "check", "call"):
        return Action(kind)
    most = s.stack + s.street_bet
    to = max(act.to, hand.min_raise_to())
    to = min(to, most)
    if to <= hand.current_bet:
        return Action("call") if owe else Action("check")
    return Action("raise" if hand.current_bet else "bet", to)


def apply(hand: Hand, i: int, act: Action) -> None:
    """Move the chips for a legal action and log it."""
    s = hand.seats[i]
    s.acted_at = hand.raises
    if act.kind == "fold":
        s.folded, s.fold_street = True, hand.street
        hand.events.append(Event("act", i, label="folds"))
    elif act.kind == "check":
        hand.events.append(Event("act", i, label="checks"))
    elif act.kind == "call":
        amount = hand.to_call(i)
        _put(hand, i, amount)
        hand.events.append(Event("act", i, amount, allin=s.allin, label="calls"))
    else:
        before = hand.current_bet
        _put(hand, i, act.to - s.street_bet)
        increment = act.to - before
        if increment >= hand.last_raise or before == 0:
            hand.last_raise = max(increment, hand.bb)
            hand.raises += 1
            s.acted_at = hand.raises
        hand.current_bet = act.to
        hand.aggressor = i
        verb = "bets" if act.kind == "bet" else "raises"
        hand.events.append(Event("act", i, increment, act.to, s.allin, verb))
    hand.street_actions.append((i, act.kind))


def _next_to_act(hand: Hand, order: list[int]) -> int | None:
    for i in order:
        s = hand.seats[i]
        if s.folded or s.allin:
            continue
        if s.acted_at < 0 or s.street_bet < hand.current_bet:
            return i
    return None


def betting_round(hand: Hand, first: int, decide: Decide) -> None:
    """Ask players in turn until everyone still in has matched the bet or is all-in."""
    n = len(hand.seats)
    order = [(first + k) % n for k in range(n)]
    while len(hand.live()) > 1:
        i = _next_to_act(hand, order)
        if i is None:
            break
        if hand.seats[i].street_bet >= hand.current_bet and not hand.can_raise(i):
            hand.seats[i].acted_at = hand.raises
            continue
        apply(hand, i, legalize(hand, i, decide(hand, i)))
        pos = order.index(i)
        order = order[pos + 1:] + order[: pos + 1]
    _return_uncalled(hand)


def _return_uncalled(hand: Hand) -> None:
    bets = sorted(((s.street_bet, i) for i, s in enumerate(hand.seats)), reverse=True)
    top, i = bets[0]
    second = bets[1][0] if len(bets) > 1 else 0
    if top > second:
        back = top - second
        s = hand.seats[i]
        s.stack += back
        s.street_bet -= back
        s.total -= back
        s.allin = s.stack == 0
        hand.events.append(Event("uncalled", i, back))


def _new_street(hand: Hand, deck: list[int]) -> None:
    hand.street += 1
    hand.board.extend(deck.pop() for _ in range(3 if hand.street == 1 else 1))
    for s in hand.seats:
        s.street_bet = 0
        s.acted_at = -1
    hand.current_bet = hand.last_raise = hand.raises = 0
    hand.aggressor = -1
    hand.street_actions = []
    hand.events.append(Event("street", amount=hand.street))


def rake_for(hand: Hand, total: int) -> int:
    """About 5% of the pot, only once a flop is dealt, capped by stake and players dealt in."""
    if hand.street == 0:
        return 0
    dealt = len(hand.seats)
    cap = min(hand.bb * (1 if dealt == 2 else 2 if dealt <= 4 else 3), 300)
    return min(total * 5 // 100, cap)


def build_pots(hand: Hand) -> list[tuple[int, list[int]]]:
    """Main pot then side pots: (amount, indices of live players eligible to win it)."""
    levels = sorted({s.total for s in hand.seats if not s.folded})
    pots: list[tuple[int, list[int]]] = []
    prev = 0
    for level in levels:
        amount = sum(min(s.total, level) - min(s.total, prev) for s in hand.seats)
        eligible = [i for i, s in enumerate(hand.seats) if not s.folded and s.total >= level]
        if amount:
            if pots and eligible == pots[-1][1]:
                pots[-1] = (pots[-1][0] + amount, eligible)
            else:
                pots.append((amount, eligible))
        prev = level
    return pots


def _split_rake(pots: list[tuple[int, list[int]]], rake: int) -> list[tuple[int, list[int]]]:
    total = sum(a for a, _ in pots)
    cuts = [rake * a // total for a, _ in pots]
    cuts[0] += rake - sum(cuts)
    return [(a - c, e) for (a, e), c in zip(pots, cuts, strict=True)]


def _left_of_button(hand: Hand, winners: list[int]) -> list[int]:
    n = len(hand.seats)
    return sorted(winners, key=lambda i: (i - hand.button - 1) % n)


def award(hand: Hand, muck: Callable[[int], bool]) -> None:
    """Rake, pots, who shows, who mucks, who collects what."""
    hand.total_pot = hand.pot()
    hand.rake = rake_for(hand, hand.total_pot)
    pots = _split_rake(build_pots(hand), hand.rake)
    hand.pots = pots
    live = hand.live()
    if len(live) == 1:
        hand.seats[live[0]].won = hand.total_pot - hand.rake
        hand.seats[live[0]].stack += hand.seats[live[0]].won
        hand.events.append(Event("collect", live[0], hand.seats[live[0]].won, label="pot"))
        return
    hand.showdown = True
    ranks = {i: rank7((*hand.seats[i].cards, *hand.board)) for i in live}
    _reveal(hand, live, ranks, muck if len(pots) == 1 and not any(hand.seats[i].allin for i in live) else None)
    labels = ["pot"] if len(pots) == 1 else ["main pot"] + (
        ["side pot"] if len(pots) == 2 else [f"side pot-{k}" for k in range(1, len(pots))])
    for (amount, eligible), label in reversed(list(zip(pots, labels, strict=True))):
        contenders = [i for i in eligible if not hand.seats[i].mucked]
        best = min(ranks[i] for i in contenders)
        winners = _left_of_button(hand, [i for i in contenders if ranks[i] == best])
        share, odd = divmod(amount, len(winners))
        for k, w in enumerate(winners):
            got = share + (1 if k < odd else 0)
            hand.seats[w].won += got
            hand.seats[w].stack += got
            hand.events.append(Event("collect", w, got, label=label))


def _reveal(hand: Hand, live: list[int], ranks: dict[int, int], muck: Callable[[int], bool] | None) -> None:
    n = len(hand.seats)
    start = hand.aggressor if hand.aggressor >= 0 else (hand.button + 1) % n
    order = [(start + k) % n for k in range(n) if (start + k) % n in live]
    best = 9999
    for i in order:
        if muck is not None and ranks[i] > best and muck(i):
            hand.seats[i].mucked = True
            hand.events.append(Event("muck", i))
            continue
        best = min(best, ranks[i])
        hand.seats[i].shown = True
        hand.events.append(Event("show", i))


def play(hand: Hand, rng: random.Random, decide: Decide, muck: Callable[[int], bool]) -> None:
    """Deal and play the hand to the end; ``hand.events`` then holds the whole story."""
    deck = list(range(52))
    rng.shuffle(deck)
    for s in hand.seats:
        s.start = s.stack
        s.cards = (deck.pop(), deck.pop())
    post_blinds(hand)
    n = len(hand.seats)
    betting_round(hand, (hand.bb_i + 1) % n, decide)
    while hand.street < 3 and len(hand.live()) > 1:
        _new_street(hand, deck)
        if sum(1 for i in hand.live() if not hand.seats[i].allin) > 1:
            betting_round(hand, (hand.button + 1) % n, decide)
    award(hand, muck)
