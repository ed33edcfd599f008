"""Canonical ``Hand`` records to columnar polars frames, one frame per warehouse table.

Why: the warehouse is loaded in bulk through Arrow, never row by row; this is the single place
where model objects become columns, so the schema in ``schema.sql`` and the model stay in step.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import polars as pl

from parsers.model import Hand

HAND_SCHEMA: dict[str, pl.DataType] = {
    "hand_id": pl.String(),
    "site": pl.String(),
    "site_hand_no": pl.String(),
    "format": pl.String(),
    "variant": pl.String(),
    "betting": pl.String(),
    "game_type": pl.String(),
    "tournament_id": pl.String(),
    "tournament_level": pl.String(),
    "table_name": pl.String(),
    "max_seats": pl.Int32(),
    "button_seat": pl.Int32(),
    "sb": pl.Int64(),
    "bb": pl.Int64(),
    "ante": pl.Int64(),
    "bb_ante": pl.Int64(),
    "straddle": pl.Int64(),
    "currency": pl.String(),
    "unit_scale": pl.Int32(),
    "started_at": pl.Datetime("us"),
    "hero": pl.String(),
    "hole_cards_mode": pl.String(),
    "site_total_pot": pl.Int64(),
    "site_rake": pl.Int64(),
    "site_fees": pl.Int64(),
    "site_added": pl.Int64(),
    "cancelled": pl.Boolean(),
    "n_players": pl.Int32(),
    "source_file": pl.String(),
    "file_sha256": pl.String(),
    "byte_offset": pl.Int64(),
    "byte_length": pl.Int64(),
}
SEAT_SCHEMA: dict[str, pl.DataType] = {
    "hand_id": pl.String(),
    "seat_no": pl.Int32(),
    "player": pl.String(),
    "stack": pl.Int64(),
    "sitting_out": pl.Boolean(),
    "final_stack": pl.Int64(),
}
ACTION_SCHEMA: dict[str, pl.DataType] = {
    "hand_id": pl.String(),
    "seq": pl.Int32(),
    "street": pl.String(),
    "player": pl.String(),
    "kind": pl.String(),
    "amount": pl.Int64(),
    "raise_to": pl.Int64(),
    "all_in": pl.Boolean(),
    "contribution": pl.Int64(),
    "cards": pl.String(),
}
HOLE_SCHEMA: dict[str, pl.DataType] = {
    "hand_id": pl.String(),
    "player": pl.String(),
    "cards": pl.String(),
    "provenance": pl.String(),
}
BOARD_SCHEMA: dict[str, pl.DataType] = {"hand_id": pl.String(), "board_no": pl.Int32(), "cards": pl.String()}
POT_SCHEMA: dict[str, pl.DataType] = {"hand_id": pl.String(), "pot_no": pl.Int32(), "amount": pl.Int64()}
AWARD_SCHEMA: dict[str, pl.DataType] = {
    "hand_id": pl.String(),
    "player": pl.String(),
    "amount": pl.Int64(),
    "pot_no": pl.Int32(),
    "board_no": pl.Int32(),
}

#: table name -> schema, in load order
TABLE_SCHEMAS: dict[str, dict[str, pl.DataType]] = {
    "hands": HAND_SCHEMA,
    "seats": SEAT_SCHEMA,
    "actions": ACTION_SCHEMA,
    "hole_cards": HOLE_SCHEMA,
    "boards": BOARD_SCHEMA,
    "pots": POT_SCHEMA,
    "awards": AWARD_SCHEMA,
}


@dataclass
class HandFrames:
    """One polars frame per canonical table."""

    tables: dict[str, pl.DataFrame] = field(default_factory=dict)

    def __getitem__(self, name: str) -> pl.DataFrame:
        return self.tables[name]

    @property
    def n_hands(self) -> int:
        return self.tables["hands"].height if "hands" in self.tables else 0


def _with_id(hand_id: str, rows: Iterable[tuple[object, ...]]) -> list[tuple[object, ...]]:
    return [(hand_id, *row) for row in rows]


def hands_to_frames(hands: Iterable[Hand], file_sha256: str = "", index: Sequence[int] | None = None) -> HandFrames:
    """Columnar frames for a batch of hands (child rows prefixed with their hand_id). With
    ``index`` (one integer per hand), every frame gets a leading ``_hx`` column holding it, as
    the PokerStars fast path's frames do, so both can be concatenated and filtered by hand."""
    if index is not None:
        return _indexed(list(hands), index, file_sha256)
    hand_rows: list[tuple[object, ...]] = []
    seats: list[tuple[object, ...]] = []
    actions: list[tuple[object, ...]] = []
    holes: list[tuple[object, ...]] = []
    boards: list[tuple[object, ...]] = []
    pots: list[tuple[object, ...]] = []
    awards: list[tuple[object, ...]] = []
    for h in hands:
        hid = h.hand_id
        hand_rows.append(
            (
                hid, h.site, h.site_hand_no, h.format, h.variant, h.betting, h.game_type,
                h.tournament_id, h.tournament_level, h.table_name, h.max_seats, h.button_seat,
                h.sb, h.bb, h.ante, h.bb_ante, h.straddle, h.currency, h.unit_scale, h.started_at,
                h.hero, h.hole_cards_mode, h.site_total_pot, h.site_rake, h.site_fees, h.site_added, h.cancelled,
                sum(1 for s in h.seats if not s.sitting_out), h.source_file, file_sha256,
                h.byte_offset, h.byte_length,
            )
        )  # fmt: skip
        seats.extend(_with_id(hid, h.seats))
        actions.extend((hid, a[0], str(a[1]), a[2], str(a[3]), *a[4:]) for a in h.actions)
        holes.extend((hid, c.player, c.cards, str(c.provenance)) for c in h.hole_cards)
        boards.extend(_with_id(hid, h.boards))
        pots.extend(_with_id(hid, h.pots))
        awards.extend(_with_id(hid, h.awards))
    rows = {
        "hands": hand_rows,
        "seats": seats,
        "actions": actions,
        "hole_cards": holes,
        "boards": boards,
        "pots": pots,
        "awards": awards,
    }
    return HandFrames(
        {
            name: pl.DataFrame(rows[name], schema=TABLE_SCHEMAS[name], orient="row")
            for name in TABLE_SCHEMAS
        }
    )


def _indexed(hands: list[Hand], index: Sequence[int], file_sha256: str) -> HandFrames:
    frames = hands_to_frames(hands, file_sha256)
    hx = pl.DataFrame({"_hx": list(index)}, schema={"_hx": pl.Int64})
    out: dict[str, pl.DataFrame] = {}
    for name, frame in frames.tables.items():
        if name == "hands":
            out[name] = frame.with_columns(hx["_hx"]).select("_hx", *TABLE_SCHEMAS[name])
            continue
        # rows in hand order: the k-th hand's rows come k-th, so number hands by run of hand_id
        counts = [_child_count(h, name) for h in hands]
        keys = pl.Series("_hx", [k for k, c in zip(index, counts, strict=True) for _ in range(c)], dtype=pl.Int64)
        out[name] = frame.with_columns(keys).select("_hx", *TABLE_SCHEMAS[name])
    return HandFrames(out)


def _child_count(hand: Hand, table: str) -> int:
    return len(getattr(hand, _CHILD_ATTR[table]))


_CHILD_ATTR = {
    "seats": "seats",
    "actions": "actions",
    "hole_cards": "hole_cards",
    "boards": "boards",
    "pots": "pots",
    "awards": "awards",
}
