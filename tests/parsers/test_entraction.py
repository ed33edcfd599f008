"""Entraction column-aligned text (fpdb's cash/Entraction, HHSmithy's Entraction samples, tour/Entraction).

Expected amounts are read off the files (arithmetic in the comments); every parsed hand reconciles
with the site's "wins:" and "Rake:" lines.
"""

from __future__ import annotations

from datetime import datetime

from parsers.formats.entraction import FORMAT
from parsers.model import Kind
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, hand_from, kinds, not_ok, parse_all, put_in, unique
from .test_tournaments import tour

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "Entraction", "Flop")
SMITHY = ("hhsmithy_sample_hh", "HandHistories.Parser.UnitTests", "SampleHandHistories", "Entraction", "CashGame")


def test_every_cash_hand_parses_and_reconciles() -> None:
    hands, quarantined = parse_all(FORMAT, claims(FORMAT))
    # 43 files: 6 fpdb, 37 HHSmithy (which copies hands into several files; one holds 10 hands)
    assert (len(hands), len(unique(hands)), quarantined) == (52, 33, [])
    assert not_ok(unique(hands)) == {}
    assert {h.variant for h in hands} == {"holdem", "omaha", "omaha5", "omaha_hilo"}


def test_amounts_are_chips_added_and_blind_out_of_turn_is_live() -> None:
    path = real_data(*FLOP, "PLO-6max-EUR-0.50-1-201108.Second.small.blind.txt")
    hand = hand_from(FORMAT, path, "2322970601")
    # Player4: blind out of turn 1.00 + raise 2.50 + call 8.00 (meets Hero's 0.50 + 11.00) + 38.50 all-in
    assert put_in(hand) == {"Hero": 5000, "Player3": 100, "Player4": 5000}
    assert awards(hand) == [("Hero", 9800, 0, 1)] and hand.site_rake == 300
    # "Game ended 2011-08-06 18:53:35 CEST" is 16:53:35 UTC
    assert hand.started_at == datetime(2011, 8, 6, 16, 53, 35)


def test_small_and_big_blind_is_live_big_plus_dead_small() -> None:
    hand = hand_from(FORMAT, real_data(*FLOP, "PLO-6max-EUR-0.50-1-201107.SBBB.example.txt"), "2314086000")
    assert kinds(hand, Kind.POST_DEAD) == [("Player2", 50, 50)]
    # his "Call (4.00)" then meets Hero's 5.00 raise on top of the live 1.00
    assert put_in(hand)["Player2"] == 550


def test_hands_run_together_on_one_line_are_cut() -> None:
    path = real_data(*SMITHY, "MultipleHandsTests", "10MultipleHands.txt")
    hands, quarantined = parse_all(FORMAT, [path])
    # each "Game ended ... GMT+2:00" is followed on the same line by the next "\ufeffGame # "
    assert (len(hands), quarantined) == (10, [])
    raw = path.read_bytes()
    # every hand's byte offset points at its own header, in UTF-8 bytes (the BOM before it included)
    assert all(raw[h.byte_offset:].lstrip(b"\xef\xbb\xbf").startswith(f"Game # {h.site_hand_no} ".encode())
               for h in hands)
    assert sum(h.byte_length for h in hands) <= len(raw)


def test_fixed_limit_blinds_from_the_posts_and_lowercase_hero() -> None:
    hand = hand_from(FORMAT, real_data(*FLOP, "LHE-HU-EUR-10-20-201103.txt"), "2145163746")
    assert (hand.betting, hand.sb, hand.bb) == ("FL", 500, 1000)
    lower = hand_from(FORMAT, real_data(*FLOP, "NLHE-EUR-0.10-0.20-201009.lowercase.hero.txt"), "1850568849")
    assert lower.hero == "Hero"  # "hero was dealt:" for the seat written "Hero"


def test_tournament_with_antes() -> None:
    hands, quarantined = parse_all(FORMAT, [tour("Entraction", "Flop", "NLHE-EUR-MTT-201206.ante.txt")])
    (hand,) = hands
    assert quarantined == [] and not_ok(hands) == {}
    assert (hand.game_type, hand.tournament_id, hand.currency, hand.ante) == ("tournament", "12717727", "CHIPS", 20)
    # 8 antes of 20 + 200 + 400 + Player4's 980 raise less 580 paid back = 1,160 won
    assert len(kinds(hand, Kind.POST_ANTE)) == 8 and awards(hand) == [("Player4", 1160, 0, 1)]


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}
    assert all("ntraction" in str(p) for p in claims(FORMAT))
