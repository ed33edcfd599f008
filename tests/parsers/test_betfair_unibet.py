"""Betfair and Unibet on their one real file each (fpdb's ``cash/Betfair`` and ``cash/Unibet``; both were
unrecognised before). Amounts are read off the files, arithmetic in the comments; no fpdb expected
output is used. Each file is also damaged in a copy: the hand is quarantined with the line named.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from parsers.base import HandFormat
from parsers.formats import betfair, unibet
from parsers.model import Hand, Kind
from parsers.registry import sniff_format
from tests.conftest import real_data

from ._site_helpers import FPDB, awards, foreign_claims, kinds, not_ok, parse_all, put_in

PLO = ("Betfair", "Flop", "PLO-6max-USD-0.05-0.10-200909.All.in.river.splitpot.txt")
BANZAI = ("Unibet", "Flop", "NLHE-EUR-0.05-0.10-202104.Banzi.txt")


def _one(fmt: HandFormat, *parts: str) -> Hand:
    path = real_data(*FPDB, *parts)
    assert sniff_format(path) is fmt
    hands, quarantined = parse_all(fmt, [path])
    assert quarantined == [] and len(hands) == 1
    return hands[0]


def test_betfair_raises_to_street_totals_calls_add_and_the_rake_is_implied() -> None:
    hand = _one(betfair.FORMAT, *PLO)
    assert (hand.hand_id, hand.variant, hand.betting, hand.currency, hand.sb, hand.bb) == (
        "betfair:100000000", "omaha", "PL", "USD", 5, 10)
    assert (hand.table_name, hand.max_seats, hand.button_seat, hand.hero) == ("Death 1", 6, 2, "Hero")
    assert hand.started_at == datetime(2009, 10, 18, 20, 0, 0)  # "20:00:00 GMT"
    # "Player2 raises to [$0.30]" over his 0.05 adds 0.25; "Hero goes all-in" then "raises to [$1]" over
    # his 0.10 out-of-turn big blind; the river "goes all-in" / "bets [$3.03]": Player4's last 3.03 of 4.13
    assert [(p, c) for p, _, c in kinds(hand, Kind.RAISE)] == [("Player2", 25), ("Hero", 90)]
    assert [(a.player, a.all_in) for a in hand.actions if a.all_in] == [("Hero", True), ("Player4", True)]
    assert kinds(hand, Kind.POST_BB) == [("Player4", 10, 10), ("Hero", 10, 10)]
    assert put_in(hand) == {"Player2": 100, "Player4": 413, "Hero": 100, "Player1": 413, "Player3": 100}
    # the board is written one street at a time: "[ 4d, 5d, 6d ]", "[ 3s ]", "[ 4c ]"
    assert [b.cards for b in hand.boards] == ["4d5d6d3s4c"]
    # side pot 2 x 3.13 = 6.26, main pot 5 x 1.00 = 5.00 less an unwritten rake of 0.56 = 4.44
    assert awards(hand) == [("Player4", 444, 0, 1), ("Player4", 626, 1, 1)]
    assert hand.site_rake is None and not_ok([hand]) == {}
    assert foreign_claims(betfair.FORMAT) == {}


def test_unibet_raise_to_the_whole_pot_won_and_the_summary_checked() -> None:
    hand = _one(unibet.FORMAT, *BANZAI)
    assert (hand.hand_id, hand.variant, hand.betting, hand.currency, hand.sb, hand.bb) == (
        "unibet:1463192545", "holdem", "NL", "EUR", 5, 10)
    assert (hand.table_name, hand.button_seat, hand.hero, hand.started_at) == ("€1 NL", 6, "Hero", None)
    # "Hero raises €0.95 to €0.95, and is all-in"; everyone folds and "Hero wins €1.10": 0.05 + 0.10 + 0.95,
    # the unmatched 0.85 paid back inside the win (no return is written or derived)
    assert [(a.player, a.amount, a.raise_to, a.all_in) for a in hand.actions if a.kind is Kind.RAISE] == [
        ("Hero", 95, 95, True)]
    assert not kinds(hand, Kind.UNCALLED_RETURN)
    assert (hand.site_total_pot, hand.site_rake, awards(hand)) == (110, 0, [("Hero", 110, 0, 1)])
    assert not_ok([hand]) == {} and foreign_claims(unibet.FORMAT) == {}


def test_a_line_neither_reads_is_quarantined_with_the_line_named(tmp_path: Path) -> None:
    for fmt, parts, line in ((betfair.FORMAT, PLO, "Player5 folds"), (unibet.FORMAT, BANZAI, "Player2 folds")):
        text = real_data(*FPDB, *parts).read_text(encoding="utf-8")
        damaged = tmp_path / parts[-1]
        damaged.write_text(text.replace(line, line.replace("folds", "dances"), 1), encoding="utf-8")
        hands, quarantined = parse_all(fmt, [damaged])
        assert hands == [] and len(quarantined) == 1
        assert quarantined[0].reason.endswith(f"unrecognised line {line.replace('folds', 'dances')!r}")
    # Unibet's summary results are checked: a seat's "bet" that its actions do not add up to is named
    text = real_data(*FPDB, *BANZAI).read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(text.replace("Player1: bet €0.10", "Player1: bet €0.20"), encoding="utf-8")
    (bad,) = parse_all(unibet.FORMAT, [wrong])[1]
    assert "Player1 puts in 10 and wins 0 by the actions, but the summary says bet 20 and won 0" in bad.reason
