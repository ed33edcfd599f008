"""KingsClub text (fpdb's cash/KingsClub: 33 one-hand files, hold'em, omaha, draw and stud).

Amounts are cents, read off the files (arithmetic in the comments). Every parsed hand reconciles
with the summary's pots, "Rake" line and final stacks; the game the model lacks (Drawmaha) is quarantined
with the game named, as are the split-board Limit Omaha hand and one hand whose pot line the seats'
results contradict.
"""

from __future__ import annotations

from parsers.formats.kingsclub import FORMAT
from parsers.model import Kind, Street
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, hand_from, kinds, not_ok, parse_all, put_in

CASH = ("fpdb3_regression", "regression-test-files", "cash", "KingsClub")


def test_flop_and_draw_hands_reconcile_other_games_are_quarantined_by_name() -> None:
    hands, quarantined = parse_all(FORMAT, sorted(real_data(*CASH).rglob("*.txt")))
    assert (len(hands), len(quarantined)) == (29, 4)
    assert not_ok(hands) == {}
    assert {h.variant for h in hands} == {
        "holdem", "omaha", "omaha_hilo", "omaha5", "omaha5_hilo", "draw27_triple", "draw27_single", "drawa5_triple",
        "badugi", "stud", "stud_hilo", "razz", "razz27", "drawa5_single", "badeucey", "badacey",
    }
    reasons = sorted({q.reason for q in quarantined})
    # "#3516416: No Limit 2-7 Single Draw": "Player0 wins pot (1,350)" but the seats' results (+875 for
    # Player0, the others' antes and blinds) make the pot 1,225
    anomaly = "site anomaly: Player0's written awards exceed what the seat's result (+87500) shows by 12500 (in cents)"
    assert anomaly in reasons
    reasons.remove(anomaly)
    assert "line 1: unsupported variant: 2-7 Drawmaha (the canonical model has no such game)" in reasons
    assert all(": unsupported variant: " in r for r in reasons) and len(reasons) == 2
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


def test_two_seven_razz_badeucey_badacey_and_a5_single_draw() -> None:
    razz = hand_from(FORMAT, real_data(*CASH, "Stud", "2-7 Razz-USD-500-1000-202102.multi.pot.failure.txt"), "3703449")
    # "Limit 2-7 Razz - 500/1,000": antes 125, the highest up-card (Tc: aces high in 2-7) "brings in for
    # 125", "Player1 bets 500" completes it. Player2 is all in for 125 + 1,662.75: the main pot is 4 x 125 +
    # 125 + 3 x 1,662.75 = 5,613.25 ("Player2 wins pot"); the side pot (2 x 337.25 + 2 x 1,000 = 2,674.50)
    # has no line and is read from Player1's final stack: 12,749 - 3,125 put in + 2,674.50 = 12,298.50
    assert (razz.variant, razz.small_bet, razz.big_bet) == ("razz27", 50000, 100000)
    assert (razz.ante, razz.bring_in) == (12500, 12500)
    assert kinds(razz, Kind.BRING_IN) == [("Player0", 12500, 12500)] and kinds(razz, Kind.COMPLETE)[0][0] == "Player1"
    assert sorted(awards(razz)) == [("Player1", 267450, 1, 1), ("Player2", 561325, 0, 1)]
    split = hand_from(FORMAT, real_data(*CASH, "Draw", "Badeucey-Limit-USD-22-44-202101.txt"), "40200897")
    # triple draw, the pot split between the best badugi and the best 2-7 low: "Rake 5" and two
    # "wins (550.25) from pot"; 5.50 x 7 antes + 11 + 3 x (44 + 88 + 176 + 44) = 1,105.50 = 2 x 550.25 + 5
    assert (split.variant, sum(put_in(split).values()), split.site_rake) == ("badeucey", 110550, 500)
    assert awards(split) == [("Player2", 55025, 0, 1), ("Player4", 55025, 0, 1)]
    assert {a.street for a in split.actions} == {Street.PREDRAW, Street.DRAW1, Street.DRAW2, Street.DRAW3}
    badacey = hand_from(FORMAT, real_data(*CASH, "Draw", "Badacey-Limit-USD-22-44-202101.txt"), "40201390")
    assert badacey.variant == "badacey" and [a for _, a, _, _ in awards(badacey)] == [16800, 16800]
    single = hand_from(FORMAT, real_data(*CASH, "Draw", "A5-1-Draw-Limit-USD-50-100-202102.txt"), "41388325")
    # no round lines at all: the betting before "Hero discards [Tc Ks Qc] draws [7s 3h 3s]" is predraw,
    # the checks after it are the one draw's
    assert single.variant == "drawa5_single"
    assert [(a.street, a.player, a.kind) for a in single.actions if a.kind is not Kind.SHOW][-4:] == [
        (Street.DRAW1, "Hero", Kind.DISCARD), (Street.DRAW1, "Player0", Kind.STAND_PAT),
        (Street.DRAW1, "Hero", Kind.CHECK), (Street.DRAW1, "Player0", Kind.CHECK)]
    assert {a.street for a in single.actions if a.kind in (Kind.POST_SB, Kind.POST_BB)} == {Street.PREDRAW}
    assert not_ok([razz, split, badacey, single]) == {}
