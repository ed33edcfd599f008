"""The runner's lean load (``column_windows(lean=True)``: only the columns the kernel reads, the
Python engine's rows fetched per window on first need) checks exactly like the full load, and
``floorman check`` writes the same action_states and violations rows as a per-batch write of the
full load's results.

Why: ``floorman check`` reads hands through the lean path, while the kernel equivalence tests
(test_kernel_equivalence.py) read the full one; this holds the two to the same rows on the real
hands, including the hands the kernel hands to the Python engine.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from rules import store
from rules.check import CheckedBatch
from rules.columnar import as_checked, check_columnar
from rules.continuity import continuity_findings
from rules.handrecord import record_findings
from rules.profiles import load_mapping
from rules.runner import check_warehouse
from rules.store import column_windows, ensure_schema, write_results
from tests.conftest import real_data
from warehouse.ingest import ingest_paths

_STATE_ROWS = "SELECT * EXCLUDE (run_id) FROM action_states ORDER BY ALL"
_FINDING_ROWS = "SELECT * EXCLUDE (run_id, checked_at) FROM violations ORDER BY ALL"


@pytest.fixture(scope="module")
def real_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("lean_real") / "w.duckdb"
    ingest_paths([real_data()], db, progress=False)
    return db


def _rows(batches: list[Any]) -> tuple[list[str], list[str]]:
    checked = [as_checked(b) for b in batches]
    return (sorted(repr(tuple(s)) for b in checked for s in b.states),
            sorted(repr((*f, book)) for b in checked for f, book in b.findings))


@pytest.mark.parametrize("window", [store.WINDOW, 3000], ids=["one-window", "many-windows"])
def test_lean_windows_check_like_full_windows(real_db: Path, window: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With many windows the runner's read switches between lean and complete windows."""
    monkeypatch.setattr(store, "WINDOW", window)
    con = duckdb.connect(str(real_db), read_only=True)
    try:
        full = list(check_columnar(list(column_windows(con.cursor(), 1000))))
        seen: list[store.LeanWindow] = []

        def recorded() -> Iterator[tuple[list[Any], int, int]]:
            for tables, lo, hi in column_windows(con.cursor(), 1000, lean=True):  # as the runner reads
                assert isinstance(tables, store.LeanWindow)
                seen.append(tables)
                yield tables, lo, hi

        streamed = list(check_columnar(recorded()))
        listed = list(check_columnar(list(column_windows(con.cursor(), 1000, lean=True))))  # after the generator
    finally:
        con.close()
    if window < store.WINDOW:  # lean windows that fetched their full rows, and complete ones after them
        assert any(w.needed and not w.complete for w in seen) and any(w.complete for w in seen)
    assert sum(b.fallback for b in full) > 0  # some windows fetched their full rows
    want = _rows(full)
    assert want[0]
    assert _rows(streamed) == want
    assert _rows(listed) == want
    assert [b.hand_ids for b in streamed] == [b.hand_ids for b in full]


def test_check_writes_the_rows_of_a_per_batch_write(real_db: Path, tmp_path: Path) -> None:
    ours, theirs = tmp_path / "ours.duckdb", tmp_path / "theirs.duckdb"
    shutil.copy(real_db, ours)
    shutil.copy(real_db, theirs)
    check_warehouse(ours)
    check_warehouse(ours)  # a re-run replaces every row: same content
    con = duckdb.connect(str(theirs))
    try:  # the writes as before the lean load: full windows, one transaction and delete per batch
        ensure_schema(con)
        pmap = load_mapping()
        reader = con.cursor()
        for batch in check_columnar(column_windows(reader, 20_000), mapping=pmap):
            write_results(con, batch, "r")
        reader.close()
        write_results(con, CheckedBatch([], [], continuity_findings(con, None, pmap).findings, {}), "r")
        write_results(con, CheckedBatch([], [], record_findings(con, None, pmap).findings, {}), "r")
        want = con.execute(_STATE_ROWS).fetchall(), con.execute(_FINDING_ROWS).fetchall()
    finally:
        con.close()
    con = duckdb.connect(str(ours), read_only=True)
    try:
        got = con.execute(_STATE_ROWS).fetchall(), con.execute(_FINDING_ROWS).fetchall()
    finally:
        con.close()
    assert len(got[0]) == len(want[0]) > 10_000
    assert got[0] == want[0]
    assert got[1] == want[1]
