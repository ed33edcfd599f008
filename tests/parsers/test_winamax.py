"""Winamax parser on the real fpdb and HHSmithy files.

Expected amounts come from the files' own totals ("Total pot X | Rake Y", collected lines) and
hand arithmetic on the written actions.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from parsers.formats.winamax import FORMAT
from parsers.model import Kind, Provenance
from parsers.registry import sniff_format
from tests.conftest import real_data

from ._site_helpers import awards, history_files, kinds, not_ok, parse_all, parse_one, put_in, sniffs, truncated_copy

FPDB = ("fpdb3_regression", "regression-test-files", "cash", "Winamax")
SMITHY = ("hhsmithy_sample_hh", "HandHistories.Parser.UnitTests", "SampleHandHistories", "Winamax")


def wmx(name: str) -> Path:
    return real_data(*FPDB, "Flop", name)


def _winamax_files() -> list[Path]:
    files = history_files(real_data(*FPDB)) + history_files(real_data(*SMITHY))
    return [p for p in files if sniffs(FORMAT, p)]


def test_every_hand_parses() -> None:
    files = _winamax_files()
    written = sum(p.read_bytes().count(b"\nWinamax Poker - ") + 1 for p in files)
    hands, quarantined = parse_all(FORMAT, files)
    assert len(hands) + len(quarantined) == written
    # every game is read: stud, stud hi/lo, razz and 2-7 triple draw too (7 hands)
    assert quarantined == []
    assert len(hands) == 124
    unique = {h.hand_id: h for h in hands}  # HHSmithy repeats some hands in several files
    bad = not_ok(list(unique.values()))
    # "bad.pot": SB $1 + BB $2 + a raise to $6 is $9, yet "Total pot 10€ | No rake" and the raiser
    # "collected 10€": the site wrote one euro nobody put in (fpdb named the file for it).
    assert set(bad) == {"winamax:6468352-1737-1408024646"}
    row = bad["winamax:6468352-1737-1408024646"]
    assert (row["diff_awards"], row["diff_total_pot"]) == (100, -100)


def test_corrupt_header_is_not_claimed() -> None:
    smithy = real_data(*SMITHY, "CashGame", "ValidHandTests", "InValidHand.txt")
    assert sniff_format(smithy) is None or sniff_format(smithy) is not FORMAT


def test_side_pot_and_normalised_total() -> None:
    (hand,) = parse_one(FORMAT, wmx("NLHE-FR-EUR-0.02-0.05-201010.Side.pot.Biggest.stack.loses.main.txt"))
    assert hand.hand_id == "winamax:910116-28-1298310000"
    assert (hand.currency, hand.unit_scale, hand.sb, hand.bb) == ("EUR", 100, 2, 5)
    assert hand.started_at == datetime(2011, 2, 21, 20, 12, 0)  # written in UTC
    # all-ins: Hero 5.96 (whole stack), Player8 0.15+2.83, Player4 1.24+3.30
    assert put_in(hand) == {
        "Hero": 596, "Player8": 298, "Player4": 454, "Player1": 15, "Player5": 2, "Player6": 5
    }
    # "Total pot 12.90€ | Rake 0.80€": Winamax writes the pot after rake
    assert (hand.site_total_pot, hand.site_rake) == (1290 + 80, 80)
    assert awards(hand) == [("Hero", 434, 1, 1), ("Player8", 856, 0, 1)]
    assert hand.boards[0].cards == "Qc5dQhKs5h"
    assert [a.player for a in hand.actions if a.all_in] == ["Hero", "Player8", "Player4"]
    assert {h.player: h.provenance for h in hand.hole_cards}["Hero"] is Provenance.DEALT


def test_both_blinds_in_one_out_of_position_line() -> None:
    (hand,) = parse_one(FORMAT, wmx("PLO-5max-EUR-1.00-2.00-201611.post.both.txt"))
    # "posts small blind 3€ out of position" at 1€/2€: 2€ live big blind + 1€ dead
    assert kinds(hand, Kind.POST_BB) == [("Player3", 200, 200), ("Player4", 200, 200)]
    assert kinds(hand, Kind.POST_DEAD) == [("Player4", 100, 100)]
    # the bet of 8€ is never written as returned: it is in "Total pot 15.48€ | Rake 0.52€"
    assert put_in(hand)["Player4"] == 300 + 800
    assert hand.site_total_pot == 1548 + 52


def test_out_of_position_small_blind_is_dead() -> None:
    (hand,) = parse_one(FORMAT, wmx("PLO-5max-EUR-2.00-4.00-201412.sb.oop.txt"))
    assert kinds(hand, Kind.POST_DEAD) == [("Incognito 2", 200, 200)]  # a name with a space
    assert awards(hand) == [("Hero", 5600, 0, 1)]


def test_cp1252_euro_file() -> None:
    path = real_data(*SMITHY, "CashGame", "GameTypeTests", "NoLimitHoldem.txt")
    (hand,) = parse_one(FORMAT, path)
    assert (hand.sb, hand.bb, hand.site_rake, hand.site_total_pot) == (50, 100, 98, 1982 + 98)


def test_truncated_hand_is_quarantined_rest_loads(tmp_path: Path) -> None:
    src = real_data(*FPDB, "Flop", "PLO-FR-EUR-0.02-0.05-201009.Sample")
    dst = tmp_path / "cut.txt"
    total = truncated_copy(src, dst, "Winamax Poker - ")
    hands, quarantined = parse_all(FORMAT, [dst])
    assert len(hands) == total - 1
    assert len(quarantined) == 1 and quarantined[0].raw_text.startswith("Winamax Poker - ")


def test_fixed_limit_stores_the_posted_blinds_not_the_bet_sizes() -> None:
    # "Holdem fixed limit (0.05€/0.10€)" writes the bet sizes; the hand posts 0.02€ and 0.05€.
    # With bb = 0.05 the small blind's "calls 0.03€" completes the bet and the big blind may check.
    (hand,) = parse_one(FORMAT, wmx("LHE-2max-EUR-0.05-0.10-201204.txt"))
    assert (hand.betting, hand.sb, hand.bb) == ("FL", 2, 5)
