"""PokerStars text for a played hand, as a cash-game client (or the operator) would export it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .cards import card_str, cards_str, describe
from .engine import STREETS, Event, Hand, Seat


def money(cents: int) -> str:
    """``$0.50``, ``$12.05``; whole dollars print without cents, as PokerStars does."""
    whole, rest = divmod(cents, 100)
    return f"${whole}" if rest == 0 else f"${whole}.{rest:02d}"


@dataclass(frozen=True)
class TableInfo:
    name: str
    max_seats: int
    sb: int
    bb: int

    def stakes(self) -> str:
        return f"{money(self.sb)}/{money(self.bb)} USD"


def _stamp(when: datetime) -> str:
    """Both clocks PokerStars prints: the client's (CET here) and ET."""
    cet = when + timedelta(hours=6)
    return f"{cet:%Y/%m/%d} {cet.hour}:{cet:%M:%S} CET [{when:%Y/%m/%d} {when.hour}:{when:%M:%S} ET]"


def _position(hand: Hand, i: int) -> str:
    marks = []
    if i == hand.button:
        marks.append("(button)")
    if i == hand.sb_i:
        marks.append("(small blind)")
    if i == hand.bb_i:
        marks.append("(big blind)")
    return (" " + " ".join(marks)) if marks else ""


def _event_line(hand: Hand, ev: Event) -> str:
    name = hand.seats[ev.seat].name if ev.seat >= 0 else ""
    tail = " and is all-in" if ev.allin else ""
    if ev.kind == "post":
        return f"{name}: posts {ev.label} {money(ev.amount)}{tail}"
    if ev.kind == "act":
        if ev.label in ("folds", "checks"):
            return f"{name}: {ev.label}"
        if ev.label == "raises":
            return f"{name}: raises {money(ev.amount)} to {money(ev.to)}{tail}"
        return f"{name}: {ev.label} {money(ev.amount)}{tail}"
    if ev.kind == "street":
        board = hand.board[: 2 + ev.amount]
        if ev.amount == 1:
            return f"*** FLOP *** [{cards_str(board)}]"
        return f"*** {STREETS[ev.amount].upper()} *** [{cards_str(board[:-1])}] [{card_str(board[-1])}]"
    if ev.kind == "uncalled":
        return f"Uncalled bet ({money(ev.amount)}) returned to {name}"
    if ev.kind == "show":
        s = hand.seats[ev.seat]
        return f"{name}: shows [{cards_str(s.cards)}] ({describe((*s.cards, *hand.board))})"
    if ev.kind == "muck":
        return f"{name}: mucks hand"
    return f"{name} collected {money(ev.amount)} from {ev.label}"


def _body(hand: Hand) -> list[str]:
    """Action lines after the hole cards, with the showdown marker before the first reveal."""
    lines: list[str] = []
    for ev in hand.events:
        if ev.kind == "post":
            continue
        if hand.showdown and ev.kind in ("show", "muck") and "*** SHOW DOWN ***" not in lines:
            lines.append("*** SHOW DOWN ***")
        lines.append(_event_line(hand, ev))
    return lines


def _pot_line(hand: Hand) -> str:
    if len(hand.pots) <= 1 or not hand.showdown:
        return f"Total pot {money(hand.total_pot)} | Rake {money(hand.rake)}"
    parts = [f"Main pot {money(hand.pots[0][0])}."]
    if len(hand.pots) == 2:
        parts.append(f"Side pot {money(hand.pots[1][0])}.")
    else:
        parts += [f"Side pot-{k} {money(a)}." for k, (a, _) in enumerate(hand.pots[1:], start=1)]
    return f"Total pot {money(hand.total_pot)} {' '.join(parts)} | Rake {money(hand.rake)}"


def _seat_summary(hand: Hand, i: int, s: Seat, visible: set[int]) -> str:
    head = f"Seat {s.seat}: {s.name}{_position(hand, i)}"
    if s.folded:
        where = "before Flop" if s.fold_street == 0 else f"on the {STREETS[s.fold_street]}"
        quiet = " (didn't bet)" if s.fold_street == 0 and s.total == 0 else ""
        return f"{head} folded {where}{quiet}"
    if not hand.showdown:
        return f"{head} collected ({money(s.won)})"
    if s.mucked:
        return f"{head} mucked [{cards_str(s.cards)}]" if i in visible else f"{head} mucked"
    desc = describe((*s.cards, *hand.board))
    if s.won:
        return f"{head} showed [{cards_str(s.cards)}] and won ({money(s.won)}) with {desc}"
    return f"{head} showed [{cards_str(s.cards)}] and lost with {desc}"


def hand_text(hand: Hand, table: TableInfo, when: datetime, visible: set[int]) -> str:
    """The full text of one hand; ``visible`` are the seats whose hole cards the exporter saw."""
    lines = [
        f"PokerStars Hand #{hand.number}: Hold'em No Limit ({table.stakes()}) - {_stamp(when)}",
        f"Table '{table.name}' {table.max_seats}-max Seat #{hand.seats[hand.button].seat} is the button",
    ]
    lines += [f"Seat {s.seat}: {s.name} ({money(s.start)} in chips)" for s in hand.seats]
    lines += [_event_line(hand, ev) for ev in hand.events if ev.kind == "post"]
    lines.append("*** HOLE CARDS ***")
    lines += [f"Dealt to {s.name} [{cards_str(s.cards)}]" for i, s in enumerate(hand.seats) if i in visible]
    lines += _body(hand)
    lines.append("*** SUMMARY ***")
    lines.append(_pot_line(hand))
    if hand.board:
        lines.append(f"Board [{cards_str(hand.board)}]")
    lines += [_seat_summary(hand, i, s, visible) for i, s in enumerate(hand.seats)]
    return "\n".join(lines) + "\n\n\n"
