"""The contract every format parser fulfils, and the shared text-format driver.

Why a driver: quarantine must behave identically for every format. A parser only says where a
hand starts and how to read one hand's lines; the driver streams the file, cuts it into blocks,
and turns *any* exception from one block into a quarantine record so the rest still loads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar, TypeVar

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
