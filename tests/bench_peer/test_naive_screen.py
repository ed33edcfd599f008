"""The naive single-signal screen (bench/naive_screen.py): parser and the passivity signal."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.conftest import real_data

ROOT = Path(__file__).resolve().parents[2]


def _load():
    if "naive_screen" in sys.modules:
        return sys.modules["naive_screen"]
    spec = importlib.util.spec_from_file_location("naive_screen", ROOT / "bench" / "naive_screen.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["naive_screen"] = module
    spec.loader.exec_module(module)
    return module


ns = _load()
PLAYERS = ["Alice Smith", "Bob", "Carol", "Dave"]
SOFT = ("Alice Smith", "Bob")


def _hand(number: int, x: str, y: str, passive: bool) -> str:
    """One 4-handed $0.50/$1 hand where x and y see a flop heads-up and play to showdown."""
    sb, bb = PLAYERS[number % 4], PLAYERS[(number + 1) % 4]
    lines = [
        f"PokerStars Hand #{number}:  Hold'em No Limit ($0.50/$1 USD) - 2026/11/30 14:15:28 ET",
        f"Table 'Test I' 6-max Seat #{(number + 3) % 4 + 1} is the button",
        *(f"Seat {i + 1}: {p} ($100 in chips)" for i, p in enumerate(PLAYERS)),
        f"{sb}: posts small blind $0.50",
        f"{bb}: posts big blind $1",
        "*** HOLE CARDS ***",
        f"Dealt to {x} [Ah Kd]",
    ]
    pot = 1.5
    order = [PLAYERS[(number + 2 + i) % 4] for i in range(4)]
    for p in order:
        if p not in (x, y):
            lines.append(f"{p}: folds")
        elif p == bb:
            lines.append(f"{p}: checks")
        else:
            lines.append(f"{p}: calls {'$0.50' if p == sb else '$1'}")
            pot += 0.5 if p == sb else 1.0
    lines.append("*** FLOP *** [2c 7d Js]")
    if passive:
        lines += [f"{x}: checks", f"{y}: checks", "*** TURN *** [2c 7d Js] [9h]", f"{x}: checks", f"{y}: checks"]
    else:
        lines += [f"{x}: bets $2", f"{y}: calls $2", "*** TURN *** [2c 7d Js] [9h]", f"{x}: checks"]
        lines += [f"{y}: bets $3", f"{x}: calls $3"]
        pot += 10
    lines += ["*** RIVER *** [2c 7d Js 9h] [3s]", f"{x}: checks", f"{y}: checks", "*** SHOW DOWN ***"]
    winner = x if number % 2 else y
    lines += [f"{winner} collected ${pot:.2f} from pot", "*** SUMMARY ***", f"Total pot ${pot:.2f} | Rake $0"]
    return "\n".join(lines)


def _night() -> str:
    """Six heads-up match-ups in rotation; only Alice Smith and Bob always check it down."""
    matchups = [(a, b) for i, a in enumerate(PLAYERS) for b in PLAYERS[i + 1 :]]
    hands = []
    for n in range(1, 181):
        x, y = matchups[n % len(matchups)]
        if n % 2:
            x, y = y, x
        hands.append(_hand(n, x, y, passive={x, y} == set(SOFT)))
    return "\n\n\n".join(hands) + "\n"


def test_passivity_ranks_the_check_down_pair_first(tmp_path: Path) -> None:
    text = _night()
    hands = [ns.parse_hand(str(n), block) for n, block in enumerate(text.strip().split("\n\n\n"))]
    assert all(h.players == PLAYERS for h in hands)
    tally = ns.Tally()
    for hand in hands:
        ns.tally_hand(hand, tally)
    cands, signals = ns.signals(tally, min_hands=20)
    assert len(cands) == 6
    soft = signals["soft_play"]
    assert cands[int(soft.argmax())] == SOFT
    assert soft.max() > 3 and sorted(soft)[-2] < 1

    (tmp_path / "night.txt").write_text(text)
    cands2, flags = ns.screen([tmp_path], min_hands=20)
    assert cands2 == cands
    flag = next(f for f in flags if sorted(f[1]) == list(SOFT))
    assert flag[0] == "soft_play"
    assert 0 <= flag[2] <= 1
    assert 0 < len(flag[3]) <= 10


def test_parser_reads_every_hand_of_a_real_pokerstars_file() -> None:
    folder = real_data("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop")
    path = folder / "NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt"
    if not path.exists():
        pytest.skip(f"sample file absent: {path}")
    text = path.read_bytes().decode("latin-1")
    hands = list(ns.read_hands([path]))
    assert len(hands) == text.count("PokerStars Hand #") > 0
    assert all(h.hid.startswith("pokerstars:") and h.players for h in hands)
    first = hands[0]
    assert first.hid == "pokerstars:90721705235"
    assert first.bb == 2.0 and first.table == "Mekbuda II"
    assert len(first.players) == 6
    assert first.collected == {"Hero": pytest.approx(223.17)}


def test_parser_counts_hands_in_a_larger_real_file() -> None:
    folder = real_data("pluribus_pokerstars_vitamintk", "out")
    files = sorted(folder.glob("*.txt"))
    if not files:
        pytest.skip(f"no PokerStars text in {folder}")
    path = files[0]
    expected = path.read_bytes().decode("utf-8", "replace").count("PokerStars Hand #")
    assert len(list(ns.read_hands([path]))) == expected
