"""HandRecord -> PHH (uoftcprg/phh-std TOML), one ``[N]`` section per hand in a ``.phhs`` file.

Why PHH as well: it is the academic exchange format (pokerkit reads it), so a simulated night
can be replayed by other tools. Arrays are in position order (small blind first, button last;
heads-up the big blind first, as PHH reverse-assigns the blinds). Amounts are dollars with
cents, written exactly as decimal text. PHH has no rake field in the standard, so the rake is
written as ``rake`` (a user field) and ``finishing_stacks`` are after rake.
"""

from __future__ import annotations

from .cards import CARD_STR
from .engine import HandRecord

_KIND = {"fold": "f", "check": "cc", "call": "cc"}


def _amount(cents: int) -> str:
    whole, frac = divmod(cents, 100)
    return f"{whole}.{frac:02d}" if frac else f"{whole}"


def _cards(cards: tuple[int, ...] | list[int]) -> str:
    return "".join(CARD_STR[c] for c in cards)


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_hand(rec: HandRecord, section: int, event: str) -> str:
    """One hand as a PHH TOML section."""
    n = len(rec.players)
    # our hand order is small blind first, button last; heads-up PHH wants the big blind first
    order = [1, 0] if n == 2 else list(range(n))
    pos = {i: k + 1 for k, i in enumerate(order)}
    t = rec.table
    when = rec.started_at
    blinds = [t.sb, t.bb] + [0] * (n - 2)
    lines = [
        f"[{section}]",
        'variant = "NT"',
        "ante_trimming_status = true",
        f"antes = [{', '.join('0' for _ in range(n))}]",
        f"blinds_or_straddles = [{', '.join(_amount(b) for b in blinds)}]",
        f"min_bet = {_amount(t.bb)}",
        f"starting_stacks = [{', '.join(_amount(rec.stacks[i]) for i in order)}]",
        "actions = [",
    ]
    acts = [f"d dh p{pos[i]} {_cards(rec.holes[i])}" for i in order]
    street = 0
    for street_no, i, kind, _, raise_to, _, _ in rec.actions:
        if kind.startswith("post") or kind == "uncalled":
            continue
        while street < street_no:
            street += 1
            acts.append(_board(street, rec.board))
        acts.append(f"p{pos[i]} cbr {_amount(raise_to)}" if kind in ("bet", "raise") else f"p{pos[i]} {_KIND[kind]}")
    dealt_streets = {0: 0, 3: 1, 4: 2, 5: 3}[len(rec.board)]
    while street < dealt_streets:
        street += 1
        acts.append(_board(street, rec.board))
    acts.extend(f"p{pos[i]} sm {_cards(rec.holes[i])}" for i in rec.shown)
    lines.extend(f"  {_q(a)}," for a in acts)
    lines += [
        "]",
        f"event = {_q(event)}",
        f"table = {_q(t.name)}",
        f"hand = {rec.hand_no}",
        f"seat_count = {t.max_seats}",
        f"seats = [{', '.join(str(rec.seat_nos[i]) for i in order)}]",
        f"players = [{', '.join(_q(rec.players[i].name) for i in order)}]",
        f"finishing_stacks = [{', '.join(_amount(rec.final[i]) for i in order)}]",
        f"rake = {_amount(rec.rake)}",
        'currency = "USD"',
        f"year = {when.year}",
        f"month = {when.month}",
        f"day = {when.day}",
        f'time = "{when.hour:02d}:{when.minute:02d}:{when.second:02d}"',
        'time_zone = "UTC"',
    ]
    return "\n".join(lines)


def _board(street: int, board: list[int]) -> str:
    return f"d db {_cards(board[:3])}" if street == 1 else f"d db {_cards(board[street + 1 : street + 2])}"


def hand_id(rec: HandRecord, event: str) -> str:
    """The id the PHH parser gives this hand (event, table, hand number)."""
    return f"phh:{event}:table {rec.table.name}:{rec.hand_no}"
