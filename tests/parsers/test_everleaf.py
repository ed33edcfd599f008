"""Everleaf Gaming network text (fpdb's cash/Everleaf): Everleaf, Concord and Partouche skins.

Expected amounts: fpdb's .hp beside one file (an independent parser's per-player profit, winnings
and rake), and hand arithmetic in the comments.
"""

from __future__ import annotations

from pathlib import Path

from parsers.formats.everleaf import FORMAT
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
)

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "Everleaf", "Flop")


def test_every_hand_parses_and_reconciles() -> None:
    hands, quarantined = parse_all(FORMAT, claims(FORMAT))
    # 141 "Hand history for game" headers + 1 Partouche "Historique": 25 of them 7 Card Stud, read
    # since issue 12 (tests/parsers/test_stud_draw.py)
    assert len(hands) == 117 + 25 and quarantined == []
    assert sum(1 for h in hands if h.variant == "stud") == 25
    assert not_ok(hands) == {}
    assert {h.site for h in hands} == {"everleaf", "partouche"}


def test_side_pot_matches_fpdb_hp() -> None:
    (hand,) = parse_one(FORMAT, real_data(*FLOP, "NLHE-10max-USD-0.01-0.02-201008.2Way.All-in.pre.txt"))
    # fpdb's .hp: totalProfit Player1 -98, Player3 -2, Player5 -2, Player7 -3; Player4 winnings
    # 194 with profit +96 (so 98 put in) and rake 9
    assert put_in(hand) == {"Player1": 98, "Player3": 2, "Player4": 98, "Player5": 2, "Player7": 3}
    assert awards(hand) == [("Player4", 13, 0, 1), ("Player4", 181, 1, 1)]
    assert sum(put_in(hand).values()) - sum(a.amount for a in hand.awards) == 9
    # "raises [$ 0.18 USD]" over his 0.02 big blind is chips added: the 0.78 call meets 0.98
    assert [a.raise_to for a in hand.actions if a.kind is Kind.RAISE] == [20, 98]


def test_unmatched_raise_is_handed_back() -> None:
    hands = parse_one(FORMAT, real_data(*FLOP, "NLHE-6max-USD-0.05-0.10-29Aug2010.txt"))
    hand = by_id(hands, "everleaf:196321235")
    # 0.35 raise folded to; "wins $ 0.25" = 0.05 + 0.10 blinds + the 0.10 that was matched
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("N0pr3s3n7", 25, -25)]
    assert awards(hand) == [("N0pr3s3n7", 25, 0, 1)]
    assert hand.hero == "Hero" and hand.hole_cards[0].cards == "9hQd" and hand.started_at is None


def test_fixed_limit_hilo_blinds_and_euro_caret() -> None:
    hands = parse_one(FORMAT, real_data(*FLOP, "FLO8-10max-USD-0.50-1.00-201003.HU.on.10max.txt"))
    hand = by_id(hands, "everleaf:148735485")
    # "$0.50/$1 Omaha Hi/Lo": fixed limit, blinds posted 0.25/0.50; SB calls 0.25, BB raises
    # 0.50 (to 1.00), SB calls 0.50
    assert (hand.variant, hand.betting, hand.sb, hand.bb) == ("omaha_hilo", "FL", 25, 50)
    assert [a.raise_to for a in hand.actions if a.kind is Kind.RAISE] == [100]
    (euro,) = parse_one(FORMAT, real_data(*FLOP, "NLHE-EUR-0.25-0.50-201202.euro.caret.txt"))
    assert (euro.currency, euro.sb, euro.bb) == ("EUR", 25, 50)


def test_truncated_hand_is_quarantined_rest_loads(tmp_path: Path) -> None:
    dst = tmp_path / "cut.txt"
    total = truncated_copy(real_data(*FLOP, "NLHE-6max-USD-0.05-0.10-29Aug2010.txt"), dst, "Everleaf Gaming Game #")
    hands, quarantined = parse_all(FORMAT, [dst])
    assert len(hands) == total - 1
    (cut,) = quarantined
    assert "truncated hand" in cut.reason or "unrecognised line" in cut.reason


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}
    assert all("Everleaf" in str(p) for p in claims(FORMAT))
