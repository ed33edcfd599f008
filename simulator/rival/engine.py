"""One no-limit hold'em hand: blinds, legal betting, side pots, rake, showdown, PokerStars text.

Why the engine owns legality: brains and collusion tactics only *ask* for an action; the engine
clamps every request to a legal one (minimum raise, all-in for less, no re-opening after an
incomplete raise) and writes exactly what happened, so every hand balances by construction.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from simulator.rival.cards import cards_text, describe, evaluate
from simulator.rival.money import Stake, usd

FOLD, CHECK, CALL, BET, RAISE = "fold", "check", "call", "bet", "raise"
STREETS = ("PREFLOP", "FLOP", "TURN", "RIVER")
STREET_WORDS = ("before Flop", "on the Flop", "on the Turn", "on the River")


class Decision(NamedTuple):
    """A requested action; ``to`` is the street total wanted for a bet or raise."""

    kind: str
    to: int = 0


@dataclass
class Player:
    """A seat's occupant for one hand (chips in cents)."""

    name: str
    seat: int
    start: int
    hole: tuple[int, int]
    chips: int = 0
    street_in: int = 0
    total_in: int = 0
    folded: bool = False
    all_in: bool = False
    fold_street: int = -1
    voluntary: bool = False  # put chips in beyond a forced blind

    def __post_init__(self) -> None:
        self.chips = self.start


@dataclass
class HandState:
    """Everything a decision may look at (tactics may also read other players' cards)."""

    hand_no: int
    stake: Stake
    players: list[Player]
    button: int  # index into players
    board: list[int] = field(default_factory=list)
    street: int = 0
    level: int = 0
    last_inc: int = 0
    raises: int = 0  # bets + raises this street
    aggressor: str = ""  # last bettor/raiser this street
    preflop_raiser: str = ""
    log: list[tuple[int, str, str, int]] = field(default_factory=list)  # (street, name, kind, to)
    lines: list[str] = field(default_factory=list)
    memo: dict[tuple[str, int, int, tuple[int, ...]], float] = field(default_factory=dict)

    @property
    def pot(self) -> int:
        """Chips in the middle including the current street."""
        return sum(p.total_in for p in self.players)

    def live(self) -> list[Player]:
        """Players still holding cards."""
        return [p for p in self.players if not p.folded]

    def by_name(self, name: str) -> Player:
        """The hand's player called ``name``."""
        return next(p for p in self.players if p.name == name)


@dataclass
class Spot:
    """The decision a player faces."""

    state: HandState
    me: Player
    to_call: int
    min_to: int
    max_to: int
    can_raise: bool


Decider = Callable[[Spot], Decision]


@dataclass
class Result:
    """What the room needs back from a hand: text, chips after, winnings and who reached showdown."""

    lines: list[str]
    final: dict[str, int]
    net: dict[str, int]
    rake: int
    showdown: list[str]


def _seat_order(state: HandState, first: int) -> list[Player]:
    n = len(state.players)
    return [state.players[(first + k) % n] for k in range(n)]


def _post(state: HandState, p: Player, amount: int, word: str) -> None:
    paid = min(amount, p.chips)
    p.chips -= paid
    p.street_in += paid
    p.total_in += paid
    p.all_in = p.chips == 0
    tail = " and is all-in" if p.all_in else ""
    state.lines.append(f"{p.name}: posts {word} {usd(paid)}{tail}")


def _apply(state: HandState, spot: Spot, want: Decision) -> None:
    """Clamp ``want`` to a legal action, move the chips and write the line."""
    p = spot.me
    kind = want.kind
    if kind in (BET, RAISE) and (not spot.can_raise or max(want.to, spot.min_to) <= state.level
                                 or spot.max_to <= state.level):
        kind = CALL if spot.to_call else CHECK
    if kind == CHECK and spot.to_call:
        kind = FOLD
    if kind == FOLD and not spot.to_call:
        kind = CHECK
    if kind == CALL and not spot.to_call:
        kind = CHECK
    if kind == FOLD:
        p.folded = True
        p.fold_street = state.street
        state.lines.append(f"{p.name}: folds")
    elif kind == CHECK:
        state.lines.append(f"{p.name}: checks")
    elif kind == CALL:
        pay = min(spot.to_call, p.chips)
        _move(p, pay)
        state.lines.append(f"{p.name}: calls {usd(pay)}{_allin(p)}")
    else:
        _raise(state, spot, min(max(want.to, spot.min_to), spot.max_to))
        kind = BET if state.raises == 1 and state.street > 0 else RAISE
    state.log.append((state.street, p.name, kind, p.street_in))


