"""rules.handrecord: the card, showdown, misdeal and rake-cap rules read off the stored record.

Hand-written hands go through a real warehouse (schema, ``hands_to_frames``, ``reconcile_frames``)
and the real SQL, under each book where the books differ; the real sample then shows what online
exports give (DATA only: the site's software deals and tables, no player or dealer broke a rule).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import duckdb
import pytest

from parsers.model import Action, HoleCards, Kind, Provenance, Street
from rules.findings import DATA, ERROR, INFO, REVIEW, WARNING
from rules.handrecord import RecordResult, record_findings, substantial_action
from rules.profiles import load_mapping
from tests.conftest import SHARED, real_data
from tests.rules.builder import load_hands, make_hand
from tests.rules.t1_coverage import covers
from warehouse.db import connect
from warehouse.ingest import ingest_paths

BOOKS = ("CEP-2023", "TDA-2009", "PKR-cash", "R003-cash", "online-standard")
BOARD = ["AhKdQc7s2d"]
SHORT_BOARD = "AhKdQc7s9d"  # six to ace


def run(hands: list, rulebook: str, rake_caps: dict[str, dict[str, int]] | None = None) -> RecordResult:
    con = connect(":memory:")
    try:
        load_hands(con, hands)
        return record_findings(con, rulebook, load_mapping(), rake_caps=rake_caps)
    finally:
        con.close()


def found(res: RecordResult) -> list[tuple[str, str]]:
    return sorted((f.rule_id, f.severity) for f, _ in res.findings)


def showdown(shown: dict[str, str], *, mucks: tuple[str, ...] = (), all_in: bool = False,
             variant: str = "holdem", dealt: dict[str, str] | None = None, board: str = BOARD[0]) -> object:
    """A and B see a river showdown (A bets, B calls; ``all_in``: A is all-in preflop for 1,000 and B
    calls), A wins 2,000; ``shown``: what each tables (a show action), ``mucks``: who mucks."""
    stacks = [("A", 1000 if all_in else 5000), ("B", 5000)]
    if all_in:
        script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200),
                  ("preflop", "A", "raise", 1000), ("preflop", "B", "call", 800)]
    else:
        script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200),
                  ("preflop", "A", "call", 100), ("preflop", "B", "check", None),
                  ("river", "A", "bet", 800), ("river", "B", "call", 800)]
    hand = make_hand(stacks, script, boards=[board], awards=[("A", 2000)], variant=variant, button=1)
    seq = len(hand.actions)
    extra = [Action(seq + i, Street.SHOWDOWN, p, Kind.SHOW, cards=c) for i, (p, c) in enumerate(shown.items())]
    extra += [Action(seq + len(extra) + i, Street.SHOWDOWN, p, Kind.MUCK) for i, p in enumerate(mucks)]
    holes = [HoleCards(p, c, Provenance.OPERATOR) for p, c in (dealt or {}).items()]
    return replace(hand, actions=hand.actions + extra, hole_cards=holes)


# --- SHOWDOWN.TABLE_ALL_CARDS --------------------------------------------------------------------------

@covers("SHOWDOWN.TABLE_ALL_CARDS", "violating", "CEP-2023", "TDA-2009", "PKR-cash", "R003-cash")
@pytest.mark.parametrize("book", BOOKS)
def test_a_winner_who_tabled_one_card_against_a_tabled_hand(book: str) -> None:
    res = run([showdown({"A": "As??", "B": "3c3d"})], book)
    want = DATA if book == "online-standard" else ERROR
    assert found(res) == [("SHOWDOWN.TABLE_ALL_CARDS", want)]
    f = res.findings[0][0]
    assert "tabled 1 of 2" in f.actual and "«" in f.message


@covers("SHOWDOWN.TABLE_ALL_CARDS", "legal", "CEP-2023")
def test_a_winner_who_tabled_both_cards_or_won_uncontested_is_legal() -> None:
    assert found(run([showdown({"A": "AsAc", "B": "3c3d"})], "CEP-2023")) == []
    assert found(run([showdown({"A": "As??"}, mucks=("B",))], "CEP-2023")) == []  # B conceded


@covers("SHOWDOWN.TABLE_ALL_CARDS", "violating", "R003-cash")
@covers("SHOWDOWN.TABLE_ALL_CARDS", "legal", "R003-cash")
def test_omaha_needs_all_four_cards() -> None:
    res = run([showdown({"A": "AsAc", "B": "3c3d4h4s"}, variant="omaha")], "R003-cash")
    assert found(res) == [("SHOWDOWN.TABLE_ALL_CARDS", ERROR)]
    assert found(run([showdown({"A": "AsAc5h6h", "B": "3c3d4h4s"}, variant="omaha")], "R003-cash")) == []


# --- SHOWDOWN.ALLIN_TABLED -------------------------------------------------------------------------------

@covers("SHOWDOWN.ALLIN_TABLED", "violating", "CEP-2023", "TDA-2009", "PKR-cash", "R003-cash")
@pytest.mark.parametrize(("book", "want"), [("CEP-2023", WARNING), ("TDA-2009", WARNING), ("PKR-cash", WARNING),
                                            ("R003-cash", WARNING), ("online-standard", DATA)])
def test_the_all_in_player_mucking_at_the_showdown(book: str, want: str) -> None:
    res = run([showdown({"B": "3c3d"}, mucks=("A",), all_in=True)], book)
    assert ("SHOWDOWN.ALLIN_TABLED", want) in found(res)


@covers("SHOWDOWN.ALLIN_TABLED", "violating", "CEP-2023", "PKR-cash")
@covers("SHOWDOWN.ALLIN_TABLED", "silent", "R003-cash")
@pytest.mark.parametrize(("book", "want"), [("CEP-2023", [("SHOWDOWN.ALLIN_TABLED", WARNING)]),
                                            ("PKR-cash", [("SHOWDOWN.ALLIN_TABLED", WARNING)]),
                                            ("R003-cash", [])])
def test_the_covering_player_mucking_differs_by_book(book: str, want: list[tuple[str, str]]) -> None:
    """CEP, TDA 2009 and PKR want every live hand up; R003 only the all-in player's."""
    res = run([showdown({"A": "AsAc"}, mucks=("B",), all_in=True)], book)
    assert found(res) == want


