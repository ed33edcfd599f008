"""PartyPoker parser on real hand histories (fpdb, HHSmithy, hhp)."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from parsers.formats.partypoker import FORMAT
from parsers.model import Hand, Kind, Quarantined, Street
from parsers.registry import sniff_format
from tests.conftest import real_data
from tests.parsers._site_helpers import FPDB, SMITHY, balance, cut_copy, files_of, hand_from, not_ok, parse_all
from tests.parsers.test_tournaments import tour

FLOP = (*FPDB, "PartyPoker", "Flop")


def _pp(name: str) -> Path:
    return real_data(*FLOP, name)


@pytest.fixture(scope="module")
def corpus() -> tuple[list[Hand], list[Quarantined]]:
    paths = files_of(FORMAT, FPDB, SMITHY, ("hhp",))
    assert len(paths) >= 85
    return parse_all(FORMAT, paths)


def _kind(reason: str) -> str:
    reason = re.sub(r"^line \d+: ", "", reason)
    for key in ("unsupported variant", "not in the seat list", "truncated hand", "run together",
                "unrecognised line", "not an amount"):
        if key in reason:
            return key
    return reason


def test_every_party_hand_parses_or_has_a_named_reason(corpus):
    hands, bad = corpus
    assert len(hands) >= 310
    kinds = Counter(_kind(q.reason) for q in bad)
    # stud/double hold'em/short deck; players who joined after the seat list was written and
    # post or act; hands cut off before any winner; two lines glued by a lost line break; and
    # third-party converted layouts ("(0.01)" amounts, PokerBros; HUD stats in seat lines are read)
    assert set(kinds) <= {"unsupported variant", "not in the seat list", "truncated hand",
                          "run together", "unrecognised line", "not an amount"}
    assert kinds["unrecognised line"] + kinds["not an amount"] <= 7
    for q in bad:
        if _kind(q.reason) == "unrecognised line":
            assert re.search(r"\(\d|holdem_AA", q.reason), q.reason


def test_every_parsed_party_hand_balances_except_named_anomalies(corpus):
    hands, _ = corpus
    anomalies = {}
    for h in hands:
        b = balance(h)
        rake = -b.diff_awards
        limit = 0 if h.game_type == "tournament" else b.contributed // 10 + 1
        if b.overdrawn or not 0 <= rake <= limit:
            anomalies[h.hand_id] = (b.diff_awards, b.overdrawn)
    assert anomalies == {
        # Player2 checks preflop without a written post: a silent 'post both' of $0.15
        "partypoker:14067958": (13, []),
        # seat listed with $0 that then posts a $0.02 big blind
        "partypoker:9507514114": (-1, ["Player8"]),
    }


def test_unwritten_tournament_blinds_come_from_the_level_line():
    # "Blinds-Antes(1,250/2,500 -250)" and only the antes posted: the seats after the button post
    # 1,250 and 2,500, and Player5's "raises [5,000]" wins 10,750 = 8 x 250 + 1,250 + 2,500 + 5,000
    h = hand_from(FORMAT, tour("PartyPoker", "Flop", "NLHE-MTT-USD-530-201307.no.tz.txt"), "13165152578")
    assert [(a.player, a.kind, a.contribution) for a in h.actions if a.kind in (Kind.POST_SB, Kind.POST_BB)] == [
        ("Player2", Kind.POST_SB, 1250), ("Hero", Kind.POST_BB, 2500),
    ]
    assert not_ok([h]) == {}
    # a player just moved to the table (seat 4, no line in the hand) posts nothing: seats 6 and 7 do
    moved_file = tour("PartyPoker", "Flop", "NLHE-25-USD-Freeroll-MTT-201205.player.moved.txt")
    moved = hand_from(FORMAT, moved_file, "11749829747")
    assert [a.player for a in moved.actions if a.kind in (Kind.POST_SB, Kind.POST_BB)] == ["Player5", "Player3"]
    assert not_ok([moved]) == {}


def test_post_both_is_live_big_blind_plus_dead_small():
    h = hand_from(FORMAT, _pp("NLHE-EUR-6max-0.10-0.25-201112.post.both.txt"), "11253035050")
    assert (h.currency, h.sb, h.bb) == ("EUR", 10, 25)
    posts = [(a.kind, a.amount) for a in h.actions if a.player == "Player5" and a.kind.startswith("post")]
    assert posts == [(Kind.POST_BB, 25), (Kind.POST_DEAD, 10)]
    raise_ = next(a for a in h.actions if a.kind is Kind.RAISE)
    assert (raise_.amount, raise_.raise_to) == (75, 100)  # "raises [€0.75]" on a 0.25 blind
    # P0 .10, P3 .25+.75, P5 .35+.75+2.06 bet: €4.26 in; "wins €4.12" pays the unmatched 2.06
    # back inside the win (4.12 > 4.26 - 2.06), so no return row is derived
    assert not any(a.kind is Kind.UNCALLED_RETURN for a in h.actions)
    assert (balance(h).contributed, balance(h).awarded) == (426, 412)


def test_start_time_zone_is_converted():
    h = hand_from(FORMAT, _pp("NLHE-6max-USD-0.05-0.10-201608.fastforward.txt"), "15492724092")
    assert h.started_at == datetime(2016, 8, 30, 23, 41, 34)  # 01:41:34 MESZ (UTC+2)
    assert any(a.player == "Hero" and a.kind is Kind.BET and a.amount == 14 for a in h.actions)
    assert [(a.player, a.amount) for a in h.awards] == [("Hero", 57)]


def test_hi_lo_awards_and_all_in():
    path = real_data(*SMITHY, "PartyPoker", "CashGame", "HandActionTests", "OmahaHiLo.txt")
    h = next(r for r in FORMAT.parse(path) if isinstance(r, Hand))
    assert h.variant == "omaha_hilo"
    got = sorted((a.player, a.amount, a.pot_no) for a in h.awards)
    assert ("fistfock123", 2875, 0) in got and ("robertp10", 100, 1) in got


def test_truncated_hand_is_quarantined_and_the_rest_loads(tmp_path):
    multi = (*SMITHY, "PartyPoker", "CashGame", "MultipleHandsTests", "10MultipleHands.txt")
    raw = real_data(*multi).read_bytes()
    starts = [m.start() for m in re.finditer(rb"\*\*\*\*\* Hand History for Game", raw)]
    assert len(starts) >= 4
    path = cut_copy(raw, starts, 1, 2, tmp_path / "cut.txt")
    recs = list(FORMAT.parse(path))
    bad = [r for r in recs if isinstance(r, Quarantined)]
    assert len(bad) == 1 and bad[0].byte_offset == starts[1]
    assert sum(isinstance(r, Hand) for r in recs) == len(starts) - 1


def test_sniffing_is_tight():
    assert sniff_format(_pp("NLHE-USD-0.01-0.02-201008.Sample.txt")) is FORMAT
    pacific = real_data(*FPDB, "PacificPoker", "Flop", "888-NLH-USD-0.01-0.02.txt")
    assert not FORMAT.sniff(pacific.read_text()[:8192])


def test_fixed_limit_stores_the_posted_blinds_not_the_bet_sizes(corpus):
    # "$15/$30 USD Texas Hold'em" is a limit header (bet sizes); the hand posts "small blind
    # [$10 USD]" and "big blind [$15 USD]": the model keeps the blinds (bb = the small bet)
    h = hand_from(FORMAT, _pp("LHE-6max-USD-15-30-201104.live.second.sb.txt"), "10398176832")
    assert (h.betting, h.sb, h.bb) == ("FL", 1000, 1500)
    hands, _ = corpus
    limit = [h for h in hands if h.betting == "FL"]
    assert len(limit) >= 5
    for h in limit:
        sbs = [a.amount for a in h.actions if a.kind is Kind.POST_SB and not a.all_in]
        bbs = [a.amount for a in h.actions if a.kind is Kind.POST_BB and not a.all_in]
        assert (h.sb, h.bb) == (sbs[0] if sbs else h.sb, bbs[0] if bbs else h.bb), h.hand_id


def test_forward_fold_notice_is_not_a_second_decision():
    # "Hero Forward Folds" is written before Player4 acts; "Hero folds" again when his turn comes
    h = hand_from(FORMAT, _pp("NLHE-6max-USD-0.02-0.04-201303.extra.spaces.txt"), "12827330772")
    hero = [(a.street, a.kind) for a in h.actions if a.player == "Hero"]
    assert hero == [(Street.PREFLOP, Kind.POST_SB), (Street.PREFLOP, Kind.FOLD)]
    order = [a.player for a in h.actions if a.kind in (Kind.FOLD, Kind.RAISE, Kind.CALL)][:6]
    assert order == ["Player3", "Player4", "Player5", "Player0", "Hero", "Player2"]


def test_short_deck_button_blind_and_antes():
    # "$1/$2 USD NL Short Deck": both players "posts ante [$1 USD]", the button "posts button blind
    # [$1 USD]" (live: Lamar_Odom37's "raises [$5 USD]" and Player5's "raises [$17 USD]" are chips added,
    # the call of $13 matches 18); the pot 2 + 18 x 2 + 18.43 x 2 + 54.48 x 2 + 116 x 2 = 415.82, less
    # the "wins $412.82" is a rake of 3.00
    (h,) = parse_all(FORMAT, [_pp("Short-Deck-6max-USD-1.00-1.00-201904.txt")])[0]
    assert (h.variant, h.betting, h.sb, h.bb, h.ante, h.button_seat) == ("shortdeck", "NL", 0, 100, 100, 5)
    assert [(a.player, a.kind, a.contribution) for a in h.actions[:3]] == [
        ("Lamar_Odom37", Kind.POST_ANTE, 100), ("Player5", Kind.POST_ANTE, 100), ("Player5", Kind.POST_BB, 100)]
    assert sum(a.contribution for a in h.actions) == 41582
    assert [(a.player, a.amount) for a in h.awards] == [("Player5", 41282)]
    assert not_ok([h]) == {}
