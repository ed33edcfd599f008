"""Winning Poker / ACR parser on the real fpdb and HHSmithy files, both dialects.

Independent oracles: the old dialect's own per-player "Bets: X" summary, the files' written
totals (Pot / Rake / JP fee, Total pot), and hand arithmetic on the written actions.
"""

from __future__ import annotations

import re
from pathlib import Path

from parsers.formats.winning import FORMAT
from parsers.model import Hand, Kind
from parsers.reading import iter_lines
from tests.conftest import real_data

from ._site_helpers import awards, history_files, kinds, not_ok, parse_all, parse_one, put_in, sniffs, truncated_copy

FPDB = ("fpdb3_regression", "regression-test-files", "cash", "Winning")
SMITHY = ("hhsmithy_sample_hh", "HandHistories.Parser.UnitTests", "SampleHandHistories", "WinningPoker")
BETS = re.compile(r"^\*?Player (?P<name>.*?) (?:shows|mucks|does not show).*Bets: (?P<bets>\d[\d,]*(?:\.\d+)?)")

# Hands on "(JP)" / "( Beast )" tables (2014) whose summary pot + rake is exactly $0.25 short of
# what the players put in: the site took a jackpot drop it did not write. Kept as mismatches.
UNWRITTEN_JACKPOT_DROP = {
    "winning:258591918", "winning:258592151", "winning:258671202", "winning:261441841",
    "winning:261442219", "winning:261442490", "winning:261442843", "winning:261443389",
    "winning:261454571", "winning:261477404", "winning:261641541", "winning:261679750",
    "winning:266888759", "winning:266899075",
}


def _files() -> list[Path]:
    files = history_files(real_data(*FPDB)) + history_files(real_data(*SMITHY))
    return [p for p in files if sniffs(FORMAT, p)]


def _headers(path: Path) -> int:
    return sum(1 for line in iter_lines(path) if FORMAT.is_start(line.text))


def test_every_hand_parses_or_has_a_named_reason() -> None:
    files = _files()
    hands, quarantined = parse_all(FORMAT, files)
    assert len(hands) + len(quarantined) == sum(_headers(p) for p in files)
    kinds_of_reason = ("street header without board cards", "truncated hand")
    reasons = {next((k for k in kinds_of_reason if k in q.reason), q.reason) for q in quarantined}
    # a hand whose flop header precedes the deal (its actions contradict its summary);
    # HHSmithy's deliberately cut "InValidHand.txt"; a UTF-16 stud file cut inside its last character
    assert reasons == set(kinds_of_reason), reasons
    assert {Path(q.source_file).name for q in quarantined} == {
        "PLO8-6max-USD-20-40-201609.no.flop.HH20160913 G31116857.txt", "InValidHand.txt",
        "7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000 G0.txt",
    }
    unique = list({h.hand_id: h for h in hands}.values())
    # 85 hold'em and omaha hands, 6 seven card stud, one "(Six Plus Hold'em)" (both blinds posted)
    assert len(unique) == 92
    assert sum(h.variant == "holdem_6plus" for h in unique) == 1
    bad = not_ok(unique)
    assert set(bad) == UNWRITTEN_JACKPOT_DROP
    assert {(r["diff_awards"], r["diff_total_pot"]) for r in bad.values()} == {(-25, 25)}


def _raw(hand: Hand) -> list[str]:
    lines = []
    for line in iter_lines(Path(hand.source_file)):
        if hand.byte_offset <= line.offset < hand.byte_offset + hand.byte_length:
            lines.append(line.text)
    return lines


def test_old_dialect_contributions_equal_the_sites_bets_column() -> None:
    hands, _ = parse_all(FORMAT, _files())
    old = [h for h in hands if h.started_at is None]
    assert len(old) > 60
    for hand in old:
        written = {}
        for line in _raw(hand):
            m = BETS.match(line)
            if m is not None:
                written[m["name"]] = round(float(m["bets"]) * 100)
        mine = put_in(hand)
        assert {k: v for k, v in written.items() if v} == mine, hand.hand_id


def test_old_dialect_raises_are_chips_added() -> None:
    path = real_data(*SMITHY, "CashGame", "HandActionTests", "AllInHandWithShowdown.txt")
    (hand,) = parse_one(FORMAT, path)
    # SB 2, BB 4, "raises (10)", "raises (32)", "calls (24)"; flop "bets (71)", "allin (124)",
    # "calls (53)": each side 160, "Pot: 319. Rake 1"
    assert put_in(hand) == {"do not-call": 16000, "digbick30": 16000}
    assert (hand.site_total_pot, hand.site_rake) == (32000, 100)
    assert [(a.kind, a.raise_to) for a in hand.actions if a.all_in] == [(Kind.RAISE, 12400)]  # flop street total
    assert awards(hand) == [("do not-call", 31900, 0, 1)]
    assert hand.variant == "omaha" and hand.started_at is None


def test_new_dialect_run_it_twice_with_jackpot_fee() -> None:
    (hand,) = parse_one(FORMAT, real_data(*FPDB, "Flop", "NLO8-6max-USD-3-6-202104.RIT.txt"))
    assert (hand.variant, hand.betting, hand.sb, hand.bb) == ("omaha_hilo", "NL", 300, 600)
    # "Total pot $246.00 | Rake $2.76 | JP Fee $0.24": after rake and fee
    assert (hand.site_total_pot, hand.site_rake, hand.site_fees) == (24900, 276, 24)
    assert awards(hand) == [("Hero", 9225, 0, 1), ("Player2", 3075, 0, 1), ("Player2", 12300, 0, 2)]
    assert [b.cards for b in hand.boards] == ["8hQd7d7h5d", "6c9sJh8c6s"]
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Player2", 1400, -1400)]