def _move(p: Player, pay: int) -> None:
    p.chips -= pay
    p.street_in += pay
    p.total_in += pay
    p.voluntary = True
    p.all_in = p.chips == 0


def _allin(p: Player) -> str:
    return " and is all-in" if p.all_in else ""


def _raise(state: HandState, spot: Spot, to: int) -> None:
    p = spot.me
    old_level = state.level
    _move(p, to - p.street_in)
    state.last_inc = max(to - old_level, state.last_inc)
    state.level = to
    state.raises += 1
    state.aggressor = p.name
    if state.street == 0:
        state.preflop_raiser = p.name
    if old_level == 0:
        state.lines.append(f"{p.name}: bets {usd(to)}{_allin(p)}")
    else:
        state.lines.append(f"{p.name}: raises {usd(to - old_level)} to {usd(to)}{_allin(p)}")


def _betting(state: HandState, first: int, decide: Decider) -> None:
    """One betting round from seat index ``first`` until everyone has acted on the last full raise."""
    order = [p for p in _seat_order(state, first) if not p.folded and not p.all_in]
    pending = {p.name for p in order}
    no_raise: set[str] = set()
    while pending:
        for p in order:
            if p.name not in pending or p.folded or p.all_in:
                pending.discard(p.name)
                continue
            if len(state.live()) == 1:
                return
            others = [q for q in state.live() if q is not p and not q.all_in]
            to_call = min(state.level - p.street_in, p.chips)
            if not others and to_call <= 0:
                pending.discard(p.name)
                continue
            level_before, inc_before = state.level, state.last_inc
            step = state.last_inc if state.level else state.stake.bb
            max_to = p.street_in + p.chips
            spot = Spot(state, p, to_call, min(state.level + step, max_to), max_to,
                        bool(others) and p.name not in no_raise and max_to > state.level)
            _apply(state, spot, decide(spot))
            pending.discard(p.name)
            if state.level > level_before:
                full = state.level - level_before >= inc_before or level_before == 0
                _reopen(state, p, order, pending, no_raise, full)


def _reopen(state: HandState, raiser: Player, order: list[Player], pending: set[str], no_raise: set[str],
            full: bool) -> None:
    """After a raise everyone else must act again; an incomplete all-in raise does not let those who
    already acted raise again."""
    for q in order:
        if q is raiser or q.folded or q.all_in:
            continue
        if full:
            no_raise.discard(q.name)
        elif q.name not in pending:
            no_raise.add(q.name)
        pending.add(q.name)


def _return_uncalled(state: HandState) -> None:
    ins = sorted((p.street_in for p in state.players), reverse=True)
    if len(ins) < 2 or ins[0] == ins[1]:
        return
    top = next(p for p in state.players if p.street_in == ins[0])
    back = ins[0] - ins[1]
    top.chips += back
    top.street_in -= back
    top.total_in -= back
    top.all_in = top.chips == 0
    state.lines.append(f"Uncalled bet ({usd(back)}) returned to {top.name}")


def _new_street(state: HandState, deck: list[int]) -> None:
    state.street += 1
    for p in state.players:
        p.street_in = 0
    state.level = 0
    state.last_inc = state.stake.bb
    state.raises = 0
    state.aggressor = ""
    old = cards_text(state.board)
    take = 3 if state.street == 1 else 1
    new = [deck.pop() for _ in range(take)]
    state.board.extend(new)
    name = STREETS[state.street]
    if state.street == 1:
        state.lines.append(f"*** {name} *** [{cards_text(new)}]")
    else:
        state.lines.append(f"*** {name} *** [{old}] [{cards_text(new)}]")


