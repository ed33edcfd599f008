"""Issue 13: the last five real hands with an ERROR under online-standard, one test per fix.

Each real hand is read from ../shared/data/hands (skipped when absent) and run through both engines
(``engine`` fixture: the in-memory warehouse, so a new model field must survive the store); each reading
has a hand-written boundary hand without its tell that keeps its ERROR, and a live book turns nothing.
"""

from __future__ import annotations

import dataclasses

from parsers.formats.betonline import FORMAT as BETONLINE
from parsers.formats.merge import FORMAT as MERGE
from parsers.formats.ongame import FORMAT as ONGAME
from parsers.formats.pacific import FORMAT as PACIFIC
from parsers.formats.pokertracker import FORMAT as POKERTRACKER
from parsers.model import Hand, Kind
from rules.store import load_hands
from tests.conftest import real_data
from tests.rules.builder import load_hands as store_hands
from tests.rules.builder import make_hand
from tests.rules.engines import run_engine
from tests.rules.test_new_rules import CEP, DEEP, ONLINE, PKR, found, hid
from warehouse.db import connect

FPDB = ("fpdb3_regression", "regression-test-files", "cash")
SMITHY = ("hhsmithy_sample_hh", "HandHistories.Parser.UnitTests", "SampleHandHistories")
THREE = [("A", DEEP), ("B", DEEP), ("C", DEEP)]


def real(fmt: object, hand_id: str, *parts: str) -> Hand:
    (hand,) = [h for h in fmt.parse(real_data(*parts)) if isinstance(h, Hand) and h.hand_id == hand_id]  # type: ignore[attr-defined]
    return hand


def errors(engine: str, hand: Hand, book: str) -> list[tuple[str, int | None]]:
    return [(r, s) for r, s, v in found(engine, hand, book) if v == "error"]


def messages(engine: str, hand: Hand, book: str, rule: str) -> list[str]:
    fs, _ = run_engine(engine, [hand], book)
    return [f.message for f in fs if f.rule_id == rule and f.severity == "data"]


# ---- 888 539478640: a pot paid against the written cards ------------------------------------------------
def test_888_award_against_the_written_cards_is_the_export_s_online(engine: str) -> None:
    """"Jack3bet shows [Ah, 6d]", "MomWasRight mucks [4s, 4c]" on 5d Ks 7c Jc 7d, "Jack3bet collected": online
    the server ranks and pays, so the award the cards contradict is DATA; a live dealer's stays an ERROR."""
    hand = real(PACIFIC, "888:539478640", *SMITHY, "Pacific", "CashGame", "StreetTests", "River.txt")
    assert errors(engine, hand, ONLINE) == []
    got = messages(engine, hand, ONLINE, "SHOWDOWN.CARDS_SPEAK")
    assert len(got) == 2 and all(m.startswith("Export inconsistency (an award against the written cards)") for m in got)
    assert errors(engine, hand, PKR) == [("SHOWDOWN.CARDS_SPEAK", None)] * 2


def checked_down(winner: str) -> Hand:
    script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200), ("preflop", "A", "call", 100),
              ("preflop", "B", "check", None),
              *[(st, p, "check", None) for st in ("flop", "turn", "river") for p in ("B", "A")]]  # fmt: skip
    return make_hand([("A", DEEP), ("B", DEEP)], script, hole={"A": "AsAh", "B": "7c2d"}, boards=["3c4d9hTsJc"],
                     awards=[(winner, 400)], rake=0, button=1, hand_id=hid())  # fmt: skip


def test_a_misaward_is_data_online_and_an_error_live(engine: str) -> None:
    assert found(engine, checked_down("A"), ONLINE, "SHOWDOWN") == []
    assert {v for r, _, v in found(engine, checked_down("B"), ONLINE, "SHOWDOWN")} == {"data"}
    assert {v for r, _, v in found(engine, checked_down("B"), CEP, "SHOWDOWN")} == {"error"}


