"""Full Tilt parser on real hand histories (fpdb incl. the UTF-16 mixed-game file, HHSmithy).

Independent oracles: the site's own summary ("Total pot $x | Rake $y", written pots) and the
header's two clocks (local CET and bracketed ET must give the same UTC instant).
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from pathlib import Path

import polars as pl
import pytest

from parsers.formats.fulltilt import FORMAT
from parsers.model import Hand, Kind, Quarantined, Street
from parsers.registry import sniff_format
from tests.conftest import real_data
from tests.parsers._site_helpers import FPDB, SMITHY, cut_copy, files_of, hand_from, not_ok, parse_all, parse_one
from warehouse.reconcile import reconcile_hands

FLOP = (*FPDB, "FTP", "Flop")


def _ft(name: str) -> Path:
    return real_data(*FLOP, name)


@pytest.fixture(scope="module")
def corpus() -> tuple[list[Hand], list[Quarantined]]:
    paths = files_of(FORMAT, FPDB, SMITHY)
    assert len(paths) >= 90
    return parse_all(FORMAT, paths)


def test_every_full_tilt_hand_parses_or_has_a_named_reason(corpus):
    hands, bad = corpus
    assert len(hands) >= 100
    kinds = Counter(re.sub(r"^line \d+: ", "", q.reason).split(":")[0] for q in bad)
    # Irish (Courchevel, stud, razz, draw and badugi are read: tests/parsers/test_stud_draw.py);
    # fpdb's observed hand with no seat list; HHSmithy's InValidHand sample (cut before any winner),
    # a triple-draw "Dead hand" (both players sit out, nothing won) and a "(partial)" one (summary only)
    assert kinds == {"unsupported variant": 1, "unrecognised line 'cinidy lynn posts the small blind of $25'": 1,
                     "truncated hand": 3}, kinds
    assert len(hands) / (len(hands) + 2) >= 0.98


def test_every_parsed_full_tilt_hand_reconciles_with_the_written_totals(corpus):
    hands, _ = corpus
    unique = list({h.hand_id: h for h in hands}.values())
    rec = reconcile_hands(unique)
    assert rec.filter(pl.col("status") != "ok").height == 0
    # the site writes rake and total pot on every hand: nothing is implied
    assert not rec["rake_implied"].any()
    assert all(h.site_total_pot is not None for h in unique)


def test_run_it_twice_with_side_pot():
    h = hand_from(FORMAT, _ft("PLO-6max-USD-2.00-4.00-201211.RIT.side.pot.txt"), "31318697695")
    assert (h.variant, h.betting, h.sb, h.bb, h.max_seats) == ("omaha", "PL", 200, 400, 6)
    # "Total pot $234.55 Main pot $158.20. Side pot $76.35. | Rake $3"
    assert (h.site_total_pot, h.site_rake) == (23455, 300)
    assert sorted((a.player, a.amount, a.pot_no, a.board_no) for a in h.awards) == [
        ("Player0", 7760, 0, 2), ("Player1", 7635, 1, 1), ("Player1", 7760, 0, 1)]
    assert [b.cards for b in h.boards] == ["2cAsJh9hKh", "2cAsJhTh5d"]
    ret = [(a.player, a.amount, a.contribution) for a in h.actions if a.kind is Kind.UNCALLED_RETURN]
    assert ret == [("Player1", 5600, -5600)]
    raise_ = next(a for a in h.actions if a.player == "Player1" and a.kind is Kind.RAISE)
    assert (raise_.amount, raise_.raise_to, raise_.contribution) == (6400, 6400, 6200)  # over the $2 SB
    assert any(a.player == "Player0" and a.all_in and a.contribution == 2655 for a in h.actions)
    # 17:00:14 CET and [11:00:14 ET] are the same instant
    assert h.started_at == datetime(2012, 11, 6, 16, 0, 14)


def test_new_header_order_and_cap():
    h = next(r for r in FORMAT.parse(_ft("NLHE-6max-CAP-USD-0.01-0.02-201305.new.format.txt")) if isinstance(r, Hand))
    assert (h.betting, h.variant, h.sb, h.bb, h.currency) == ("CAP", "holdem", 1, 2, "USD")


def test_summary_collected_when_no_win_line():
    path = _ft("PLO-6max-USD-2.00-4.00-201211.no.win.line.txt")
    h = next(r for r in FORMAT.parse(path) if isinstance(r, Hand))
    assert len(h.awards) == 1
    assert h.awards[0].amount + (h.site_rake or 0) == h.site_total_pot


def test_utf16_mixed_games_every_hand_loads():
    recs = list(FORMAT.parse(real_data(*FPDB, "FTP", "Mix", "10Game-6max-USD-2.50-5.201104.Sample.txt")))
    hands = [r for r in recs if isinstance(r, Hand)]
    # the 10-Game table: each header names its own game (no rotation name, so ``mix`` stays None)
    assert Counter(h.variant for h in hands) == {
        "holdem": 13, "omaha": 10, "omaha_hilo": 1, "draw27_single": 10, "draw27_triple": 10, "badugi": 10,
        "razz": 10, "stud_hilo": 10, "stud": 10,
    }
    assert [r for r in recs if isinstance(r, Quarantined)] == []


def test_truncated_hand_is_quarantined_and_the_rest_loads(tmp_path):
    src = real_data(*SMITHY, "FullTilt", "CashGame", "MultipleHandsTests", "10MultipleHands.txt")
    raw = src.read_bytes()
    starts = [m.start() for m in re.finditer(rb"Full Tilt Poker Game #", raw)]
    assert len(starts) == 10
    path = cut_copy(raw, starts, 2, 3, tmp_path / "cut.txt")
    recs = list(FORMAT.parse(path))
    bad = [r for r in recs if isinstance(r, Quarantined)]
    assert len(bad) == 1 and bad[0].byte_offset == starts[2]
    assert sum(isinstance(r, Hand) for r in recs) == 9


def test_sniffing_is_tight():
    assert sniff_format(_ft("NLHE-6max-USD-0.01-0.02-201305.new.gameline.format.txt")) is FORMAT
    stars = real_data(*FPDB, "Stars", "Flop", "NLHE-6max-play-5-10-201605.FullTilt.txt")
    assert not FORMAT.sniff(stars.read_text(encoding="utf-8-sig", errors="replace")[:8192])


def test_fixed_limit_stores_the_posted_blinds_not_the_bet_sizes(corpus):
    # "$2.50/$5 - Limit Omaha H/L": bet sizes; "posts the small blind of $1.25", "the big blind
    # of $2.50": the model keeps the blinds (bb = the small bet)
    mix = real_data(*FPDB, "FTP", "Mix", "10Game-6max-USD-2.50-5.201104.Sample.txt")
    h = hand_from(FORMAT, mix, "29704107511")
    assert (h.betting, h.sb, h.bb) == ("FL", 125, 250)
    hands, _ = corpus
    limit = [h for h in hands if h.betting == "FL"]
    assert len(limit) >= 10
    for h in limit:
        sbs = [a.amount for a in h.actions if a.kind is Kind.POST_SB and not a.all_in]
        bbs = [a.amount for a in h.actions if a.kind is Kind.POST_BB and not a.all_in]
        assert (h.sb, h.bb) == (sbs[0] if sbs else h.sb, bbs[0] if bbs else h.bb), h.hand_id


def test_courchevel_shows_its_first_flop_card_before_the_preflop_betting() -> None:
    path = real_data(*FPDB, "FTP", "Flop", "PL-Courchevel-6max-play-25-50-201305.txt")
    (hand,) = parse_one(FORMAT, path)
    # "PL Courchevel Hi - 25/50"; "*** FLOPET *** [9h]" then "*** FLOP *** [9s Kd]": the flop is 9h 9s Kd
    assert (hand.variant, hand.betting, hand.sb, hand.bb, hand.currency) == ("courchevel", "PL", 25, 50, "PLAY")
    assert [b.cards for b in hand.boards] == ["9h9sKd7h7d"]
    assert [h.cards for h in hand.hole_cards if h.player == "Hero"] == ["8sAc9c7c5h"]
    # "Hero calls 50" and the rest after the FLOPET card are the preflop betting
    assert {a.street for a in hand.actions[:7]} == {Street.PREFLOP} and not_ok([hand]) == {}
