"""What the SQL passes over the warehouse share: rows as dicts, each row's rulebook, and the
findings a row makes, stored with the profile's name.

Why one place: ``rules.continuity`` (consecutive hands) and ``rules.handrecord`` (one hand's record)
both read breaking rows in SQL and let a Python function per rule pick the severity by rulebook.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import SimpleNamespace
from typing import Any

import duckdb

from .findings import Finding
from .profiles import ProfileMap, load_profile

#: a row's rulebook (profile name)
Namer = Callable[[dict[str, Any]], str]
#: the finding one rule makes of a row under a rulebook, or None
Rule = Callable[[dict[str, Any], str], Finding | None]


def rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict[str, Any]]:
    """The query's rows as dicts keyed by column name."""
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def namer(rulebook: str | None, pmap: ProfileMap) -> Namer:
    """Each row's rulebook: ``rulebook`` when given, else the profile map's answer for the row's
    site/table/tournament/format columns (memoised per distinct key: a night has few)."""
    keys = sorted({key for match, _ in pmap.entries for key, _ in match})
    seen: dict[tuple[Any, ...], str] = {}

    def name_for(row: dict[str, Any]) -> str:
        if rulebook:
            return rulebook
        key = tuple(row.get(k) for k in keys)
        if key not in seen:
            seen[key] = pmap.name_for(SimpleNamespace(**{k: row.get(k) for k in keys}))  # type: ignore[arg-type]
        return seen[key]

    return name_for


def emit(found: list[tuple[Finding, str]], table: Iterable[dict[str, Any]], name_for: Namer, rule: Rule) -> None:
    """Append ``rule``'s finding for every row that breaks it, with the row's profile name."""
    for row in table:
        book = name_for(row)
        f = rule(row, book)
        if f is not None:
            found.append((f, load_profile(book).name))