def test_new_dialect_dead_post_and_walk() -> None:
    (hand,) = parse_one(FORMAT, real_data(*FPDB, "Flop", "NLHE-9max-USD-0.02-0.05-202104.post.dead.txt"))
    # "posts dead $0.07" = live big blind $0.05 + dead small blind $0.02, then he checks
    assert [(a.kind, a.amount) for a in hand.actions if a.player == "Player8"][:2] == [
        (Kind.POST_BB, 5), (Kind.POST_DEAD, 2)
    ]
    assert hand.site_total_pot == 17
    (walk,) = parse_one(FORMAT, real_data(*FPDB, "Flop", "NLHE-9max-USD-0.02-0.05-202104.walk.txt"))
    assert awards(walk) == [("Player5", 7, 0, 1)]  # only written as "did not show and won $0.07"


def test_limit_table_detected_from_blinds() -> None:
    hands = parse_one(FORMAT, real_data(*FPDB, "Flop", "LHE-2max-USD-2.00-4.00-201608.HH00000000 G0.txt"))
    assert {(h.betting, h.sb, h.bb) for h in hands} == {("FL", 100, 200)}


def test_truncated_hand_is_quarantined_rest_loads(tmp_path: Path) -> None:
    src = real_data(*SMITHY, "CashGame", "MultipleHandsTests", "10MultipleHands.txt")
    dst = tmp_path / "cut.txt"
    total = truncated_copy(src, dst, "Game started at: ")
    hands, quarantined = parse_all(FORMAT, [dst])
    assert len(hands) == total - 1
    assert len(quarantined) == 1 and quarantined[0].raw_text.startswith("Game started at: ")


def test_new_dialect_fixed_limit_stores_the_posted_blinds() -> None:
    # "Omaha H/L(Fixed Limit) - $20.00/$40.00" writes the bet sizes; the hand posts $10 and $20
    path = real_data(*FPDB, "Flop", "LO8-6max-USD-20-40-201907.CASHID-TN-St{FULLSTOP} Lucie GAMETYPE.txt")
    (hand,) = parse_one(FORMAT, path)
    assert (hand.betting, hand.sb, hand.bb) == ("FL", 1000, 2000)


def test_old_dialect_omaha_over_the_pot_limit_is_read_as_no_limit() -> None:
    """820605052 "3/6 (PRR) Pamola (Short) (Omaha HiLow)": no structure written. Blinds 3 and 6
    (the stakes, so not a limit table: those write the bet sizes, 40/80 posting 20/40); "Player0
    raises (12)", "Player1 calls (12)", then "Player2 allin (402.40)" over his 3 small blind is
    his whole 405.40 stack, and "Uncalled bet (393.40)" leaves exactly the 12 called. A pot-limit
    table caps that raise at 12 + (3 + 6 + 12 + 12) + 9 = 54; the site took 405.40, as a
    no-limit table does (the site ran "Omaha H/L(No Limit) - $3.00/$6.00", file below)."""
    (hand,) = parse_one(FORMAT, real_data(*FPDB, "PLO8-6max-USD-3-6-201701.short.HH20170115 G31084891.txt"))
    assert (hand.variant, hand.betting, hand.sb, hand.bb) == ("omaha_hilo", "NL", 300, 600)
    shove = next(a for a in hand.actions if a.all_in)
    assert (shove.player, shove.kind, shove.amount, shove.raise_to) == ("Player2", Kind.RAISE, 40240, 40540)
    assert next(s.stack for s in hand.seats if s.player == "Player2") == 40540
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Player2", 39340, -39340)]
    # the summary's "Bets:" column and "Pot: 42. Rake 0"
    assert put_in(hand) == {"Hero": 600, "Player0": 1200, "Player1": 1200, "Player2": 1200}
    assert (hand.site_total_pot, hand.site_rake) == (4200, 0)
    assert awards(hand) == [("Player2", 4200, 0, 1)]
    (nl,) = parse_one(FORMAT, real_data(*FPDB, "Flop", "NLO8-6max-USD-3-6-202104.RIT.txt"))
    assert (nl.variant, nl.betting, nl.bb) == ("omaha_hilo", "NL", 600)


def test_old_dialect_omaha_within_the_pot_limit_stays_pot_limit() -> None:
    """The other reading must not leak: 693978138 on "(PRR) Elepaio (Omaha HiLow)", blinds
    0.10/0.25, "raises (0.85)" is exactly the pot limit (0.25 + 0.35 + 0.25), then flop and turn
    bets of 1.20 and 2.90 into pots of 1.80 and 4.20: pot limit, as every old Omaha hand but one."""
    hands = parse_one(FORMAT, real_data(*FPDB, "PLO8-6max-USD-0.10-0.25-201608.HH00000000 G0.txt"))
    hand = next(h for h in hands if h.hand_id == "winning:693978138")
    assert [(a.kind, a.raise_to) for a in hand.actions if a.kind in (Kind.BET, Kind.RAISE)] == [
        (Kind.RAISE, 85), (Kind.BET, 120), (Kind.BET, 290)
    ]
    assert hand.betting == "PL"
    old_omaha = [h for h in parse_all(FORMAT, _files())[0] if h.started_at is None and h.variant.startswith("omaha")]
    assert {h.hand_id for h in old_omaha if h.betting == "NL"} == {"winning:820605052"}
    assert len({h.hand_id for h in old_omaha if h.betting == "PL"}) >= 10
