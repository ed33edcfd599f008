"""Combine partition warehouses built by independent processes into one.

Why: the nightly audit fans out over partitions (a day of a site); each worker writes its own
DuckDB file (one writer per file), and this folds them in with the same exactly-once rules as
ingest: a file (sha256) and a hand (hand_id) are stored once, child rows follow their hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import duckdb

from .db import connect

FILE_KEYED = {"raw_files": "sha256", "quarantine": "file_sha256"}


def _hand_keyed_tables(con: duckdb.DuckDBPyConnection, catalog: str) -> list[str]:
    rows = con.execute(
        "SELECT table_name FROM information_schema.columns "
        "WHERE table_catalog = ? AND column_name = 'hand_id' AND table_name <> 'hands' ORDER BY 1",
        [catalog],
    ).fetchall()
    return [r[0] for r in rows]


def merge_warehouses(target: str | Path, parts: Sequence[str | Path]) -> dict[str, int]:
    """Fold each partition file into ``target``; returns rows added per table."""
    added: dict[str, int] = {}
    con = connect(target)
    try:
        for i, part in enumerate(parts):
            alias = f"part{i}"
            con.execute(f"ATTACH '{Path(part)}' AS {alias} (READ_ONLY)")
            try:
                con.execute("BEGIN TRANSACTION")
                con.execute(
                    f"CREATE OR REPLACE TEMP TABLE new_files AS SELECT sha256 FROM {alias}.raw_files "
                    f"EXCEPT SELECT sha256 FROM raw_files"
                )
                con.execute(
                    f"CREATE OR REPLACE TEMP TABLE new_hands AS SELECT hand_id FROM {alias}.hands "
                    f"EXCEPT SELECT hand_id FROM hands"
                )
                _add(con, added, "hands", f"INSERT INTO hands BY NAME SELECT * FROM {alias}.hands "
                     "WHERE hand_id IN (SELECT hand_id FROM new_hands)")
                for table in _hand_keyed_tables(con, alias):
                    # tables a later stage added to the partition (action_states, violations...)
                    con.execute(f"CREATE TABLE IF NOT EXISTS {table} AS SELECT * FROM {alias}.{table} LIMIT 0")
                    _add(con, added, table, f"INSERT INTO {table} BY NAME SELECT * FROM {alias}.{table} "
                             "WHERE hand_id IN (SELECT hand_id FROM new_hands)")
                for table, key in FILE_KEYED.items():
                    _add(con, added, table, f"INSERT INTO {table} BY NAME SELECT * FROM {alias}.{table} "
                         f"WHERE {key} IN (SELECT sha256 FROM new_files)")
                con.execute("COMMIT")
            except Exception:
                con.execute("ROLLBACK")
                raise
            finally:
                con.execute(f"DETACH {alias}")
    finally:
        con.close()
    return added


def _add(con: duckdb.DuckDBPyConnection, added: dict[str, int], table: str, sql: str) -> None:
    row = con.execute(sql).fetchone()
    added[table] = added.get(table, 0) + (int(row[0]) if row else 0)
