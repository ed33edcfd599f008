"""One No-Limit Hold'em hand: betting, side pots, rake and its PokerStars text.

Why: every number in the text must reconcile to the cent, so money lives in integer cents and
the text is written from the same state that moved the chips, never recomputed afterwards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from simulator.outsider.cards import cards_str, describe, evaluate
from simulator.outsider.models import Action, Spot

STREET_NAMES = ("Flop", "Turn", "River")


def money(cents: int) -> str:
    """``$2`` for whole dollars, ``$0.25`` otherwise, as PokerStars prints amounts."""
    if cents % 100 == 0:
        return f"${cents // 100}"
    return f"${cents // 100}.{cents % 100:02d}"


@dataclass
class Seat:
    """One player's chips and state during a hand."""

    name: str
    seat_no: int
    stack: int
    hole: tuple[int, int] = (0, 0)
    folded: bool = False
    allin: bool = False
    street_in: int = 0
    total_in: int = 0
    faced: int = -1
    fold_street: int = -1
    won: int = 0
    shown: bool = False


@dataclass(frozen=True)
class Table:
    """The parts of a table a hand needs: its name, size and stakes."""

    name: str
    max_seats: int
    sb: int
    bb: int
    rake_cap: int


@dataclass
class Hand:
    """A hand in progress; choosers read it to decide and tactics read it to coordinate."""

    hand_id: int
    table: Table
    seats: list[Seat]
    button: int
    operator_mode: bool
    board: list[int] = field(default_factory=list)
    street: int = 0
    cur_bet: int = 0
    last_raise: int = 0
    full_level: int = 0
    raises: int = 0
    aggressor: int = -1
    street_log: list[tuple[int, str, int]] = field(default_factory=list)
    entered: list[int] = field(default_factory=list)  # who called, bet or raised so far, any street
    lines: list[str] = field(default_factory=list)

    def live(self) -> list[int]:
        """Indices of players who have not folded."""
        return [i for i, s in enumerate(self.seats) if not s.folded]

    def can_act(self, i: int) -> bool:
        """Still holding cards and chips."""
        s = self.seats[i]
        return not s.folded and not s.allin

    def pot(self) -> int:
        """Everything put in so far, this street included."""
        return sum(s.total_in for s in self.seats)

    def spot(self, i: int, dead: tuple[int, ...] = ()) -> Spot:
        """The decision ``i`` faces, as the models see it."""
        s = self.seats[i]
        n = len(self.seats)
        max_to = s.street_in + s.stack
        others = any(self.can_act(j) for j in range(n) if j != i)
        return Spot(
            street=self.street, hole=s.hole, board=tuple(self.board), pot=self.pot(),
            to_call=min(self.cur_bet - s.street_in, s.stack), cur_bet=self.cur_bet,
            min_to=min(self.cur_bet + self.last_raise, max_to), max_to=max_to, street_in=s.street_in,
            opponents=len(self.live()) - 1, bb=self.table.bb, raises=self.raises,
            late=(i - self.button) % n in (0, n - 1),
            can_raise=others and s.faced < self.full_level and max_to > self.cur_bet, dead=dead)


Chooser = Callable[[Hand, int], Action]


def stamp(when: datetime) -> str:
    """PokerStars' ET time stamp, hour unpadded."""
    return f"{when:%Y/%m/%d} {when.hour}:{when:%M:%S} ET"


def _header(hand: Hand, when: datetime) -> None:
    """Header, table line and seat list."""
    t = hand.table
    hand.lines.append(f"PokerStars Hand #{hand.hand_id}:  Hold'em No Limit ({money(t.sb)}/{money(t.bb)} USD)"
                      f" - {stamp(when)}")
    hand.lines.append(f"Table '{t.name}' {t.max_seats}-max Seat #{hand.seats[hand.button].seat_no} is the button")
    for s in hand.seats:
        hand.lines.append(f"Seat {s.seat_no}: {s.name} ({money(s.stack)} in chips)")


def _post(hand: Hand, i: int, amount: int, label: str) -> None:
    """A blind post; players always sit with more than a big blind."""
    s = hand.seats[i]
    s.stack -= amount
    s.street_in += amount
    s.total_in += amount
    hand.lines.append(f"{s.name}: posts {label} {money(amount)}")


