"""Cake Poker network text (fpdb's cash/Cake and tour/Cake).

Cake writes no pot total and no rake: reconciliation implies the rake (0 in tournaments, at most
10% in cash games). Amounts are read off the files, with the arithmetic in the comments.
"""

from __future__ import annotations

from parsers.formats.cake import FORMAT
from parsers.model import Kind
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, hand_from, kinds, not_ok, parse_all, put_in
from .test_tournaments import tour

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "Cake", "Flop")


def test_every_cash_hand_parses_and_reconciles() -> None:
    hands, quarantined = parse_all(FORMAT, claims(FORMAT))
    # 12 files: 11 one-hand files and a 20-hand session
    assert (len(hands), quarantined) == (31, [])
    assert not_ok(hands) == {}
    assert {h.currency for h in hands} == {"USD", "EUR", "PLAY"}


def test_tournaments_parse_reconcile_or_are_coin_flips() -> None:
    hands, quarantined = parse_all(FORMAT, sorted(tour("Cake", "Flop").glob("*.txt")))
    assert len(hands) == 7 and not_ok(hands) == {}
    assert [q.reason for q in quarantined] == [
        "line 1: unsupported variant: Coin Flip (automatic all-ins, no chips written)"
    ]
    assert all(h.game_type == "tournament" and h.currency == "CHIPS" for h in hands)


def test_side_pot_sections_and_thousands_separators() -> None:
    path = tour("Cake", "Flop", "NLHE-10max-15-USD-201204.new.format.txt")
    hand = hand_from(FORMAT, path, "2930A7507F000252")
    # "0/75/150": no ante, blinds 75/150; Player4's 1,800 all-in caps the main pot: 2,550 x 3 =
    # 7,650, and the 125 Player2 and Player5 put in above it makes the 250 side pot
    assert (hand.tournament_id, hand.sb, hand.bb, hand.ante) == ("10965119", 75, 150, 0)
    assert put_in(hand) == {"Player2": 2675, "Player4": 2550, "Player5": 2675}
    assert awards(hand) == [("Player5", 250, 0, 1), ("Player5", 7650, 1, 1)]


def test_negative_dead_blind_and_decimal_commas() -> None:
    hand = hand_from(FORMAT, real_data(*FLOP, "NLHE-USD-0.05-0.10-201205.dead.blind.txt"), "2862015946001029")
    # "posts dead blind $-0,10 and big blind $0,10": only the big blind moves (0.75 in, 0.75 won)
    assert kinds(hand, Kind.POST_DEAD) == [] and kinds(hand, Kind.POST_BB)[-1] == ("Player5", 10, 10)
    assert awards(hand) == [("Player3", 75, 0, 1)]


def test_eur_table_shown_in_dollars_is_read_in_eur() -> None:
    path = real_data(*FLOP, "PLO-6max-EUR-0.04-0.08-201206.USD.conversion.txt")
    hand = hand_from(FORMAT, path, "2999013495000096")
    # "$0,30 (EUR €0,24)": 1.39 + 0.24 + 1.39 = 3.02 EUR in, 2.80 won (implied rake 0.22)
    assert (hand.currency, hand.sb, hand.bb) == ("EUR", 4, 8)
    assert sum(put_in(hand).values()) == 302 and awards(hand) == [("Player3", 280, 0, 1)]


def test_fixed_limit_header_names_the_bets() -> None:
    hand = hand_from(FORMAT, real_data(*FLOP, "LHE-6max-USD-3.00-6.00-201207.datetime.dashes.txt"), "3008011667000561")
    assert (hand.betting, hand.sb, hand.bb) == ("FL", 150, 300)


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}
    assert all("Cake" in str(p) for p in claims(FORMAT))
