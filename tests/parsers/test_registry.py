"""Every format module imports and registers, and sniffing is by content, not file name."""

from __future__ import annotations

from pathlib import Path

from parsers.registry import BROKEN, all_formats, sniff_format
from tests.conftest import real_data


def test_every_format_module_imports() -> None:
    formats = all_formats()
    assert BROKEN == {}, f"format modules failed to import: {BROKEN}"
    names = [f.name for f in formats]
    assert len(names) == len(set(names))
    assert "pokerstars" in names


def test_sniffing_ignores_the_file_name(tmp_path: Path) -> None:
    src = real_data("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop",
                    "NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt")
    disguised = tmp_path / "hands.xml"
    disguised.write_bytes(src.read_bytes())
    fmt = sniff_format(disguised)
    assert fmt is not None and fmt.name == "pokerstars"
    (tmp_path / "stars.txt").write_text("PokerStars is a poker site.\n")
    assert sniff_format(tmp_path / "stars.txt") is None