def blind_seats(hand: Hand) -> tuple[int, int]:
    """Small- and big-blind indices; heads-up the button posts the small blind."""
    n = len(hand.seats)
    if n == 2:
        return hand.button, (hand.button + 1) % n
    return (hand.button + 1) % n, (hand.button + 2) % n


def normalise(hand: Hand, i: int, act: Action) -> Action:
    """Turn a wish into a legal action (no free folds, raises within limits)."""
    sp = hand.spot(i)
    if act.kind == "raise":
        if not sp.can_raise:
            return sp.passive()
        to = max(sp.min_to, min(sp.max_to, act.to))
        return Action("raise", to)
    if act.kind == "fold":
        return sp.give_up()
    return sp.passive()


def _apply(hand: Hand, i: int, act: Action) -> bool:
    """Move the chips and write the line; True when the action re-opens the betting."""
    s = hand.seats[i]
    tail = ""
    if act.kind == "fold":
        s.folded = True
        s.fold_street = hand.street
        hand.lines.append(f"{s.name}: folds")
    elif act.kind == "check":
        hand.lines.append(f"{s.name}: checks")
    elif act.kind == "call":
        amt = min(hand.cur_bet - s.street_in, s.stack)
        s.stack -= amt
        s.street_in += amt
        s.total_in += amt
        s.allin = s.stack == 0
        tail = " and is all-in" if s.allin else ""
        hand.lines.append(f"{s.name}: calls {money(amt)}{tail}")
    else:
        amt = act.to - s.street_in
        inc = act.to - hand.cur_bet
        s.stack -= amt
        s.street_in += amt
        s.total_in += amt
        s.allin = s.stack == 0
        tail = " and is all-in" if s.allin else ""
        if hand.cur_bet == 0:
            hand.lines.append(f"{s.name}: bets {money(amt)}{tail}")
        else:
            hand.lines.append(f"{s.name}: raises {money(inc)} to {money(act.to)}{tail}")
        if inc >= hand.last_raise:
            hand.last_raise = inc
            hand.full_level = act.to
        hand.cur_bet = act.to
        hand.raises += 1
        hand.aggressor = i
    if act.kind in ("call", "raise") and i not in hand.entered:
        hand.entered.append(i)
    s.faced = hand.cur_bet
    hand.street_log.append((i, act.kind, act.to))
    return act.kind == "raise"


def _betting_round(hand: Hand, first: int, choose: Chooser) -> None:
    """Action goes round until everyone still able to act has matched the last raise."""
    n = len(hand.seats)
    order = [(first + k) % n for k in range(n)]
    pending = [i for i in order if hand.can_act(i)]
    pos = 0
    while pending:
        i = order[pos % n]
        pos += 1
        if i not in pending:
            continue
        pending.remove(i)
        if len(hand.live()) <= 1:
            return
        s = hand.seats[i]
        others = any(hand.can_act(j) for j in range(n) if j != i)
        if not others and hand.cur_bet - s.street_in <= 0:
            continue
        act = normalise(hand, i, choose(hand, i))
        if _apply(hand, i, act):
            pending = [j for j in order if j != i and hand.can_act(j)]


def _return_uncalled(hand: Hand) -> None:
    """The part of the top bet nobody matched goes back to its owner."""
    ranked = sorted(range(len(hand.seats)), key=lambda j: -hand.seats[j].street_in)
    if len(ranked) < 2:
        return
    top, second = hand.seats[ranked[0]], hand.seats[ranked[1]]
    extra = top.street_in - second.street_in
    if extra > 0:
        top.street_in -= extra
        top.total_in -= extra
        top.stack += extra
        top.allin = top.stack == 0
        hand.lines.append(f"Uncalled bet ({money(extra)}) returned to {top.name}")


