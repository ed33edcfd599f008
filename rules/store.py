"""Warehouse I/O for the rule checker: read hands in bulk, write action_states and violations.

Why bulk: one query per table, ordered by hand, fetched as Python tuples and grouped in one pass
(never one query per hand). Writing replaces the rows of the checked hands, so a re-run is
idempotent.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Generator, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from parsers.model import Action, Award, Board, Hand, HoleCards, Kind, Pot, Provenance, Seat, Street

from .check import CheckedBatch
from .findings import RULES_VERSION, Finding
from .replay import ActionState

SCHEMA = Path(__file__).resolve().parent / "schema.sql"
_KINDS = {k.value: k for k in Kind}
_STREETS = {s.value: s for s in Street}
_PROV = {p.value: p for p in Provenance}

_HAND_COLS = (
    "hand_id, site, site_hand_no, format, variant, betting, game_type, table_name, sb, bb, currency,"
    " unit_scale, source_file, byte_offset, byte_length, started_at, tournament_id, tournament_level,"
    " max_seats, button_seat, ante, bb_ante, straddle, hero, site_total_pot, site_rake, site_fees,"
    " site_added, cancelled"
)
#: table order: the cross-hand checks (rules.sequence) need a table's hands consecutive and in time
_TABLE_ORDER = (
    "site, tournament_id NULLS FIRST, table_name, started_at NULLS FIRST,"
    " CASE WHEN length(site_hand_no) < 24 THEN lpad(site_hand_no, 24, '0') ELSE site_hand_no END, hand_id"
)
DEFAULT_BATCH = 20_000


_NAMES = tuple(c.strip() for c in _HAND_COLS.split(","))


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(SCHEMA.read_text(encoding="utf-8"))


_CHILD_SQL = (
    # (select list, order within a hand); every query is joined to the batch's hands by ``rn``
    ("c.seat_no, c.player, c.stack, c.sitting_out, c.final_stack", "seats", "c.seat_no"),
    (
        "c.seq, c.street, c.player, c.kind, c.amount, c.raise_to, c.all_in, c.contribution, c.cards",
        "actions",
        "c.seq",
    ),
    ("c.player, c.cards, c.provenance", "hole_cards", None),
    ("c.board_no, c.cards", "boards", "c.board_no"),
    ("c.pot_no, c.amount", "pots", "c.pot_no"),
    ("c.player, c.amount, c.pot_no, c.board_no", "awards", None),
)
_ROW = tuple.__new__
_STREAM_ROWS = 100_000


def _per_hand(rn: list[int], rows: list[Any], n: int, lo: int = 0) -> list[list[Any]]:
    """Rows ordered by hand number ``rn`` (lo..lo+n-1) cut into one list per hand (empty when none)."""
    out: list[list[Any]] = [[] for _ in range(n)]
    start = 0
    total = len(rn)
    while start < total:
        k = rn[start]
        stop = start + 1
        while stop < total and rn[stop] == k:
            stop += 1
        out[k - lo] = rows[start:stop]
        start = stop
    return out


def _child_rows(con: duckdb.DuckDBPyConnection, cols: str, table: str, order: str | None, n: int) -> list[list[Any]]:
    """One child table's rows for the hands in ``_rule_batch``, column-wise then cut per hand."""
    tail = f", {order}" if order else ""
    res = con.execute(
        f"SELECT b.k, {cols} FROM _rule_batch b JOIN {table} c ON c.hand_id = b.hand_id ORDER BY b.k{tail}"
    ).fetchnumpy()
    names = list(res)
    rn = res[names[0]].tolist()
    columns = [_pylist(res[name]) for name in names[1:]]
    if table == "actions":
        columns[1] = list(map(_STREETS.__getitem__, columns[1]))
        columns[3] = list(map(_KINDS.__getitem__, columns[3]))
        rows: list[Any] = [_ROW(Action, r) for r in zip(*columns, strict=True)]
    elif table == "seats":
        rows = [_ROW(Seat, r) for r in zip(*columns, strict=True)]
    elif table == "hole_cards":
        columns[2] = [_PROV.get(pv, Provenance.SHOWN) for pv in columns[2]]
        rows = [_ROW(HoleCards, r) for r in zip(*columns, strict=True)]
    elif table == "boards":
        rows = [_ROW(Board, r) for r in zip(*columns, strict=True)]
    elif table == "pots":
        rows = [_ROW(Pot, r) for r in zip(*columns, strict=True)]
    else:
        rows = [_ROW(Award, r) for r in zip(*columns, strict=True)]
    return _per_hand(rn, rows, n)


