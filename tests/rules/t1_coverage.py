"""Which T1 rule ids of the rules matrix have hand-written tests, and through both engines.

Why a module (run it: ``.venv/bin/python -m tests.rules.t1_coverage``): issue 13's first Done-when line
asks for a violating and a boundary-legal test per T1 id through both engines; this lists, per id,
the test functions that name it and whether they take the ``engine`` fixture (tests/rules/conftest.py),
so a gap shows as a row, and tests/rules/test_t1_coverage.py holds the table.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import SHARED

MATRIX = SHARED / "rules" / "rules_matrix.md"
TESTS = Path(__file__).resolve().parent
_HEADING = re.compile(r"^#### ([A-Z0-9_]+\.[A-Z0-9_.]+)(?::.*)? \((?P<basis>[^()]*)\)\s*$")


def t1_ids(matrix: Path = MATRIX) -> list[str]:
    """The rule ids whose catalogue heading (§1) names tier T1 in its basis."""
    out = []
    for line in matrix.read_text(encoding="utf-8").splitlines():
        m = _HEADING.match(line)
        if m and re.search(r"\bT1\b", m.group("basis")):
            out.append(m.group(1))
    return out


def _targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def _functions(path: Path) -> list[tuple[str, bool, str]]:
    """(name, takes ``engine``, source with the helpers it calls in the same file) of each test function."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    out = []
    for name, node in defs.items():
        if not name.startswith("test"):
            continue
        called = {c.func.id for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
        names = {c.id for c in ast.walk(node) if isinstance(c, ast.Name)}  # helpers and module constants used
        consts = [ast.get_source_segment(text, n) or "" for n in tree.body if isinstance(n, ast.Assign | ast.AnnAssign)
                  and any(isinstance(t, ast.Name) and t.id in names for t in _targets(n))]
        src = "\n".join([*(ast.get_source_segment(text, d) or "" for d in node.decorator_list), *consts,
                          *(ast.get_source_segment(text, defs[n]) or "" for n in [name, *sorted(called & set(defs))])])
        out.append((name, any(a.arg == "engine" for a in node.args.args), src))
    return out


def coverage(ids: list[str] | None = None) -> dict[str, tuple[int, int]]:
    """Per T1 id: (test functions naming it, of which take the ``engine`` fixture); the matrix-listing
    test is not counted (it names ids without testing them)."""
    ids = ids or t1_ids()
    funcs = [f for p in sorted(TESTS.glob("test_*.py")) for f in _functions(p)
             if f[0] != "test_the_matrix_has_59_t1_ids"]
    out = {}
    for rid in ids:
        hits = [(name, eng) for name, eng, src in funcs if f'"{rid}' in src or f"'{rid}" in src]
        out[rid] = (len(hits), sum(eng for _, eng in hits))
    return out


def main() -> None:
    table = coverage()
    print(f"{'T1 rule id':32} tests  engine-fixture tests")
    for rid, (n, both) in table.items():
        print(f"{rid:32} {n:5}  {both:5}{'' if n else '  <- no test'}")
    print(f"{len(table)} T1 ids; {sum(1 for n, _ in table.values() if n)} with tests;"
          f" {sum(1 for _, b in table.values() if b)} with an ``engine`` test. The others' hand-written hands go"
          " through both engines in test_zz_both_engines.py; SQL-pass ids (rules.screens 'continuity',"
          " 'record', 'sequence') run on the warehouse whichever engine decided the hands")


if __name__ == "__main__":
    main()