def _new_street(hand: Hand, street: int, deck: list[int]) -> None:
    """Deal the board cards of a street and reset the betting state."""
    hand.street = street
    old = list(hand.board)
    take = 3 if street == 1 else 1
    hand.board.extend(deck[:take])
    del deck[:take]
    label = STREET_NAMES[street - 1].upper()
    if street == 1:
        hand.lines.append(f"*** FLOP *** [{cards_str(hand.board)}]")
    else:
        hand.lines.append(f"*** {label} *** [{cards_str(old)}] [{cards_str(hand.board[-1:])}]")
    for s in hand.seats:
        s.street_in = 0
        s.faced = -1
    hand.cur_bet = 0
    hand.last_raise = hand.table.bb
    hand.full_level = 0
    hand.raises = 0
    hand.aggressor = -1
    hand.street_log = []


def _build_pots(hand: Hand) -> list[tuple[int, list[int]]]:
    """Main pot then side pots, each with the players who can win it."""
    rem = [s.total_in for s in hand.seats]
    pots: list[tuple[int, list[int]]] = []
    while sum(rem) > 0:
        levels = [rem[i] for i in hand.live() if rem[i] > 0]
        if not levels:
            amount, elig = pots[-1]
            pots[-1] = (amount + sum(rem), elig)
            break
        level = min(levels)
        amount = sum(min(r, level) for r in rem)
        elig = [i for i in hand.live() if rem[i] >= level]
        rem = [r - min(r, level) for r in rem]
        pots.append((amount, elig))
    return pots