def test_an_export_that_writes_no_showing_is_not_checked() -> None:
    """ACPC-like: every card known (operator), no show or muck written: the record cannot say."""
    hand = showdown({}, all_in=True, dealt={"A": "AsAc", "B": "3c3d"})
    assert found(run([hand], "CEP-2023")) == []


# --- DECK.CARD_COUNT and DECK.FOREIGN_CARD -------------------------------------------------------------

@covers("DECK.CARD_COUNT", "violating", "PKR-cash")
@covers("DECK.CARD_COUNT", "legal", "PKR-cash")
@pytest.mark.parametrize(("cards", "board", "want"), [
    ("AsAcKd", "AhKdQc7s2d", [("DECK.CARD_COUNT", ERROR)]),
    ("AsAc", "AhKd", [("DECK.CARD_COUNT", ERROR)]),
    ("As1x", "AhKdQc", [("DECK.CARD_COUNT", ERROR)]),
    ("AsAc", "AhKdQc", []),
])
def test_card_counts(cards: str, board: str, want: list[tuple[str, str]]) -> None:
    hand = showdown({"A": "AsAc", "B": "3c3d"}, dealt={"A": cards, "B": "3c3d"})
    hand = replace(hand, boards=[hand.boards[0]._replace(cards=board)])
    assert found(run([hand], "PKR-cash")) == want


@covers("DECK.FOREIGN_CARD", "violating", "PKR-cash", "CEP-2023")
@covers("DECK.FOREIGN_CARD", "legal", "PKR-cash", "CEP-2023")
@pytest.mark.parametrize(("book", "want"), [("PKR-cash", ERROR), ("CEP-2023", REVIEW), ("online-standard", DATA)])
def test_a_low_card_in_short_deck_is_from_another_deck(book: str, want: str) -> None:
    hand = showdown({"A": "AsAc", "B": "6c6d"}, variant="shortdeck", dealt={"A": "AsAc", "B": "5c6d"},
                    board=SHORT_BOARD)
    res = run([hand], book)
    assert ("DECK.FOREIGN_CARD", want) in found(res)
    review = [f for f, _ in res.findings if f.severity == REVIEW]
    assert all(f.house_decision and f.allowed_outcomes for f in review)
    legal = showdown({"A": "AsAc", "B": "6c6d"}, variant="shortdeck", dealt={"A": "AsAc", "B": "6c6d"},
                     board=SHORT_BOARD)
    assert found(run([legal], book)) == []


# --- MISDEAL.SA_LOCK --------------------------------------------------------------------------------------

def test_substantial_action_is_two_actions_one_paying_or_any_three() -> None:
    assert substantial_action(2, 1) and substantial_action(3, 0)
    assert not substantial_action(2, 0) and not substantial_action(1, 1)


@covers("MISDEAL.SA_LOCK", "violating", "CEP-2023", "PKR-cash", "R003-cash", "TDA-2009")
@pytest.mark.parametrize(("book", "want"), [("CEP-2023", ERROR), ("PKR-cash", ERROR), ("R003-cash", ERROR),
                                            ("TDA-2009", REVIEW), ("online-standard", DATA)])
def test_a_hand_cancelled_after_substantial_action(book: str, want: str) -> None:
    hand = replace(showdown({}), cancelled=True, awards=[])
    assert found(run([hand], book)) == [("MISDEAL.SA_LOCK", want)]


