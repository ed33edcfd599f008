"""Issue 13 Done-when: every T1 rule id of the matrix has hand-written tests (tests.rules.t1_coverage).

Through both engines: a test taking the ``engine`` fixture runs each of its hands through both; every
other hand-written hand a tests/rules test checks is run through both by test_zz_both_engines.py. The
ids no export can show (``rules.handrecord.NOT_IN_RECORD``) are tested as reported, not emitted.
Also here, through both engines, the three T1 ids no test held before: SHOWDOWN.UNCONTESTED,
RAKE.NONE_IN_TOURNAMENT and RAKE.TIE_EXEMPT (R003 only: «la comisión se cobrará únicamente si el empate
fue producido bajo la modalidad de apertura de 2 o más veces»).
"""

from __future__ import annotations

from parsers.model import Hand
from rules.handrecord import NOT_IN_RECORD
from tests.rules.builder import make_hand
from tests.rules.t1_coverage import coverage, t1_ids
from tests.rules.test_new_rules import CEP, DEEP, ONLINE, PKR, R003, T09, found, hid

#: T1 ids no hand history records the data for: never emitted, listed in the run report instead
NOT_RECORDED = {"DECK.MISSING_CARD", "MISDEAL.REDEAL", "BOARD.RABBIT_HUNT", "RUN_TWICE.DISSENTER",
                "RAKE.PER_POT_PROPORTIONAL"}  # fmt: skip


def test_the_matrix_has_59_t1_ids() -> None:
    ids = t1_ids()
    assert len(ids) == len(set(ids)) == 59, len(ids)
    assert {"BLIND.POSTING", "STRADDLE.NO_TRIPLE", "RAKE.NONE_IN_TOURNAMENT", "STACK.ADD_ON_TIMING"} <= set(ids)


def test_every_t1_id_is_named_by_a_test_or_reported_as_not_in_the_record() -> None:
    table = coverage()
    untested = sorted(rid for rid, (n, _) in table.items() if n == 0 and rid not in NOT_RECORDED)
    assert untested == [], untested
    assert set(NOT_IN_RECORD) >= NOT_RECORDED, sorted(NOT_RECORDED - set(NOT_IN_RECORD))


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
