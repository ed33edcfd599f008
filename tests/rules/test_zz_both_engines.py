"""Every hand-written hand the rule tests checked, through both engines: the same findings.

Why last (the file name): tests/rules/conftest.py records each hand-written hand a test checks, with
its rulebook; this runs them all, from one warehouse per rulebook, through the Python engine and the
kernel fast path, and requires identical findings and states. A Python-only check shows up here as a
finding the kernel side misses. Run alone, nothing is recorded and it skips.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections import defaultdict

import pytest

from parsers.model import Hand
from tests.rules.conftest import RECORDED
from tests.rules.engines import run_engine


def _unique(hands: list[Hand]) -> list[Hand]:
    """The hands with their own id and table, so no two are taken for consecutive hands of one table."""
    return [dataclasses.replace(h, hand_id=f"test:{i}", site_hand_no=str(i), table_name=f"T{i}")
            for i, h in enumerate(hands)]


def _by_book() -> dict[str, list[Hand]]:
    out: dict[str, list[Hand]] = defaultdict(list)
    for hand, book in RECORDED.values():
        out[book].append(hand)
    return out


def test_every_recorded_hand_written_hand_agrees_in_both_engines() -> None:
    books = _by_book()
    if sum(map(len, books.values())) < 100:
        pytest.skip("run with the other tests/rules files: too few hand-written hands were recorded")
    for book, hands in sorted(books.items()):
        uniq = _unique(hands)
        py, py_states = run_engine("python", uniq, book)
        fast, fast_states = run_engine("kernel", uniq, book)
        assert py == fast, (book, sorted(set(py) ^ set(fast), key=repr)[:5])
        assert py_states == fast_states, book
        FOUND[book] = sorted({(f.rule_id, f.severity) for f in py})
    if os.environ.get("FLOORMAN_T1_TABLE"):  # tests.rules.t1_coverage reads it for its table
        with open(os.environ["FLOORMAN_T1_TABLE"], "w", encoding="utf-8") as out:
            json.dump({"hands": {b: len(h) for b, h in books.items()}, "found": FOUND}, out, indent=1)


#: per rulebook, the (rule id, severity) pairs the recorded corpus gives through both engines
FOUND: dict[str, list[tuple[str, str]]] = {}
