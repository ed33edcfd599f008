"""PKR text on fpdb's PKR folder.

Expected amounts come from the files' own "Pot sizes", rake and closing seat lines, and hand
arithmetic in the comments.
"""

from __future__ import annotations

from pathlib import Path

from parsers.formats.pkr import FORMAT
from parsers.model import Hand, Kind, Pot, Provenance
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, kinds, not_ok, parse_all, put_in, truncated_copy

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "PKR", "Flop")


def _one(name: str, hand_no: str | None = None) -> Hand:
    hands, _ = parse_all(FORMAT, [real_data(*FLOP, name)])
    return hands[0] if hand_no is None else next(h for h in hands if h.site_hand_no == hand_no)


def test_every_hand_parses_and_reconciles() -> None:
    files = claims(FORMAT)
    assert len(files) == 12
    hands, quarantined = parse_all(FORMAT, files)
    assert len(hands) == 58
    # NLHE-10max...201206.txt opens in the middle of a hand ("Player11 checks"): a fragment
    assert [q.reason for q in quarantined] == ["text outside any hand"]
    assert quarantined[0].raw_text.startswith("Player11 checks")
    assert not_ok(hands) == {}
    # the closing seat lines are final stacks for every seat but five (rebuys, see below)
    seats = [s for h in hands for s in h.seats]
    assert sum(s.final_stack is None for s in seats) == 5 and len(seats) == 519


def test_side_pots_ties_and_rake() -> None:
    # Player2 all in for 0.06 preflop; turn: Player0 all in 0.34, Player3 all in 0.53, Player6
    # calls: pots 0.32 / 1.02 / 0.38 (= 1.72 put in), 0.17 raked from the first side pot
    hand = _one("NLHE-10max-USD-0.02-0.04-201208.multiple.side.pots.txt")
    assert hand.pots == [Pot(0, 32), Pot(1, 102), Pot(2, 38)]
    assert put_in(hand) == {"Player8": 2, "Player0": 40, "Player3": 59, "Player6": 59, "Player1": 6, "Player2": 6}
    assert hand.site_rake == 17
    assert awards(hand) == [("Player0", 16, 0, 1), ("Player0", 42, 1, 1), ("Player3", 16, 0, 1),
                            ("Player3", 38, 2, 1), ("Player3", 43, 1, 1)]
    assert {s.player: s.final_stack for s in hand.seats}["Player0"] == 58  # 0.40 - 0.40 + 0.58


def test_calls_are_street_totals() -> None:
    # Player2 bets 0.08, Hero raises to 0.16, Player2 "calls $0.16": he closes at 5.08 of 5.28,
    # so 0.04 + 0.16 went in, not 0.04 + 0.08 + 0.16; Player4's "calls $1.27 (all-in)" is his
    # turn total (0.04 + 1.23), which leaves the written 0.13 unmatched of Player3's 1.40
    hand = _one("NLHE-2max-USD-0.02-0.04-200903.All-in.on.turn.txt")
    assert put_in(hand)["Player2"] == 20 and put_in(hand)["Player4"] == 147
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Player3", 13, -13)]
    assert hand.hole_cards[0] == ("Hero", "Ad8h", Provenance.DEALT)
    assert hand.boards[0].cards == "9sAc5s4s2c"


def test_unwritten_uncalled_bet_is_returned() -> None:
    # Hero (SB 3) raises to 12, Player0 (BB 6) folds; nothing returned in the text, yet the pot
    # is "$12" and Hero closes at 606 = 600 - 6 + 12: 6 came back
    hand = _one("NLHE-USD-3.00-6.00-201108.partial.txt")
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Hero", 600, -600)]
    assert hand.pots == [Pot(0, 1200)] and hand.table_name == "" and hand.button_seat == 6


def test_dead_posts() -> None:
    # "posts $2" (live) and "posts $1 dead": pot $6 with the blinds 1 + 2
    hand = _one("NLHE-USD-1.00-2.00-201108.post.both.txt")
    assert kinds(hand, Kind.POST_BB) == [("Player1", 200, 200), ("Player2", 200, 200)]
    assert kinds(hand, Kind.POST_DEAD) == [("Player2", 100, 100)]
    # "posts $0" moves nothing; "posts $0.02 dead" then a raise to 0.08 counted from zero
    hand = _one("NLHE-10max-USD-0.02-0.04-201208.secondsb.txt")
    assert kinds(hand, Kind.POST_DEAD) == [("Player5", 2, 2)]
    assert put_in(hand)["Player5"] == 6 and hand.pots == [Pot(0, 12)]


def test_rebuy_during_the_hand_leaves_no_final_stack() -> None:
    # "Player9 rebuys $0.70" while sitting out at $0: the closing line says $0.70
    hand = _one("NLHE-10max-USD-0.02-0.04-201206.txt", "2103764576")
    assert {s.player: s.final_stack for s in hand.seats}["Player9"] is None
    # the partly shown hand "[XX] [6 s]" keeps Hero's dealt cards
    assert hand.hole_cards == [("Hero", "As6s", Provenance.DEALT)]


def test_play_money_and_euros() -> None:
    hand = _one("NLHE-10max-play-5-10-201108.txt")
    assert hand.currency == "PLAY" and awards(hand) == [("Player1", 769500, 0, 1)]
    assert _one("NLHE-6max-EUR-0.25-0.50-201303.txt").currency == "EUR"


def test_truncated_hand_is_quarantined_rest_loads(tmp_path: Path) -> None:
    dst = tmp_path / "cut.txt"
    n = truncated_copy(real_data(*FLOP, "NLHE-10max-USD-0.02-0.04-201206.txt"), dst, "Table #")
    hands, quarantined = parse_all(FORMAT, [dst])
    assert len(hands) == n - 1
    assert sorted(q.reason for q in quarantined) == ["text outside any hand", "truncated hand: no 'End of Hand' line"]


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}
