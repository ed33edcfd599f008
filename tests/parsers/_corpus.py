"""Real-data file lists for the site-parser tests: every file under the named folders that the
registry sniffs as a given format (content, not folder name: hhsmithy's 'Pacific' folder holds
PartyPoker hands, for instance)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from parsers.base import HandFormat
from parsers.model import Hand, Quarantined
from parsers.registry import sniff_format
from tests.conftest import real_data

FPDB = ("fpdb3_regression", "regression-test-files", "cash")
SMITHY = ("hhsmithy_sample_hh", "HandHistories.Parser.UnitTests", "SampleHandHistories")


def files_of(fmt: HandFormat, *roots: tuple[str, ...]) -> list[Path]:
    found: list[Path] = []
    for parts in roots:
        root = real_data(*parts)
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix not in (".hp", ".hands", ".gt", ".py", ".md"):
                sniffed = sniff_format(path)
                if sniffed is not None and sniffed.name == fmt.name:
                    found.append(path)
    return found


def parse_all(fmt: HandFormat, paths: list[Path]) -> Iterator[Hand | Quarantined]:
    for path in paths:
        yield from fmt.parse(path)


def hand_from(fmt: HandFormat, path: Path, hand_no: str) -> Hand:
    for rec in fmt.parse(path):
        if isinstance(rec, Hand) and rec.site_hand_no == hand_no:
            return rec
    raise AssertionError(f"hand {hand_no} not parsed from {path}")
