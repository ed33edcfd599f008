"""OnGame network text (fpdb's cash/OnGame, HHSmithy's OnGame and OnGameIt samples).

Expected amounts: the files' own pots, rake and closing stacks ("Seat 3: A (10.80), net: -0.10"),
and hand arithmetic in the comments.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from parsers.formats.ongame import FORMAT
from parsers.model import Kind
from tests.conftest import real_data

from ._site_helpers import (
    awards,
    by_id,
    claims,
    foreign_claims,
    kinds,
    not_ok,
    parse_all,
    parse_one,
    put_in,
    truncated_copy,
    unique,
)

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "OnGame", "Flop")


def test_every_hand_parses_and_reconciles() -> None:
    hands, quarantined = parse_all(FORMAT, claims(FORMAT))
    # 69 hold'em and omaha hands, 15 five card draw, 6 seven card stud (hi and hi/lo)
    assert len(hands) == 90
    # HHSmithy's InValidHand sample stops in the middle of a summary seat line
    assert [q.reason for q in quarantined] == ["line 37: unrecognised line: 'Seat 8: adamsin1 ($136.8'"]
    # pots, rake and every closing stack agree with what the actions put in
    assert not_ok(unique(hands)) == {}
    assert all(s.final_stack is not None for h in hands for s in h.seats)


def test_unwritten_uncalled_bet_derived_from_pot_and_closing_stack() -> None:
    (hand,) = parse_one(FORMAT, real_data(*FLOP, "LHE-9max-USD-0.50-1.00-201008.All-in.with.showdown.txt"))
    # preflop 1.05 each from Hero, player1 and player5 (all in) + player4's 0.25 = "Main pot:
    # 3.40"; Hero's flop bet 0.50 is folded to and not in the pot: Hero 23.90 - 1.05 + 3.25 = 26.10
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Hero", 50, -50)]
    assert put_in(hand) == {"player4": 25, "player5": 105, "Hero": 105, "player1": 105}
    assert [(p.pot_no, p.amount) for p in hand.pots] == [(0, 340)] and hand.site_rake == 15
    assert awards(hand) == [("Hero", 325, 0, 1)]
    assert {s.player: s.final_stack for s in hand.seats}["Hero"] == 2610
    assert hand.started_at == datetime(2010, 8, 18, 18, 32, 32)  # "19:32:32 GMT+0100"
    assert [a.raise_to for a in hand.actions if a.kind is Kind.RAISE] == [100, 105]


def test_split_pot_and_fixed_limit_omaha() -> None:
    hands = parse_one(FORMAT, real_data(*FLOP, "LO-9max-0.05-0.10-201009.Sample.txt"))
    hand = by_id(hands, "ongame:R5-81867677-657")
    # 0.02 + 0.03, 0.05 + 0.10 + 0.10 twice: 0.55; split 0.27 / 0.26 after 0.02 rake
    assert put_in(hand) == {"Hero": 5, "XYXY26XYXY": 25, "nickgerm": 25}
    assert awards(hand) == [("XYXY26XYXY", 26, 0, 1), ("nickgerm", 27, 0, 1)]
    assert (hand.variant, hand.betting, hand.currency) == ("omaha", "FL", "USD")
    shown = {h.player: h.cards for h in hand.hole_cards}
    assert shown == {"Hero": "JdTd8hTc", "XYXY26XYXY": "7hQs9cKd", "nickgerm": "7d6sKsJc"}


def test_truncated_hand_is_quarantined_rest_loads(tmp_path: Path) -> None:
    dst = tmp_path / "cut.txt"
    total = truncated_copy(real_data(*FLOP, "LO-9max-0.05-0.10-201009.Sample.txt"), dst, "***** History for hand")
    hands, quarantined = parse_all(FORMAT, [dst])
    assert len(hands) == total - 1
    (cut,) = quarantined
    assert "truncated hand" in cut.reason or "unrecognised line" in cut.reason


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}
    assert all("OnGame" in str(p) for p in claims(FORMAT))


def test_fixed_limit_header_is_the_bet_sizes_blinds_are_the_posts() -> None:
    # "LIMIT OMAHA_HI $0.05/$0.10": small bet 0.05, big bet 0.10; the hand posts 0.02 and 0.05
    hand = by_id(parse_one(FORMAT, real_data(*FLOP, "LO-9max-0.05-0.10-201009.Sample.txt")), "ongame:R5-81867677-657")
    assert (hand.sb, hand.bb) == (2, 5)
    # "LIMIT TEXAS_HOLDEM $100/$200": "posts small blind ($50)", "posts big blind ($100)"
    (hu,) = parse_one(FORMAT, real_data(*FLOP, "LHE-HU-USD-100-200-201207.thousand.in.collect.line.txt"))
    assert (hu.sb, hu.bb, hu.betting) == (5000, 10000, "FL")
    # no-limit headers are the blinds already: "NO_LIMIT TEXAS_HOLDEM $0.05/$0.10"
    (nl,) = parse_one(FORMAT, real_data(*FLOP, "NLHE-9max-USD-0.05-0.10-201009.Dead.Small.Blind.txt"))
    assert (nl.sb, nl.bb, nl.betting) == (5, 10, "NL")


def test_equal_blinds_written_as_two_big_blinds() -> None:
    # "$0.50/$0.50", button seat 8: seat 1 (the small-blind seat) and seat 2 both "post big blind
    # ($0.50)"; the action then starts at seat 7, so seat 1's post is the small blind
    hands = parse_one(FORMAT, real_data(*FLOP, "PLO8-USD-0.50-0.50-201111.txt"))
    first = by_id(hands, "ongame:R5-174523451-25")
    assert kinds(first, Kind.POST_SB) == [("Player2", 50, 50)]
    assert kinds(first, Kind.POST_BB) == [("Hero", 50, 50)]
    # next hand, button seat 1: Hero (seat 2) is the small blind, Player1 (seat 7) the big blind
    second = by_id(hands, "ongame:R5-174523451-26")
    assert kinds(second, Kind.POST_SB) == [("Hero", 50, 50)]
    assert kinds(second, Kind.POST_BB) == [("Player1", 50, 50)]
    # a "$5/$5" table writes "posts small blind ($5)": still one SB and one BB
    assert not_ok(unique(hands)) == {}
