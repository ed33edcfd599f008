"""PokerStars cash-game text: money formatting, headers and the summary block."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simulator.foreign.table import Hand


def money(cents: int) -> str:
    """PokerStars dollars: '$25', '$0.50', '$1,234.05'."""
    dollars, rest = divmod(cents, 100)
    whole = f"{dollars:,}"
    return f"${whole}" if rest == 0 else f"${whole}.{rest:02d}"


def stakes(sb: int, bb: int) -> str:
    """Blind pair as in the header: '$0.25/$0.50', '$1/$2'."""
    return f"{money(sb)}/{money(bb)}"


def header(hand_no: int, sb: int, bb: int, when: datetime, table: str, max_seats: int, button_seat: int) -> list[str]:
    """First two lines of a hand."""
    return [
        f"PokerStars Hand #{hand_no}:  Hold'em No Limit ({stakes(sb, bb)} USD) - {when:%Y/%m/%d %H:%M:%S} ET",
        f"Table '{table}' {max_seats}-max Seat #{button_seat} is the button",
    ]


def seat_lines(hand: Hand) -> list[str]:
    """'Seat 1: name ($100 in chips)' for every player dealt in."""
    return [f"Seat {s.seat_no}: {s.name} ({money(s.start)} in chips)" for s in hand.seats]


def _position(hand: Hand, i: int) -> str:
    """'(button)', '(small blind)', '(big blind)' tags of the summary."""
    n = len(hand.seats)
    sb_i = hand.button if n == 2 else (hand.button + 1) % n
    bb_i = (sb_i + 1) % n
    tags = []
    if i == hand.button:
        tags.append("(button)")
    if i == sb_i:
        tags.append("(small blind)")
    if i == bb_i:
        tags.append("(big blind)")
    return (" " + " ".join(tags)) if tags else ""


def _street_word(street: str | None) -> str:
    """'before Flop' / 'on the Turn' wording of a fold."""
    return "before Flop" if street == "preflop" else f"on the {(street or 'river').capitalize()}"


def summary(hand: Hand, operator_mode: bool) -> list[str]:
    """The *** SUMMARY *** block."""
    from simulator.foreign.cards import cards_str, describe

    out = ["*** SUMMARY ***"]
    pots = hand.pots
    if len(pots) <= 1:
        out.append(f"Total pot {money(hand.total_pot)} | Rake {money(hand.rake)}")
    else:
        parts = [f"Main pot {money(pots[0][0])}."]
        if len(pots) == 2:
            parts.append(f"Side pot {money(pots[1][0])}.")
        else:
            parts.extend(f"Side pot-{k} {money(pots[k][0])}." for k in range(1, len(pots)))
        out.append(f"Total pot {money(hand.total_pot)} {' '.join(parts)} | Rake {money(hand.rake)}")
    if hand.board:
        out.append(f"Board [{cards_str(hand.board)}]")
    for i, s in enumerate(hand.seats):
        lead = f"Seat {s.seat_no}: {s.name}{_position(hand, i)}"
        if s.folded:
            tail = " (didn't bet)" if s.fold_street == "preflop" and s.total_in == 0 else ""
            out.append(f"{lead} folded {_street_word(s.fold_street)}{tail}")
        elif s.shown:
            desc = describe([*s.hole, *hand.board])
            result = f"won ({money(s.won)})" if s.won else "lost"
            out.append(f"{lead} showed [{cards_str(s.hole)}] and {result} with {desc}")
        elif s.mucked:
            out.append(f"{lead} mucked [{cards_str(s.hole)}]" if operator_mode else f"{lead} mucked")
        else:
            out.append(f"{lead} collected ({money(s.won)})")
    return out


def render(hand: Hand, hand_no: int, when: datetime, table: str, max_seats: int, operator_mode: bool) -> str:
    """Whole hand text, ending with the blank lines PokerStars puts between hands."""
    lines = header(hand_no, hand.sb, hand.bb, when, table, max_seats, hand.seats[hand.button].seat_no)
    lines += seat_lines(hand)
    lines += hand.lines
    lines += summary(hand, operator_mode)
    return "\n".join(lines) + "\n\n\n"
