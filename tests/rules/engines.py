"""Hand-written hands through either rule engine, from a real in-memory warehouse.

``python``: ``rules.check.check_batches`` over ``rules.store.hand_batches``; ``kernel``: the fast path
(``rules.columnar.check_columnar`` over ``column_windows``), whose kernel decides a hand only when no
check's condition holds and hands the rest to the Python engine. A rule the kernel does not screen
for comes out missing on the ``kernel`` side, so a test run under both fails there.
"""

from __future__ import annotations

from typing import Any

from parsers.model import Hand
from rules.check import check_batches
from rules.columnar import as_checked, check_columnar
from rules.findings import Finding
from rules.store import column_windows, hand_batches
from tests.rules.builder import load_hands
from warehouse.db import connect

ENGINES = ("python", "kernel")


def run_engine(engine: str, hands: list[Hand], book: str) -> tuple[list[Finding], list[tuple[Any, ...]]]:
    """Every finding and every state row of ``hands`` under ``book``, by ``engine``."""
    con = connect(":memory:")
    try:
        load_hands(con, hands)
        if engine == "python":
            batches = list(check_batches(list(hand_batches(con.cursor(), 100)), rulebook=book))
        else:
            batches = [as_checked(b) for b in check_columnar(list(column_windows(con.cursor(), 100)), rulebook=book)]
    finally:
        con.close()
    findings = sorted((f for b in batches for f, _book in b.findings), key=repr)
    states = sorted((tuple(s) for b in batches for s in b.states), key=repr)
    return findings, states
