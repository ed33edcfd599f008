"""Warehouse I/O for the rule checker: read hands in bulk, write action_states and violations.

Why bulk: one query per table per window of hands, joined on the hands' row numbers, sorted by
DuckDB and fetched as Arrow columns, then cut into per-hand lists by one scan of the row numbers
(never one query per hand, never a rescan of the child tables per batch). Writing replaces the rows
of the checked hands, so a re-run is idempotent.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from parsers.model import Action, Award, Board, Hand, HoleCards, Kind, Pot, Provenance, Seat, Street

from .check import CheckedBatch
from .codes import FLAGS_SQL, KIND_SQL, STREET_SQL
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


#: hand columns after ``cancelled`` (issue 13's records), read into the ``Hand`` field of the same name
_EXTRA_HAND_COLS = ("rabbit_cards", "cancel_reason", "redeal_of", "rit_declined")
_N_BASE = len(_HAND_COLS.split(","))
_NAMES = (*(c.strip() for c in _HAND_COLS.split(",")), *_EXTRA_HAND_COLS)


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(SCHEMA.read_text(encoding="utf-8"))


_CHILD_SQL = (
    # (select list, table, order within a hand); every query is joined to the hands' numbers ``rn``.
    # Hole cards and awards have no key of their own: stored order (rowid), i.e. the parser's order.
    ("c.seat_no, c.player, c.stack, c.sitting_out, c.final_stack", "seats", "c.seat_no"),
    (
        "c.seq, c.street, c.player, c.kind, c.amount, c.raise_to, c.all_in, c.contribution, c.cards, c.acted_at,"
        " c.left_table IS TRUE",  # a NULL (a row stored before the column) is no leave
        "actions",
        "c.seq",
    ),
    ("c.player, c.cards, c.provenance", "hole_cards", "c.rowid"),
    ("c.board_no, c.cards", "boards", "c.board_no"),
    ("c.pot_no, c.amount, c.rake", "pots", "c.pot_no"),
    ("c.player, c.amount, c.pot_no, c.board_no", "awards", "c.rowid"),
)
_ROW = tuple.__new__
#: hands fetched per query window: one join-and-sort per table per window (bounded memory, and a
#: 1M-hand warehouse scans each child table ten times rather than once per batch)
WINDOW = 100_000


def _actions(cols: list[list[Any]]) -> list[Action]:
    cols[1] = list(map(_STREETS.__getitem__, cols[1]))
    cols[3] = list(map(_KINDS.__getitem__, cols[3]))
    return [_ROW(Action, r) for r in zip(*cols, strict=True)]


def _holes(cols: list[list[Any]]) -> list[HoleCards]:
    cols[2] = [_PROV.get(pv, Provenance.SHOWN) for pv in cols[2]]
    return [_ROW(HoleCards, r) for r in zip(*cols, strict=True)]


def _rows_of(cls: type) -> Callable[[list[list[Any]]], list[Any]]:
    return lambda cols: [_ROW(cls, r) for r in zip(*cols, strict=True)]


_Maker = Callable[[list[list[Any]]], list[Any]]
_MAKERS: tuple[_Maker, ...] = (_rows_of(Seat), _actions, _holes, _rows_of(Board), _rows_of(Pot), _rows_of(Award))


def _per_hand(rn: list[int], rows: list[Any], n: int, lo: int) -> list[list[Any]]:
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


def _fetch(con: duckdb.DuckDBPyConnection, order: str, lo: int, hi: int) -> list[pa.Table]:
    """The hands numbered lo..hi-1 in temp table ``order`` (hand_id, rn): hands first, then each
    child table, every one sorted by hand number (and the child's own order) by DuckDB."""
    out = [
        con.execute(
            f"SELECT o.rn, {', '.join('h.' + c for c in _NAMES)} FROM {order} o JOIN hands h ON h.hand_id = o.hand_id"
            " WHERE o.rn >= ? AND o.rn < ? ORDER BY o.rn",
            [lo, hi],
        ).to_arrow_table()
    ]
    for cols, table, within in _CHILD_SQL:
        out.append(
            con.execute(
                f"SELECT o.rn, {cols} FROM {order} o JOIN {table} c ON c.hand_id = o.hand_id"
                f" WHERE o.rn >= ? AND o.rn < ? ORDER BY o.rn, {within}",
                [lo, hi],
            ).to_arrow_table()
        )
    return out


def _cut(tables: list[pa.Table], lo: int, hi: int) -> list[Hand]:
    """``Hand`` objects for hand numbers lo..hi-1 from fetched, rn-sorted tables (column-wise)."""
    parts: list[list[list[Any]]] = []
    for t in tables:
        rn = t.column(0).to_numpy()
        a, b = (int(x) for x in rn.searchsorted([lo, hi]))
        parts.append([c.to_pylist() for c in t.slice(a, b - a).columns])
    heads = list(zip(*parts[0][1:], strict=True))
    n = len(heads)
    seats, acts, holes, boards, pots, awards = (
        _per_hand(cols[0], make(cols[1:]), n, lo) for cols, make in zip(parts[1:], _MAKERS, strict=True)
    )
    return [
        Hand(*h[:_N_BASE], seats[k], acts[k], holes[k], boards[k], pots[k], awards[k],  # type: ignore[call-arg]
             **dict(zip(_EXTRA_HAND_COLS, h[_N_BASE:], strict=True)))
        for k, h in enumerate(heads)
    ]


def load_hands(con: duckdb.DuckDBPyConnection, hand_ids: Sequence[str] | None = None) -> Iterator[Hand]:
    """Every hand (or the given ones, in hand_id order) rebuilt as ``Hand`` objects from the warehouse."""
    where, params = ("", []) if hand_ids is None else ("WHERE hand_id IN (SELECT unnest(?))", [list(hand_ids)])
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _rule_pick AS"
        f" SELECT hand_id, (row_number() OVER (ORDER BY hand_id) - 1) AS rn FROM hands {where}",
        params,
    )
    try:
        row = con.execute("SELECT count(*) FROM _rule_pick").fetchone()
        n = int(row[0]) if row else 0
        hands = _cut(_fetch(con, "_rule_pick", 0, n), 0, n)
    finally:
        con.execute("DROP TABLE IF EXISTS _rule_pick")
    yield from hands


