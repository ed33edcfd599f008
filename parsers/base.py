"""The contract every format parser fulfils, and the shared text-format driver.

Why a driver: quarantine must behave identically for every format. A parser only says where a
hand starts and how to read one hand's lines; the driver streams the file, cuts it into blocks,
and turns *any* exception from one block into a quarantine record so the rest still loads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, TypeVar

import polars as pl

from .columns import TABLE_SCHEMAS
from .model import Hand, ParseError, Quarantined
from .reading import Block, iter_blocks, iter_lines

#: what a hand reader returns: a Hand, or (text formats) None for a block that is not a hand
_H = TypeVar("_H", bound=Hand | None)


class HandFormat:
    """Base class of a format. Subclasses set ``name``/``priority`` and implement sniffing."""

    name: ClassVar[str] = "unknown"
    #: lower sniffs first; specific formats must come before lookalikes they contain
    priority: ClassVar[int] = 100
    #: human description for the README / CLI
    description: ClassVar[str] = ""

    def sniff(self, head: str) -> bool:
        """True when the decoded first bytes of a file are this format (content, not name)."""
        raise NotImplementedError

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        """Stream every hand of the file, quarantining what cannot be read."""
        raise NotImplementedError


class TextHandFormat(HandFormat):
    """A format with one hand per block of lines, each block starting at a header line."""

    def is_start(self, line: str) -> bool:
        raise NotImplementedError

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        """Read one block. Return None for a block that is legitimately not a hand (e.g. a
        tournament summary); raise ParseError (or anything) for a hand that cannot be read."""
        raise NotImplementedError

    def parse(self, path: Path) -> Iterator[Hand | Quarantined]:
        source = str(path)
        for block in iter_blocks(iter_lines(path), self.is_start):
            yield from guarded_parse(self, block, source)


class StartLineFormat(TextHandFormat):
    """A text format whose files open with a hand's start line, which one regex recognises.

    Why: for such sites sniffing is the start regex on the head's first text (after a BOM and
    blank lines), so both checks come from the one pattern a subclass sets as ``start``.
    """

    start: ClassVar[re.Pattern[str]]

    def sniff(self, head: str) -> bool:
        return self.start.match(head.lstrip("\ufeff\r\n ")) is not None

    def is_start(self, line: str) -> bool:
        return self.start.match(line) is not None


class HeaderLineFormat(StartLineFormat):
    """A start-line format whose reader takes the start line's match and the hand's stripped,
    non-blank lines. Why: small sites' modules otherwise each repeat that prologue."""

    def parse_block(self, block: Block, source_file: str) -> Hand | None:
        lines = [line.strip() for line in block.lines if line.strip()]
        head = self.start.match(lines[0])
        assert head is not None  # the driver hands over only blocks that start with it
        return self.read(head, lines, block, source_file)

    def read(self, head: re.Match[str], lines: list[str], block: Block, source_file: str) -> Hand:
        raise NotImplementedError


#: one hand's raw text for a batching format: (source file, byte offset in it, bytes)
Piece = tuple[str, int, bytes]
#: raw hand bytes a batching format reads per call by default (a few thousand hands)
CHUNK_BYTES = 4 << 20


@dataclass
class Chunk:
    """What a batching format makes of a list of pieces: warehouse frames (each with ``_hx``, the
    piece's index in the list) for the hands its fast path read, and (index, Hand or Quarantined)
    from its exact parser for the others. ``n_hands`` is the number of pieces."""

    tables: dict[str, pl.DataFrame]
    items: list[tuple[int, Hand | Quarantined]]
    n_hands: int


def empty_tables() -> dict[str, pl.DataFrame]:
    """Frames of every warehouse table with no rows (and the ``_hx`` key)."""
    return {name: pl.DataFrame(schema={"_hx": pl.Int64, **schema}) for name, schema in TABLE_SCHEMAS.items()}