@covers("MISDEAL.SA_LOCK", "legal", "CEP-2023")
def test_a_hand_cancelled_before_substantial_action_is_legal() -> None:
    hand = make_hand([("A", 5000), ("B", 5000)], [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200),
                                                  ("preflop", "A", "fold", None)], button=1)
    assert found(run([replace(hand, cancelled=True, awards=[])], "CEP-2023")) == []


# --- RAKE.CAP ---------------------------------------------------------------------------------------------

def _raked(rake: int) -> object:
    hand = showdown({"A": "AsAc", "B": "3c3d"})
    return replace(hand, awards=[hand.awards[0]._replace(amount=2000 - rake)], site_rake=rake)


@covers("RAKE.CAP", "violating", "R003-cash")
@covers("RAKE.CAP", "legal", "R003-cash")
def test_rake_above_the_house_cap() -> None:
    caps = {"R003-cash": {"100/200": 500}}
    res = run([_raked(600)], "R003-cash", rake_caps=caps)
    assert found(res) == [("RAKE.CAP", ERROR)]
    assert found(run([_raked(500)], "R003-cash", rake_caps=caps)) == []
    assert found(run([_raked(600)], "R003-cash")) == []  # no house table: not checked
    assert found(run([_raked(600)], "PKR-cash", rake_caps={"PKR-cash": {"100/200": 500}})) == []  # no cap rule


# --- the real sample ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def real_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("record") / "w.duckdb"
    ingest_paths([p for p in (real_data(), SHARED / "data" / "tournaments") if p.exists()], db, progress=False)
    return db


def test_real_exports_give_data_findings_only(real_db: Path) -> None:
    """Online exports under online-standard: no ERROR or WARNING; every DATA finding names the site's
    anomaly. The figures (all hands and tournaments, 2026-12-01): 109 all-in hands with a live hand
    not tabled, 16 winners paid with cards the export never tabled."""
    con = duckdb.connect(str(real_db), read_only=True)
    try:
        res = record_findings(con, "online-standard", load_mapping())
    finally:
        con.close()
    sev = {f.severity for f, _ in res.findings}
    assert sev <= {DATA}, sev
    assert all(f.message.startswith("site:") for f, _ in res.findings)
    by_rule = res.stats["findings"]
    assert 50 <= by_rule.get("SHOWDOWN.ALLIN_TABLED:data", 0) <= 200, by_rule
    assert 5 <= by_rule.get("SHOWDOWN.TABLE_ALL_CARDS:data", 0) <= 40, by_rule
    assert res.stats["showdown_hands"] >= 2000  # the showdowns the record lets us check


# --- SHOWDOWN.ORDER, SHOWDOWN.SIDE_POT_SHOW, ACTION.FOLD_NONSTANDARD (rules.turns) ----------------------

def checked_down(first: str) -> object:
    """A (button, seat 1) and B check the hand down; ``first`` tables first."""
    script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200), ("preflop", "A", "call", 100),
              ("preflop", "B", "check", None), ("river", "B", "check", None), ("river", "A", "check", None)]
    hand = make_hand([("A", 5000), ("B", 5000)], script, boards=BOARD, awards=[("A", 400)], button=1)
    other = "B" if first == "A" else "A"
    seq = len(hand.actions)
    shows = [Action(seq, Street.SHOWDOWN, first, Kind.SHOW, cards="AsAc"),
             Action(seq + 1, Street.SHOWDOWN, other, Kind.SHOW, cards="3c3d")]
    return replace(hand, actions=hand.actions + shows)


@covers("SHOWDOWN.ORDER", "violating", "CEP-2023", "TDA-2009", "PKR-cash", "R003-cash")
@covers("SHOWDOWN.ORDER", "legal", "CEP-2023", "TDA-2009", "PKR-cash", "R003-cash")
@pytest.mark.parametrize("book", ["CEP-2023", "TDA-2009", "PKR-cash", "R003-cash"])
def test_the_last_aggressor_shows_first(book: str) -> None:
    assert found(run([showdown({"B": "3c3d", "A": "AsAc"})], book)) == [("SHOWDOWN.ORDER", WARNING)]
    assert found(run([showdown({"A": "AsAc", "B": "3c3d"})], book)) == []


@covers("SHOWDOWN.ORDER", "violating", "CEP-2023", "TDA-2009", "PKR-cash", "R003-cash")
@covers("SHOWDOWN.ORDER", "legal", "CEP-2023", "TDA-2009", "PKR-cash", "R003-cash")
@pytest.mark.parametrize("book", ["CEP-2023", "TDA-2009", "PKR-cash", "R003-cash"])
def test_without_a_bet_the_first_player_left_of_the_button_shows_first(book: str) -> None:
    assert found(run([checked_down("A")], book)) == [("SHOWDOWN.ORDER", WARNING)]  # A is on the button
    assert found(run([checked_down("B")], book)) == []


