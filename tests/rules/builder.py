"""Hand-written hands for rule tests, built the way a parser would (contribution = raise-to minus own bet).

Seats are numbered 1..n in the order given; the button is the last seat unless stated, so the first
player listed is first left of the button (the small blind when three or more play).
"""

from __future__ import annotations

import duckdb

from parsers.model import Action, Award, Board, Hand, HoleCards, Kind, Provenance, Seat, Street
from warehouse.frames import hands_to_frames
from warehouse.reconcile import reconcile_frames

STREETS = {s.value: s for s in Street}


def make_hand(
    players: list[tuple[str, int]],
    script: list[tuple[str, str, str, int | None]],
    *,
    sb: int = 100,
    bb: int = 200,
    betting: str = "NL",
    button: int | None = None,
    game_type: str = "cash",
    variant: str = "holdem",
    hole: dict[str, str] | None = None,
    boards: list[str] | None = None,
    awards: list[tuple[str, int]] | None = None,
    rake: int | None = None,
    site: str = "test",
    hand_id: str = "test:1",
    bb_ante: int = 0,
    unit_scale: int = 1,
) -> Hand:
    """``script`` rows are (street, player, kind, n): n is the raise-to for bet/raise, else the amount."""
    stacks = dict(players)
    behind = dict(players)
    street_bet: dict[str, int] = {}
    cur = "preflop"
    actions: list[Action] = []
    for seq, (street, player, kind_s, n) in enumerate(script):
        if street != cur:
            street_bet = {}
            cur = street
        kind = Kind(kind_s)
        mine = street_bet.get(player, 0)
        contribution = 0
        raise_to = None
        if kind in (Kind.BET, Kind.RAISE):
            assert n is not None
            contribution = n - mine
            raise_to = n
        elif kind in (
            Kind.CALL,
            Kind.POST_SB,
            Kind.POST_BB,
            Kind.POST_STRADDLE,
            Kind.POST_ANTE,
            Kind.POST_BB_ANTE,
            Kind.POST_DEAD,
        ):
            contribution = n or 0
        elif kind is Kind.UNCALLED_RETURN:
            contribution = -(n or 0)
        if kind not in (Kind.POST_ANTE, Kind.POST_BB_ANTE, Kind.POST_DEAD):
            street_bet[player] = mine + contribution
        behind[player] -= contribution
        actions.append(Action(seq, STREETS[street], player, kind, n, raise_to, behind[player] == 0, contribution))
    seats = [Seat(i + 1, p, s) for i, (p, s) in enumerate(players)]
    return (
        Hand(
            hand_id=hand_id,
            site=site,
            site_hand_no=hand_id.rsplit(":", maxsplit=1)[-1],
            format="test",
            variant=variant,
            betting=betting,
            game_type=game_type,
            table_name="T1",
            sb=sb,
            bb=bb,
            currency="CHIPS",
            unit_scale=unit_scale,
            source_file="<test>",
            byte_offset=0,
            byte_length=0,
            button_seat=button if button is not None else len(players),
            bb_ante=bb_ante,
            seats=seats,
            actions=actions,
            hole_cards=[HoleCards(p, c, Provenance.SHOWN) for p, c in (hole or {}).items()],
            boards=[Board(i + 1, b) for i, b in enumerate(boards or [])],
            awards=[Award(p, a) for p, a in (awards or [])],
            site_rake=rake,
        )
        if stacks
        else Hand("x", "x", "x", "x", "x", "NL", "cash", "x", 0, 0, "C", 1, "x", 0, 0)
    )


def rule_ids(findings, severity: str | None = None) -> list[str]:
    return [f.rule_id for f in findings if severity is None or f.severity == severity]


def load_hands(con: duckdb.DuckDBPyConnection, hands: list[Hand]) -> None:
    """Store hand-written hands in a warehouse as ingest does (its frames and their reconciliation)."""
    frames = hands_to_frames(hands)
    frames.tables["reconciliation"] = reconcile_frames(frames)
    for name, frame in frames.tables.items():
        con.register("_f", frame.to_arrow())
        con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM _f")
        con.unregister("_f")