def write_results(
    con: duckdb.DuckDBPyConnection, done: CheckedBatch | Any, run_id: str, in_transaction: bool = False,
    replace: bool = True,
) -> None:
    """Replace the checked hands' rows in action_states and violations (idempotent re-runs).

    ``done`` is a ``CheckedBatch`` or the fast path's ``rules.columnar.ColumnarBatch`` (states already
    an Arrow table with its ``rulebook`` column: inserted as is). The rows are written in a
    transaction of their own, or, with ``in_transaction``, in the caller's open one (the runner
    commits a whole run once: a DuckDB commit of a batch this size is a checkpoint, which cost more
    than the insert itself at every batch). ``replace=False``: the caller has already deleted the
    hands' earlier rows (``delete_results``), so the rows are only inserted.
    """
    hand_ids, states, findings, rulebook_of = done.hand_ids, done.states, done.findings, done.rulebook_of
    if not in_transaction:
        ensure_schema(con)
    now = datetime.now(UTC).replace(tzinfo=None)
    ids = pa.table({"hand_id": pa.array(list(hand_ids), pa.string())})
    con.register("_checked", ids)
    try:
        if not in_transaction:
            con.execute("BEGIN")
        if replace:
            con.execute("DELETE FROM action_states WHERE hand_id IN (SELECT hand_id FROM _checked)")
            con.execute("DELETE FROM violations WHERE hand_id IN (SELECT hand_id FROM _checked)")
        if isinstance(states, pa.Table):
            if states.num_rows:
                con.register("_states", states)
                listed = ", ".join(states.column_names)
                con.execute(f"INSERT INTO action_states ({listed}, run_id) SELECT {listed}, ? FROM _states", [run_id])
                con.unregister("_states")
        elif states:
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
        if not in_transaction:
            con.execute("COMMIT")
    except Exception:
        if not in_transaction:
            con.execute("ROLLBACK")
        raise
    finally:
        con.unregister("_checked")


def delete_results(con: duckdb.DuckDBPyConnection) -> None:
    """Delete the action_states and violations rows of every hand in the warehouse (a run that checks
    them all, in its transaction, before its inserts: one scan of each table, not one per batch)."""
    con.execute("DELETE FROM action_states WHERE hand_id IN (SELECT hand_id FROM hands)")
    con.execute("DELETE FROM violations WHERE hand_id IN (SELECT hand_id FROM hands)")


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


