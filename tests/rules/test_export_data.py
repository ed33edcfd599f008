"""Issue 13: online ERRORs that rest on the export contradicting itself are DATA (rules/exportdata.py).

Each anomaly has a hand shaped like the real file it was seen in (named in the test) and a boundary
hand without the anomaly's tell, which keeps its ERROR online; a live book never turns anything. Every
hand runs through both engines (``engine`` fixture).
"""

from __future__ import annotations

import dataclasses

from parsers.model import Hand
from tests.rules.builder import make_hand
from tests.rules.test_new_rules import CEP, DEEP, ONLINE, PKR, found, hid, one

THREE = [("A", DEEP), ("B", DEEP), ("C", DEEP)]
BLINDS = [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200)]


def sev(engine: str, hand: Hand, book: str, rule: str) -> list[tuple[int | None, str]]:
    return [(seq, s) for r, seq, s in found(engine, hand, book, rule) if r == rule]


# ---- a raise written before the blinds (Winamax 6417287-1303) -----------------------------------------
def blinds_section_raise(early: bool) -> Hand:
    raise_ = [("preflop", "C", "raise", 300)]
    script = [*(raise_ if early else []), *BLINDS, *([] if early else raise_),
              ("preflop", "A", "fold", None), ("preflop", "B", "call", 300)]  # fmt: skip
    return make_hand(THREE, script, betting="PL", awards=[("C", 700)], hand_id=hid())


def test_a_raise_before_the_blinds_is_the_export_s(engine: str) -> None:
    got = found(engine, blinds_section_raise(True), ONLINE)
    assert [f for f in got if f[2] == "error"] == [] and any(s == "data" for *_, s in got), got
    f = one(engine, blinds_section_raise(True), ONLINE, "BET.POT_LIMIT_MAX")
    assert f.message.startswith("Export inconsistency (a raise in the blinds section)")
    assert found(engine, blinds_section_raise(False), ONLINE, "BET") == []  # the raise after the blinds
    assert "error" in {s for *_, s in found(engine, blinds_section_raise(True), PKR)}


# ---- a call written before the bet it calls (PokerTracker Zone 3704959981) ------------------------------
def call_before_bet(swapped: bool) -> Hand:
    flop = [("flop", "B", "call", 400), ("flop", "A", "bet", 400)] if swapped else [
        ("flop", "A", "bet", 400), ("flop", "B", "call", 400)]
    script = [*BLINDS, ("preflop", "C", "fold", None), ("preflop", "A", "call", 100),
              ("preflop", "B", "check", None), *flop]  # fmt: skip
    return make_hand(THREE, script, awards=[("A", 1200)], hand_id=hid())


def test_a_call_before_its_bet_makes_the_order_the_export_s(engine: str) -> None:
    assert sev(engine, call_before_bet(True), ONLINE, "ACTION.ORDER") == [(5, "data")]
    assert sev(engine, call_before_bet(False), ONLINE, "ACTION.ORDER") == []
    assert sev(engine, call_before_bet(True), CEP, "ACTION.ORDER") == [(5, "review")]


# ---- an uncontested pot written as a return (PokerStars "converted walk") ---------------------------------
def walk(returned: int, paid: int) -> Hand:
    script = [*BLINDS, ("preflop", "C", "fold", None), ("preflop", "A", "fold", None),
              ("preflop", "B", "uncalled_return", returned)]  # fmt: skip
    return make_hand(THREE, script, awards=[("B", paid)], hand_id=hid())


def test_a_walk_written_as_a_return_is_the_export_s(engine: str) -> None:
    assert sev(engine, walk(100, 200), ONLINE, "POT.UNCALLED_RETURN") == []  # the right split
    assert sev(engine, walk(200, 100), ONLINE, "POT.UNCALLED_RETURN") == [(4, "data")]  # same total
    assert sev(engine, walk(200, 200), ONLINE, "POT.UNCALLED_RETURN") == [(4, "error")]  # 100 too much
    assert sev(engine, walk(200, 100), PKR, "POT.UNCALLED_RETURN") == [(4, "error")]


