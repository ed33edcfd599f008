"""Issue 13's first Done-when line, made mechanical: per T1 rule id of the rules matrix, a violating and a
boundary-legal hand-written case, and, where the matrix records that the books differ, a case under each
book whose answer differs.

Why a registry and not source parsing: a test says what it proves. ``@covers(rule, kind, *books)`` on a
test function (stackable), or ``register`` for the table-driven cases of tests/rules/test_t1_cases.py,
records a ``Claim``: kind ``violating`` (the test asserts the id IS emitted, at the book's severity, on a
hand that breaks the book's rule), ``legal`` (asserts it is NOT emitted on a hand at the edge of legality)
or ``silent`` (asserts it is not emitted under a book whose answer to a violating hand of another book is
nothing). ``gaps`` lists what is missing and tests/rules/test_t1_coverage.py requires it empty; the only
ids excused are ``NO_RECORD_FIELD``'s, each with the reason no hand-built record can carry its data.

Which books differ comes from the matrix's §2 table: a row whose Δ column has ⚠ sets the differing books'
cells in bold; each bold book is a group of its own and the other books stating something (not ``n/a``)
one more group (a row with ⚠ and no bold cell: every book its own group). Each group needs a violating or
silent case under one of its books: what that book answers on the violating hand.

Run ``.venv/bin/python -m tests.rules.t1_coverage`` for the table.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.conftest import SHARED

MATRIX = SHARED / "rules" / "rules_matrix.md"
TESTS = Path(__file__).resolve().parent
_HEADING = re.compile(r"^#### ([A-Z0-9_]+\.[A-Z0-9_.]+)(?::.*)? \((?P<basis>[^()]*)\)\s*$")
#: the matrix's four rulebooks, in its §2 column order (profile names)
BOOKS = ("CEP-2023", "TDA-2009", "PKR-cash", "R003-cash")
KINDS = ("violating", "legal", "silent")

#: T1 ids whose data no hand-built record can carry (parsers.model.Hand has no field for it), so no
#: engine can be handed a violating hand: the coverage test accepts exactly these, each with its reason
NO_RECORD_FIELD: dict[str, str] = {  # none left: issue 13 gave each its record field
}


@dataclass(frozen=True)
class Claim:
    rule: str
    kind: str
    books: tuple[str, ...]
    where: str


CLAIMS: list[Claim] = []


def register(rule: str, kind: str, books: tuple[str, ...], where: str) -> None:
    assert kind in KINDS, kind
    CLAIMS.append(Claim(rule, kind, tuple(books), where))


def covers(rule: str, kind: str, *books: str) -> Callable[[Any], Any]:
    """Decorator: the test function proves a ``kind`` case of ``rule`` under each of ``books``."""

    def deco(fn: Any) -> Any:
        register(rule, kind, books, f"{fn.__module__.rsplit('.', 1)[-1]}::{fn.__name__}")
        return fn

    return deco


def t1_ids(matrix: Path = MATRIX) -> list[str]:
    """The rule ids whose catalogue heading (§1) names tier T1 in its basis."""
    out = []
    for line in matrix.read_text(encoding="utf-8").splitlines():
        m = _HEADING.match(line)
        if m and re.search(r"\bT1\b", m.group("basis")):
            out.append(m.group(1))
    return out


def book_groups(matrix: Path = MATRIX) -> dict[str, list[tuple[str, ...]]]:
    """Per rule id whose §2 row has ⚠: the groups of books with one answer (see the module doc)."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for line in matrix.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("| ") or len(cells) != 6 or "⚠" not in cells[5]:
            continue
        stated = [(b, c) for b, c in zip(BOOKS, cells[1:5], strict=True) if c != "n/a"]
        bold = [(b,) for b, c in stated if "**" in c]
        rest = tuple(b for b, c in stated if "**" not in c)
        out[cells[0]] = ([*bold, rest] if rest else bold) if bold else [(b,) for b, _ in stated]
    return out


def load_claims() -> list[Claim]:
    """Import every tests/rules/test_*.py module (their decorators and tables register) and return the claims."""
    for p in sorted(TESTS.glob("test_*.py")):
        importlib.import_module(f"tests.rules.{p.stem}")
    return list(CLAIMS)


def table(claims: list[Claim] | None = None) -> dict[str, dict[str, Any]]:
    """Per T1 id: its claims by kind, the book groups, and what is missing."""
    claims = load_claims() if claims is None else claims
    groups = book_groups()
    out: dict[str, dict[str, Any]] = {}
    for rid in t1_ids():
        mine = [c for c in claims if c.rule == rid]
        row: dict[str, Any] = {k: [c for c in mine if c.kind == k] for k in KINDS}
        answered = {b for c in mine if c.kind in ("violating", "silent") for b in c.books}
        row["groups"] = groups.get(rid, [])
        missing = [k for k in ("violating", "legal") if not row[k]]
        missing += [f"book {'/'.join(g)}" for g in row["groups"] if not answered & set(g)]
        row["excused"] = NO_RECORD_FIELD.get(rid) if missing else None
        row["missing"] = [] if row["excused"] else missing
        out[rid] = row
    return out


def gaps() -> dict[str, list[str]]:
    return {rid: row["missing"] for rid, row in table().items() if row["missing"]}


def main() -> None:
    # the registry the test modules fill is the imported module's, not __main__'s
    tc = importlib.import_module("tests.rules.t1_coverage")

    rows = tc.table()
    print(f"{'T1 rule id':32} viol legal silent  groups  missing")
    for rid, row in rows.items():
        extra = f"excused: {row['excused']}" if row["excused"] else ", ".join(row["missing"])
        print(f"{rid:32} {len(row['violating']):4} {len(row['legal']):5} {len(row['silent']):6}"
              f"  {len(row['groups']):6}  {extra}")
    full = [r for r, row in rows.items() if row["violating"] and row["legal"]]
    differ = [r for r, row in rows.items() if row["groups"]]
    print(f"{len(rows)} T1 ids; {len(full)} with a violating and a legal case;"
          f" {sum(1 for r in differ if not rows[r]['missing'] and not rows[r]['excused'])}/{len(differ)}"
          f" where the books differ with a case per book group; excused (no record field):"
          f" {sorted(r for r, row in rows.items() if row['excused'])}; missing: "
          f"{ {r: row['missing'] for r, row in rows.items() if row['missing']} }")


if __name__ == "__main__":
    main()
