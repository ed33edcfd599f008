"""Pluribus PHH hands as canonical ``Hand`` objects, for oracle tests against pokerkit.

Why here and not a parser: the PHH parser belongs to the parsers team; the rule tests need only the
no-limit hold'em subset, converted exactly the way the model's conventions say (raise-to minus own
street bet, positional seats with the button last). Awards come from the file's finishing_stacks,
so our showdown/pot logic is checked against numbers the replay did not produce.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from parsers.model import Action, Award, Board, Hand, HoleCards, Kind, Provenance, Seat, Street

_STREETS = [Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER]


def phh_to_hand(path: Path) -> Hand:
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    players: list[str] = doc["players"]
    n = len(players)
    stacks: list[int] = doc["starting_stacks"]
    blinds: list[int] = doc["blinds_or_straddles"]
    behind = list(stacks)
    put = [0] * n
    bet = [0] * n
    actions: list[Action] = []
    seq = 0

    def add(
        street: Street, i: int, kind: Kind, amount: int | None, raise_to: int | None, c: int, cards: str | None = None
    ) -> None:
        nonlocal seq
        behind[i] -= c
        put[i] += c
        actions.append(Action(seq, street, players[i], kind, amount, raise_to, behind[i] == 0 and c > 0, c, cards))
        seq += 1

    for i, b in enumerate(blinds):
        if b:
            kind = Kind.POST_SB if i == 0 and n > 2 else Kind.POST_BB if i == 1 else Kind.POST_STRADDLE
            bet[i] = min(b, behind[i])
            add(Street.PREFLOP, i, kind, b, None, bet[i])
    street_no = 0
    hole: list[HoleCards] = []
    board = ""
    for act in doc["actions"]:
        parts = act.split()
        if parts[0] == "d":
            if parts[1] == "dh":
                hole.append(HoleCards(players[int(parts[2][1:]) - 1], parts[3], Provenance.OPERATOR))
            elif parts[1] == "db":
                board += parts[2]
                street_no += 1
                bet = [0] * n
            continue
        i = int(parts[0][1:]) - 1
        street = _STREETS[street_no]
        top = max(bet)
        if parts[1] == "f":
            add(street, i, Kind.FOLD, None, None, 0)
        elif parts[1] == "cc":
            owed = min(top - bet[i], behind[i])
            if owed:
                bet[i] += owed
                add(street, i, Kind.CALL, owed, None, owed)
            else:
                add(street, i, Kind.CHECK, None, None, 0)
        elif parts[1] == "cbr":
            to = int(parts[2])
            c = to - bet[i]
            kind = Kind.BET if top == 0 else Kind.RAISE
            add(street, i, kind, c if kind is Kind.RAISE else to, to, c)
            bet[i] = to
        elif parts[1] == "sm":
            add(
                Street.SHOWDOWN,
                i,
                Kind.SHOW if len(parts) > 2 else Kind.MUCK,
                None,
                None,
                0,
                parts[2] if len(parts) > 2 else None,
            )
    finals: list[int] = doc["finishing_stacks"]
    awards = [
        Award(players[i], finals[i] - (stacks[i] - put[i])) for i in range(n) if finals[i] - (stacks[i] - put[i]) > 0
    ]
    hid = f"phh:{path.parent.name}/{path.stem}"
    return Hand(
        hand_id=hid,
        site="phh",
        site_hand_no=path.stem,
        format="phh",
        variant="holdem",
        betting="NL",
        game_type="cash",
        table_name=path.parent.name,
        sb=blinds[0],
        bb=blinds[1],
        currency="CHIPS",
        unit_scale=1,
        source_file=str(path),
        byte_offset=0,
        byte_length=0,
        button_seat=n,
        seats=[Seat(i + 1, players[i], stacks[i], False, finals[i]) for i in range(n)],
        actions=actions,
        hole_cards=hole,
        boards=[Board(1, board)] if board else [],
        awards=awards,
        site_rake=0,
    )