def _pylist(col: Any) -> list[Any]:
    """A fetched numpy column as Python values, NULLs as None (masked arrays carry them)."""
    if hasattr(col, "mask") and col.mask is not False and col.mask.any():
        return [None if m else v for v, m in zip(col.data.tolist(), col.mask.tolist(), strict=True)]
    data = col.data if hasattr(col, "data") and hasattr(col, "mask") else col
    return list(data.tolist())


def _load_batch(con: duckdb.DuckDBPyConnection) -> list[Hand]:
    """Every hand in the temp table ``_rule_batch`` (hand_id, k = 0..n-1), in ``k`` order.

    Why this shape: one query per table for the whole batch, joined on the batch's hand numbers
    and fetched column-wise, then cut into per-hand lists by a single scan (no per-hand queries,
    no per-row dict grouping).
    """
    row = con.execute("SELECT count(*) FROM _rule_batch").fetchone()
    n = int(row[0]) if row else 0
    children = [_child_rows(con, cols, table, order, n) for cols, table, order in _CHILD_SQL]
    heads = con.execute(
        f"SELECT {', '.join('h.' + c for c in _NAMES)} FROM _rule_batch b JOIN hands h ON h.hand_id = b.hand_id"
        " ORDER BY b.k"
    ).fetchall()
    seats, acts, holes, boards, pots, awards = children
    return [
        Hand(*h, seats[k], acts[k], holes[k], boards[k], pots[k], awards[k])  # type: ignore[call-arg]
        for k, h in enumerate(heads)
    ]


def load_hands(con: duckdb.DuckDBPyConnection, hand_ids: Sequence[str] | None = None) -> Iterator[Hand]:
    """Every hand (or the given ones, in hand_id order) rebuilt as ``Hand`` objects from the warehouse."""
    where, params = ("", []) if hand_ids is None else ("WHERE hand_id IN (SELECT unnest(?))", [list(hand_ids)])
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _rule_batch AS"
        f" SELECT hand_id, (row_number() OVER (ORDER BY hand_id) - 1) AS k FROM hands {where}",
        params,
    )
    try:
        hands = _load_batch(con)
    finally:
        con.execute("DROP TABLE IF EXISTS _rule_batch")
    yield from hands


def write_results(con: duckdb.DuckDBPyConnection, done: CheckedBatch, run_id: str) -> None:
    """Replace the checked hands' rows in action_states and violations (idempotent re-runs)."""
    hand_ids, states, findings, rulebook_of = done
    ensure_schema(con)
    now = datetime.now(UTC).replace(tzinfo=None)
    ids = pa.table({"hand_id": pa.array(list(hand_ids), pa.string())})
    con.register("_checked", ids)
    try:
        con.execute("BEGIN")
        con.execute("DELETE FROM action_states WHERE hand_id IN (SELECT hand_id FROM _checked)")
        con.execute("DELETE FROM violations WHERE hand_id IN (SELECT hand_id FROM _checked)")
        if states:
            cols = list(zip(*states, strict=True))
            names = list(ActionState._fields)
            data = {name: list(col) for name, col in zip(names, cols, strict=True)}
            data["rulebook"] = [rulebook_of[s.hand_id] for s in states]
            data["run_id"] = [run_id] * len(states)
            con.register("_states", pa.table(data))
            con.execute(f"INSERT INTO action_states ({', '.join(data)}) SELECT {', '.join(data)} FROM _states")
            con.unregister("_states")
        if findings:
            rows = [(*f, book) for f, book in findings]
            fnames = [*Finding._fields, "rulebook"]
            fdata: dict[str, list[Any]] = {name: [r[i] for r in rows] for i, name in enumerate(fnames)}
            fdata["run_id"] = [run_id] * len(rows)
            fdata["rule_version"] = [RULES_VERSION] * len(rows)
            fdata["checked_at"] = [now] * len(rows)
            table = pa.table({k: pa.array(v, pa.int64() if k == "action_seq" else None) for k, v in fdata.items()})
            con.register("_viol", table)
            con.execute(f"INSERT INTO violations ({', '.join(fdata)}) SELECT {', '.join(fdata)} FROM _viol")
            con.unregister("_viol")
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    finally:
        con.unregister("_checked")


VIOLATION_FIELDS = (
    "hand_id",
    "action_seq",
    "rule_id",
    "rulebook",
    "severity",
    "house_decision",
    "expected",
    "actual",
    "message",
)