# ---- a missing check after the flop (BetOnline 2012 PLO 1073058698) -------------------------------------
def late_first(first_kind: str) -> Hand:
    pre = [*BLINDS, ("preflop", "C", "call", 200), ("preflop", "A", "fold", None), ("preflop", "B", "check", None)]
    return make_hand(THREE, [*pre, ("flop", "C", "bet", 400), ("flop", "B", first_kind, 400 if first_kind == "call"
                                                                else None)],
                     awards=[("C" if first_kind == "fold" else "B", 900 if first_kind == "fold" else 1300)],
                     boards=["2c3d8h"], hand_id=hid())


def test_the_first_player_written_after_a_later_bet_is_a_missing_check(engine: str) -> None:
    assert sev(engine, late_first("fold"), ONLINE, "ACTION.ORDER") == [(5, "data")]
    assert sev(engine, late_first("call"), ONLINE, "ACTION.ORDER") == [(5, "data")]
    assert sev(engine, late_first("fold"), CEP, "ACTION.ORDER") == [(5, "review")]


def test_an_out_of_turn_action_facing_a_bet_stays_an_error(engine: str) -> None:
    # preflop the blind is a bet: no check is missing when C acts before A, B and then A act
    script = [*BLINDS, ("preflop", "B", "check", None), ("preflop", "C", "fold", None), ("preflop", "A", "call", 100)]
    hand = make_hand(THREE, script, awards=[("A", 400)], hand_id=hid())
    assert (2, "error") in sev(engine, hand, ONLINE, "ACTION.ORDER")


# ---- the option written in the next round (Merge 35035866-453 "no.community") -----------------------------
def option_moved(moved: bool) -> Hand:
    pre = [*BLINDS, ("preflop", "C", "fold", None), ("preflop", "A", "call", 100)]
    rest = [("flop", "B", "check", None), ("turn", "A", "bet", 200), ("turn", "B", "fold", None)] if moved else [
        ("flop", "A", "check", None), ("turn", "A", "bet", 200), ("turn", "B", "fold", None)]
    return make_hand(THREE, [*pre, *rest], awards=[("A", 400)], hand_id=hid())


def test_a_check_moved_to_the_next_round_is_the_export_s(engine: str) -> None:
    assert {s for _, s in sev(engine, option_moved(True), ONLINE, "ACTION.ORDER")} == {"data"}
    # the same skip with the next round opened by someone else stays an ERROR
    assert (4, "error") in sev(engine, option_moved(False), ONLINE, "ACTION.ORDER")


# ---- a seat on 0 chips that is not dealt in (Merge 71748131-1802) -----------------------------------------
def empty_seat(stack: int) -> Hand:
    """Z is written sitting out (Merge 'dealtin="false"'), then checks on the river: a stray line."""
    players = [("A", DEEP), ("B", DEEP), ("Z", stack), ("C", DEEP)]
    script = [*BLINDS, ("preflop", "C", "call", 200), ("preflop", "A", "fold", None), ("preflop", "B", "check", None),
              ("flop", "B", "check", None), ("flop", "C", "check", None), ("river", "Z", "check", None),
              ("river", "B", "check", None), ("river", "C", "check", None)]  # fmt: skip
    hand = make_hand(players, script, awards=[("B", 500)], boards=["2c3d8h4s5s"], hand_id=hid())
    return dataclasses.replace(hand, seats=[s._replace(sitting_out=s.player == "Z") for s in hand.seats])


def test_a_due_seat_on_zero_chips_is_the_export_s(engine: str) -> None:
    assert {s for _, s in sev(engine, empty_seat(0), ONLINE, "ACTION.ORDER")} == {"data"}
    assert "error" in {s for _, s in sev(engine, empty_seat(DEEP), ONLINE, "ACTION.ORDER")}


# ---- a check written after the betting closed (Run It Once 30702949) ---------------------------------------
def after_close(kind: str) -> Hand:
    players = [("A", DEEP), ("B", DEEP), ("C", 1000)]
    script = [*BLINDS, ("preflop", "C", "raise", 1000), ("preflop", "A", "fold", None), ("preflop", "B", "call", 1000),
              ("flop", "B", kind, 400 if kind == "bet" else None)]  # fmt: skip
    return make_hand(players, script, awards=[("C", 2100)], boards=["2c3d8h4s5s"],
                     hole={"B": "7c7d", "C": "AcAd"}, hand_id=hid())


