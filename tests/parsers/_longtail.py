"""Shared checks for the long-tail site parsers (BetOnline, app exports, Merge, OnGame, ...).

Why: every such parser must prove it claims none of the other formats' real files and that no
other format claims its files. The heads of every real file are read once per test session.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from parsers.base import HandFormat
from parsers.reading import read_head
from parsers.registry import all_formats
from tests.conftest import real_data

_SKIP = (".hp", ".hands", ".gt", ".py", ".md", ".rst", ".json5")


@cache
def _heads() -> tuple[tuple[Path, str], ...]:
    root = real_data()
    return tuple(
        (p, read_head(p)[1]) for p in sorted(root.rglob("*")) if p.is_file() and not p.name.endswith(_SKIP)
    )


def claims(fmt: HandFormat) -> list[Path]:
    """Every real file ``fmt`` sniffs as its own."""
    return [p for p, head in _heads() if fmt.sniff(head)]


def foreign_claims(fmt: HandFormat) -> dict[str, list[str]]:
    """Files both ``fmt`` and another registered format sniff: must be empty."""
    clash: dict[str, list[str]] = {}
    others = [f for f in all_formats() if f.name != fmt.name]
    for p, head in _heads():
        if fmt.sniff(head):
            also = [f.name for f in others if f.sniff(head)]
            if also:
                clash[str(p)] = also
    return clash
