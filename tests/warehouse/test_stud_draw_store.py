"""Stud and draw hands in the warehouse (issue 12): the added columns and the street_cards table.

The hold'em tables keep their meaning: a flop game's hand has NULL in the four added ``hands``
columns and no street_cards rows; a warehouse made before them gets them on connect.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from parsers.formats.pokerstars import FORMAT as STARS
from parsers.model import Hand
from tests.conftest import real_data
from warehouse import db
from warehouse.ingest import ingest_paths

STARS_DIR = ("fpdb3_regression", "regression-test-files", "cash", "Stars")


def test_stud_hand_rows_match_the_parsed_hand(tmp_path: Path) -> None:
    stud = real_data(*STARS_DIR, "Stud", "7-StudHL-USD-0.04-0.08-200911.txt")
    holdem = real_data(*STARS_DIR, "Flop", "NLHE-6max-USD-0.05-0.10-200911.txt")
    path = tmp_path / "w.duckdb"
    summary = ingest_paths([stud, holdem], path)
    assert summary.unreconciled == 0 and summary.quarantined == 0
    want = next(h for h in STARS.parse(stud) if isinstance(h, Hand) and h.site_hand_no == "35874487284")
    with duckdb.connect(str(path), read_only=True) as con:
        row = con.execute("SELECT variant, mix, bring_in, small_bet, big_bet, sb, bb, button_seat FROM hands"
                          " WHERE hand_id = 'pokerstars:35874487284'").fetchone()
        cards = con.execute("SELECT player, street, cards, face_up FROM street_cards"
                            " WHERE hand_id = 'pokerstars:35874487284'").fetchall()
        kinds = {r[0] for r in con.execute("SELECT DISTINCT kind FROM actions a JOIN hands h USING (hand_id)"
                                           " WHERE h.variant = 'stud_hilo'").fetchall()}
        flop = con.execute("SELECT count(*), count(mix), count(bring_in), count(small_bet), count(big_bet)"
                           " FROM hands WHERE variant = 'holdem'").fetchone()
        flop_cards = con.execute("SELECT count(*) FROM street_cards s JOIN hands h USING (hand_id)"
                                 " WHERE h.variant = 'holdem'").fetchone()
        status = con.execute("SELECT DISTINCT r.status FROM reconciliation r JOIN hands h USING (hand_id)"
                             " WHERE h.variant = 'stud_hilo'").fetchall()
    # "7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD)", "Hero: brings in for $0.02", no button
    assert row == ("stud_hilo", None, 2, 4, 8, 0, 4, None)
    assert sorted(cards) == sorted((c.player, c.street.value, c.cards, c.face_up) for c in want.street_cards)
    assert {"bring_in", "post_ante"} <= kinds
    assert flop is not None and flop[0] > 0 and flop[1:] == (0, 0, 0, 0)  # hold'em rows: NULL, as before
    assert flop_cards == (0,)
    assert status == [("ok",)]


def test_a_warehouse_made_before_stud_gets_the_columns_on_connect(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    con = db.connect(path)
    for column in ("mix", "bring_in", "small_bet", "big_bet"):  # as a warehouse made before issue 12
        con.execute(f"ALTER TABLE hands DROP COLUMN {column}")
    con.execute("DROP TABLE street_cards")
    con.close()
    ingest_paths([real_data(*STARS_DIR, "Draw", "Badugi-USD-0.25-0.50-201009.txt")], path)
    with duckdb.connect(str(path), read_only=True) as con:
        rows = con.execute("SELECT count(*), count(small_bet) FROM hands WHERE variant = 'badugi'").fetchone()
        drawn = con.execute("SELECT count(*) FROM street_cards WHERE street LIKE 'draw%'").fetchone()
    assert rows == (4, 4)  # "Badugi Limit ($0.25/$0.50 USD)": four hands, each with its bet sizes
    assert drawn is not None and drawn[0] > 0
