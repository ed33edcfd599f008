"""The batching protocol (``parsers.base.ChunkedFormat``): the warehouse reads fast-path formats
only through it, never through a format's private names or by a format's name."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

import warehouse.ingest as ingest_module
from parsers.base import CHUNK_BYTES, Chunk, ChunkedFormat, Piece
from parsers.formats.pokerstars import PokerStarsFormat
from parsers.model import Hand, Quarantined
from parsers.registry import all_formats
from tests.conftest import ROOT, real_data
from warehouse.ingest import ingest_paths

STARS = ("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop")
#: every stored table without the columns that differ from run to run (and the format's name)
TABLES = {
    "raw_files": "* EXCLUDE (ingested_at, format)",
    "hands": "*",
    "seats": "*",
    "actions": "*",
    "hole_cards": "*",
    "boards": "*",
    "pots": "*",
    "awards": "*",
    "reconciliation": "*",
    "quarantine": "* EXCLUDE (quarantined_at)",
}


def _ingest_tree() -> ast.Module:
    return ast.parse((ROOT / "warehouse" / "ingest.py").read_text(encoding="utf-8"))


def test_ingest_imports_no_private_name_of_a_format() -> None:
    bad: list[str] = []
    for node in ast.walk(_ingest_tree()):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("parsers."):
            parts = node.module.split(".")
            private = [n.name for n in node.names if n.name.startswith("_")]
            if "formats" in parts or any(p.startswith("_") for p in parts) or private:
                bad.append(f"from {node.module} import {', '.join(n.name for n in node.names)}")
        elif isinstance(node, ast.Import):
            bad.extend(a.name for a in node.names if a.name.startswith("parsers.formats"))
    assert bad == [], "warehouse/ingest.py reaches into parsers.formats: " + "; ".join(bad)


def test_ingest_special_cases_no_format_by_name() -> None:
    names = {fmt.name for fmt in all_formats()}
    classes = {type(fmt).__name__ for fmt in all_formats()}
    tree = _ingest_tree()
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    used |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert used & classes == set()
    assert literals & names == set()


class _Recording(ChunkedFormat):
    """A protocol format (PokerStars' readers behind it) that counts how the loader uses it; its
    ``parse`` must not be called for a file the protocol reads."""

    name = "recording"
    priority = 0

    def __init__(self, *, fast_path_fails: bool = False) -> None:
        self.inner = PokerStarsFormat()
        self.fast_path_fails = fast_path_fails
        self.files: list[Path] = []
        self.chunks = 0
        self.pieces = 0
        self.exact_pieces = 0

    def sniff(self, head: str) -> bool:
        return self.inner.sniff(head)

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        raise AssertionError("the loader must read a batching format through its chunks")

    def iter_pieces(self, path: Path, chunk_bytes: int = CHUNK_BYTES) -> Iterator[list[Piece] | Hand | Quarantined]:
        self.files.append(path)
        return self.inner.iter_pieces(path, chunk_bytes)

    def chunk_from_pieces(self, pieces: list[Piece]) -> Chunk:
        self.chunks += 1
        self.pieces += len(pieces)
        if self.fast_path_fails:
            raise RuntimeError("a fast-path bug")
        return self.inner.chunk_from_pieces(pieces)

    def parse_piece(self, piece: Piece) -> Iterator[Hand | Quarantined]:
        self.exact_pieces += 1
        return self.inner.parse_piece(piece)


def _rows(db: Path) -> dict[str, list[str]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: sorted(map(repr, con.execute(f"SELECT {cols} FROM {t}").fetchall())) for t, cols in TABLES.items()}
    finally:
        con.close()


@pytest.mark.parametrize("fast_path_fails", [False, True])
def test_a_protocol_format_is_read_through_its_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fast_path_fails: bool
) -> None:
    """Ingest asks a batching format for pieces and chunks (gathered across files, one call for
    a small folder), stores the same rows as the registered format does, and when the fast path
    fails every piece is read by the format's exact parser, still the same rows."""
    folder = real_data(*STARS)
    reference = ingest_paths([folder], tmp_path / "ref.duckdb")
    fmt = _Recording(fast_path_fails=fast_path_fails)
    real_sniff = ingest_module.sniff_format
    monkeypatch.setattr(
        ingest_module, "sniff_format", lambda p: fmt if isinstance(real_sniff(p), PokerStarsFormat) else real_sniff(p)
    )
    summary = ingest_paths([folder], tmp_path / "w.duckdb")
    stars_files = reference.formats.pop("pokerstars")
    assert len(fmt.files) == stars_files > 1 and summary.formats == {**reference.formats, "recording": stars_files}
    assert 1 <= fmt.chunks < stars_files  # pieces of many files go to the fast path at once
    # the exact parser reads the pieces the fast path leaves aside, or all of them when it fails
    assert fmt.exact_pieces == fmt.pieces if fast_path_fails else fmt.exact_pieces < fmt.pieces // 2
    assert (summary.hands, summary.new_hands, summary.quarantined) == (
        reference.hands,
        reference.new_hands,
        reference.quarantined,
    )
    ours, theirs = _rows(tmp_path / "w.duckdb"), _rows(tmp_path / "ref.duckdb")
    for table in TABLES:
        assert ours[table] == theirs[table], table