# ---- OnGame R5-21973400-50: an equal-blinds header over a half small blind --------------------------------
def test_ongame_equal_blinds_header_over_a_half_small_blind_is_the_export_s(engine: str) -> None:
    """"(POT_LIMIT OMAHA_HI €1/€1" with "posts small blind (€0.50)", "posts big blind (€1)", and every net
    of the summary following those posts."""
    hand = real(ONGAME, "ongame:R5-21973400-50", *FPDB, "OnGame", "Flop", "PLO-6max-EUR-1-1-2011002.Sample.txt")
    assert (hand.sb, hand.bb) == (100, 100)
    assert errors(engine, hand, ONLINE) == []
    (msg,) = messages(engine, hand, ONLINE, "BLIND.POSTING")
    assert msg.startswith("Export inconsistency (an equal-blinds header)")
    assert errors(engine, hand, CEP) == [("BLIND.POSTING", 0)]


def equal_header(sb_post: int) -> Hand:
    script = [("preflop", "A", "post_sb", sb_post), ("preflop", "B", "post_bb", 200), ("preflop", "C", "fold", None),
              ("preflop", "A", "fold", None), ("preflop", "B", "uncalled_return", 200 - sb_post)]  # fmt: skip
    return make_hand(THREE, script, sb=200, bb=200, awards=[("B", 2 * sb_post)], hand_id=hid())


def test_equal_blinds_header_boundaries(engine: str) -> None:
    assert found(engine, equal_header(100), ONLINE, "BLIND") == [("BLIND.POSTING", 0, "data")]
    assert found(engine, equal_header(200), ONLINE, "BLIND") == []  # an equal-blinds table's posts
    assert found(engine, equal_header(120), ONLINE, "BLIND") == [("BLIND.POSTING", 0, "error")]  # not the half


# ---- BetOnline 900204952: the site's fold of a player who left the table ------------------------------------
def test_betonline_leave_is_marked_and_takes_no_turn(engine: str) -> None:
    """"Player0 has left the table" while Player9 (the big blind) is due: the parser marks the fold it makes
    there; it is no decision in turn, so no order is judged, and Player9 still folds in turn."""
    hand = real(BETONLINE, "betonline:900204952", *FPDB, "BetOnline", "Flop", "NLHE-10max-USD-0.25-0.05-201108.txt")
    (leave,) = [a for a in hand.actions if a.left_table]
    assert (leave.player, leave.kind, leave.seq) == ("Player0", Kind.FOLD, 7)
    assert found(engine, hand, ONLINE) == []


def left(marked: bool) -> Hand:
    """C calls, A raises, C's leave is written while B is due, then B folds."""
    script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200), ("preflop", "C", "call", 200),
              ("preflop", "A", "raise", 1000), ("preflop", "C", "fold", None), ("preflop", "B", "fold", None),
              ("preflop", "A", "uncalled_return", 800)]  # fmt: skip
    hand = make_hand(THREE, script, awards=[("A", 600)], hand_id=hid())
    hand.actions[4] = hand.actions[4]._replace(left_table=marked)
    return hand


def test_a_marked_leave_is_no_fold_out_of_turn(engine: str) -> None:
    assert found(engine, left(True), ONLINE) == []
    assert found(engine, left(False), ONLINE, "ACTION") == [("ACTION.ORDER", 4, "error")]  # the unmarked fold


def test_the_leave_marker_survives_the_warehouse() -> None:
    hand = left(True)
    con = connect(":memory:")
    try:
        store_hands(con, [hand, dataclasses.replace(left(False), hand_id="test:unmarked")])
        back = {h.hand_id: h for h in load_hands(con)}
    finally:
        con.close()
    assert [a.left_table for a in back[hand.hand_id].actions] == [a.left_table for a in hand.actions]
    assert not any(a.left_table for a in back["test:unmarked"].actions)


# ---- iPoker 2607756372 (HandHQ re-export): a placeholder seat list ----------------------------------------
def test_handhq_placeholder_seat_list_makes_the_order_the_export_s(engine: str) -> None:
    """Every seat "$100,000.00 in chips" and "Player3: Raise $31.10" below the call with that stack behind:
    the seat list is the re-exporter's, so Player4 acting after Seat 8 is the export's order."""
    hand = real(POKERTRACKER, "ipoker:2607756372", *FPDB, "PokerTracker", "Flop",
                "NLHE-USD-0.50-1.00-201101.iPoker.post.both.txt")  # fmt: skip
    assert errors(engine, hand, ONLINE) == []
    got = messages(engine, hand, ONLINE, "ACTION.ORDER")
    assert len(got) == 2 and all(m.startswith("Export inconsistency (a placeholder seat list)") for m in got)
    assert {v for r, _, v in found(engine, hand, PKR, "ACTION.ORDER")} == {"review"}


