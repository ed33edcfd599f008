"""One no-limit hold'em hand: blinds, betting rounds, uncalled bets, side pots, showdown, rake.

The engine owns the chips; decisions come from a callback so that honest models and
collusion tactics stay outside.  It records PokerStars body lines as it goes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from simulator.foreign.cards import cards_str, describe, evaluate
from simulator.foreign.writer import money

STREETS = ("preflop", "flop", "turn", "river")


@dataclass
class Seat:
    """A player dealt into the current hand."""

    name: str
    seat_no: int
    stack: int
    start: int
    hole: tuple[int, int] = (0, 0)
    folded: bool = False
    allin: bool = False
    street_in: int = 0
    total_in: int = 0
    fold_street: str | None = None
    shown: bool = False
    mucked: bool = False
    won: int = 0


@dataclass
class Decision:
    """What a player wants to do; ``to`` is the street total for bets and raises."""

    kind: str  # fold | check | call | raise
    to: int = 0


@dataclass
class Hand:
    """Mutable state of a hand in progress, visible to decision callbacks."""

    seats: list[Seat]
    button: int  # index into seats
    sb: int
    bb: int
    deck: list[int]
    serial: int = 0
    board: list[int] = field(default_factory=list)
    street: str = "preflop"
    current_bet: int = 0
    last_raise: int = 0
    raises: int = 0
    aggressor: int | None = None  # seat index of the last bet/raise this street
    preflop_raiser: int | None = None
    lines: list[str] = field(default_factory=list)
    history: list[tuple[str, int, str, int]] = field(default_factory=list)  # street, seat idx, kind, to
    pots: list[tuple[int, list[int]]] = field(default_factory=list)
    rake: int = 0
    total_pot: int = 0

    def pot(self) -> int:
        """Chips committed so far by everybody."""
        return sum(s.total_in for s in self.seats)

    def active(self) -> list[int]:
        """Indices of players who have not folded."""
        return [i for i, s in enumerate(self.seats) if not s.folded]

    def to_call(self, i: int) -> int:
        """Chips seat ``i`` must add to call."""
        s = self.seats[i]
        return min(self.current_bet - s.street_in, s.stack)

    def min_raise_to(self) -> int:
        """Smallest legal full raise (street total)."""
        return self.current_bet + max(self.last_raise, self.bb)


Decide = Callable[[Hand, int, bool], Decision]


def _order_from(hand: Hand, start: int) -> list[int]:
    """Seat indices clockwise starting at ``start``."""
    n = len(hand.seats)
    return [(start + k) % n for k in range(n)]


def post_blinds(hand: Hand) -> tuple[int, int]:
    """Post both blinds; heads-up the button is the small blind."""
    n = len(hand.seats)
    sb_i = hand.button if n == 2 else (hand.button + 1) % n
    bb_i = (sb_i + 1) % n
    for idx, amount, label in ((sb_i, hand.sb, "small"), (bb_i, hand.bb, "big")):
        s = hand.seats[idx]
        put = min(amount, s.stack)
        _commit(s, put)
        hand.lines.append(f"{s.name}: posts {label} blind {money(put)}" + (" and is all-in" if s.allin else ""))
    hand.current_bet = hand.bb
    hand.last_raise = hand.bb
    return sb_i, bb_i


def _commit(s: Seat, amount: int) -> None:
    """Move chips from a stack into the pot."""
    s.stack -= amount
    s.street_in += amount
    s.total_in += amount
    if s.stack == 0:
        s.allin = True


def _can_act(s: Seat) -> bool:
    """Still has a decision to make this street."""
    return not s.folded and not s.allin


def betting_round(hand: Hand, first: int, decide: Decide) -> None:
    """Run one street of betting until everyone has matched the bet or folded."""
    seats = hand.seats
    need = {i for i, s in enumerate(seats) if _can_act(s)}
    closed: set[int] = set()
    order = _order_from(hand, first)
    pos = 0
    while need:
        if len(hand.active()) == 1:
            break
        i = order[pos % len(order)]
        pos += 1
        if i not in need:
            continue
        need.discard(i)
        s = seats[i]
        others_live = any(_can_act(o) for j, o in enumerate(seats) if j != i)
        if hand.to_call(i) == 0 and not others_live:
            continue
        can_raise = i not in closed and others_live and s.stack > hand.to_call(i)
        dec = decide(hand, i, can_raise)
        before = hand.current_bet
        _apply(hand, i, dec, can_raise)
        if hand.current_bet > before:
            increment = hand.current_bet - before
            full = increment >= hand.last_raise
            if full:
                hand.last_raise = increment
                closed = set()
            for j, o in enumerate(seats):
                if j != i and _can_act(o):
                    if not full and j not in need:
                        closed.add(j)
                    need.add(j)
    _return_uncalled(hand)


def _apply(hand: Hand, i: int, dec: Decision, can_raise: bool) -> None:
    """Normalise a decision to a legal action, move the chips and write the line."""
    s = hand.seats[i]
    owe = hand.to_call(i)
    kind = dec.kind
    if kind == "raise" and not can_raise:
        kind = "call"
    if kind == "fold" and owe == 0:
        kind = "check"
    if kind == "check" and owe > 0:
        kind = "fold"
    if kind == "call" and owe == 0:
        kind = "check"
    if kind == "raise":
        cap = s.street_in + s.stack
        to = max(dec.to, hand.min_raise_to())
        to = min(to, cap)
        if to <= hand.current_bet:
            kind = "call"
        else:
            verb_bet = hand.current_bet == 0
            inc = to - hand.current_bet
            _commit(s, to - s.street_in)
            text = f"bets {money(to)}" if verb_bet else f"raises {money(inc)} to {money(to)}"
            hand.current_bet = to
            hand.raises += 1
            hand.aggressor = i
            if hand.street == "preflop":
                hand.preflop_raiser = i
            _line(hand, s, text)
            hand.history.append((hand.street, i, "bet" if verb_bet else "raise", to))
            return
    if kind == "fold":
        s.folded = True
        s.fold_street = hand.street
        hand.lines.append(f"{s.name}: folds")
    elif kind == "check":
        hand.lines.append(f"{s.name}: checks")
    else:
        _commit(s, owe)
        _line(hand, s, f"calls {money(owe)}")
        kind = "call"
    hand.history.append((hand.street, i, kind, s.street_in))


def _line(hand: Hand, s: Seat, text: str) -> None:
    """Write an action line with the all-in suffix when the stack is empty."""
    hand.lines.append(f"{s.name}: {text}" + (" and is all-in" if s.allin else ""))


def _return_uncalled(hand: Hand) -> None:
    """Give back the part of the top street bet nobody matched."""
    amounts = sorted(((s.street_in, i) for i, s in enumerate(hand.seats)), reverse=True)
    if len(amounts) < 2 or amounts[0][0] <= amounts[1][0]:
        return
    top, idx = amounts[0]
    extra = top - amounts[1][0]
    s = hand.seats[idx]
    s.stack += extra
    s.street_in -= extra
    s.total_in -= extra
    s.allin = s.stack == 0
    hand.lines.append(f"Uncalled bet ({money(extra)}) returned to {s.name}")


def build_pots(hand: Hand) -> list[tuple[int, list[int]]]:
    """Main pot then side pots as (amount, eligible seat indices), from total contributions."""
    live = [i for i in hand.active()]
    levels = sorted({hand.seats[i].total_in for i in live})
    pots: list[tuple[int, list[int]]] = []
    prev = 0
    for level in levels:
        amount = sum(min(s.total_in, level) - min(s.total_in, prev) for s in hand.seats)
        eligible = [i for i in live if hand.seats[i].total_in >= level]
        if amount > 0:
            if pots and len(eligible) == len(pots[-1][1]):
                pots[-1] = (pots[-1][0] + amount, pots[-1][1])
            else:
                pots.append((amount, eligible))
        prev = level
    leftover = sum(max(0, s.total_in - prev) for s in hand.seats)
    if leftover and pots:
        pots[-1] = (pots[-1][0] + leftover, pots[-1][1])
    return pots


def take_rake(hand: Hand, pots: list[tuple[int, list[int]]], percent: int, cap: int) -> list[tuple[int, list[int]]]:
    """No flop, no drop; otherwise ``percent`` of the pot capped, taken pro rata from each pot."""
    total = sum(a for a, _ in pots)
    hand.total_pot = total
    rake = 0 if not hand.board else min(total * percent // 100, cap)
    hand.rake = rake
    if rake == 0:
        return pots
    shares = [a * rake // total for a, _ in pots]
    shares[0] += rake - sum(shares)
    return [(a - r, e) for (a, e), r in zip(pots, shares, strict=True)]


def _left_of_button_order(hand: Hand, idxs: list[int]) -> list[int]:
    """Order seats clockwise from the first seat left of the button (odd-chip order)."""
    n = len(hand.seats)
    return sorted(idxs, key=lambda i: (i - hand.button - 1) % n)


def award_uncontested(hand: Hand, percent: int, cap: int) -> None:
    """Everybody else folded: the last player takes the pot and does not show."""
    pots = take_rake(hand, build_pots(hand), percent, cap)
    hand.pots = pots
    winner = hand.active()[0]
    amount = sum(a for a, _ in pots)
    s = hand.seats[winner]
    s.stack += amount
    s.won += amount
    hand.lines.append(f"{s.name} collected {money(amount)} from pot")
    hand.lines.append(f"{s.name}: doesn't show hand")


def showdown(hand: Hand, percent: int, cap: int, rng: random.Random) -> None:
    """Show or muck in PokerStars order, then award every pot to its best eligible hand."""
    hand.lines.append("*** SHOW DOWN ***")
    pots = take_rake(hand, build_pots(hand), percent, cap)
    hand.pots = pots
    live = hand.active()
    ranks = {i: evaluate([*hand.seats[i].hole, *hand.board]) for i in live}
    runout = any(hand.seats[i].allin for i in live) or len(pots) > 1
    river_aggr = [h[1] for h in hand.history if h[0] == "river" and h[2] in ("bet", "raise")]
    first = river_aggr[-1] if river_aggr else _left_of_button_order(hand, live)[0]
    order = [i for i in _order_from(hand, first) if i in ranks]
    best = 99999
    for i in order:
        s = hand.seats[i]
        if runout or ranks[i] <= best or rng.random() < 0.25:
            s.shown = True
            best = min(best, ranks[i])
            hand.lines.append(f"{s.name}: shows [{cards_str(s.hole)}] ({describe([*s.hole, *hand.board])})")
        else:
            s.mucked = True
            hand.lines.append(f"{s.name}: mucks hand")
    labels = _pot_labels(len(pots))
    for k in range(len(pots) - 1, -1, -1):
        amount, eligible = pots[k]
        contenders = [i for i in eligible if not hand.seats[i].mucked]
        top = min(ranks[i] for i in contenders)
        winners = _left_of_button_order(hand, [i for i in contenders if ranks[i] == top])
        share, odd = divmod(amount, len(winners))
        for n, i in enumerate(winners):
            got = share + (1 if n < odd else 0)
            hand.seats[i].stack += got
            hand.seats[i].won += got
            hand.lines.append(f"{hand.seats[i].name} collected {money(got)} from {labels[k]}")


def _pot_labels(n: int) -> list[str]:
    """'pot' alone, or 'main pot', 'side pot' / 'side pot-1', 'side pot-2' ..."""
    if n == 1:
        return ["pot"]
    if n == 2:
        return ["main pot", "side pot"]
    return ["main pot", *[f"side pot-{k}" for k in range(1, n)]]


def deal_street(hand: Hand, street: str) -> None:
    """Burn-free dealing from the shuffled deck plus the PokerStars street header."""
    hand.street = street
    old = list(hand.board)
    count = 3 if street == "flop" else 1
    hand.board.extend(hand.deck.pop() for _ in range(count))
    for s in hand.seats:
        s.street_in = 0
    hand.current_bet = 0
    hand.last_raise = hand.bb
    hand.raises = 0
    hand.aggressor = None
    if street == "flop":
        hand.lines.append(f"*** FLOP *** [{cards_str(hand.board)}]")
    else:
        hand.lines.append(f"*** {street.upper()} *** [{cards_str(old)}] [{cards_str(hand.board[-1:])}]")


def play_hand(hand: Hand, decide: Decide, rng: random.Random, rake_percent: int, rake_cap: int,
              operator_mode: bool) -> None:
    """Play a whole hand to the end; afterwards every seat's ``stack`` is its new stack."""
    _, bb_i = post_blinds(hand)
    for s in hand.seats:
        s.hole = (hand.deck.pop(), hand.deck.pop())
    hand.lines.append("*** HOLE CARDS ***")
    if operator_mode:
        hand.lines.extend(f"Dealt to {s.name} [{cards_str(s.hole)}]" for s in hand.seats)
    n = len(hand.seats)
    betting_round(hand, (bb_i + 1) % n, decide)
    for street in STREETS[1:]:
        if len(hand.active()) == 1:
            break
        deal_street(hand, street)
        if sum(1 for i in hand.active() if not hand.seats[i].allin) >= 2:
            betting_round(hand, (hand.button + 1) % n, decide)
    if len(hand.active()) == 1:
        award_uncontested(hand, rake_percent, rake_cap)
    else:
        showdown(hand, rake_percent, rake_cap, rng)
