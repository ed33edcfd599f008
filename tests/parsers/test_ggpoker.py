"""GGPoker parser on the real fpdb regression files.

Expected amounts come from the files' own written totals (Total pot / Rake / Jackpot, the
collected lines) and hand arithmetic on the written actions, never from our own output.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from parsers.formats.ggpoker import FORMAT
from parsers.model import Kind, Provenance
from parsers.registry import sniff_format
from tests.conftest import real_data

from ._site_helpers import (
    awards,
    by_id,
    history_files,
    kinds,
    not_ok,
    parse_all,
    parse_one,
    put_in,
    truncated_copy,
)

GG = ("fpdb3_regression", "regression-test-files", "cash", "GGPoker", "Flop")


def gg(name: str) -> Path:
    return real_data(*GG, name)


def test_every_hand_parses_and_reconciles() -> None:
    files = history_files(real_data(*GG))
    written = sum(p.read_text(encoding="utf-8-sig").count("Poker Hand #") for p in files)
    hands, quarantined = parse_all(FORMAT, files)
    assert quarantined == []
    assert len(hands) == written == 70
    assert len({h.hand_id for h in hands}) == len(hands)
    # a site-funded "Cash Drop to Pot : total $0.2" (Rush & Cash promotion) adds 20 cents nobody
    # put in: it is recorded as site_added, and then the hand balances like every other one.
    assert not_ok(hands) == {}
    (drop,) = [h for h in hands if h.hand_id == "ggpoker:RC58843003"]
    assert drop.site_added == 20


def test_sniff_is_tight() -> None:
    assert sniff_format(gg("PLO5-6max-USD-2-5-202104.Jackpot.txt")) is FORMAT
    stars = real_data("fpdb3_regression", "regression-test-files", "cash", "Stars")
    some_stars = next(p for p in history_files(stars) if p.suffix == ".txt")
    assert not FORMAT.sniff(some_stars.read_text(encoding="utf-8-sig", errors="replace")[:8192])


def test_jackpot_bingo_and_run_it_twice() -> None:
    (hand,) = parse_one(FORMAT, gg("PLO5-6max-USD-2-5-202104.Jackpot.txt"))
    assert hand.hand_id == "ggpoker:OM1349864"
    assert (hand.variant, hand.betting, hand.currency, hand.unit_scale) == ("omaha5", "PL", "USD", 100)
    assert (hand.sb, hand.bb) == (200, 500)
    # 2021/04/13 16:21:36 Eastern daylight time (UTC-4)
    assert hand.started_at == datetime(2021, 4, 13, 20, 21, 36)
    # "Total pot $597.08 | Rake $7.5 | Jackpot $5 | Bingo $0"
    assert (hand.site_total_pot, hand.site_rake, hand.site_fees) == (59708, 750, 500)
    # raises to $210 twice, Hero all-in for his $175.08, the small blind's $2
    assert put_in(hand) == {"3a59c1a9": 21000, "410b1ede": 21000, "Hero": 17508, "90ab8144": 200}
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("3a59c1a9", 58784, -58784)]
    assert awards(hand) == [("3a59c1a9", 6926, 0, 1), ("Hero", 25766, 0, 1), ("Hero", 25766, 0, 2)]
    assert [(b.board_no, b.cards) for b in hand.boards] == [(1, "5d2h6c5c6h"), (2, "5d2h6c3dTd")]
    assert hand.hero == "Hero"
    shown = {h.player: (h.cards, h.provenance) for h in hand.hole_cards}
    assert shown["Hero"] == ("4d9d5s4s9c", Provenance.DEALT)
    assert shown["3a59c1a9"] == ("AdJhAsQh8c", Provenance.SHOWN)
    all_in = [a.player for a in hand.actions if a.all_in]
    assert all_in == ["Hero", "3a59c1a9"]


def test_run_it_thrice() -> None:
    (hand,) = parse_one(FORMAT, gg("PLO-6max-USD-2-5-202106.run.it.thrice.txt"))
    assert awards(hand) == [("Hero", 10510, 0, 1), ("Hero", 10510, 0, 2), ("Hero", 10510, 0, 3)]
    assert [b.cards for b in hand.boards] == ["Js5sJd7s2s", "Js5sJd4dQs", "Js5sJd4sTs"]
    assert put_in(hand) == {"ead75598": 16140, "Hero": 16140, "d6f789f": 500}


def test_separate_run_flops_and_missed_blind() -> None:
    (hand,) = parse_one(FORMAT, gg("PLO-6max-USD-2-5-202101.RIT.txt"))
    assert [b.cards for b in hand.boards] == ["2d4hAc7hQs", "TdQc2cKcAh"]
    # "posts missed blind $2" is dead money, "posts big blind $5" live
    assert kinds(hand, Kind.POST_DEAD) == [("3b7dff87", 200, 200)]
    assert put_in(hand)["3b7dff87"] == 5000  # the whole $50 stack
    assert (hand.site_total_pot, hand.site_rake, hand.site_fees) == (10300, 515, 0)


def test_over_straddle_is_written_as_a_total() -> None:
    (hand,) = parse_one(FORMAT, gg("PLO5-6max-USD-0.1-0.25-202104.over.straddle.txt"))
    # "straddle $0.5" then "straddle $15.35 and is all-in" (his whole stack): the second line is
    # the new total, so it moves $14.85; $15.1 comes back uncalled and the pot is $0.6.
    straddles = [(a.amount, a.contribution, a.all_in) for a in hand.actions if a.kind is Kind.POST_STRADDLE]
    assert straddles == [(50, 50, False), (1535, 1485, True)]
    assert put_in(hand) == {"Hero": 10, "f279d709": 25, "9e7f64d4": 25}
    assert hand.straddle == 50
    assert awards(hand) == [("9e7f64d4", 60, 0, 1)]


def test_short_deck_button_blind_and_operator_export() -> None:
    (hand,) = parse_one(FORMAT, gg("NL-ShortDeck-5max-USD-100-202104.internal.txt"))
    assert (hand.variant, hand.ante) == ("shortdeck", 10000)
    assert (hand.site_total_pot, hand.site_rake) == (276800, 6000)
    assert hand.site_fees is None  # this export writes no jackpot field
    assert kinds(hand, Kind.POST_ANTE) == [(p, 10000, 10000) for p in ("951600", "559023", "1802531")]
    # the all-in for $1,234 on top of the $100 ante is exactly the $1,334 stack
    assert put_in(hand)["1802531"] == 133400
    assert [b.cards for b in hand.boards] == ["Tc8hAh6hJd", "9h9cKc6sAs"]


def test_straddle_chain_on_short_deck() -> None:
    hands = parse_one(FORMAT, gg("NL-ShortDeck-5max-USD-0.2-202103.txt"))
    hand = by_id(hands, "ggpoker:SD27208838")
    # button blind $0.02, straddle $0.04, straddle $0.08 by the same player, then raises to $0.16:
    # with totals he has $0.16 in preflop; "Total pot $0.68" only balances that way.
    assert put_in(hand)["27925b27"] == 2 + 16 + 14
    assert hand.site_total_pot == 68


def test_insurance_lines_stay_off_the_pot() -> None:
    hands = parse_one(FORMAT, gg("PLO-6max-USD-0.50-1.00-202004.txt"))
    hand = by_id(hands, "ggpoker:OM181427480")
    assert hand.site_total_pot == 3750 and hand.site_rake is None
    assert awards(hand) == [("23aca38f", 3750, 0, 1)]


def test_truncated_hand_is_quarantined_rest_loads(tmp_path: Path) -> None:
    src = gg("PLO-6max-USD-0.5-1.00-202006.txt")
    dst = tmp_path / "cut.txt"
    total = truncated_copy(src, dst, "Poker Hand #")
    hands, quarantined = parse_all(FORMAT, [dst])
    assert len(hands) == total - 1
    assert len(quarantined) == 1 and quarantined[0].raw_text.startswith("Poker Hand #")
    assert not_ok(hands) == {}