def placeholder(short_raise: bool, stacks: tuple[int, int, int] = (DEEP, DEEP, DEEP)) -> Hand:
    """A (the small blind) calls while C is due; on the flop A bets, B raises and A, with ``short_raise``,
    writes a "raise" adding less than the call."""
    players = list(zip(("A", "B", "C"), stacks, strict=True))
    script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200), ("preflop", "A", "call", 100),
              ("preflop", "C", "fold", None), ("preflop", "B", "check", None),
              ("flop", "A", "bet", 400), ("flop", "B", "raise", 1200),
              *([("flop", "A", "raise", 800)] if short_raise else [("flop", "A", "call", 800)])]  # fmt: skip
    return make_hand(players, script, awards=[("B", 2800 if not short_raise else 2400)], hand_id=hid())


def test_placeholder_seat_list_boundaries(engine: str) -> None:
    assert ("ACTION.ORDER", 2, "data") in found(engine, placeholder(True), ONLINE, "ACTION")
    # equal stacks alone (a fresh table), or the short raise with unequal stacks: the order stays an error
    assert ("ACTION.ORDER", 2, "error") in found(engine, placeholder(False), ONLINE, "ACTION")
    assert ("ACTION.ORDER", 2, "error") in found(engine, placeholder(True, (DEEP, DEEP, DEEP + 1)), ONLINE, "ACTION")


# ---- Merge 56150235-132: a limit description the posts contradict -----------------------------------------
def test_merge_limit_stakes_come_from_the_description() -> None:
    """"Limit $10/$20" names the small bet, a limit game's big blind: every consistent hand posts it, the
    HeadsUp fixture posts 1/2 and keeps the described 10 as its bb (its small blind stays the posted one)."""
    merge = (*SMITHY, "Merge", "CashGame")
    heads_up = real(MERGE, "merge:56150235-132", *merge, "Seats", "HeadsUp.txt")
    assert (heads_up.betting, heads_up.sb, heads_up.bb) == ("FL", 100, 1000)
    limit5 = real(MERGE, "merge:56160970-16", *merge, "Limits", "Limit5.txt")
    three = real(MERGE, "merge:56120887-937", *merge, "GameTypeTests", "FixedLimitHoldem.txt")
    assert [(h.sb, h.bb) for h in (limit5, three)] == [(500, 1000), (150, 300)]


def test_merge_limit_level_the_posts_contradict_is_the_export_s(engine: str) -> None:
    hand = real(MERGE, "merge:56150235-132", *SMITHY, "Merge", "CashGame", "Seats", "HeadsUp.txt")
    assert errors(engine, hand, ONLINE) == []
    got = messages(engine, hand, ONLINE, "BET.LIMIT_SIZE")
    assert len(got) == 1 and got[0].startswith("Export inconsistency (a limit level the posts contradict)")
    assert ("BET.LIMIT_SIZE", 5) in errors(engine, hand, CEP)


def limit(bb: int, bb_stack: int = DEEP) -> Hand:
    """FL with 100/200 posted and the stated level ``bb``: C raises to 1,400, above any fixed size."""
    players = [("A", DEEP), ("B", bb_stack), ("C", DEEP)]
    b_fold = [("preflop", "B", "fold", None)] if bb_stack > 200 else []  # all-in by the post: no decision
    script = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200), ("preflop", "C", "raise", 1400),
              ("preflop", "A", "fold", None), *b_fold, ("preflop", "C", "uncalled_return", 1200)]
    return make_hand(players, script, betting="FL", sb=100, bb=bb, awards=[("C", 500)], hand_id=hid())  # fmt: skip


def test_limit_level_boundaries(engine: str) -> None:
    assert ("BET.LIMIT_SIZE", 2, "data") in found(engine, limit(1000), ONLINE, "BET")
    assert ("BET.LIMIT_SIZE", 2, "error") in found(engine, limit(200), ONLINE, "BET")  # the level posted
    assert ("BET.LIMIT_SIZE", 2, "error") in found(engine, limit(1000, bb_stack=200), ONLINE, "BET")  # BB all-in
    assert ("BET.LIMIT_SIZE", 2, "error") in found(engine, limit(1000), CEP, "BET")