def test_a_check_after_the_betting_closed_is_the_export_s(engine: str) -> None:
    assert sev(engine, after_close("check"), ONLINE, "ACTION.ORDER") == [(5, "data")]
    assert (5, "error") in sev(engine, after_close("bet"), ONLINE, "ACTION.ORDER")  # chips move: an error


# ---- awards above what went in (Party 14067958 "silent.post") ----------------------------------------------
def silent_post(paid: int) -> Hand:
    script = [*BLINDS, ("preflop", "C", "check", None), ("preflop", "A", "fold", None), ("preflop", "B", "check", None)]
    return make_hand(THREE, script, awards=[("B", paid)], hand_id=hid())


def test_a_check_facing_a_bet_with_unwritten_chips_in_is_the_export_s(engine: str) -> None:
    assert sev(engine, silent_post(500), ONLINE, "ACTION.ILLEGAL_CHECK") == [(2, "data")]
    assert sev(engine, silent_post(300), ONLINE, "ACTION.ILLEGAL_CHECK") == [(2, "error")]


# ---- one cent of rounding (Cake 3048012347000109 "round.penny") --------------------------------------------
def penny(call: int, scale: int) -> Hand:
    script = [("preflop", "A", "post_sb", 20), ("preflop", "B", "post_bb", 41), ("preflop", "C", "fold", None),
              ("preflop", "A", "call", call), ("preflop", "B", "check", None)]  # fmt: skip
    return make_hand(THREE, script, sb=20, bb=41, awards=[("B", 41 + 20 + call)], unit_scale=scale, hand_id=hid())


def test_a_call_one_cent_short_is_rounding(engine: str) -> None:
    assert sev(engine, penny(20, 100), ONLINE, "UNDERCALL.FULL_CALL") == [(3, "data")]
    assert sev(engine, penny(19, 100), ONLINE, "UNDERCALL.FULL_CALL") == [(3, "error")]  # two cents
    assert sev(engine, penny(20, 1), ONLINE, "UNDERCALL.FULL_CALL") == [(3, "error")]  # chips, not cents


# ---- the header's level shown stale (888 778807232) --------------------------------------------------------
def stale_header(bet: int) -> Hand:
    script = [("preflop", "A", "post_sb", 150), ("preflop", "B", "post_bb", 300), ("preflop", "C", "call", 300),
              ("preflop", "A", "call", 150), ("preflop", "B", "check", None), ("flop", "A", "bet", bet),
              ("flop", "B", "fold", None), ("flop", "C", "fold", None),
              ("flop", "A", "uncalled_return", bet)]  # fmt: skip
    return make_hand(THREE, script, sb=200, bb=400, awards=[("A", 900)], game_type="tournament", hand_id=hid())


def test_bets_and_calls_full_at_the_posted_level_are_the_header_s(engine: str) -> None:
    got = found(engine, stale_header(300), ONLINE)
    assert ("UNDERCALL.FULL_CALL", 2, "data") in got and ("BET.MIN_BET", 5, "data") in got, got
    assert ("BET.MIN_BET", 5, "error") in found(engine, stale_header(250), ONLINE)  # under the posted bb too


# ---- site rules the online profile defers to (INFO) ---------------------------------------------------------
def join_post(amount: int) -> Hand:
    script = [*BLINDS, ("preflop", "C", "post_bb", amount), ("preflop", "C", "call", 200 - amount),
              ("preflop", "A", "fold", None), ("preflop", "B", "check", None)]  # fmt: skip
    return make_hand(THREE, script, awards=[("B", 500)], hand_id=hid())


def test_a_joining_post_below_the_big_blind_is_the_site_s_rule(engine: str) -> None:
    assert sev(engine, join_post(100), ONLINE, "BLIND.POSTING") == [(2, "info")]
    assert sev(engine, join_post(100), CEP, "BLIND.POSTING") == [(2, "error")]


