"""One small simulated night per test session, parsed by the real PokerStars parser.

Why shared: the behaviour tests all read the same few thousand hands; generating and parsing
them once keeps the whole folder well under a minute.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest

from parsers.model import Hand
from parsers.registry import sniff_format
from simulator.run import Config, simulate

START = datetime(2026, 11, 29, 19, 0, 0)


@dataclass
class Night:
    out: Path
    truth: dict
    hands: list[Hand]
    quarantined: list[object]
    files: list[Path]


def parse_dir(out: Path) -> tuple[list[Hand], list[object]]:
    hands: list[Hand] = []
    bad: list[object] = []
    for path in sorted(out.glob("*.txt")):
        fmt = sniff_format(path)
        assert fmt is not None and fmt.name == "pokerstars", path
        for h in fmt.parse(path):
            (hands if isinstance(h, Hand) else bad).append(h)
    return hands, bad


@pytest.fixture(scope="session")
def night(tmp_path_factory: pytest.TempPathFactory) -> Night:
    out = tmp_path_factory.mktemp("night")
    truth_path = out / "truth.json"
    result = simulate(
        Config(hands=6000, seed=11, players=60, tables=10, operator_mode=True, start=START),
        out / "hh",
        truth_path,
    )
    hands, bad = parse_dir(out / "hh")
    return Night(out / "hh", json.loads(truth_path.read_text()), hands, bad, result.files)
