"""Issue 13: the record fields the T1 rules need and no site export writes, stored and read back.

Each field is optional (NULL / empty for every hand a parser reads): the warehouse stores it, the rule
checker's reader (``rules.store.load_hands``) rebuilds it, and a warehouse made before the field gets
the column on connect, its rows reading as "not written".
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from parsers.model import Hand, Pot
from rules.store import load_hands as read_hands
from tests.rules.builder import load_hands, make_hand
from warehouse import db


def _three_pots() -> Hand:
    players = [("A", 6000), ("B", 13000), ("C", 20500), ("D", 50000)]
    script = [("preflop", "A", "post_sb", 500), ("preflop", "B", "post_bb", 1000), ("preflop", "C", "raise", 20500),
              ("preflop", "D", "call", 20500), ("preflop", "A", "call", 5500), ("preflop", "B", "call", 12000)]
    h = make_hand(players, script, sb=500, bb=1000, boards=["2c7d9h4s3d"], rake=600,
                  awards=[("A", 23760), ("B", 20790), ("C", 14850)], hand_id="test:701")
    return replace(h, pots=[Pot(0, 24000, 240), Pot(1, 21000, 210), Pot(2, 15000, 150)])


def _stored(tmp_path: Path, hands: list[Hand]) -> dict[str, Hand]:
    con = db.connect(tmp_path / "w.duckdb")
    try:
        load_hands(con, hands)
        return {h.hand_id: h for h in read_hands(con)}
    finally:
        con.close()


def test_a_rake_per_pot_is_stored_and_read_back(tmp_path: Path) -> None:
    plain = replace(_three_pots(), hand_id="test:702", pots=[Pot(0, 24000), Pot(1, 21000), Pot(2, 15000)])
    back = _stored(tmp_path, [_three_pots(), plain])
    assert back["test:701"].pots == [Pot(0, 24000, 240), Pot(1, 21000, 210), Pot(2, 15000, 150)]
    assert [p.rake for p in back["test:702"].pots] == [None, None, None]  # no rake per pot written


def test_a_warehouse_made_before_the_record_fields_gets_them_on_connect(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    con = db.connect(path)
    con.execute("ALTER TABLE pots DROP COLUMN rake")  # as a warehouse made before per-pot rake
    con.execute("ALTER TABLE hands DROP COLUMN rabbit_cards")
    con.execute("INSERT INTO pots VALUES ('test:1', 0, 500)")
    con.close()
    con = db.connect(path)
    try:
        assert con.execute("SELECT pot_no, amount, rake FROM pots").fetchall() == [(0, 500, None)]
        cols = {r[0] for r in con.execute("SELECT column_name FROM information_schema.columns"
                                          " WHERE table_name = 'hands'").fetchall()}
        assert "rabbit_cards" in cols
    finally:
        con.close()


def test_rabbit_cards_are_stored_and_read_back(tmp_path: Path) -> None:
    shown = replace(_three_pots(), hand_id="test:703", rabbit_cards="QsJd")
    back = _stored(tmp_path, [shown, _three_pots()])
    assert back["test:703"].rabbit_cards == "QsJd"
    assert back["test:701"].rabbit_cards is None


def test_void_reason_redeal_link_and_declined_runs_are_stored_and_read_back(tmp_path: Path) -> None:
    voided = replace(_three_pots(), hand_id="test:704", cancelled=True, cancel_reason="missing_card")
    redeal = replace(_three_pots(), hand_id="test:705", redeal_of="test:704", rit_declined=["A", "B"])
    back = _stored(tmp_path, [voided, redeal, _three_pots()])
    assert (back["test:704"].cancel_reason, back["test:704"].redeal_of) == ("missing_card", None)
    assert back["test:705"].redeal_of == "test:704"
    assert list(back["test:705"].rit_declined or []) == ["A", "B"]
    plain = back["test:701"]
    assert (plain.cancel_reason, plain.redeal_of, plain.rit_declined) == (None, None, None)


def test_a_warehouse_made_before_the_void_and_redeal_records_gets_them_on_connect(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    con = db.connect(path)
    for col in ("cancel_reason", "redeal_of", "rit_declined"):
        con.execute(f"ALTER TABLE hands DROP COLUMN {col}")
    con.close()
    con = db.connect(path)
    try:
        cols = {r[0] for r in con.execute("SELECT column_name FROM information_schema.columns"
                                          " WHERE table_name = 'hands'").fetchall()}
        assert {"cancel_reason", "redeal_of", "rit_declined"} <= cols
    finally:
        con.close()