def _take_rake(hand: Hand, pots: list[tuple[int, list[int]]]) -> tuple[int, list[tuple[int, list[int]]]]:
    """5% capped, only once a flop is dealt; taken from the main pot first."""
    total = sum(p for p, _ in pots)
    rake = min(hand.table.rake_cap, total * 5 // 100) if hand.board else 0
    left = rake
    out: list[tuple[int, list[int]]] = []
    for amount, elig in pots:
        cut = min(left, amount)
        left -= cut
        out.append((amount - cut, elig))
    return rake, out


def _by_position(hand: Hand, players: list[int]) -> list[int]:
    """Players ordered clockwise from the seat left of the button."""
    n = len(hand.seats)
    return sorted(players, key=lambda j: (j - hand.button - 1) % n)


def _split(hand: Hand, amount: int, winners: list[int]) -> dict[int, int]:
    """Even split, odd cents to the first winner left of the button."""
    share, odd = divmod(amount, len(winners))
    out = {w: share for w in winners}
    for w in _by_position(hand, winners)[:odd]:
        out[w] += 1
    return out


def _pot_label(k: int, count: int) -> str:
    """``pot``, ``main pot``, ``side pot`` or ``side pot-2``."""
    if count == 1:
        return "pot"
    if k == 0:
        return "main pot"
    return "side pot" if count == 2 else f"side pot-{k}"


def _showdown(hand: Hand, pots: list[tuple[int, list[int]]], rng: random.Random) -> list[str]:
    """Who shows, who mucks, who collects which pot; returns the collect lines."""
    scores = {i: evaluate([*hand.seats[i].hole, *hand.board]) for i in hand.live()}
    payouts: list[tuple[int, int, int]] = []
    for k, (amount, elig) in enumerate(pots):
        best = max(scores[i] for i in elig)
        for w, amt in _split(hand, amount, [i for i in elig if scores[i] == best]).items():
            if amt:
                payouts.append((k, w, amt))
                hand.seats[w].won += amt
    n = len(hand.seats)
    start = hand.aggressor if hand.aggressor >= 0 and hand.street == 3 else (hand.button + 1) % n
    order = [(start + k) % n for k in range(n) if not hand.seats[(start + k) % n].folded]
    everyone = any(hand.seats[i].allin for i in order)
    best_shown = -1
    for i in order:
        s = hand.seats[i]
        if everyone or s.won > 0 or scores[i] >= best_shown or rng.random() < 0.15:
            s.shown = True
            best_shown = max(best_shown, scores[i])
            hand.lines.append(f"{s.name}: shows [{cards_str(s.hole)}] ({describe(scores[i])})")
        else:
            hand.lines.append(f"{s.name}: mucks hand")
    ordered = sorted(payouts, key=lambda p: -p[0])
    return [f"{hand.seats[w].name} collected {money(a)} from {_pot_label(k, len(pots))}" for k, w, a in ordered]


def _summary(hand: Hand, rake: int, pots: list[tuple[int, list[int]]], total: int, showdown: bool) -> None:
    """The ``*** SUMMARY ***`` block."""
    hand.lines.append("*** SUMMARY ***")
    if len(pots) == 1:
        hand.lines.append(f"Total pot {money(total)} | Rake {money(rake)}")
    else:
        parts = [f"Main pot {money(pots[0][0])}."]
        for k, (amount, _) in enumerate(pots[1:], start=1):
            parts.append(f"Side pot{'' if len(pots) == 2 else f'-{k}'} {money(amount)}.")
        hand.lines.append(f"Total pot {money(total)} {' '.join(parts)} | Rake {money(rake)}")
    if hand.board:
        hand.lines.append(f"Board [{cards_str(hand.board)}]")
    sb, bb = blind_seats(hand)
    for i, s in enumerate(hand.seats):
        tags = (" (button)" if i == hand.button else "") + (" (small blind)" if i == sb else "") + (
            " (big blind)" if i == bb else "")
        hand.lines.append(f"Seat {s.seat_no}: {s.name}{tags} {_seat_result(hand, s, showdown)}")


def _seat_result(hand: Hand, s: Seat, showdown: bool) -> str:
    """The tail of one summary seat line."""
    if s.folded:
        if s.fold_street == 0:
            return "folded before Flop" + (" (didn't bet)" if s.total_in == 0 else "")
        return f"folded on the {STREET_NAMES[s.fold_street - 1]}"
    if not showdown:
        return f"collected ({money(s.won)})"
    desc = describe(evaluate([*s.hole, *hand.board]))
    if s.shown:
        if s.won:
            return f"showed [{cards_str(s.hole)}] and won ({money(s.won)}) with {desc}"
        return f"showed [{cards_str(s.hole)}] and lost with {desc}"
    return f"mucked [{cards_str(s.hole)}]" if hand.operator_mode else "mucked"


def play_hand(hand: Hand, when: datetime, rng: random.Random, choose: Chooser) -> None:
    """Deal, bet every street, settle the pots and write the whole hand into ``hand.lines``."""
    n = len(hand.seats)
    deck = rng.sample(range(52), 2 * n + 5)
    for k, s in enumerate(hand.seats):
        s.hole = (deck[2 * k], deck[2 * k + 1])
    del deck[: 2 * n]
    _header(hand, when)
    sb, bb = blind_seats(hand)
    _post(hand, sb, hand.table.sb, "small blind")
    _post(hand, bb, hand.table.bb, "big blind")
    hand.cur_bet = hand.table.bb
    hand.last_raise = hand.table.bb
    hand.full_level = hand.table.bb
    hand.lines.append("*** HOLE CARDS ***")
    if hand.operator_mode:
        for i in _by_position(hand, list(range(n))):
            hand.lines.append(f"Dealt to {hand.seats[i].name} [{cards_str(hand.seats[i].hole)}]")
    for street in range(4):
        if street:
            _new_street(hand, street, deck)
        if sum(1 for i in hand.live() if hand.can_act(i)) >= 2 or (street == 0 and len(hand.live()) > 1):
            first = (bb + 1) % n if street == 0 else (hand.button + 1) % n
            _betting_round(hand, first, choose)
        _return_uncalled(hand)
        if len(hand.live()) == 1:
            break
    _settle(hand, rng)


def _settle(hand: Hand, rng: random.Random) -> None:
    """Pay the pots, with or without a showdown, and write the summary."""
    pots = _build_pots(hand)
    total = sum(p for p, _ in pots)
    rake, pots = _take_rake(hand, pots)
    live = hand.live()
    if len(live) == 1:
        winner = hand.seats[live[0]]
        winner.won = total - rake
        hand.lines.append(f"{winner.name} collected {money(winner.won)} from pot")
        if rng.random() < 0.6:
            hand.lines.append(f"{winner.name}: doesn't show hand")
        pots = [(total - rake, live)]
        showdown = False
    else:
        hand.lines.append("*** SHOW DOWN ***")
        hand.lines.extend(_showdown(hand, pots, rng))
        showdown = True
    for s in hand.seats:
        s.stack += s.won
    _summary(hand, rake, pots, total, showdown)
