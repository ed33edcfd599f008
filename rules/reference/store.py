"""Warehouse I/O for the rule checker: read hands in bulk, write action_states and violations.

Why bulk: one query per table, ordered by hand, fetched as Python tuples and grouped in one pass
(never one query per hand). Writing replaces the rows of the checked hands, so a re-run is
idempotent.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from parsers.model import Action, Award, Board, Hand, HoleCards, Kind, Pot, Provenance, Seat, Street
from rules.findings import RULES_VERSION, Finding

from .check import CheckedBatch
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


def _grouped(
    con: duckdb.DuckDBPyConnection, sql: str, where: str, params: list[Any]
) -> dict[str, list[tuple[Any, ...]]]:
    out: dict[str, list[tuple[Any, ...]]] = {}
    for row in con.execute(sql.format(where=where), params).fetchall():
        out.setdefault(row[0], []).append(row[1:])
    return out


def load_hands(con: duckdb.DuckDBPyConnection, hand_ids: Sequence[str] | None = None) -> Iterator[Hand]:
    """Every hand (or the given ones) rebuilt as ``Hand`` objects from the warehouse tables."""
    where, params = ("", []) if hand_ids is None else ("WHERE hand_id IN (SELECT unnest(?))", [list(hand_ids)])
    seats = _grouped(
        con,
        "SELECT hand_id, seat_no, player, stack, sitting_out, final_stack FROM seats {where} ORDER BY hand_id, seat_no",
        where,
        params,
    )
    acts = _grouped(
        con,
        "SELECT hand_id, seq, street, player, kind, amount, raise_to, all_in, contribution, cards"
        " FROM actions {where} ORDER BY hand_id, seq",
        where,
        params,
    )
    holes = _grouped(con, "SELECT hand_id, player, cards, provenance FROM hole_cards {where}", where, params)
    boards = _grouped(
        con, "SELECT hand_id, board_no, cards FROM boards {where} ORDER BY hand_id, board_no", where, params
    )
    pots = _grouped(con, "SELECT hand_id, pot_no, amount FROM pots {where} ORDER BY hand_id, pot_no", where, params)
    awards = _grouped(con, "SELECT hand_id, player, amount, pot_no, board_no FROM awards {where}", where, params)
    rows = con.execute(f"SELECT {_HAND_COLS} FROM hands {where} ORDER BY hand_id", params).fetchall()
    for r in rows:
        hid = r[0]
        yield Hand(
            **dict(zip(_NAMES, r, strict=True)),
            seats=[Seat(*s) for s in seats.get(hid, [])],
            actions=[
                Action(s, _STREETS[st], p, _KINDS[k], am, rt, ai, c, cd)
                for s, st, p, k, am, rt, ai, c, cd in acts.get(hid, [])
            ],
            hole_cards=[HoleCards(p, c, _PROV.get(pv, Provenance.SHOWN)) for p, c, pv in holes.get(hid, [])],
            boards=[Board(*b) for b in boards.get(hid, [])],
            pots=[Pot(*p) for p in pots.get(hid, [])],
            awards=[Award(*a) for a in awards.get(hid, [])],
        )


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


def hand_batches(
    con: duckdb.DuckDBPyConnection, batch_size: int = DEFAULT_BATCH
) -> Generator[list[Hand], None, None]:
    """Every hand in table-and-time order, ``batch_size`` at a time (memory bounded by the batch).

    The order lives in a DuckDB temp table (row number per hand), so Python never holds the whole id
    list; each batch is one range of row numbers, read with one query per child table.
    """
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _rule_order AS"
        f" SELECT hand_id, (row_number() OVER (ORDER BY {_TABLE_ORDER}) - 1) AS rn FROM hands"
    )
    try:
        row = con.execute("SELECT count(*) FROM _rule_order").fetchone()
        total = int(row[0]) if row else 0
        for lo in range(0, total, batch_size):
            ids = [
                r[0]
                for r in con.execute(
                    "SELECT hand_id FROM _rule_order WHERE rn >= ? AND rn < ? ORDER BY rn", [lo, lo + batch_size]
                ).fetchall()
            ]
            by_id = {h.hand_id: h for h in load_hands(con, ids)}
            yield [by_id[i] for i in ids]
    finally:
        con.execute("DROP TABLE IF EXISTS _rule_order")