def _pots(state: HandState) -> list[tuple[int, list[Player]]]:
    """Main pot then side pots: (amount before rake, eligible players in seat order)."""
    live = state.live()
    levels = sorted({p.total_in for p in live})
    pots: list[tuple[int, list[Player]]] = []
    prev = 0
    for lv in levels:
        amount = sum(min(p.total_in, lv) - min(p.total_in, prev) for p in state.players)
        eligible = [p for p in live if p.total_in >= lv]
        if pots and [q.name for q in pots[-1][1]] == [q.name for q in eligible]:
            pots[-1] = (pots[-1][0] + amount, eligible)
        elif amount:
            pots.append((amount, eligible))
        prev = lv
    return pots


def _split(amount: int, winners: list[Player], state: HandState) -> dict[str, int]:
    """Equal shares; odd cents go to the first winners left of the button."""
    n = len(state.players)
    rank = {p.name: (state.players.index(p) - state.button - 1) % n for p in winners}
    ordered = sorted(winners, key=lambda p: rank[p.name])
    share, odd = divmod(amount, len(winners))
    return {p.name: share + (1 if i < odd else 0) for i, p in enumerate(ordered)}


@dataclass
class Deal:
    """A hand to play: seats in seat order, the button's index and the cards."""

    hand_no: int
    stake: Stake
    header: str
    table_line: str
    seats: list[tuple[int, str, int]]  # (seat number, name, chips)
    sitting_out: list[tuple[int, str, int]]
    button: int
    operator_mode: bool


def play(deal: Deal, decide: Decider, rng: random.Random) -> Result:
    """Play one hand to the end and return its PokerStars text and money movements."""
    deck = list(range(52))
    rng.shuffle(deck)
    players = [Player(name, seat, chips, (deck.pop(), deck.pop())) for seat, name, chips in deal.seats]
    state = HandState(deal.hand_no, deal.stake, players, deal.button)
    _open(state, deal)
    n = len(players)
    heads_up = n == 2
    sb_i = deal.button if heads_up else (deal.button + 1) % n
    bb_i = (sb_i + 1) % n
    _post(state, players[sb_i], deal.stake.sb, "small blind")
    _post(state, players[bb_i], deal.stake.bb, "big blind")
    state.level, state.last_inc = deal.stake.bb, deal.stake.bb
    state.lines.append("*** HOLE CARDS ***")
    if deal.operator_mode:
        for p in _seat_order(state, (deal.button + 1) % n):
            state.lines.append(f"Dealt to {p.name} [{cards_text(p.hole)}]")
    _betting(state, (bb_i + 1) % n, decide)
    _return_uncalled(state)
    while state.street < 3 and len(state.live()) > 1:
        _new_street(state, deck)
        if sum(1 for p in state.live() if not p.all_in) >= 2:
            _betting(state, (deal.button + 1) % n, decide)
            _return_uncalled(state)
    return _finish(state, deal, sb_i, bb_i)


def _open(state: HandState, deal: Deal) -> None:
    state.lines.append(deal.header)
    state.lines.append(deal.table_line)
    rows = sorted([(s, nm, c, False) for s, nm, c in deal.seats] + [(s, nm, c, True) for s, nm, c in deal.sitting_out])
    for seat, name, chips, out in rows:
        tail = " is sitting out" if out else ""
        state.lines.append(f"Seat {seat}: {name} ({usd(chips)} in chips){tail}")


def _finish(state: HandState, deal: Deal, sb_i: int, bb_i: int) -> Result:
    live = state.live()
    total = state.pot
    dealt = len(state.players)
    rake = deal.stake.rake(total, dealt, state.street >= 1)
    won: dict[str, int] = {}
    shown: list[Player] = []
    scores: dict[str, int] = {}
    pot_texts: list[str] = []
    if len(live) == 1:
        won[live[0].name] = total - rake
        state.lines.append(f"{live[0].name} collected {usd(total - rake)} from pot")
    else:
        shown = _showdown(state, scores)
        won, pot_texts = _award(state, scores, rake)
    for p in state.players:
        p.chips += won.get(p.name, 0)
    _summary(state, deal, sb_i, bb_i, total, rake, won, shown, scores, pot_texts)
    return Result(state.lines, {p.name: p.chips for p in state.players},
                  {p.name: p.chips - p.start for p in state.players}, rake, [p.name for p in shown])


