"""Seals With Clubs text (fpdb's cash/SealsWithClubs: 7 one-hand files, mBTC).

Amounts are 1/100 mBTC (BTC at ``unit_scale`` 100,000), read off the files; every hand reconciles
with the site's "wins ... Pot" and "Rake (...)" lines.
"""

from __future__ import annotations

from parsers.formats.sealswithclubs import FORMAT
from parsers.model import Kind
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, hand_from, kinds, not_ok, parse_all, put_in

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "SealsWithClubs", "Flop")


def test_every_hand_parses_and_reconciles() -> None:
    hands, quarantined = parse_all(FORMAT, claims(FORMAT))
    assert (len(hands), quarantined) == (7, [])
    assert not_ok(hands) == {}
    assert {(h.currency, h.unit_scale) for h in hands} == {("BTC", 100_000)}
    assert {h.variant for h in hands} == {"holdem", "omaha"}


def test_side_pot_and_refund() -> None:
    hand = hand_from(FORMAT, real_data(*FLOP, "NLHE-9max-mBTC-1.00-1.00-201304.side.pot.txt"), "5338590-82")
    # Hero's 2 all-in caps the main pot at 2 x 3 = 6; Player0 and Player2 put 1 more each (side pot 2);
    # Player2's turn bet of 3 is "refunded"
    assert put_in(hand) == {"Hero": 200, "Player0": 300, "Player2": 300}
    assert awards(hand) == [("Hero", 600, 0, 1), ("Player2", 200, 1, 1)]
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Player2", 300, -300)]


def test_small_and_big_blind_is_live_big_plus_dead_small() -> None:
    hand = hand_from(FORMAT, real_data(*FLOP, "NLHE-6max-mBTC-0.50-1.00-201304.post.both.txt"), "5557960-70")
    assert kinds(hand, Kind.POST_DEAD) == [("Player4", 50, 50)]
    # 0.50 + 1 + 1.50 + 2 + 2 = 7.00 in; "wins Pot (6.83)" and "Rake (0.17)"
    assert (awards(hand), hand.site_rake) == ([("Player4", 683, 0, 1)], 17)


def test_fixed_limit_stakes_name_the_bets() -> None:
    hand = hand_from(FORMAT, real_data(*FLOP, "LHE-6max-mBTC-2.00-4.00-201305.txt"), "6340502-110")
    assert (hand.betting, hand.sb, hand.bb) == ("FL", 100, 200)


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}
    assert all("SealsWithClubs" in str(p) for p in claims(FORMAT))
