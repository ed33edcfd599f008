"""Streaming text reading with encoding sniffing and byte offsets.

Why: hand histories arrive as UTF-8 (with or without BOM), UTF-16 (Full Tilt) and cp1252 (old
European exports). Parsers must be able to point at the exact byte where a bad hand starts, and
memory must stay flat whatever the file size, so files are read line by line, never whole.
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple

#: how many bytes of a file format sniffing looks at
SNIFF_BYTES = 8192


class Line(NamedTuple):
    offset: int  # byte offset of the line's first byte in the file
    end: int  # byte offset just past the line terminator
    text: str  # decoded, without the line terminator


class Block(NamedTuple):
    """A contiguous piece of a file that holds one hand (or one unparseable fragment)."""

    offset: int
    length: int  # in bytes, up to the start of the next block
    lines: list[str]


def detect_encoding(head: bytes) -> tuple[str, int]:
    """Return (encoding, BOM length) from the first bytes of a file."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8", 3
    if head.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le", 2
    if head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be", 2
    # UTF-16 without BOM: every other byte of ASCII text is NUL
    if len(head) >= 4 and head[1] == 0 and head[3] == 0 and head[0] != 0:
        return "utf-16-le", 0
    if len(head) >= 4 and head[0] == 0 and head[2] == 0 and head[1] != 0:
        return "utf-16-be", 0
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        # a multi-byte sequence cut by the sniff window is still UTF-8
        if exc.start < len(head) - 4:
            return "cp1252", 0
    return "utf-8", 0


def read_head(path: Path, size: int = SNIFF_BYTES) -> tuple[str, str]:
    """Return (encoding, decoded head text) for format sniffing."""
    with path.open("rb") as fh:
        raw = fh.read(size)
    encoding, bom = detect_encoding(raw)
    return encoding, raw[bom:].decode(encoding, errors="replace")


def decode_line(raw: bytes, encoding: str) -> str:
    """Decode one line; a stray cp1252 byte in a UTF-8 file falls back for that line only."""
    if encoding == "utf-8":
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            # a cp1252 '€' in an otherwise UTF-8 file: keep the line, exactly once
            return raw.decode("cp1252", errors="replace")
    return raw.decode(encoding, errors="replace")


def iter_lines(path: Path) -> Iterator[Line]:
    """Yield every line of a file with its byte offset, decoding as sniffed."""
    with path.open("rb") as fh:
        head = fh.read(SNIFF_BYTES)
        encoding, bom = detect_encoding(head)
        fh.seek(bom)
        if encoding.startswith("utf-16"):
            yield from _iter_utf16(fh, encoding, bom)
            return
        offset = bom
        for raw in fh:
            text = decode_line(raw, encoding).rstrip("\r\n")
            if "\x00" in text:  # stray NULs (some PartyPoker exports): never meaningful in text
                text = text.replace("\x00", "")
            yield Line(offset, offset + len(raw), text)
            offset += len(raw)


def _iter_utf16(fh: BinaryIO, encoding: str, bom: int) -> Iterator[Line]:
    reader = io.TextIOWrapper(fh, encoding=encoding, errors="replace", newline="")
    offset = bom
    for text in reader:
        end = offset + len(text.encode(encoding))
        yield Line(offset, end, text.rstrip("\r\n"))
        offset = end


def split_lines_at(lines: Iterator[Line], marker: str) -> Iterator[Line]:
    """Cut every line where ``marker`` starts mid-line (two hands run together on one line, e.g.
    Entraction's "Game ended ... GMT\ufeffGame # ..."), each piece with its own byte offset.

    Offsets of the pieces are counted in UTF-8, the encoding of every file known to do this.
    """
    for line in lines:
        text, offset = line.text, line.offset
        at = text.find(marker, 1)
        while at > 0:
            head = text[:at]
            cut = offset + len(head.encode("utf-8"))
            yield Line(offset, cut, head)
            text, offset = text[at:], cut
            at = text.find(marker, 1)
        yield Line(offset, line.end, text)


def iter_blocks(lines: Iterator[Line], is_start: Callable[[str], bool]) -> Iterator[Block]:
    """Group lines into blocks, a new block starting at each line where ``is_start`` is true.

    Text before the first start line (banners, blank lines) is yielded as a block of its own
    only if it holds something other than whitespace, so that it can be quarantined rather
    than silently dropped. Trailing blank lines of a block are trimmed.
    """
    current: list[str] = []
    start = 0
    end = 0
    for line in lines:
        if is_start(line.text) and current:
            yield from _emit(start, line.offset, current)
            current = []
        if not current:
            start = line.offset
        current.append(line.text)
        end = line.end
    if current:
        yield from _emit(start, end, current)


def _emit(start: int, end: int, lines: list[str]) -> Iterator[Block]:
    while lines and not lines[-1].strip():
        lines.pop()
    if lines and any(text.strip() for text in lines):
        yield Block(start, end - start, lines)


_decode_line = decode_line  # kept for parsers written against the early name