def read_violations(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """Stored findings, in hand and action order, with the CLI's export fields."""
    rows = con.execute(
        f"SELECT {', '.join(VIOLATION_FIELDS)} FROM violations ORDER BY hand_id, action_seq NULLS LAST, rule_id"
    ).fetchall()
    return [dict(zip(VIOLATION_FIELDS, r, strict=True)) for r in rows]


class _Stream:
    """One table's rows for every hand, in rule order, read forward one record batch at a time."""

    def __init__(self, con: duckdb.DuckDBPyConnection, sql: str, make: Any) -> None:
        self.reader = con.execute(sql).to_arrow_reader(_STREAM_ROWS)
        self.make = make
        self.rn: list[int] = []
        self.rows: list[Any] = []
        self.done = False

    def upto(self, hi: int) -> tuple[list[int], list[Any]]:
        """Rows of the hands numbered below ``hi`` (and not taken yet)."""
        while not self.done and (not self.rn or self.rn[-1] < hi):
            try:
                batch = self.reader.read_next_batch()
            except StopIteration:
                self.done = True
                break
            cols = [c.to_pylist() for c in batch.columns]
            self.rn.extend(cols[0])
            self.rows.extend(self.make(cols[1:]))
        cut = bisect_left(self.rn, hi)
        rn, rows = self.rn[:cut], self.rows[:cut]
        del self.rn[:cut], self.rows[:cut]
        return rn, rows


def _actions(cols: list[list[Any]]) -> list[Action]:
    cols[1] = list(map(_STREETS.__getitem__, cols[1]))
    cols[3] = list(map(_KINDS.__getitem__, cols[3]))
    return [_ROW(Action, r) for r in zip(*cols, strict=True)]


def _holes(cols: list[list[Any]]) -> list[HoleCards]:
    cols[2] = [_PROV.get(pv, Provenance.SHOWN) for pv in cols[2]]
    return [_ROW(HoleCards, r) for r in zip(*cols, strict=True)]


def _rows_of(cls: type) -> Any:
    return lambda cols: [_ROW(cls, r) for r in zip(*cols, strict=True)]


def hand_batches(
    con: duckdb.DuckDBPyConnection, batch_size: int = DEFAULT_BATCH
) -> Generator[list[Hand], None, None]:
    """Every hand in table-and-time order, ``batch_size`` at a time (memory bounded by the batch).

    Why streams: each table is read once, joined to the hands' rule order and sorted by DuckDB,
    then consumed forward in record batches through its own cursor; a batch takes the rows of its
    hands from every stream. One scan per table, whatever the number of batches (a per-batch
    query would rescan the whole actions table every batch), and Python holds one batch of hands.
    """
    order = (
        f"WITH o AS (SELECT hand_id, (row_number() OVER (ORDER BY {_TABLE_ORDER}) - 1) AS rn FROM hands)"
    )
    cursors: list[duckdb.DuckDBPyConnection] = []
    try:
        streams: list[_Stream] = []
        makers = (_rows_of(Seat), _actions, _holes, _rows_of(Board), _rows_of(Pot), _rows_of(Award))
        for (cols, table, within), make in zip(_CHILD_SQL, makers, strict=True):
            cur = con.cursor()
            cursors.append(cur)
            tail = f", {within}" if within else ""
            sql = f"{order} SELECT o.rn, {cols} FROM o JOIN {table} c ON c.hand_id = o.hand_id ORDER BY o.rn{tail}"
            streams.append(_Stream(cur, sql, make))
        cur = con.cursor()
        cursors.append(cur)
        heads = _Stream(
            cur,
            f"{order} SELECT o.rn, {', '.join('h.' + c for c in _NAMES)} FROM o JOIN hands h"
            " ON h.hand_id = o.hand_id ORDER BY o.rn",
            lambda cols: list(zip(*cols, strict=True)),
        )
        lo = 0
        while True:
            hi = lo + batch_size
            _, rows = heads.upto(hi)
            if not rows:
                break
            n = len(rows)
            seats, acts, holes, boards, pots, awards = (_per_hand(*s.upto(hi), n, lo) for s in streams)
            yield [
                Hand(*h, seats[k], acts[k], holes[k], boards[k], pots[k], awards[k])  # type: ignore[call-arg]
                for k, h in enumerate(rows)
            ]
            lo = hi
    finally:
        for cur in cursors:
            cur.close()
