"""PartyPoker's 2021+ export on fpdb's files (cash PLO 2026, and the two anonymised 2021 MTTs).

Expected amounts are the files' own summary lines ("Main Pot: $1.09 Rake: $0.05", each player's
balance, bet and collected), quoted beside each assertion.
"""

from __future__ import annotations

from parsers.formats.partypoker import FORMAT
from parsers.model import Kind
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, kinds, not_ok, parse_all, put_in
from .test_tournaments import tour

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "PartyPoker", "Flop")


def test_every_cash_hand_parses_and_reconciles_with_every_closing_balance() -> None:
    files = [real_data(*FLOP, name) for name in ("PLO-6max-USD-0.10-0.25-202602.cash.out.txt",
                                                 "PLO-6max-USD-0.10-0.25-202607.multi.hand.split.txt")]
    hands, quarantined = parse_all(FORMAT, files)
    assert (len(hands), quarantined) == (5, []) and not_ok(hands) == {}
    assert {h.format for h in hands} == {"partypoker"} and all(f in claims(FORMAT) for f in files)
    assert foreign_claims(FORMAT) == {}
    split = parse_all(FORMAT, [real_data(*FLOP, "PLO-6max-USD-0.10-0.25-202607.multi.hand.split.txt")])[0]
    walk = next(h for h in split if h.site_hand_no == "1784559652796h1yodv7zdsi")
    # the walk: "Main Pot: $0.20", "Hero balance $124.44, bet $0.25, collected $0.35": the big blind's
    # unmatched 0.15 comes back inside "collected"; the pot he won is 0.20
    assert kinds(walk, Kind.UNCALLED_RETURN) == [("Hero", 15, -15)] and awards(walk) == [("Hero", 20, 0, 1)]
    assert (walk.max_seats, walk.button_seat, walk.variant, walk.betting) == (6, 1, "omaha", "PL")
    assert {s.player: s.final_stack for s in walk.seats}["Hero"] == 12444


def test_a_cash_out_is_paid_by_the_site_not_the_pot() -> None:
    (hand,) = parse_all(FORMAT, [real_data(*FLOP, "PLO-6max-USD-0.10-0.25-202602.cash.out.txt")])[0]
    # "Player2 opted for cash-out", "Player2 Cashout Amount is 23.01"; the summary: "Main Pot: $38.50
    # Rake: $2.0", "Hero ... bet $23.17, collected $41.47" (the pot and his unmatched 2.97)
    assert [(a.player, a.kind, a.amount) for a in hand.actions if a.kind is Kind.CASH_OUT] == [
        ("Player2", Kind.CASH_OUT, 2301)]
    assert awards(hand) == [("Hero", 3850, 0, 1)] and kinds(hand, Kind.UNCALLED_RETURN) == [("Hero", 297, -297)]
    assert (hand.site_total_pot, hand.site_rake) == (4050, 200) and not_ok([hand]) == {}
    # "Player2 Cashed out  balance $23.01" holds the site's payment: not checked as a closing stack
    assert {s.player: s.final_stack for s in hand.seats}["Player2"] is None


def test_the_anonymised_mtts_write_some_bets_a_chip_short_of_their_own_totals() -> None:
    hands, quarantined = parse_all(FORMAT, [tour("PartyPoker", "Flop", name) for name in (
        "NLHE-MTT-USD-100-9-202104.anon.txt", "NLHE-MTT-USD-50-5-202104.anon.txt")])
    assert quarantined == [] and {(h.game_type, h.currency) for h in hands} == {("tournament", "CHIPS")}
    high = next(h for h in hands if h.site_hand_no == "16194828757579au6ou93d1")
    # "(MTT Tournament #303344128)", "70000/140000"; "Hero bets (751624)" and "Player4 calls (751624)",
    # yet "Hero balance 5458067, lost 3079125" and "Player4 ... bet 6971125": each one chip more than his
    # lines put in (17500 + 1260000 + 751624 + 1050000 = 3079124): fpdb's anonymised copy, not the site
    assert (high.tournament_id, high.sb, high.bb, high.ante) == ("303344128", 70000, 140000, 17500)
    assert put_in(high)["Hero"] == 3079124 and put_in(high)["Player4"] == 6971124 - 3892000
    # the river bet of 3892000 nobody called goes back ("Main Pot: 6609750", collected 10501750)
    assert kinds(high, Kind.UNCALLED_RETURN) == [("Player4", 3892000, -3892000)]
    low = next(h for h in hands if h.site_hand_no == "161938625156465v9fyd47bg")
    # "Player5 raises 11302166 to 11302166 / is all-In." from 11389667 less the 87500 ante: one chip
    # short ("Player5 balance 0, lost 11389667"); the pots (35656500 + 3767420) and the players' totals
    # (42618560) then leave the unmatched 3194641 of Player7 one chip apart: no return is derived
    assert put_in(low)["Player5"] == 11389666
    bad = not_ok(hands)
    assert set(bad) == {high.hand_id, low.hand_id}
    assert (bad[high.hand_id]["diff_total_pot"], bad[high.hand_id]["diff_final_stack"]) == (-2, 2)
    assert (bad[low.hand_id]["contributed"], bad[low.hand_id]["awarded"]) == (42618559, 42618560)
