"""Opening the warehouse: one DuckDB file, schema applied idempotently.

Why a single entry point: DuckDB allows one writer process per file (engineering_anchors §0.2),
so every writer goes through ``connect`` and readers use ``connect(path, read_only=True)`` on a
published snapshot, never on the file a pipeline is writing.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb

#: DuckDB settings a deployment sets per process through the environment. Why: DuckDB's default
#: memory limit is 80% of the machine's RAM per connection, so two workers on one machine (or a
#: worker in a pod with a smaller limit) can each try to take most of it; a night at ten million
#: hands did, and was killed for memory (README, Distributed night).
DUCKDB_ENV: dict[str, str] = {
    "FLOORMAN_DUCKDB_MEMORY": "memory_limit",  # e.g. 6GB: DuckDB spills to disk beyond it
    "FLOORMAN_DUCKDB_THREADS": "threads",  # benchmarks pin DuckDB to one core
    "FLOORMAN_DUCKDB_TEMP": "temp_directory",  # where it spills (default: beside the file)
    "FLOORMAN_DUCKDB_MAX_TEMP": "max_temp_directory_size",  # e.g. a pod's ephemeral storage (default: 90% free)
}


def duckdb_config() -> dict[str, Any]:
    """The DuckDB settings taken from the environment (``DUCKDB_ENV``), for ``duckdb.connect``."""
    config: dict[str, Any] = {}
    for variable, setting in DUCKDB_ENV.items():
        value = os.environ.get(variable, "").strip()
        if value:
            config[setting] = int(value) if setting == "threads" else value
    return config


#: settings DuckDB accepts in ``connect``'s config but does not enforce from there (1.5: a temp
#: directory cap given at connect let 330 MB spill past a 10 MB cap); set on the connection instead
SET_AFTER_CONNECT = frozenset({"max_temp_directory_size"})


def memory_limit(default: str) -> str:
    """The deployment's DuckDB memory limit if it set one, else ``default``."""
    return str(duckdb_config().get("memory_limit", default))


def open_duckdb(path: str | Path, *, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """``duckdb.connect`` with the deployment's settings (``duckdb_config``) and no progress bar.

    Why no bar: where Python looks interactive to DuckDB (``python -c``, and the forkserver or spawn
    children Dagster's multiprocess executor runs steps in) it draws one on standard output for any
    query over two seconds, and in a night's logs that is hundreds of carriage-return lines between
    the records an engineer reads. It is a session setting, so it is set on the connection, not in
    its config."""
    config = duckdb_config()
    con = duckdb.connect(str(path), read_only=read_only,
                         config={k: v for k, v in config.items() if k not in SET_AFTER_CONNECT})
    con.execute("SET enable_progress_bar = false")
    for name in SET_AFTER_CONNECT & config.keys():
        con.execute(f"SET {name} = ?", [str(config[name])])
    return con


def schema_sql(package: str = "warehouse", name: str = "schema.sql") -> str:
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def connect(path: str | Path, *, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open (and for writers, create and migrate) a warehouse file."""
    path = Path(path)
    if read_only:
        if not path.exists():
            raise FileNotFoundError(f"warehouse {path} does not exist")
        return open_duckdb(path, read_only=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    con = open_duckdb(path)
    con.execute(schema_sql())
    return con


def table_exists(con: duckdb.DuckDBPyConnection, name: str, catalog: str | None = None) -> bool:
    """Whether a table ``name`` exists (in the attached database ``catalog``, when given)."""
    row = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = $n AND ($c IS NULL OR table_catalog = $c)",
        {"n": name, "c": catalog},
    ).fetchone()
    return bool(row and row[0])
