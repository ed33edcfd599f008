"""PokerTracker re-exports (fpdb's cash/PokerTracker): iPoker, Merge, Everest and MicroGaming hands.

Expected amounts come from the files' own totals ("Total pot X Rake Y", "Rake:", "at end" stacks)
and hand arithmetic written in the comments, never from the parser's output.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from parsers.formats.pokertracker import FORMAT
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

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "PokerTracker", "Flop")


def test_every_hand_parses_and_only_named_anomalies_fail_reconciliation() -> None:
    hands, quarantined = parse_all(FORMAT, claims(FORMAT))
    assert [q.reason for q in quarantined] == []
    assert len(hands) == 192  # 100 Everest + 39 Merge + 33 + 11 iPoker + 4 MicroGaming + 5 Merge v2/PT4
    bad = {k: v["detail"] for k, v in not_ok(hands).items()}
    assert bad == {
        # "Player1: Post SB $3.74" (his whole stack, the file is named corrupted) and nobody
        # takes it back: 3.74 + 0.04 + 0.08 + 0.04 in, 0.16 won
        "merge:80257431-64": "implied rake 374 is implausible (contributed 390, awarded 16)",
        # the "Bad Beat" jackpot table drops more than rake: 2 + 2 + 2 + 1 in, 6.20 won (the 1.00
        # flop bet nobody called is inside "wins", as PokerTracker writes Merge's old hands)
        "merge:3047310402805": "implied rake 80 is implausible (contributed 700, awarded 620)",
        # 0.50 + 1.00 (SB and BB) + 3.00 + 3.00 in, 6.63 won: 0.87 taken
        "merge:3047310402828": "implied rake 87 is implausible (contributed 750, awarded 663)",
        "merge:3047310402831": "implied rake 96 is implausible (contributed 934, awarded 838)",
    }


def test_uncalled_bet_derived_only_because_the_total_says_so() -> None:
    (hand,) = parse_one(FORMAT, real_data(*FLOP, "NLHE-EUR-0.01-0.02-201901.iPoker.Uncalled.txt"))
    # raise (NF) 0.06 is a street total: czarlando "Call 0.06" from nothing, ken1950 "Call 0.05"
    # over his 0.01 SB. ken1950's river bet 0.14 is folded to: in 0.20 + 0.24 + 0.04 + 0.14 = 0.62,
    # the site's "Total pot 0.45 Rake 0.03" is 0.48, so exactly the 0.14 went back
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("ken1950", 14, -14)]
    assert put_in(hand) == {"ken1950": 16, "johnny20015": 14, "czarlando": 16, "petediddy80": 2}
    assert (hand.site_total_pot, hand.site_rake) == (48, 3)
    assert hand.started_at == datetime(2018, 12, 26, 22, 40, 5) and hand.currency == "EUR"


def test_raise_to_read_as_chips_added_when_the_calls_say_so() -> None:
    hands = parse_one(FORMAT, real_data(*FLOP, "PLO-2max-USD-50.00-100.00-201308.iPoker.archive.txt"))
    hand = by_id(hands, "ipoker:4999408769")
    # SB 50 "Raise to 250", BB 100 "Raise to 800", SB "Call 600": only 50+250 and 100+800 meet at
    # 900 (as street totals the call would leave him at 850 against 800). Flop bet 1200, "Raise
    # to 5400" folded: 900+1200 and 900+5400 = 8400 = "Total pot 8398 Rake 2", so no return
    assert put_in(hand) == {"Player0": 210000, "Hero": 630000}
    assert kinds(hand, Kind.UNCALLED_RETURN) == []
    assert awards(hand) == [("Hero", 839800, 0, 1)] and hand.variant == "omaha"


def test_microgaming_final_stacks_confirm_chips_added() -> None:
    (hand,) = parse_one(FORMAT, real_data(*FLOP, "NLHE-2max-EUR-25.00-50.00-201305.new.format.txt"))
    # Hero 5000 at start, 5199 "at end": 50 + 50 (call) + 350 put in, 649 won (in cents)
    assert put_in(hand) == {"Player 1": 20000, "Hero": 45000}
    assert {s.player: s.final_stack for s in hand.seats} == {"Player 1": 1458500, "Hero": 519900}
    assert awards(hand) == [("Hero", 64900, 0, 1)]
    assert hand.hole_cards[0].cards == "Ac6d" and hand.boards[0].cards == "6sTh6c"


def test_microgaming_2011_calls_are_street_totals() -> None:
    hands = parse_one(FORMAT, real_data(*FLOP, "NLHE-EUR-0.05-0.10-201111.Microgaming.txt"))
    hand = by_id(hands, "microgaming:4152594215")
    # Hero (BB 0.10) "called - 0.20" to player5's 0.20: as chips added he would put in 0.10 more
    # than his 10.76. Both all in; player5's 16.57 exceeds Hero's whole stack by 5.81
    assert put_in(hand) == {"player3": 5, "Hero": 1076, "player5": 1076}
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("player5", 581, -581)]
    assert [s.sitting_out for s in hand.seats][:2] == [True, True]


def test_everest_written_return_and_merge_uncalled_award() -> None:
    hands = parse_one(FORMAT, real_data(*FLOP, "NLHE-USD-0.50-1.00-201101.Everest.txt"))
    first = by_id(hands, "everest:6450768434")
    # Player28 5.50 + 7.00, 7.00 handed back; 12.85 collected of 0.50 + 1 + 1 + 5.50 + 5.50 in
    assert kinds(first, Kind.UNCALLED_RETURN) == [("Player28", 700, -700)]
    assert sum(put_in(first).values()) == 1350 and awards(first) == [("Player28", 1285, 0, 1)]
    assert first.started_at is None and first.button_seat == 7
    (merge,) = parse_one(FORMAT, real_data(*FLOP, "NLHE-6max-USD-0.02-0.04-201412.Merge.v2.post.sb.txt"))
    # "Hero: Post DB 0.02" is live (he then calls 0.02 to the 0.04 BB); "wins 0.04 (uncalled)"
    assert put_in(merge) == {"Player2": 2, "Player3": 4, "Hero": 4}
    assert awards(merge) == [("Hero", 10, 0, 1)]


def test_truncated_hand_is_quarantined_rest_loads(tmp_path: Path) -> None:
    dst = tmp_path / "cut.txt"
    total = truncated_copy(real_data(*FLOP, "NLHE-USD-0.50-1.00-201101.Everest.txt"), dst, "EverestPoker Game #")
    hands, quarantined = parse_all(FORMAT, [dst])
    assert len(hands) == total - 1
    (cut,) = quarantined  # cut mid-line: its last line is unreadable, or no summary is left
    assert cut.raw_text.startswith("EverestPoker Game #")
    assert cut.reason.startswith(("unrecognised line", "truncated hand"))


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}
    assert {p.parent.name for p in claims(FORMAT)} == {"Flop"}
    assert all("PokerTracker" in str(p) for p in claims(FORMAT))


def test_everest_dead_blind_below_the_big_blind_is_dead() -> None:
    hands = parse_one(FORMAT, real_data(*FLOP, "NLHE-USD-0.50-1.00-201101.Everest.txt"))
    # "Player5 posts the dead blind of $0.50", "Player5 posts $1.00", then "Player26 calls $1.00"
    # and Player5 checks: only his $1.00 is live. Four $1.19/$1.19/$1.19/$1.18 shares of
    # 0.50 + 1.00 + 1.50 + 1.00 + 1.00 = $5.00 less $0.25 rake
    hand = by_id(hands, "everest:6474531197")
    assert kinds(hand, Kind.POST_DEAD) == [("Player5", 50, 50)]
    assert [a for a in kinds(hand, Kind.POST_BB) if a[0] == "Player5"] == [("Player5", 100, 100)]
    assert sum(put_in(hand).values()) == 500 and sum(a[1] for a in awards(hand)) == 475
    # a lone "posts the dead blind of $1.00" is a returning player's live big blind: he checks
    # in turn after three $1.00 calls (everest:6474571169)
    back = by_id(hands, "everest:6474571169")
    assert [a for a in kinds(back, Kind.POST_BB) if a[0] == "Player6"] == [("Player6", 100, 100)]
    assert kinds(back, Kind.POST_DEAD) == []


def test_ipoker_big_blind_post_above_the_big_blind_is_both_blinds() -> None:
    # "$0.05/$0.10": "Player2: Post BB $0.15", then "Player2: Check" facing the $0.10 big blind:
    # $0.10 live, $0.05 dead; "Total pot $0.70" = 0.05 + 0.10 + 0.15 + 0.40
    hand = by_id(parse_one(FORMAT, real_data(*FLOP, "NLHE-USD-0.05-0.10-201110.iPoker.txt")), "ipoker:2978863294")
    assert [a for a in kinds(hand, Kind.POST_BB) if a[0] == "Player2"] == [("Player2", 10, 10)]
    assert kinds(hand, Kind.POST_DEAD) == [("Player2", 5, 5)]
    assert hand.site_total_pot == 70 and sum(put_in(hand).values()) == 70
