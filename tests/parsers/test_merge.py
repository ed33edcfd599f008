"""Merge Gaming Network XML on fpdb's Merge folder and HHSmithy's Merge samples.

Expected amounts: the files' own winner rows and stacks, and hand arithmetic in the comments.
"""

from __future__ import annotations

from pathlib import Path

from parsers.formats.merge import FORMAT
from parsers.model import Kind
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, kinds, not_ok, parse_all, put_in, unique

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "Merge", "Flop")
SMITHY = ("hhsmithy_sample_hh", "HandHistories.Parser.UnitTests", "SampleHandHistories", "Merge", "CashGame")


def test_every_hand_parses_or_has_a_named_reason() -> None:
    files = claims(FORMAT)
    hands, quarantined = parse_all(FORMAT, files)
    # 65 flop-game hands (64, and HHSmithy's CancelledHand sample, read as cancelled since the
    # GAME_CANCELLED event, which names no player, is skipped) and 30 stud and draw hands (issue 12:
    # tests/parsers/test_stud_draw.py)
    assert len(hands) == 95
    assert sum(1 for h in hands if h.variant in ("holdem", "omaha", "omaha_hilo")) == 65
    reasons = sorted({q.reason for q in quarantined})
    assert reasons == [
        # a <player> acts whose seat the <players> preamble does not list (fpdb rejects them too)
        "action by a player not in the seat list: seat '0'",
        "action by a player not in the seat list: seat '5'",
        # Merge's Half Pot Limit badugi (no such structure in the model)
        "no betting structure in 'Half Pot Limit ($0.50/$0.50)'",
        "truncated hand: no </game>",  # HHSmithy's InValidHand sample
        "truncated hand: no end-of-game round",  # the last game of FLHE-9max...20110416.xml stops
    ]
    flop = [q for q in quarantined if "unsupported variant" not in q.reason and "betting structure" not in q.reason]
    assert len(flop) == 4
    # every hand reconciles (the one RETURN_BLIND hand did not while the post was read all dead);
    # the two cancelled games (a 2-7 draw and HHSmithy's sample, a small blind posted) are cancelled
    assert {k: r["status"] for k, r in not_ok(unique(hands)).items()} == {
        "merge:31691047-143": "cancelled", "merge:56150235-130": "cancelled",
    }


def test_return_blind_is_the_big_blind_live_and_the_rest_dead() -> None:
    hands, _ = parse_all(FORMAT, [real_data(*FLOP, "LO8-9max-USD-1.00-2.00-201112.post.both.txt")])
    hand = next(h for h in hands if h.hand_id == "merge:45547825-416")
    # "RETURN_BLIND 1.50" at 0.50/1.00, "RAISE 2.00", the big blind's "CALL 1.00": both at 2.00,
    # so 1.00 of the 1.50 is live. With the unreturned flop bet of 1.00 (no uncalled row) that
    # is 0.50 + 2.00 + 0.50 + 2.00 + 1.00 = 6.00 in and 5.75 won: 0.25 rake (all dead: 1.25 of 7.00)
    assert kinds(hand, Kind.POST_BB) == [("Player2", 100, 100), ("Player1", 100, 100)]
    assert kinds(hand, Kind.POST_DEAD) == [("Player1", 50, 50)]
    assert put_in(hand) == {"Player0": 50, "Player2": 200, "Player1": 350}
    assert awards(hand) == [("Player1", 575, 0, 1)]


def test_raise_is_chips_added_in_2008_exports() -> None:
    hands, _ = parse_all(FORMAT, [real_data(*FLOP, "NLHE-9max-USD-0.25-0.50.200810.All.Streets.txt")])
    (hand,) = hands
    # BB 0.50 "RAISE 5.00" then Player8 (1.00 in) "CALL 4.50": 5.50 each, so RAISE adds chips;
    # Player1 0.50 + 5.00 + 7.00 + 18.00, Player8 all in for his 28.67, 1.83 returned
    assert put_in(hand) == {"Player3": 2867, "Player8": 2867, "Player5": 100, "Player4": 25}
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Player3", 183, -183)]
    assert awards(hand) == [("Player3", 5567, 0, 1)]
    assert hand.hero == "Hero" and hand.hole_cards[0].cards == "Ah8s" and hand.started_at is None


def test_raise_is_the_street_total_in_2012_exports() -> None:
    hands, _ = parse_all(FORMAT, [real_data(*SMITHY, "HandActionTests", "AllInHandWithShowdown.txt")])
    (hand,) = hands
    # RAISE 8.00, 22.25, 49.00 then ALL_IN 200.59 (dugaly: 22.25 + 200.59 = his 222.84) and
    # ALL_IN 152.10 (anica11: 49.00 + 152.10 = his 201.10): 21.74 returned, 407.70 won
    assert put_in(hand) == {"dugaly": 20110, "anica11": 20110, "Hateordiehere": 800, "GODEXISTSJK": 100}
    assert awards(hand) == [("dugaly", 40770, 0, 1)]


def test_truncated_hand_is_quarantined_rest_loads(tmp_path: Path) -> None:
    text = real_data(*SMITHY, "MultipleHandsTests", "10MultipleHands.txt").read_text(encoding="utf-8-sig")
    starts = [i for i in range(len(text)) if text.startswith("<game id=", i)]
    cut = text[: starts[1]] + text[starts[1] : starts[1] + (starts[2] - starts[1]) // 2] + "\n" + text[starts[2] :]
    dst = tmp_path / "cut.txt"
    dst.write_text(cut, encoding="utf-8")
    hands, quarantined = parse_all(FORMAT, [dst])
    assert len(hands) == len(starts) - 1 and len(quarantined) == 1


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}


def test_a_horse_cash_hand_that_names_no_game_is_placed_by_the_rotation() -> None:
    path = real_data("fpdb3_regression", "regression-test-files", "cash", "Merge", "Mixed",
                     "HORSE-8max-USD-0.25-0.50-201409.new.format.txt")
    hands, quarantined = parse_all(FORMAT, [path])
    # 78854953-356 has seven cards and no hi/lo split or low: between stud hi/lo hands 355 and 357 at
    # the same table, the rotation deals it stud hi/lo
    assert quarantined == [] and not_ok(hands) == {}
    assert [(h.site_hand_no, h.variant, h.mix) for h in hands] == [
        ("78854953-355", "stud_hilo", "HORSE"), ("78854953-356", "stud_hilo", "HORSE"),
        ("78854953-357", "stud_hilo", "HORSE")]


def test_no_limit_stud_hi_lo_writes_ante_bring_in_and_smallest_bet() -> None:
    path = real_data("fpdb3_regression", "regression-test-files", "cash", "Merge", "Stud",
                     "NL7-StudHL-0.01-0.02-0.10-201204.xml")
    (hand,) = parse_all(FORMAT, [path])[0]
    # 'type="7-Stud H/L8" stakes="No Limit ($0.01/$0.02/$0.10)"': ante 0.01, bring-in 0.02, bets from 0.10
    assert (hand.variant, hand.betting, hand.sb, hand.bb, hand.ante, hand.bring_in) == ("stud_hilo", "NL", 0, 10, 1, 2)
    assert hand.small_bet is None and not_ok([hand]) == {}