class ChunkedFormat(HandFormat):
    """The batching protocol of a format with a columnar fast path (optional: a loader tests
    ``isinstance(fmt, ChunkedFormat)`` and otherwise streams ``parse``).

    Why two steps: a fast-path call has a fixed cost (tens of ms), too much for one small table
    file, so a loader gathers the pieces of many files of one format and asks for their chunk:

    1. ``iter_pieces(path)``: the file cut into raw hands (lists of ``Piece``), plus
       Hand/Quarantined items for what the fast path never takes (e.g. a whole UTF-16 file, text
       outside any hand);
    2. ``read_chunk(pieces)``: one ``Chunk`` for pieces of one or several files. It never raises:
       if the fast path fails, every piece is read by the exact parser (``parse_piece``).

    Subclasses implement ``iter_pieces``, ``chunk_from_pieces`` (the fast path) and
    ``parse_piece``; ``parse`` stays the reference reader and must give the same hands.
    """

    def iter_pieces(self, path: Path, chunk_bytes: int = CHUNK_BYTES) -> Iterator[list[Piece] | Hand | Quarantined]:
        raise NotImplementedError

    def chunk_from_pieces(self, pieces: list[Piece]) -> Chunk:
        """The fast path on pieces of one or several files (may raise on a bug of its own)."""
        raise NotImplementedError

    def parse_piece(self, piece: Piece) -> Iterator[Hand | Quarantined]:
        """One piece read by the exact parser (any failure quarantined)."""
        raise NotImplementedError

    def read_chunk(self, pieces: list[Piece]) -> Chunk:
        """``chunk_from_pieces``, or the exact parser on every piece when the fast path fails (a
        fast-path bug must not lose a file)."""
        try:
            return self.chunk_from_pieces(pieces)
        except Exception:
            items = [(i, out) for i, piece in enumerate(pieces) for out in self.parse_piece(piece)]
            return Chunk(empty_tables(), items, len(pieces))

    def iter_chunks(self, path: Path, chunk_bytes: int = CHUNK_BYTES) -> Iterator[Chunk | Hand | Quarantined]:
        """One file in chunks (the fast path's own errors propagate: for tests and benchmarks)."""
        for item in self.iter_pieces(path, chunk_bytes):
            yield self.chunk_from_pieces(item) if isinstance(item, list) else item


def guarded_parse(fmt: TextHandFormat, block: Block, source: str) -> Iterator[Hand | Quarantined]:
    """Parse one block; any failure becomes a Quarantined record with the reason."""
    if not fmt.is_start(block.lines[0]):
        yield Quarantined(source, block.offset, "\n".join(block.lines), "text outside any hand", fmt.name)
        return
    hand = read_guarded(source, block.offset, block.lines, fmt.name, fmt.parse_block, block, source)
    if hand is not None:
        yield hand


def read_guarded(
    source: str,
    offset: int,
    text: str | list[str],
    fmt_name: str,
    read: Callable[..., _H],
    *args: object,
    named: tuple[tuple[type[Exception], str], ...] = (),
) -> _H | Quarantined:
    """``read(*args)`` for one hand; any exception becomes a Quarantined record with the reason.

    Why one helper: every format (text blocks, XML games, JSON objects, TOML sections, CSV
    logs) must quarantine a bad hand the same way. The reason is the ParseError's message, a
    format's own prefix for the exception types in ``named`` (e.g. malformed XML), or the
    exception's type and message. ``text`` is the hand's text, or its lines (joined only when
    the hand is quarantined: this runs once per hand on every format's hot path).
    """
    try:
        return read(*args)
    except ParseError as exc:
        reason = str(exc)
    except Exception as exc:  # a bad hand must never stop its file
        reason = next(
            (f"{prefix}{exc}" for kind, prefix in named if isinstance(exc, kind)), f"{type(exc).__name__}: {exc}"
        )
    return Quarantined(source, offset, text if isinstance(text, str) else "\n".join(text), reason, fmt_name)