def _showdown(state: HandState, scores: dict[str, int]) -> list[Player]:
    """Every live player shows, the last aggressor (or first seat after the button) first."""
    state.lines.append("*** SHOW DOWN ***")
    n = len(state.players)
    live = state.live()
    first = next((i for i, p in enumerate(state.players) if p.name == state.aggressor and not p.folded), None)
    start = first if first is not None else (state.button + 1) % n
    order = [p for p in _seat_order(state, start) if not p.folded]
    for p in live:
        scores[p.name] = evaluate([*p.hole, *state.board])
    for p in order:
        state.lines.append(f"{p.name}: shows [{cards_text(p.hole)}] ({describe(scores[p.name])})")
    return order


def _award(state: HandState, scores: dict[str, int], rake: int) -> tuple[dict[str, int], list[str]]:
    """Rake comes out of the main pot first; side pots are paid from the last one back."""
    pots = _pots(state)
    net_pots: list[int] = []
    left = rake
    for amount, _ in pots:
        take = min(left, amount)
        net_pots.append(amount - take)
        left -= take
    won: dict[str, int] = {}
    collect: list[str] = []
    for k in range(len(pots) - 1, -1, -1):
        _, eligible = pots[k]
        best = max(scores[p.name] for p in eligible)
        winners = [p for p in eligible if scores[p.name] == best]
        label = "pot" if len(pots) == 1 else "main pot" if k == 0 else "side pot" if len(pots) == 2 else f"side pot-{k}"
        for name, amt in _split(net_pots[k], winners, state).items():
            won[name] = won.get(name, 0) + amt
            collect.append(f"{name} collected {usd(amt)} from {label}")
    state.lines.extend(collect)
    texts: list[str] = []
    if len(pots) > 1:
        texts.append(f"Main pot {usd(net_pots[0])}.")
        for k in range(1, len(pots)):
            texts.append(f"Side pot {usd(net_pots[k])}." if len(pots) == 2 else f"Side pot-{k} {usd(net_pots[k])}.")
    return won, texts


def _summary(state: HandState, deal: Deal, sb_i: int, bb_i: int, total: int, rake: int, won: dict[str, int],
             shown: list[Player], scores: dict[str, int], pot_texts: list[str]) -> None:
    lines = state.lines
    lines.append("*** SUMMARY ***")
    pots = (" " + " ".join(pot_texts)) if pot_texts else ""
    lines.append(f"Total pot {usd(total)}{pots} | Rake {usd(rake)}")
    if state.board:
        lines.append(f"Board [{cards_text(state.board)}]")
    shown_names = {p.name for p in shown}
    for i, p in enumerate(state.players):
        tag = ""
        if i == deal.button:
            tag += " (button)"
        if i == sb_i:
            tag += " (small blind)"
        elif i == bb_i:
            tag += " (big blind)"
        lines.append(f"Seat {p.seat}: {p.name}{tag} {_outcome(p, i in (sb_i, bb_i), won, shown_names, scores)}")


def _outcome(p: Player, blind: bool, won: dict[str, int], shown: set[str], scores: dict[str, int]) -> str:
    if p.name in shown:
        desc = describe(scores[p.name])
        if won.get(p.name):
            return f"showed [{cards_text(p.hole)}] and won ({usd(won[p.name])}) with {desc}"
        return f"showed [{cards_text(p.hole)}] and lost with {desc}"
    if p.folded:
        words = STREET_WORDS[p.fold_street]
        if p.fold_street == 0 and not blind and not p.voluntary:
            return f"folded {words} (didn't bet)"
        return f"folded {words}"
    return f"collected ({usd(won.get(p.name, 0))})"
