"""The PokerStars fast path gives exactly the exact parser's rows on the tournament corpus too.

Why a second corpus: ``test_pokerstars_fast.py`` walks ``../shared/data/hands``; the tournament
files (``../shared/data/tournaments``) hold the PokerStars-family hands with antes, levels and
tournament ids that the cash corpus has few of, so every table is compared row for row there.
"""

from __future__ import annotations

import pytest

from tests.conftest import SHARED
from tests.parsers.test_pokerstars_fast import differences, stars_files

TOURNAMENTS = SHARED / "data" / "tournaments"


def test_fast_path_equals_parser_on_every_real_pokerstars_tournament_file() -> None:
    if not TOURNAMENTS.exists():
        pytest.skip(f"real tournament histories not available at {TOURNAMENTS} (set FLOORMAN_SHARED)")
    failures: dict[str, list[str]] = {}
    n_files = total_fast = 0
    for path in stars_files(TOURNAMENTS):
        n_files += 1
        problems, n_fast, _ = differences(path)
        total_fast += n_fast
        if problems:
            failures[str(path.relative_to(TOURNAMENTS))] = problems
    assert n_files > 0
    assert failures == {}
    assert total_fast > 0, total_fast
