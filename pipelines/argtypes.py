"""Argument types shared by the ``floorman`` subcommands.

Why: a mistyped ``--db`` used to reach DuckDB, which creates a missing file (``check`` then reported
"checked 0 hands" on a new empty warehouse) or fails with a traceback. Checked at parse time, a bad
path is one line naming the file and the reason, exit code 2, and no file is left behind.
"""

from __future__ import annotations

import argparse
from pathlib import Path

#: a DuckDB database file carries this at bytes 8..11 of its header
DUCKDB_MAGIC = b"DUCK"


def existing_warehouse(value: str) -> str:
    """``value`` if it names an existing DuckDB warehouse with hands in it, else an argparse error
    saying why not."""
    path = Path(value)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"warehouse {value} does not exist (ingest into it first: floorman ingest)")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{value} is a folder, not a warehouse file")
    try:
        with path.open("rb") as f:
            header = f.read(12)
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{value}: cannot be read ({exc.strerror})") from exc
    if header[8:12] != DUCKDB_MAGIC:
        raise argparse.ArgumentTypeError(f"{value} is not a DuckDB warehouse file")
    if not _holds_hands(value):
        raise argparse.ArgumentTypeError(f"{value} holds no hands (ingest into it first: floorman ingest)")
    return value


def _holds_hands(value: str) -> bool:
    """The file has the warehouse's ``hands`` table (a DuckDB file made by something else does not)."""
    import duckdb

    from warehouse.db import open_duckdb, table_exists

    try:
        con = open_duckdb(value, read_only=True)
    except duckdb.Error as exc:  # e.g. another process holds the file's write lock
        reason = str(exc).splitlines()[0]
        raise argparse.ArgumentTypeError(f"{value}: cannot be opened ({reason})") from exc
    try:
        return table_exists(con, "hands")
    finally:
        con.close()
