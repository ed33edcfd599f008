"""ACPC STATE logs: every hand parses, reconciles, and our chip accounting meets the written payoffs.

The payoffs on each line are written by the ACPC dealer, independently of our replay: final
stacks computed from our contributions and awards (with phevaluator at showdown) must equal
stack + payoff. Payoffs that are not chip counts (fractional split pots, the 2017 competition's
all-in expected values) are checked on their own terms.
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from phevaluator import evaluate_cards

from parsers.formats.acpc import FORMAT, HEADS_UP_STACK, RING_STACK
from parsers.model import Hand, Kind, Quarantined
from tests.conftest import real_data
from tests.parsers._site_helpers import results, sniffs
from warehouse.reconcile import reconcile_hands

DIRS = ("acpc2017_hunl_deepdonkey", "pluribus_raw_pkcore")


def _logs() -> list[Path]:
    files: list[Path] = []
    for d in DIRS:
        files += sorted(p for p in real_data(d).rglob("*.log"))
    return files


@pytest.fixture(scope="module")
def parsed() -> dict[Path, list[Hand | Quarantined]]:
    return {f: list(FORMAT.parse(f)) for f in _logs()}


def _state_lines(path: Path) -> dict[str, str]:
    """hand no -> raw STATE line, read straight from the file (independent of the parser)."""
    out = {}
    for line in path.read_text().splitlines():
        if line.startswith("STATE:"):
            out[line.split(":")[1]] = line
    return out


def test_every_state_line_parses_and_reconciles(parsed):
    hands = [h for rows in parsed.values() for h in rows if isinstance(h, Hand)]
    quarantined = [q for rows in parsed.values() for q in rows if isinstance(q, Quarantined)]
    expected = sum(len(_state_lines(f)) for f in parsed)
    assert quarantined == []
    assert len(hands) == expected == 5999 + 3463  # the data README's counts
    assert len({h.hand_id for h in hands}) == len(hands)
    rec = reconcile_hands(hands)
    assert rec.filter(rec["status"] != "ok").height == 0, rec.filter(rec["status"] != "ok")


def test_final_stacks_equal_written_payoffs(parsed):
    """Every payoff written in whole chips equals our stack - contributions + awards exactly."""
    checked = fractional = 0
    for path, rows in parsed.items():
        lines = _state_lines(path)
        for hand in rows:
            assert isinstance(hand, Hand)
            line = lines[hand.site_hand_no.rsplit(":", 1)[1]]
            payoffs = line.split(":")[4].split("|")
            ours = results(hand)
            for seat, written in zip(hand.seats, payoffs, strict=True):
                if "." in written:
                    fractional += 1
                    continue
                assert ours[seat.player] == seat.stack + int(written), (line, ours)
                checked += 1
    assert checked + fractional == 5999 * 2 + 3463 * 6  # every seat of every hand
    assert fractional == 8 * 2 + 3 * 2  # 8 EV-payoff HUNL hands, 3 Pluribus split pots


def test_split_pots_give_the_odd_chip_first_after_the_button(parsed):
    """ACPC writes 387.5 each for a tied 20,775 pot; we award whole chips: 10,388 to the tied
    player nearest the button's left (lowest position), 10,387 to the other."""
    halves = 0
    for path, rows in parsed.items():
        if "pluribus" not in str(path):
            continue
        lines = _state_lines(path)
        for hand in rows:
            assert isinstance(hand, Hand)
            line = lines[hand.site_hand_no.rsplit(":", 1)[1]]
            payoffs = [Decimal(p) for p in line.split(":")[4].split("|")]
            if all(p == p.to_integral_value() for p in payoffs):
                continue
            halves += 1
            ours = results(hand)
            tied = [(i, s) for i, s in enumerate(hand.seats) if payoffs[i] != payoffs[i].to_integral_value()]
            assert len(tied) == 2
            (_, first), (_, second) = tied
            assert ours[first.player] - (first.stack + payoffs[tied[0][0]]) == Decimal("0.5")
            assert ours[second.player] - (second.stack + payoffs[tied[1][0]]) == Decimal("-0.5")
    assert halves == 3


def _ev_payoff(line: str) -> Fraction:
    """Player 0's expected payoff over every remaining runout (heads-up, equal all-in stacks)."""
    fields = line.split(":")
    cards = fields[3].split("/")
    hole = cards[0].split("|")
    rounds = fields[2].split("/")
    # the all-in call ends the last non-empty betting round; later board cards were run out
    last = max(i for i, r in enumerate(rounds) if r)
    shown = "".join(cards[1:last + 1])
    known_board = [shown[i:i + 2] for i in range(0, len(shown), 2)]
    used = set(known_board) | {c for h in hole for c in (h[:2], h[2:])}
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in used]
    need = 5 - len(known_board)
    total = Fraction(0)
    count = 0
    for runout in itertools.combinations(deck, need):
        board = [*known_board, *runout]
        r0 = evaluate_cards(*board, hole[0][:2], hole[0][2:])
        r1 = evaluate_cards(*board, hole[1][:2], hole[1][2:])
        total += 1 if r0 < r1 else (Fraction(1, 2) if r0 == r1 else 0)
        count += 1
    return (2 * total / count - 1) * HEADS_UP_STACK