def test_show_order_is_the_software_s_online() -> None:
    assert found(run([showdown({"B": "3c3d", "A": "AsAc"})], "online-standard")) == []


def side_pot_muck() -> object:
    """A is all-in preflop for 1,000; B and C play a side pot to the river, B bets, C calls and mucks."""
    script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200), ("preflop", "C", "raise", 1000),
              ("preflop", "A", "call", 900), ("preflop", "B", "call", 800),
              ("river", "B", "bet", 1000), ("river", "C", "call", 1000)]
    hand = make_hand([("A", 1000), ("B", 5000), ("C", 5000)], script, boards=BOARD, awards=[("B", 5000)], button=3)
    seq = len(hand.actions)
    extra = [Action(seq, Street.SHOWDOWN, "B", Kind.SHOW, cards="AsAc"),
             Action(seq + 1, Street.SHOWDOWN, "A", Kind.SHOW, cards="3c3d"),
             Action(seq + 2, Street.SHOWDOWN, "C", Kind.MUCK)]
    return replace(hand, actions=hand.actions + extra)


@covers("SHOWDOWN.SIDE_POT_SHOW", "violating", "CEP-2023")
@pytest.mark.parametrize(("book", "want"), [("CEP-2023", "SHOWDOWN.SIDE_POT_SHOW"),
                                            ("PKR-cash", "SHOWDOWN.ALLIN_TABLED"), ("R003-cash", None)])
def test_a_side_pot_player_mucking_at_the_river(book: str, want: str | None) -> None:
    rules = {f.rule_id for f, _ in run([side_pot_muck()], book).findings}
    assert rules & {"SHOWDOWN.SIDE_POT_SHOW", "SHOWDOWN.ALLIN_TABLED"} == ({want} if want else set())


def _flop(second: str) -> object:
    script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200), ("preflop", "A", "call", 100),
              ("preflop", "B", "check", None)]
    script += [("flop", "B", "check", None), ("flop", "A", "fold", None)] if second == "fold" else \
              [("flop", "B", "bet", 200), ("flop", "A", "fold", None), ("flop", "B", "uncalled_return", 200)]
    return make_hand([("A", 5000), ("B", 5000)], script, boards=["AhKdQc"], awards=[("B", 400)], button=1)


@covers("ACTION.FOLD_NONSTANDARD", "violating", "CEP-2023")
@covers("ACTION.FOLD_NONSTANDARD", "legal", "CEP-2023")
@covers("ACTION.FOLD_NONSTANDARD", "silent", "PKR-cash")
def test_a_fold_facing_no_bet_is_binding_under_cep() -> None:
    res = run([_flop("fold")], "CEP-2023")
    assert found(res) == [("ACTION.FOLD_NONSTANDARD", INFO)]
    assert res.findings[0][0].action_seq == 5
    assert found(run([_flop("bet")], "CEP-2023")) == []  # a fold facing a bet is a fold
    assert found(run([_flop("fold")], "PKR-cash")) == []  # PKR speaks of out-of-turn folds only


# --- ANTE.BB_ANTE_SHORT_STACK (rules.bbante) --------------------------------------------------------------

def _short_bb(ante_first: bool) -> object:
    """B has 250 behind at 100/200 with a 200 BB ante: ante first leaves 50 live, blind first 200."""
    posts = [("preflop", "B", "post_bb_ante", 200), ("preflop", "B", "post_bb", 50)] if ante_first else \
            [("preflop", "B", "post_bb", 200), ("preflop", "B", "post_bb_ante", 50)]
    script = [("preflop", "A", "post_sb", 100), *posts, ("preflop", "A", "call", 100)]
    hand = make_hand([("A", 5000), ("B", 250)], script, boards=BOARD, awards=[("A", 500)], button=1, bb_ante=200,
                     game_type="tournament")
    return replace(hand, ante=0)


@covers("ANTE.BB_ANTE_SHORT_STACK", "violating", "CEP-2023", "TDA-2009")
@covers("ANTE.BB_ANTE_SHORT_STACK", "legal", "CEP-2023", "TDA-2009")
@pytest.mark.parametrize("book", ["CEP-2023", "TDA-2009"])
def test_a_short_big_blind_posting_the_ante_first_is_the_floor_s_call(book: str) -> None:
    res = run([_short_bb(ante_first=True)], book)
    short = [f for f, _ in res.findings if f.rule_id == "ANTE.BB_ANTE_SHORT_STACK"]
    assert [(f.severity, f.house_decision) for f in short] == [(REVIEW, True)]
    assert "blind first" in (short[0].allowed_outcomes or "")
    assert not [f for f, _ in run([_short_bb(ante_first=False)], book).findings
                if f.rule_id == "ANTE.BB_ANTE_SHORT_STACK"]
