"""PokerStars cash-game text for one played hand (layout of real 2020s PokerStars exports)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from simulator.heldout.cards import cards_str, describe
from simulator.heldout.engine import STREET_WORDS, HandState, pot_labels

_CET = ZoneInfo("Europe/Paris")
_ET = ZoneInfo("America/New_York")


def money(cents: int) -> str:
    whole, part = divmod(cents, 100)
    return f"${whole}" if part == 0 else f"${whole}.{part:02d}"


def _stamp(t: datetime) -> str:
    return f"{t.year}/{t.month:02d}/{t.day:02d} {t.hour}:{t.minute:02d}:{t.second:02d}"


def _allin(flag: bool) -> str:
    return " and is all-in" if flag else ""


def write_hand(hand: HandState, hand_no: int, table: str, max_seats: int, when_utc: datetime,
               operator_mode: bool, extra: list[str]) -> str:
    """The hand as PokerStars writes it; ``extra`` are seating lines (joins/leaves) for the end."""
    seats = hand.seats
    lines = [
        f"PokerStars Hand #{hand_no}:  Hold'em No Limit ({money(hand.sb)}/{money(hand.bb)} USD) - "
        f"{_stamp(when_utc.astimezone(_CET))} CET [{_stamp(when_utc.astimezone(_ET))} ET]",
        f"Table '{table}' {max_seats}-max Seat #{seats[hand.button].seat_no} is the button",
    ]
    lines += [f"Seat {s.seat_no}: {s.name} ({money(s.stack)} in chips)" for s in seats]
    board = hand.board5
    dealt_done = False
    for ev in hand.events:
        tag = ev[0]
        if tag == "post":
            lines.append(f"{ev[1]}: posts {ev[2]} {money(ev[3])}{_allin(ev[4])}")
            continue
        if not dealt_done:
            dealt_done = True
            lines.append("*** HOLE CARDS ***")
            if operator_mode:
                lines += [f"Dealt to {s.name} [{cards_str(s.hole)}]" for s in seats]
        if tag == "fold":
            lines.append(f"{ev[1]}: folds")
        elif tag == "check":
            lines.append(f"{ev[1]}: checks")
        elif tag == "call":
            lines.append(f"{ev[1]}: calls {money(ev[2])}{_allin(ev[3])}")
        elif tag == "bet":
            lines.append(f"{ev[1]}: bets {money(ev[2])}{_allin(ev[3])}")
        elif tag == "raise":
            lines.append(f"{ev[1]}: raises {money(ev[2])} to {money(ev[3])}{_allin(ev[4])}")
        elif tag == "uncalled":
            lines.append(f"Uncalled bet ({money(ev[2])}) returned to {ev[1]}")
        elif tag == "street":
            k = ev[1]
            if k == 1:
                lines.append(f"*** FLOP *** [{cards_str(board[:3])}]")
            elif k == 2:
                lines.append(f"*** TURN *** [{cards_str(board[:3])}] [{cards_str(board[3:4])}]")
            else:
                lines.append(f"*** RIVER *** [{cards_str(board[:4])}] [{cards_str(board[4:5])}]")
        elif tag == "showdown":
            lines.append("*** SHOW DOWN ***")
        elif tag == "show":
            lines.append(f"{ev[1]}: shows [{cards_str(ev[2])}] ({describe(ev[3])})")
        elif tag == "muck":
            lines.append(f"{ev[1]}: mucks hand")
        elif tag == "collect":
            lines.append(f"{ev[1]} collected {money(ev[2])} from {ev[3]}")
        elif tag == "noshow":
            lines.append(f"{ev[1]}: doesn't show hand")
    lines += extra
    lines.append("*** SUMMARY ***")
    total = f"Total pot {money(hand.total_pot)}"
    if len(hand.pots) > 1:
        labels = pot_labels(len(hand.pots))
        parts = (f"{lab[0].upper()}{lab[1:]} {money(p.amount)}." for lab, p in zip(labels, hand.pots, strict=True))
        total += " " + " ".join(parts)
    lines.append(f"{total} | Rake {money(hand.rake)}")
    if hand.board:
        lines.append(f"Board [{cards_str(hand.board)}]")
    n = len(seats)
    for k, s in enumerate(seats):
        d = (k - hand.button) % n
        pos = {0: " (button)", 1: " (small blind)", 2: " (big blind)"}.get(d, "")
        if s.folded:
            out = f"folded {STREET_WORDS[s.fold_street]}"
            if s.fold_street == 0 and s.total_in == 0:
                out += " (didn't bet)"
        elif not hand.showdown:
            out = f"collected ({money(s.won)})"
        elif k in hand.shown:
            desc = describe(hand.values[k])
            out = (f"showed [{cards_str(s.hole)}] and won ({money(s.won)}) with {desc}" if s.won
                   else f"showed [{cards_str(s.hole)}] and lost with {desc}")
        else:
            out = f"mucked [{cards_str(s.hole)}]"
        lines.append(f"Seat {s.seat_no}: {s.name}{pos} {out}")
    return "\n".join(lines) + "\n"