def over_straddle(same: bool) -> Hand:
    players = [("A", DEEP), ("B", DEEP), ("C", DEEP), ("D", DEEP)]
    second = "C" if same else "A"
    script = [*BLINDS, ("preflop", "C", "post_straddle", 400), ("preflop", second, "post_straddle", 800),
              ("preflop", "D", "fold", None), ("preflop", "A", "fold", None), ("preflop", "B", "fold", None),
              ("preflop", "C", "uncalled_return", 400)]  # fmt: skip
    return make_hand(players, script, awards=[("C", 1100 if same else 1500)], hand_id=hid())


def test_a_seat_s_second_straddle_is_the_site_s_feature(engine: str) -> None:
    assert "error" not in {s for _, _, s in found(engine, over_straddle(True), ONLINE, "STRADDLE")}


# ---- a street dealt unbet while two players have chips by the export's stacks (iPoker 2607739781) --------
def unbet_river(river_checked: bool) -> Hand:
    """PokerTracker "HandHQ" re-export: every stack written deep, B raises 1,000 to 1,600 (short of 2,000)
    on the turn, A calls, and the river is dealt with no betting at all (the site asks nobody only when at
    most one player can still bet: B was all-in, which the written stacks hide)."""
    script = [*BLINDS, ("preflop", "C", "fold", None), ("preflop", "A", "call", 200), ("preflop", "B", "check", None),
              ("flop", "A", "bet", 200), ("flop", "B", "call", 200), ("turn", "A", "bet", 1000),
              ("turn", "B", "raise", 1600), ("turn", "A", "call", 1600),
              *([("river", "A", "check", None), ("river", "B", "check", None)] if river_checked else [])]  # fmt: skip
    return make_hand(THREE, script, hole={"A": "KsKh", "B": "AsAh"}, boards=["2c3d8h9sJc"], awards=[("B", 4000)],
                     hand_id=hid())


def test_a_street_dealt_unbet_shows_the_stacks_are_not_the_real_ones(engine: str) -> None:
    assert sev(engine, unbet_river(False), ONLINE, "RAISE.MIN") == [(8, "data")]
    f = one(engine, unbet_river(False), ONLINE, "RAISE.MIN")
    assert f.message.startswith("Export inconsistency (stacks contradicted by an unbet street): the export deals"
                                " the river with no betting while A and B have chips behind")
    assert sev(engine, unbet_river(True), ONLINE, "RAISE.MIN") == [(8, "error")]  # the river bet: stacks stand
    assert sev(engine, unbet_river(False), CEP, "RAISE.MIN") == [(8, "error")]  # a live book turns nothing


# ---- a header small blind that is an odd big blind's rounded half (888 6551093) ----------------------------
def rounded_header(sb_post: int, sb: int = 12, bb: int = 25) -> Hand:
    """888 "$0.12/$0.25 Blinds" (12.5 cents written 12) with "posts small blind [$0.10]"."""
    script = [("preflop", "A", "post_sb", sb_post), ("preflop", "B", "post_bb", bb), ("preflop", "C", "fold", None),
              ("preflop", "A", "fold", None), ("preflop", "B", "uncalled_return", bb - sb_post)]  # fmt: skip
    return make_hand(THREE, script, sb=sb, bb=bb, unit_scale=100, awards=[("B", 2 * sb_post)], hand_id=hid())


def test_a_rounded_half_header_small_blind_does_not_decide_the_post(engine: str) -> None:
    assert sev(engine, rounded_header(10), ONLINE, "BLIND.POSTING") == [(0, "data")]
    f = one(engine, rounded_header(10), ONLINE, "BLIND.POSTING")
    assert f.message.startswith("Export inconsistency (a rounded header small blind): the header writes the small"
                                " blind as 12, half the 25 big blind rounded down")
    assert sev(engine, rounded_header(12), ONLINE, "BLIND.POSTING") == []
    # an exact half (12 of 24) is a level the site posts: a small blind of 10 there is still wrong
    assert sev(engine, rounded_header(10, 12, 24), ONLINE, "BLIND.POSTING") == [(0, "error")]
    assert sev(engine, rounded_header(10), CEP, "BLIND.POSTING") == [(0, "error")]