def read_violations(con: duckdb.DuckDBPyConnection, severities: Sequence[str] = (),
                    rule_ids: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Stored findings, in hand and action order, with the CLI's export fields; only those of the
    given severities and rule ids (any case) when any are given (a floor manager's "errors only", or one rule)."""
    rows = con.execute(
        f"""SELECT {', '.join(VIOLATION_FIELDS)} FROM violations
        WHERE (len($sev) = 0 OR list_contains($sev, severity))
          AND (len($rules) = 0 OR list_contains($rules, upper(rule_id)))
        ORDER BY hand_id, action_seq NULLS LAST, rule_id""",
        {"sev": list(severities), "rules": [r.upper() for r in rule_ids]},
    ).fetchall()
    return [dict(zip(VIOLATION_FIELDS, r, strict=True)) for r in rows]


#: the fast path's extra columns, integers computed by DuckDB after the ``_CHILD_SQL`` columns
#: (which stay, for the hands the Python engine checks): no kind, street or player string is hashed
#: in Python. Players are ``hash(player) >> 1`` (63 bits, never negative) and only compared within
#: one hand: two seated players of a hand with one code make the kernel hand it to Python; an
#: unseated name colliding with a seated one (odds about 2^-60 per hand) is the one case the codes
#: could confuse.
_PCODE = "(hash(c.player) >> 1)::BIGINT AS k_player"
_KERNEL_EXTRA = {
    "hands": f"({FLAGS_SQL})::BIGINT AS k_flags, coalesce(h.button_seat, -1)::BIGINT AS k_button,"
    " coalesce(h.site_rake, 0) AS k_rake, coalesce(h.site_fees, 0) AS k_fees,"
    " coalesce(h.site_total_pot, 0) AS k_total, coalesce(h.site_added, 0) AS k_added",
    "seats": f"c.seat_no::BIGINT AS k_seat_no, {_PCODE}, coalesce(c.final_stack, 0) AS k_final,"
    " c.final_stack IS NOT NULL AS k_has_final",
    "actions": f"c.seq::BIGINT AS k_seq, ({STREET_SQL})::BIGINT AS k_street, {_PCODE}, ({KIND_SQL})::BIGINT AS k_kind,"
    " coalesce(c.amount, 0) AS k_amount",
    "hole_cards": _PCODE,
    "boards": "",
    # a pot with its own rake written (Pot.rake): the kernel reads no per-pot rake (rules.columnar)
    "pots": "c.rake IS NOT NULL AS k_pot_rake",
    "awards": _PCODE,
}


#: what the fast path reads of each child table besides its ``k_*`` integers (``rules.columnar.
#: window_arrays``: seated names for the states, stacks, cards, amounts, whether an action has a time).
#: The Python engine's full rows (``_CHILD_SQL``: names, kinds and streets as text) are most of the
#: load's cost and are needed only for the few hands the kernel hands over, so the runner fetches
#: them per window on first need (``LeanWindow.full``), never for a window the kernel decides whole.
_LEAN_COLS = {
    "seats": "c.player, c.stack, c.sitting_out",
    "actions": "c.all_in, c.contribution, c.cards, c.acted_at",
    "hole_cards": "c.cards",
    "boards": "c.cards",
    "pots": "",
    "awards": "c.amount",
}


def _fetch_kernel(con: duckdb.DuckDBPyConnection, order: str, lo: int, hi: int, lean: bool = False) -> list[pa.Table]:
    """``_fetch`` plus the fast path's integer columns (named ``k_*``, after the usual ones); ``lean``:
    of the child tables only the columns the fast path reads (``_LEAN_COLS``)."""
    extra = _KERNEL_EXTRA["hands"]
    out = [
        con.execute(
            f"SELECT o.rn, {', '.join('h.' + c for c in _NAMES)}, {extra} FROM {order} o"
            " JOIN hands h ON h.hand_id = o.hand_id WHERE o.rn >= ? AND o.rn < ? ORDER BY o.rn",
            [lo, hi],
        ).to_arrow_table()
    ]
    for cols, table, within in _CHILD_SQL:
        picked = ", ".join(x for x in ((_LEAN_COLS[table] if lean else cols), _KERNEL_EXTRA[table]) if x)
        out.append(
            con.execute(
                f"SELECT o.rn{', ' if picked else ''}{picked} FROM {order} o JOIN {table} c ON c.hand_id = o.hand_id"
                f" WHERE o.rn >= ? AND o.rn < ? ORDER BY o.rn, {within}",
                [lo, hi],
            ).to_arrow_table()
        )
    return out


#: columns of each ``_fetch`` table (``_cut`` reads these; the fast path's ``k_*`` columns follow)
FETCH_WIDTHS = (1 + len(_NAMES), *(1 + len(cols.split(",")) for cols, _, _ in _CHILD_SQL))


def _ordered_windows(
    con: duckdb.DuckDBPyConnection,
    batch_size: int,
    fetch: Callable[[duckdb.DuckDBPyConnection, str, int, int], list[pa.Table]],
) -> Generator[tuple[list[pa.Table], int, int], None, None]:
    """(fetched tables, lo, hi) per batch of hand numbers, in table-and-time order.

    The order lives in a DuckDB temp table (row number per hand), so Python never holds the whole id
    list. Rows are fetched one window of hand numbers at a time (``fetch``: one query per table,
    joined on the row numbers, sorted by DuckDB, fetched as Arrow); batches are slices of a window.
    """
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _rule_order AS"
        f" SELECT hand_id, (row_number() OVER (ORDER BY {_TABLE_ORDER}) - 1) AS rn FROM hands"
    )
    try:
        row = con.execute("SELECT count(*) FROM _rule_order").fetchone()
        total = int(row[0]) if row else 0
        window = max(batch_size, WINDOW // batch_size * batch_size)
        for wlo in range(0, total, window):
            tables = fetch(con, "_rule_order", wlo, wlo + window)
            for lo in range(wlo, min(wlo + window, total), batch_size):
                yield tables, lo, min(lo + batch_size, total)
            del tables
    finally:
        con.execute("DROP TABLE IF EXISTS _rule_order")


class LeanWindow(list[pa.Table]):
    """The tables of one query window for the fast path: lean (``_LEAN_COLS``) or ``complete`` (every
    column, ``_fetch_kernel``). ``full()``: the window's tables with every column, fetched from ``con``
    on first call for a lean window, for the hands the Python engine checks; ``needed`` says whether
    it was called. The window's own hands table (``rn``, ``hand_id``) is the order joined, so
    ``full()`` works after the window generator has ended, while ``con`` is open."""

    def __init__(self, tables: list[pa.Table], con: duckdb.DuckDBPyConnection, lo: int, hi: int,
                 complete: bool = False) -> None:
        super().__init__(tables)
        self._con, self._lo, self._hi = con, lo, hi
        self._full: list[pa.Table] | None = list(tables) if complete else None
        self.complete = complete
        self.needed = False

    def full(self) -> list[pa.Table]:
        self.needed = True
        if self._full is None:
            self._con.register("_rule_window", self[0].select(["rn", "hand_id"]))
            try:
                self._full = _fetch_kernel(self._con, "_rule_window", self._lo, self._hi)
            finally:
                self._con.unregister("_rule_window")
        return self._full


def full_tables(tables: list[pa.Table]) -> list[pa.Table]:
    """Every column of a window's tables (``LeanWindow.full`` for a lean window)."""
    return tables.full() if isinstance(tables, LeanWindow) else tables


def column_windows(
    con: duckdb.DuckDBPyConnection, batch_size: int = DEFAULT_BATCH, lean: bool = False
) -> Generator[tuple[list[pa.Table], int, int], None, None]:
    """``hand_batches`` without building ``Hand`` objects: (fetched tables, lo, hi) per batch, for
    ``rules.columnar`` (same table-and-time order, same windows, plus the kernel's integer columns).

    ``lean`` (what ``floorman check`` reads): each window is a ``LeanWindow``, lean after a window
    (or at the first) whose hands all stayed in the kernel, complete after one that sent a hand to
    the Python engine: a lean window that needs its full rows fetches the window again (a clean
    simulated night then loads ~35% less; real exports, where most windows have a hand for Python,
    load as much as with ``lean=False`` plus one lean window). ``con`` must stay open until the
    windows are checked."""
    if not lean:
        yield from _ordered_windows(con, batch_size, _fetch_kernel)
        return
    previous: list[LeanWindow] = []

    def fetch(c: duckdb.DuckDBPyConnection, order: str, lo: int, hi: int) -> list[pa.Table]:
        complete = bool(previous) and previous[-1].needed  # read after the previous window was checked
        window = LeanWindow(_fetch_kernel(c, order, lo, hi, lean=not complete), c, lo, hi, complete=complete)
        previous[:] = [window]
        return window

    yield from _ordered_windows(con, batch_size, fetch)


def hand_batches(
    con: duckdb.DuckDBPyConnection, batch_size: int = DEFAULT_BATCH
) -> Generator[list[Hand], None, None]:
    """Every hand in table-and-time order, ``batch_size`` at a time (memory bounded by the window)."""
    for tables, lo, hi in _ordered_windows(con, batch_size, _fetch):
        yield _cut(tables, lo, hi)
