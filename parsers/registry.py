"""Format discovery and sniffing: every module in ``parsers/formats`` that defines ``FORMAT``.

Why discovery: each format lives in its own module with one job; adding a site is adding a file.
Sniffing is by content (the decoded head of the file), never by file name.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from functools import cache
from pathlib import Path

from . import formats
from .base import HandFormat
from .reading import read_head

log = logging.getLogger(__name__)

#: format modules that failed to import, with the error (a broken parser must not stop the others)
BROKEN: dict[str, str] = {}


@cache
def all_formats() -> tuple[HandFormat, ...]:
    """Every registered format, most specific first."""
    found: list[HandFormat] = []
    for info in pkgutil.iter_modules(formats.__path__):
        try:
            module = importlib.import_module(f"{formats.__name__}.{info.name}")
        except Exception as exc:
            BROKEN[info.name] = f"{type(exc).__name__}: {exc}"
            log.error("format module %s failed to import: %s", info.name, exc)
            continue
        fmt = getattr(module, "FORMAT", None)
        if isinstance(fmt, HandFormat):
            found.append(fmt)
    return tuple(sorted(found, key=lambda f: (f.priority, f.name)))


def get_format(name: str) -> HandFormat:
    for fmt in all_formats():
        if fmt.name == name:
            return fmt
    raise KeyError(f"unknown format {name!r}; known: {[f.name for f in all_formats()]}")


def sniff_format(path: Path) -> HandFormat | None:
    """The format of a file judged from its content, or None when no parser recognises it."""
    _, head = read_head(path)
    for fmt in all_formats():
        if fmt.sniff(head):
            return fmt
    return None