def test_2017_fractional_payoffs_are_all_in_expected_values(parsed):
    """The 2017 logs' decimal payoffs are the all-in equity of player 0 (luck reduction), not
    the chips won: our awards follow the real board, the log's payoff follows the equity."""
    checked = 0
    for path in parsed:
        if "acpc2017" not in str(path):
            continue
        for line in _state_lines(path).values():
            fields = line.split(":")
            if "." not in fields[4]:
                continue
            betting = fields[2]
            if betting.endswith("///"):
                continue  # pre-flop all-in: 1.7 M runouts, too slow for a unit test
            assert float(_ev_payoff(line)) == pytest.approx(float(fields[4].split("|")[0]), abs=1e-5)
            checked += 1
    assert checked == 7


def test_first_hand_computed_by_hand():
    """STATE:0:r200c/cr400c/cc/r900f (HITSZ file), worked by hand: BB is player 0, SB/button is
    player 1; 200 each pre-flop, 400 each on the flop, checks on the turn, player 0 bets 500 on
    the river (900 in total), player 1 folds; player 0 wins 800 after 500 returns uncalled."""
    path = real_data("acpc2017_hunl_deepdonkey", "2017 ACPC logs example", "HITSZ.Slumbot.71.0.log")
    hand = next(h for h in FORMAT.parse(path) if isinstance(h, Hand))
    p0, p1 = "HITSZ_2pn_2017", "Slumbot_2pn_2017"
    got = [(a.street.value, a.player, a.kind, a.amount, a.raise_to, a.contribution) for a in hand.actions]
    assert got == [
        ("preflop", p1, Kind.POST_SB, 50, None, 50),
        ("preflop", p0, Kind.POST_BB, 100, None, 100),
        ("preflop", p1, Kind.RAISE, 100, 200, 150),
        ("preflop", p0, Kind.CALL, 100, None, 100),
        ("flop", p0, Kind.CHECK, None, None, 0),
        ("flop", p1, Kind.BET, 200, 200, 200),
        ("flop", p0, Kind.CALL, 200, None, 200),
        ("turn", p0, Kind.CHECK, None, None, 0),
        ("turn", p1, Kind.CHECK, None, None, 0),
        ("river", p0, Kind.BET, 500, 500, 500),
        ("river", p1, Kind.FOLD, None, None, 0),
        ("river", p0, Kind.UNCALLED_RETURN, 500, None, -500),
    ]
    assert [(w.player, w.amount) for w in hand.awards] == [(p0, 800)]
    assert [s.final_stack for s in hand.seats] == [HEADS_UP_STACK + 400, HEADS_UP_STACK - 400]
    assert hand.hole_cards_mode == "operator"


def test_corrupted_and_truncated_lines_are_quarantined(tmp_path):
    src = real_data("pluribus_raw_pkcore", "data", "pluribus", "raw", "sample_game_30.log")
    lines = src.read_text().splitlines()
    states = [ln for ln in lines if ln.startswith("STATE:")][:6]
    bad_cards = states[1].replace(states[1].split(":")[3], "AhKh|zz")
    truncated = states[2][: len(states[2]) // 2]
    overbet = states[3].replace(states[3].split(":")[2], "r99999")
    text = "\n".join([*lines[:4], states[0], bad_cards, truncated, overbet, states[4], states[5]]) + "\n"
    path = tmp_path / "mixed.log"
    path.write_text(text)
    assert sniffs(FORMAT, path)
    rows = list(FORMAT.parse(path))
    hands = [r for r in rows if isinstance(r, Hand)]
    quarantined = [r for r in rows if isinstance(r, Quarantined)]
    assert [h.site_hand_no.split(":")[1] for h in hands] == [s.split(":")[1] for s in (states[0], states[4],
                                                                                        states[5])]
    assert len(quarantined) == 3
    assert all(q.raw_text in text and q.byte_offset == text.encode().index(q.raw_text.encode())
               for q in quarantined)
    reasons = " | ".join(q.reason for q in quarantined)
    assert "hole-card" in reasons or "bad cards" in reasons
    assert "STATE line" in reasons
    assert f"above the stack {RING_STACK}" in reasons


def test_sniffing_is_by_content():
    readme = real_data("pluribus_raw_pkcore", "data", "pluribus", "raw", "README.txt")
    assert not sniffs(FORMAT, readme)
    for f in _logs():
        assert sniffs(FORMAT, f)
