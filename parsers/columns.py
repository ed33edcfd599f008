"""Column schemas of the canonical tables (polars dtypes), shared by every columnar producer.

Why in ``parsers/``: the fast PokerStars path builds these tables directly, and the warehouse loads
them; both must agree with ``warehouse/schema.sql``, and parsers must not depend on the warehouse.
"""

from __future__ import annotations

import polars as pl

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
    # stud/draw games and mixed rotations (issue 12): NULL for every other hand
    "mix": pl.String(),
    "bring_in": pl.Int64(),
    "small_bet": pl.Int64(),
    "big_bet": pl.Int64(),
    # records no site export writes (issue 13): NULL for every parsed hand
    "rabbit_cards": pl.String(),
    "cancel_reason": pl.String(),
    "redeal_of": pl.String(),
    "rit_declined": pl.List(pl.String()),
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
    "acted_at": pl.Datetime("us"),
    "left_table": pl.Boolean(),
}
HOLE_SCHEMA: dict[str, pl.DataType] = {
    "hand_id": pl.String(),
    "player": pl.String(),
    "cards": pl.String(),
    "provenance": pl.String(),
}
BOARD_SCHEMA: dict[str, pl.DataType] = {"hand_id": pl.String(), "board_no": pl.Int32(), "cards": pl.String()}
POT_SCHEMA: dict[str, pl.DataType] = {
    "hand_id": pl.String(), "pot_no": pl.Int32(), "amount": pl.Int64(),
    "rake": pl.Int64(),  # the rake taken from this pot, where the record writes it (Pot.rake); else NULL
}
AWARD_SCHEMA: dict[str, pl.DataType] = {
    "hand_id": pl.String(),
    "player": pl.String(),
    "amount": pl.Int64(),
    "pot_no": pl.Int32(),
    "board_no": pl.Int32(),
}
STREET_CARDS_SCHEMA: dict[str, pl.DataType] = {
    "hand_id": pl.String(),
    "player": pl.String(),
    "street": pl.String(),
    "cards": pl.String(),
    "face_up": pl.Boolean(),
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
    "street_cards": STREET_CARDS_SCHEMA,
}
