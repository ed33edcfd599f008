"""Absolute Poker / UltimateBet "Stage #" text (fpdb's cash/Absolute, cash/UltimateBet, tour/Absolute).

Expected amounts are read off the files (hand arithmetic in the comments); every parsed hand must
reconcile with the site's own "Total Pot(...) | Rake (...) | Jackpot Rake (...)" summary.
"""

from __future__ import annotations

from parsers.formats.absolute import FORMAT
from parsers.model import Kind, Street, StreetCards
from tests.conftest import real_data

from ._site_helpers import awards, by_id, claims, foreign_claims, kinds, not_ok, parse_all, parse_one, put_in
from .test_tournaments import tour

CASH = ("fpdb3_regression", "regression-test-files", "cash", "Absolute")
TOUR_FILE = "IHH20110116 $1K Special Sunday FR 3 Tourney ID 5945889 No Limit Hold'em Freeroll(Real Money).txt"


def test_every_cash_hand_parses_and_reconciles() -> None:
    hands, quarantined = parse_all(FORMAT, claims(FORMAT))
    # 12 Absolute + 1 UltimateBet hold'em/omaha files, one hand each; one stud hi/lo file
    assert len(hands) == 14 and quarantined == []
    assert not_ok(hands) == {}


def test_stud_hi_lo_cards_so_far_bring_in_and_split_pot() -> None:
    path = real_data("fpdb3_regression", "regression-test-files", "cash", "Absolute", "Stud",
                     "7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt")
    (hand,) = parse_all(FORMAT, [path])[0]
    # "Seven Card Hi/Lo  Normal $0.02/$0.04", seven "Ante $0.01", "PLAYER7 - Bring-In $0.01"
    assert (hand.variant, hand.sb, hand.bb, hand.small_bet, hand.big_bet) == ("stud_hilo", 0, 2, 2, 4)
    assert (hand.ante, hand.bring_in) == (1, 1) and kinds(hand, Kind.BRING_IN) == [("PLAYER7", 1, 1)]
    # "PLAYER1 - Pocket [H H Js 10d]" on 4th street: 10d is new and up; "[... 2c H]" on the river: down
    assert StreetCards("PLAYER1", Street.FOURTH, "Td", True) in hand.street_cards
    assert StreetCards("PLAYER1", Street.SEVENTH, "??", False) in hand.street_cards
    assert hand.hero == "Hero" and [h.cards for h in hand.hole_cards if h.player == "Hero"] == ["Tc5c7s"]
    # "Total Pot($0.43) | Rake ($0.04)", "PLAYER3 Collects $0.19", "PLAYER6 Collects $0.20"
    assert (hand.site_total_pot, hand.site_rake) == (43, 4)
    assert sorted((w.player, w.amount) for w in hand.awards) == [("PLAYER3", 19), ("PLAYER6", 20)]
    assert not_ok([hand]) == {}


def test_tournament_file_parses_and_reconciles() -> None:
    hands, quarantined = parse_all(FORMAT, [tour("Absolute", "Flop", TOUR_FILE)])
    assert (len(hands), len(quarantined)) == (87, 0)
    assert not_ok(hands) == {}
    assert {(h.game_type, h.tournament_id, h.currency, h.unit_scale) for h in hands} == {
        ("tournament", "5945889", "CHIPS", 1)
    }
    first = by_id(hands, "absolute:525691746")
    # "No Limit 10": blinds 5/10; stacks "1,440 in chips" carry thousands separators
    assert (first.sb, first.bb, first.seats[0].stack) == (5, 10, 1440)
    # raise 200 over a 20 bet folded to: 180 handed back, 60 collected
    assert kinds(first, Kind.UNCALLED_RETURN) == [("MARSHMAN5984", 180, -180)]
    assert awards(first) == [("MARSHMAN5984", 60, 0, 1)]


def test_side_pot_written_after_the_total() -> None:
    hands, _ = parse_all(FORMAT, [tour("Absolute", "Flop", TOUR_FILE)])
    side = [h for h in hands if any(a.pot_no == 1 for a in h.awards)]
    # "Total Pot(5,480:3,750,1,730)" and "Total Pot(3,604:2,532,1,072)": the total comes first
    assert sorted(h.site_total_pot for h in side) == [3604, 5480]
    assert all(sum(put_in(h).values()) == h.site_total_pot for h in side)


def test_dead_posts_both_spellings() -> None:
    (both,) = parse_one(FORMAT, real_data(*CASH, "Flop", "NLHE-USD-0.50-1.00-200912.postboth.txt"))
    # "Posts $1 dead $0.50": a live $1 big blind and a dead $0.50; Total 9.50 = rake .45 + JP .50 + 8.55
    assert kinds(both, Kind.POST_DEAD) == [("Player2", 50, 50)]
    assert (both.site_total_pot, both.site_rake, both.site_fees) == (950, 45, 50)
    (dead,) = parse_one(FORMAT, real_data(*CASH, "Flop", "LHE-USD-25-50-200708.post.dead.txt"))
    # "Posts dead $40 dead $15" is the total: $25 live (his "Raises $25 to $50" then adds 25)
    assert [(a.kind, a.contribution) for a in dead.actions if a.player == "P0KEHER" and a.contribution > 0][:2] == [
        (Kind.POST_BB, 2500),
        (Kind.POST_DEAD, 1500),
    ]
    assert (dead.betting, dead.sb, dead.bb) == ("FL", 1500, 2500)


def test_short_all_in_big_blind_and_proposition_pot() -> None:
    (blind,) = parse_one(FORMAT, real_data(*CASH, "Flop", "LHE-USD-200-400-201003.all.in.blind.txt"))
    # "Player1 - All-In $191.27" before the pocket cards is his short big blind
    assert kinds(blind, Kind.POST_BB) == [("Player1", 19127, 19127)]
    (prop,) = parse_one(FORMAT, real_data(*CASH, "Flop", "NLHE-USD-2-4-201004.72.proposition.txt"))
    # the 7-2 bounty ($40) comes from outside the betting: 26 in, 1.30 rake, 0.50 jackpot, 24.20 won
    assert (prop.site_added, prop.site_total_pot) == (4000, 6600)
    assert sum(a.amount for a in prop.awards) == 2420 + 4000


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}
    assert all("Absolute" in str(p) or "UltimateBet" in str(p) for p in claims(FORMAT))
