"""Whether two warehouses hold the same night: row counts and a digest per table.

Why digests of canonical rows and not a file comparison: two builds of the same files differ in
what is *about* the build (run ids, build and check timestamps, where the files were read from),
never in what the integrity team reads (hands, rule findings, flags, the scores behind them).
Each table's rows become text with those columns left out and floats rounded, are sorted, and
hashed with SHA-256, so "equal" means the same set of rows.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import duckdb

from warehouse.db import open_duckdb

#: columns about the build, not the night
_BUILD = frozenset({"run_id", "checked_at", "created_at", "ingested_at", "quarantined_at", "path", "source_file"})

#: what is compared, in the order it is printed: the night's content first, then what it found
TABLES = (
    "raw_files", "hands", "seats", "actions", "hole_cards", "boards", "pots", "awards",
    "reconciliation", "quarantine", "action_states", "violations",
    "player_stats", "pair_stats", "pair_scores", "flags",
)
#: the figures the closing line names
HEADLINE = ("hands", "violations", "flags")
FLOAT_DIGITS = 9


@dataclass(frozen=True)
class TableDigest:
    rows: int
    sha256: str


def _row_sql(con: duckdb.DuckDBPyConnection, table: str) -> str | None:
    cols = con.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'main' AND table_name = ? ORDER BY ordinal_position",
        [table],
    ).fetchall()
    if not cols:
        return None
    parts = []
    for name, dtype in cols:
        if name in _BUILD:
            continue
        value = f'round("{name}", {FLOAT_DIGITS})' if dtype in {"DOUBLE", "FLOAT", "REAL"} else f'"{name}"'
        parts.append(f"coalesce(CAST({value} AS VARCHAR), '<null>')")
    return "concat_ws('\x1f', " + ", ".join(parts) + ")" if parts else None


def digest(db: Path) -> dict[str, TableDigest | None]:
    """Table -> digest of its canonical rows (None: the table is missing)."""
    con = open_duckdb(db, read_only=True)  # quiet: sorting a 10M-hand night's rows takes minutes
    try:
        out: dict[str, TableDigest | None] = {}
        for table in TABLES:
            row = _row_sql(con, table)
            if row is None:
                out[table] = None
                continue
            h = hashlib.sha256()
            n = 0
            for (text,) in con.execute(f'SELECT {row} AS r FROM "{table}" ORDER BY r').fetchall():
                h.update(text.encode("utf-8"))
                h.update(b"\n")
                n += 1
            out[table] = TableDigest(n, h.hexdigest())
        return out
    finally:
        con.close()


def differing(a: dict[str, TableDigest | None], b: dict[str, TableDigest | None]) -> list[str]:
    return [t for t in TABLES if a.get(t) != b.get(t)]


def report_lines(single: dict[str, TableDigest | None], cluster: dict[str, TableDigest | None]) -> list[str]:
    """One line per table: rows on each side and whether the digests agree."""
    lines = []
    for t in TABLES:
        s, c = single.get(t), cluster.get(t)
        mark = "equal" if s == c else "DIFFERENT"
        lines.append(f"  {t:<15} single {_rows(s):>8}  cluster {_rows(c):>8}  {mark}"
                     + (f"  sha256 {s.sha256[:12]}" if s is not None and s == c else ""))
    return lines


def _rows(d: TableDigest | None) -> str:
    return "missing" if d is None else str(d.rows)


def headline(single: dict[str, TableDigest | None], cluster: dict[str, TableDigest | None]) -> str:
    """The verdict with the counts that matter, e.g. ``hands 12000, violations 0, flags 14``."""
    diff = differing(single, cluster)
    counts = ", ".join(f"{t} {_rows(cluster.get(t))}" for t in HEADLINE)
    if not diff:
        return f"EQUAL: {counts}; all {len(TABLES)} tables have the same rows (sha256)"
    return f"DIFFERENT in {', '.join(diff)}: cluster {counts}"
