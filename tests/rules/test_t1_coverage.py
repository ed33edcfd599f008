"""Issue 13 Done-when: every T1 rule id of the matrix has a violating and a boundary-legal hand-written
case, and a case per book where the books differ (tests.rules.t1_coverage: the registry the ``@covers``
decorators and tests/rules/test_t1_cases.py fill; the matrix's §2 ⚠ rows give the book groups).

Through both engines: test_t1_cases.py and every test taking the ``engine`` fixture run each hand through
both; every other hand-written hand a tests/rules test checks is run through both by test_zz_both_engines.py
(the record, continuity and sequence ids are SQL or cross-hand passes, whichever engine decided the hand).
The only ids excused are ``NO_RECORD_FIELD``'s: parsers.model.Hand has no field for the data they need.
Also here, through both engines, SHOWDOWN.UNCONTESTED, RAKE.NONE_IN_TOURNAMENT and RAKE.TIE_EXEMPT (R003
only: «la comisión se cobrará únicamente si el empate fue producido bajo la modalidad de apertura de 2 o
más veces»).
"""

from __future__ import annotations

import importlib

from parsers.model import Hand
from rules.handrecord import NOT_IN_RECORD
from tests.rules.builder import make_hand
from tests.rules.t1_coverage import NO_RECORD_FIELD, book_groups, gaps, load_claims, t1_ids
from tests.rules.test_new_rules import CEP, DEEP, ONLINE, PKR, R003, T09, found, hid


def test_the_matrix_has_59_t1_ids() -> None:
    ids = t1_ids()
    assert len(ids) == len(set(ids)) == 59, len(ids)
    assert {"BLIND.POSTING", "STRADDLE.NO_TRIPLE", "RAKE.NONE_IN_TOURNAMENT", "STACK.ADD_ON_TIMING"} <= set(ids)


def test_the_matrix_book_groups() -> None:
    groups = book_groups()
    assert groups["RAISE.MIN"] == [("CEP-2023",), ("R003-cash",), ("TDA-2009", "PKR-cash")]
    assert groups["RUN_TWICE.POT_THRESHOLD"] == [("PKR-cash",), ("R003-cash",)]
    assert groups["ALLIN.CUMULATIVE_REOPEN"] == [("CEP-2023",), ("TDA-2009",), ("PKR-cash",), ("R003-cash",)]
    assert "BLIND.POSTING" not in groups


def test_every_claim_names_a_t1_id_a_book_and_an_existing_test() -> None:
    ids, claims = set(t1_ids()), load_claims()
    for c in claims:
        assert c.rule in ids, c
        assert c.books and set(c.books) <= {"CEP-2023", "TDA-2009", "PKR-cash", "R003-cash", "online-standard"}, c
        if not c.where.startswith("test_t1_cases::"):
            mod, name = c.where.split("::")
            assert callable(getattr(importlib.import_module(f"tests.rules.{mod}"), name, None)), c


def test_every_t1_id_has_a_violating_a_legal_and_a_per_book_case() -> None:
    assert gaps() == {}
    # the excused ids: the record has no field for them, they are never emitted, and the run report lists them
    assert set(NO_RECORD_FIELD) <= set(t1_ids())
    assert set(NOT_IN_RECORD) >= set(NO_RECORD_FIELD), sorted(set(NO_RECORD_FIELD) - set(NOT_IN_RECORD))


# ---- SHOWDOWN.UNCONTESTED: the last live hand wins without showing --------------------------------
def uncontested(winner: str) -> Hand:
    players = [("A", DEEP), ("B", DEEP), ("C", DEEP)]
    script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200), ("preflop", "C", "raise", 600),
              ("preflop", "A", "fold", None), ("preflop", "B", "fold", None), ("preflop", "C", "uncalled_return", 400)]
    return make_hand(players, script, awards=[(winner, 500)], hand_id=hid())


def test_the_last_live_hand_wins_uncontested(engine: str) -> None:
    for book in (CEP, T09, PKR, R003, ONLINE):
        assert found(engine, uncontested("C"), book, "SHOWDOWN") == [], book
        assert ("SHOWDOWN.UNCONTESTED", None, "error") in found(engine, uncontested("B"), book, "SHOWDOWN"), book


# ---- RAKE.TIE_EXEMPT (R003): a chop is not raked unless it came from running it twice ----------------
def chop(rake: int) -> Hand:
    players = [("A", DEEP), ("B", DEEP)]
    script = [("preflop", "B", "post_sb", 100), ("preflop", "A", "post_bb", 200), ("preflop", "B", "call", 100),
              ("preflop", "A", "check", None), *[(st, p, "check", None) for st in ("flop", "turn", "river")
                                                 for p in ("A", "B")]]  # fmt: skip
    each = (400 - rake) // 2
    return make_hand(players, script, awards=[("A", each), ("B", each)], rake=rake, boards=["AcKdQhJs9c"],
                     hole={"A": "2c3d", "B": "2d3c"}, button=2, hand_id=hid())


def test_r003_does_not_rake_a_chop(engine: str) -> None:
    assert found(engine, chop(0), R003, "RAKE") == []
    assert found(engine, chop(20), R003, "RAKE") == [("RAKE.TIE_EXEMPT", None, "error")]
    for book in (CEP, PKR, ONLINE):  # the other books say nothing about raking a tie
        assert found(engine, chop(20), book, "RAKE.TIE") == [], book


# ---- RAKE.NONE_IN_TOURNAMENT: tournament hands carry no rake -----------------------------------------
def raked(game_type: str, rake: int) -> Hand:
    players = [("A", DEEP), ("B", DEEP), ("C", DEEP)]
    script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200), ("preflop", "C", "call", 200),
              ("preflop", "A", "fold", None), ("preflop", "B", "check", None), ("flop", "B", "bet", 400),
              ("flop", "C", "fold", None), ("flop", "B", "uncalled_return", 400)]  # fmt: skip
    return make_hand(players, script, awards=[("B", 500 - rake)], rake=rake, game_type=game_type, hand_id=hid())


def test_a_tournament_hand_takes_no_rake(engine: str) -> None:
    for book in (CEP, T09, ONLINE):
        assert found(engine, raked("tournament", 0), book, "RAKE") == [], book
        assert found(engine, raked("tournament", 25), book, "RAKE") == [("RAKE.NONE_IN_TOURNAMENT", None, "error")]
    assert found(engine, raked("cash", 25), PKR, "RAKE.NONE") == []
