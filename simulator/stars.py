"""HandRecord -> PokerStars hand-history text, line for line as PokerStars writes a cash hand.

Why a hand-written writer: the output must parse with the real PokerStars parser and look like
a site export, so the grammar follows the real files in the regression set (money without
trailing '.00' except in the stakes, unpadded hour, 'Uncalled bet (...) returned to', seat
summary lines with '(didn't bet)', 'Main pot ... Side pot-1 ...').
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from .cards import CARD_STR, describe
from .engine import HandRecord

EASTERN = ZoneInfo("America/New_York")
UTC = ZoneInfo("UTC")
_FOLDED = ("folded before Flop", "folded on the Flop", "folded on the Turn", "folded on the River")
_STREET_HEAD = ("", "*** FLOP ***", "*** TURN ***", "*** RIVER ***")


def money(cents: int) -> str:
    """'$50', '$0.50', '$2.05': whole amounts have no decimals, as PokerStars writes them."""
    whole, frac = divmod(cents, 100)
    return f"${whole}" if frac == 0 else f"${whole}.{frac:02d}"


def stakes(sb: int, bb: int) -> str:
    """'$0.50/$1.00' or '$1/$2': both with cents when either has cents."""
    if sb % 100 or bb % 100:
        return f"${sb // 100}.{sb % 100:02d}/${bb // 100}.{bb % 100:02d}"
    return f"${sb // 100}/${bb // 100}"


def et_time(utc: datetime) -> str:
    local = utc.replace(tzinfo=UTC).astimezone(EASTERN)
    return f"{local.year}/{local.month:02d}/{local.day:02d} {local.hour}:{local.minute:02d}:{local.second:02d} ET"


def cards_text(cards: tuple[int, ...] | list[int]) -> str:
    return "[" + " ".join(CARD_STR[c] for c in cards) + "]"


def write_hand(rec: HandRecord, operator: bool) -> str:
    """One hand as PokerStars text (no trailing blank lines)."""
    t = rec.table
    names = [p.name for p in rec.players]
    n = len(names)
    out = [
        f"PokerStars Hand #{rec.hand_no}:  Hold'em No Limit ({stakes(t.sb, t.bb)} USD) - {et_time(rec.started_at)}",
        f"Table '{t.name}' {t.max_seats}-max Seat #{rec.button_seat} is the button",
    ]
    by_seat = sorted(range(n), key=lambda i: rec.seat_nos[i])
    out.extend(f"Seat {rec.seat_nos[i]}: {names[i]} ({money(rec.stacks[i])} in chips)" for i in by_seat)
    acts = rec.actions
    k = 0
    while k < len(acts) and acts[k][2].startswith("post"):
        _, i, kind, amount, _, all_in, _ = acts[k]
        blind = "small blind" if kind == "post_sb" else "big blind"
        out.append(f"{names[i]}: posts {blind} {money(amount)}" + (" and is all-in" if all_in else ""))
        k += 1
    out.append("*** HOLE CARDS ***")
    if operator:
        out.extend(f"Dealt to {names[i]} {cards_text(rec.holes[i])}" for i in range(n))
    street = 0
    board = rec.board
    for street_no, i, kind, amount, raise_to, all_in, _ in acts[k:]:
        while street < street_no:
            street += 1
            out.append(_street_line(street, board))
        who = names[i]
        tail = " and is all-in" if all_in and kind in ("call", "bet", "raise") else ""
        if kind == "fold":
            out.append(f"{who}: folds")
        elif kind == "check":
            out.append(f"{who}: checks")
        elif kind == "call":
            out.append(f"{who}: calls {money(amount)}{tail}")
        elif kind == "bet":
            out.append(f"{who}: bets {money(amount)}{tail}")
        elif kind == "raise":
            out.append(f"{who}: raises {money(amount)} to {money(raise_to)}{tail}")
        else:  # uncalled
            out.append(f"Uncalled bet ({money(amount)}) returned to {who}")
    dealt_streets = {0: 0, 3: 1, 4: 2, 5: 3}[len(board)]
    while street < dealt_streets:
        street += 1
        out.append(_street_line(street, board))
    multi = len(rec.pots) > 1
    sides = ["side pot"] if len(rec.pots) == 2 else [f"side pot-{j}" for j in range(1, len(rec.pots))]
    pot_names = ["main pot", *sides]
    won = [0] * n
    for _, w, amt in rec.awards:
        won[w] += amt
    descs: dict[int, str] = {}
    if rec.shown:
        out.append("*** SHOW DOWN ***")
        # as PokerStars does: from the last side pot down, its contenders show, then it is paid
        for pot_no in range(len(rec.pots) - 1, -1, -1):
            eligible = set(rec.pots[pot_no][1])
            for i in rec.shown:
                if i in eligible and i not in descs:
                    descs[i] = describe((*rec.holes[i], *board))
                    out.append(f"{names[i]}: shows {cards_text(rec.holes[i])} ({descs[i]})")
            where = pot_names[pot_no] if multi else "pot"
            out.extend(
                f"{names[w]} collected {money(amt)} from {where}" for p, w, amt in rec.awards if p == pot_no
            )
    else:
        _, w, amt = rec.awards[0]
        out.append(f"{names[w]} collected {money(amt)} from pot")
        out.append(f"{names[w]}: doesn't show hand")
    out.append("*** SUMMARY ***")
    if multi:
        parts = [f"Main pot {money(rec.pots[0][0])}."]
        parts += [f"S{pot_names[j][1:]} {money(rec.pots[j][0])}." for j in range(1, len(rec.pots))]
        out.append(f"Total pot {money(rec.total)} {' '.join(parts)} | Rake {money(rec.rake)}")
    else:
        out.append(f"Total pot {money(rec.total)} | Rake {money(rec.rake)}")
    if board:
        out.append(f"Board {cards_text(board)}")
    button_i = rec.seat_nos.index(rec.button_seat)
    for i in by_seat:
        tags = ""
        if i == button_i:
            tags += " (button)"
        if i == rec.sb_i:
            tags += " (small blind)"
        elif i == rec.bb_i:
            tags += " (big blind)"
        head = f"Seat {rec.seat_nos[i]}: {names[i]}{tags}"
        f = rec.folded_on[i]
        if f >= 0:
            out.append(f"{head} {_FOLDED[f]}" + (" (didn't bet)" if f == 0 and rec.contrib[i] == 0 else ""))
        elif i in descs:
            if won[i]:
                out.append(f"{head} showed {cards_text(rec.holes[i])} and won ({money(won[i])}) with {descs[i]}")
            else:
                out.append(f"{head} showed {cards_text(rec.holes[i])} and lost with {descs[i]}")
        else:
            out.append(f"{head} collected ({money(won[i])})")
    return "\n".join(out)


def _street_line(street: int, board: list[int]) -> str:
    if street == 1:
        return f"*** FLOP *** {cards_text(board[:3])}"
    return f"{_STREET_HEAD[street]} {cards_text(board[: street + 1])} {cards_text(board[street + 1 : street + 2])}"
