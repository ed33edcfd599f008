"""KingsClub text (fpdb's cash/KingsClub: 33 one-hand files, hold'em, omaha, draw and stud).

Amounts are cents, read off the files (arithmetic in the comments). Every parsed hand reconciles
with the summary's pots, "Rake" line and final stacks; the games the model lacks are quarantined with the
game named, as are the split-board Limit Omaha hand and one hand whose pot line
the seats' results contradict.
"""

from __future__ import annotations

from parsers.formats.kingsclub import FORMAT
from parsers.model import Kind
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, hand_from, kinds, not_ok, parse_all, put_in

CASH = ("fpdb3_regression", "regression-test-files", "cash", "KingsClub")


def test_flop_and_draw_hands_reconcile_other_games_are_quarantined_by_name() -> None:
    hands, quarantined = parse_all(FORMAT, sorted(real_data(*CASH).rglob("*.txt")))
    assert (len(hands), len(quarantined)) == (24, 9)
    assert not_ok(hands) == {}
    assert {h.variant for h in hands} == {
        "holdem", "omaha", "omaha_hilo", "omaha5", "omaha5_hilo", "draw27_triple", "draw27_single", "drawa5_triple",
        "badugi", "stud", "stud_hilo", "razz",
    }
    reasons = sorted({q.reason for q in quarantined})
    # "#3516416: No Limit 2-7 Single Draw": "Player0 wins pot (1,350)" but the seats' results (+875 for
    # Player0, the others' antes and blinds) make the pot 1,225
    anomaly = "site anomaly: Player0's written awards exceed what the seat's result (+87500) shows by 12500 (in cents)"
    assert anomaly in reasons
    reasons.remove(anomaly)
    assert "line 1: unsupported variant: Badacey (the canonical model has no such game)" in reasons
    assert "line 1: unsupported variant: 2-7 Drawmaha (the canonical model has no such game)" in reasons
    assert "line 1: unsupported variant: 2-7 Razz (the canonical model has no such game)" in reasons
    assert all(": unsupported variant: " in r for r in reasons)
    # "LO Split": two boards dealt at the flop and bet on, which the model cannot hold as run it twice
    assert (
        "line 29: unsupported variant: omaha on two split boards (betting after the second board is dealt, not run"
        " it twice; the canonical model has no split-board omaha)"
    ) in reasons


def test_calls_are_street_totals_and_the_uncalled_bet_comes_back() -> None:
    hand = hand_from(FORMAT, real_data(*CASH, "Flop", "PLO-USD-5-10-202101.txt"), "39969456")
    # Hero's big blind 10 "calls 30" adds 20; then 30 and 45; Player0's river bet of 50 is not called
    assert kinds(hand, Kind.CALL)[0] == ("Hero", 2000, 2000)
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Player0", 5000, -5000)]
    assert put_in(hand) == {"Player0": 10500, "Hero": 10500}
    # "Rake 1", "Player0 wins pot (209)", "Seat 1: Player0 (1,104) +104"
    assert (hand.site_rake, awards(hand)) == (100, [("Player0", 20900, 0, 1)])
    assert [s.final_stack for s in hand.seats] == [110400, 89500]


def test_a_pot_the_summary_does_not_list_is_read_from_the_final_stack() -> None:
    hand = hand_from(FORMAT, real_data(*CASH, "Flop", "NLHE-USD-125-250-202012.multi.pot.txt"), "3264632")
    # "Player2 wins pot (1,350)" is the main pot (Player0's 325 all-in): 50 x 5 antes + 275 x 4. The side
    # pot (350 x 3 + 1,200 x 2 = 3,450) has no line; Player2's final 12,925 = 10,000 - 1,875 + 1,350 + 3,450
    assert awards(hand) == [("Player2", 135000, 0, 1), ("Player2", 345000, 1, 1)]
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Player2", 333300, -333300)]


def test_run_it_twice_boards_and_side_pots() -> None:
    hand = hand_from(FORMAT, real_data(*CASH, "Flop", "PLO-USD-125-250-202102.RIT.txt"), "3583643")
    # "*** BOARD 2 - RIVER *** [- - - Kh] [Ac]": board 2 shares the flop
    assert [b.cards for b in hand.boards] == ["3hQc4s4cQh", "3hQc4sKhAc"]
    assert ("Player1", 307500, 1, 1) in awards(hand) and ("Player2", 1073750, 0, 1) in awards(hand)
    assert (hand.ante, hand.sb, hand.bb, hand.site_rake) == (5000, 12500, 25000, 0)


def test_draw_streets_discards_and_the_joining_players_blind() -> None:
    path = real_data(*CASH, "Draw", "2-7 Triple Draw Lowball-FL-USD-44-88-202012.rake.txt")
    hand = hand_from(FORMAT, path, "39879543")
    # "Player1: posts blind 44": the big blind live and the small blind (22) dead; its result -77 = 11 + 44 + 22
    assert kinds(hand, Kind.POST_DEAD) == [("Player1", 2200, 2200)]
    assert (hand.sb, hand.bb, hand.small_bet, hand.big_bet) == (2200, 4400, 4400, 8800)
    # the hero's hand after "discards [9d Th Jc] draws [5s 9c Kd]" and "discards [9c Kd] draws [Qd 6s]"
    assert next(h.cards for h in hand.hole_cards if h.player == "Hero") == "3c7c5sQd6s"
    assert [(a.street.value, a.amount) for a in hand.actions if a.player == "Player3" and a.kind is Kind.DISCARD] == [
        ("draw1", 3), ("draw2", 2)
    ]
    assert (awards(hand), hand.site_rake) == ([("Player3", 119400, 0, 1)], 500)


def test_stud_streets_are_named_after_the_one_before() -> None:
    hand = hand_from(FORMAT, real_data(*CASH, "Stud", "7-StudHL-USD-40-80-202101.txt"), "39969428")
    # "Player0 brings in for 10", "Hero bets 40" completes; "*** 3RD STREET ***" deals the fourth card
    assert kinds(hand, Kind.BRING_IN) == [("Player0", 1000, 1000)]
    assert kinds(hand, Kind.COMPLETE) == [("Hero", 4000, 4000)]
    hero = [(c.street.value, c.cards, c.face_up) for c in hand.street_cards if c.player == "Hero"]
    assert hero == [("third", "Qh4s", False), ("third", "Qs", True), ("fourth", "3d", True), ("fifth", "6h", True),
                    ("sixth", "As", True), ("seventh", "Kd", False)]
    stakes = (hand.sb, hand.bb, hand.small_bet, hand.big_bet, hand.ante, hand.bring_in)
    assert stakes == (0, 4000, 4000, 8000, 1000, 1000)
    # 10 + 40 + 40 + 80 + 80 + 80 = 330 each; "Player0 wins pot (659)", "Rake 1"
    assert put_in(hand) == {"Player0": 33000, "Hero": 33000} and awards(hand) == [("Player0", 65900, 0, 1)]


def test_fixed_limit_header_names_the_bets() -> None:
    hand = hand_from(FORMAT, real_data(*CASH, "Flop", "LHE-USD-40-80-202012.txt"), "39555673")
    assert (hand.betting, hand.sb, hand.bb, hand.currency) == ("FL", 2000, 4000, "USD")


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}
    assert all("KingsClub" in str(p) for p in claims(FORMAT))
