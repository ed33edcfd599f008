"""Canonical ``Hand`` records to columnar polars frames, one frame per warehouse table.

Why: the warehouse is loaded in bulk through Arrow, never row by row; this is the single place
where model objects become columns, so the schema in ``schema.sql`` and the model stay in step.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import polars as pl

from parsers.columns import (
    ACTION_SCHEMA,
    AWARD_SCHEMA,
    BOARD_SCHEMA,
    HAND_SCHEMA,
    HOLE_SCHEMA,
    POT_SCHEMA,
    SEAT_SCHEMA,
    STREET_CARDS_SCHEMA,
    TABLE_SCHEMAS,
)
from parsers.model import Hand, game_family

__all__ = [
    "ACTION_SCHEMA", "AWARD_SCHEMA", "BOARD_SCHEMA", "HAND_SCHEMA", "HOLE_SCHEMA", "POT_SCHEMA",
    "SEAT_SCHEMA", "STREET_CARDS_SCHEMA", "TABLE_SCHEMAS", "HandFrames", "hands_to_frames",
]


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
    street_cards: list[tuple[object, ...]] = []
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
                h.mix, h.bring_in if game_family(h.variant) != "flop" else None, h.small_bet, h.big_bet,
                h.rabbit_cards, h.cancel_reason, h.redeal_of, h.rit_declined,
            )
        )  # fmt: skip
        seats.extend(_with_id(hid, h.seats))
        actions.extend((hid, a[0], str(a[1]), a[2], str(a[3]), *a[4:]) for a in h.actions)
        holes.extend((hid, c.player, c.cards, str(c.provenance)) for c in h.hole_cards)
        boards.extend(_with_id(hid, h.boards))
        pots.extend(_with_id(hid, h.pots))
        awards.extend(_with_id(hid, h.awards))
        if h.street_cards:
            street_cards.extend((hid, c.player, str(c.street), c.cards, c.face_up) for c in h.street_cards)
    rows = {
        "hands": hand_rows,
        "seats": seats,
        "actions": actions,
        "hole_cards": holes,
        "boards": boards,
        "pots": pots,
        "awards": awards,
        "street_cards": street_cards,
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
    "street_cards": "street_cards",
}
