"""Opening the warehouse: one DuckDB file, schema applied idempotently.

Why a single entry point: DuckDB allows one writer process per file (engineering_anchors §0.2),
so every writer goes through ``connect`` and readers use ``connect(path, read_only=True)`` on a
published snapshot, never on the file a pipeline is writing.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import duckdb


def schema_sql(package: str = "warehouse", name: str = "schema.sql") -> str:
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def connect(path: str | Path, *, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open (and for writers, create and migrate) a warehouse file."""
    path = Path(path)
    if read_only:
        if not path.exists():
            raise FileNotFoundError(f"warehouse {path} does not exist")
        return duckdb.connect(str(path), read_only=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(path))
    con.execute(schema_sql())
    return con


def table_exists(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    row = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name]
    ).fetchone()
    return bool(row and row[0])
