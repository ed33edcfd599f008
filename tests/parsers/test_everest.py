"""Everest Poker XML on fpdb's cash/Everest and tour/Everest files.

Expected amounts are the files' own attributes (every amount in hundredths), quoted beside each
assertion; every hand is reconciled by the real reconciler against the last <SWEEP> and the <WIN>s.
"""

from __future__ import annotations

from pathlib import Path

from parsers.formats.everest import FORMAT
from parsers.model import Kind, Street
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, kinds, not_ok, parse_all, parse_one
from .test_tournaments import tour

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "Everest", "Flop")


def test_every_everest_hand_parses_and_reconciles() -> None:
    files = claims(FORMAT) + [tour("Everest", name) for name in (
        "LHE-play-STT-201110.new.level.txt", "NLHE-EUR-MTT-201207.space.delimiter.txt")]
    hands, quarantined = parse_all(FORMAT, files)
    # four cash files of one hand each (the fifth, "penalty", is empty) and two tournament hands
    assert (len(hands), quarantined) == (6, []) and not_ok(hands) == {}
    assert foreign_claims(FORMAT) == {}


def test_rake_tax_and_the_returned_bet() -> None:
    (hand,) = parse_one(FORMAT, real_data(*FLOP, "PLO-EUR-5-10-Unknown-Sample.txt"))
    # game="omaha-hi" gametype="pot-limit" money="€"; <BLIND amount="500">, <BLIND amount="1000">
    assert (hand.variant, hand.betting, hand.currency, hand.sb, hand.bb) == ("omaha", "PL", "EUR", 500, 1000)
    # the last '<SWEEP rake="150" tax="100">17750</SWEEP>': the pot after a rake of 1.50 and a tax of 1.00
    assert (hand.site_total_pot, hand.site_rake, hand.site_fees) == (18000, 150, 100)
    # '<PUSH position="4" amount="18000"/>' hands the river bet back; "<WIN ... amount="17750">"
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Villain", 18000, -18000)]
    assert awards(hand) == [("Villain", 17750, 0, 1)]
    # <BET amount="X"> adds X: the raise to 30.00 after the 5.00 small blind, then the call of 20.00
    pre = [(a.player, a.kind, a.contribution) for a in hand.actions if a.street is Street.PREFLOP][2:]
    assert pre == [("Hero", Kind.RAISE, 2500), ("Villain", Kind.CALL, 2000)]


def test_tournament_chips_in_hundredths_and_a_new_level_ahead_of_its_header() -> None:
    hands, _ = parse_all(FORMAT, [tour("Everest", "NLHE-EUR-MTT-201207.space.delimiter.txt")])
    (mtt,) = hands
    # type="tournament" money="": chips; blinds="1 750/3 500", '<ANTE amount="35000">' (350 chips)
    assert (mtt.game_type, mtt.currency, mtt.unit_scale, mtt.tournament_id) == ("tournament", "CHIPS", 100, "52919861")
    assert (mtt.sb, mtt.bb, mtt.ante) == (175000, 350000, 35000)
    # Hero (628,700) all in: '<BET position="2" amount="418700" allin="1"/>' on his 1,750 small blind
    assert [(a.player, a.all_in) for a in mtt.actions if a.kind is Kind.RAISE] == [("Hero", True)]
    (stt,) = parse_all(FORMAT, [tour("Everest", "LHE-play-STT-201110.new.level.txt")])[0]
    # blinds="5/10" stakes="10/20" but the posts are 10 and 20 chips: the level just rose
    assert (stt.betting, stt.sb, stt.bb) == ("FL", 1000, 2000)
    assert kinds(stt, Kind.POST_SB) == [("Player7", 1000, 1000)]


def test_a_lone_blind_and_a_seat_that_posts_nothing() -> None:
    (lone,) = parse_one(FORMAT, real_data(*FLOP, "LHE-USD-0.02-0.04-201204.txt"))
    # blinds="$0.01/$0.02": the hand's only '<BLIND amount="2">' is the big blind
    assert kinds(lone, Kind.POST_BB) == [("Hero", 2, 2)] and (lone.sb, lone.bb) == (1, 2)
    (hand,) = parse_one(FORMAT, real_data(*FLOP, "NLHE-EUR-0.01-0.02-201104.Sample.emailed.txt"))
    # '<XBLIND position="3"/>' and no <HOLE> for him: Player4 sits the hand out; chat moves nothing
    assert [s.player for s in hand.seats if s.sitting_out] == ["Player4"]
    assert hand.hero == "Hero" and [h.cards for h in hand.hole_cards] == ["6c5h"]


def test_an_unreadable_session_is_quarantined_with_its_hands(tmp_path: Path) -> None:
    """A broken <SESSION> line (found by the fuzz test) quarantines it and the hands that depend on
    it, with reasons, and the parser keeps going instead of raising out of the file."""
    real = real_data(*FLOP, "PLO-EUR-5-10-Unknown-Sample.txt").read_text(encoding="utf-8")
    first, rest = real.split("\n", 1)
    broken = tmp_path / "broken.txt"
    broken.write_text(first.replace('money="', 'money=', 1) + "\n" + rest, encoding="utf-8")
    out = list(FORMAT.parse(broken))
    reasons = [q.reason for q in out if not hasattr(q, "actions")]
    assert reasons and reasons[0].startswith("unreadable <SESSION>")
    assert all(not hasattr(q, "actions") for q in out)  # no hand read without its session's money
    assert any("before any <SESSION>" in r for r in reasons[1:])
