"""Room for the detectors' intermediate tables: checked before a run starts, explained when DuckDB
runs out.

Why: a run keeps per-hand tables (``k_hp``, ``k_dec``, ``k_pcs`` ...) of roughly 730 bytes per
seated player, and what does not fit under DuckDB's memory limit spills to its temp directory. A
ten-million-hand night spilled about 45 GB; when the disk is too small, DuckDB fails many minutes
in with "failed to offload data block", naming none of the settings a deployment controls. Counting
the hands is cheap, so a run says before it starts when its spill will not fit, and what to change.

Calibration (temp files' peak, ``du`` every second): 1,000,000 simulated hands (6.6M seats) under a
4 GB limit spilled 2.76 GB; the 10M cluster night (about 66M seats) under 6 GB spilled about 45 GB.
Both fit ``730 B x seats - 0.5 x memory limit``: about half of the limit holds tables, the rest
is working memory for the queries.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import duckdb

BYTES_PER_SEAT = 730
MEMORY_SHARE_FOR_TABLES = 0.5
#: DuckDB's own default cap on its temp directory: 90% of the disk space free when it starts
DEFAULT_DISK_SHARE = 0.9
_UNITS = {"B": 1, "BYTES": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
          "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}
_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(bytes|[KMGT]?I?B?)\s*$", re.IGNORECASE)
ADVICE = ("free space there, point FLOORMAN_DUCKDB_TEMP at a larger disk, or raise FLOORMAN_DUCKDB_MEMORY "
          "(each GB of memory saves about half a GB of spill)")


class DetectorSpaceError(RuntimeError):
    """The detectors' spill does not fit (or did not fit) in DuckDB's temp directory."""


@dataclass(frozen=True)
class Room:
    """Where DuckDB spills and how much it may write there."""

    directory: Path
    usable: int


def parse_size(text: str) -> int | None:
    """Bytes in a DuckDB size such as ``4GB`` or ``3.7 GiB``; None for anything else (``90% of
    available disk space``)."""
    m = _SIZE.match(text or "")
    if not m:
        return None
    unit = m.group(2).upper() or "B"
    unit = unit if unit.endswith(("B", "BYTES")) else unit + "B"
    return int(float(m.group(1)) * _UNITS[unit]) if unit in _UNITS else None


def spill_estimate(seats: int, memory_limit: int) -> int:
    """Bytes a run over ``seats`` seated players is expected to spill under ``memory_limit``."""
    return max(0, BYTES_PER_SEAT * seats - int(MEMORY_SHARE_FOR_TABLES * memory_limit))


def temp_room(con: duckdb.DuckDBPyConnection) -> Room:
    """DuckDB's temp directory and the bytes it may fill: the explicit ``max_temp_directory_size``,
    else DuckDB's default share of the free disk, whichever is smaller."""
    directory = Path(_setting(con, "temp_directory") or ".tmp").absolute()
    existing = next(p for p in (directory, *directory.parents) if p.exists())
    usable = int(DEFAULT_DISK_SHARE * shutil.disk_usage(existing).free)
    cap = parse_size(_setting(con, "max_temp_directory_size"))
    return Room(directory, usable if cap is None else min(usable, cap))


def check_room(con: duckdb.DuckDBPyConnection, hands_in_run: int, memory_limit: str) -> None:
    """Raise ``DetectorSpaceError`` if a run over ``hands_in_run`` hands would spill more than its
    temp directory takes (seats estimated from the warehouse's own seats per hand)."""
    seats = round(hands_in_run * _seats_per_hand(con))
    limit = parse_size(memory_limit) or 0
    need = spill_estimate(seats, limit)
    if need == 0:
        return
    room = temp_room(con)
    if need > room.usable:
        raise DetectorSpaceError(
            f"the detectors need about {_gb(need)} of temporary disk for {hands_in_run:,} hands "
            f"(about {seats:,} seated players) beyond the {memory_limit} memory limit, and only "
            f"{_gb(room.usable)} is usable in {room.directory}: {ADVICE}")


def out_of_room(exc: duckdb.Error, con: duckdb.DuckDBPyConnection, memory_limit: str) -> DetectorSpaceError:
    """DuckDB's out-of-memory error restated with the settings a deployment can change: a block it
    could not offload means the temp directory was full, any other allocation means memory."""
    room = temp_room(con)
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    short = "temporary disk" if "offload" in first else "memory"
    return DetectorSpaceError(
        f"the detectors ran out of {short} (DuckDB: {first}); memory limit {memory_limit}, "
        f"{_gb(room.usable)} usable in {room.directory}: {ADVICE}")


def _seats_per_hand(con: duckdb.DuckDBPyConnection) -> float:
    row = con.execute("SELECT (SELECT count(*) FROM seats), (SELECT count(*) FROM hands)").fetchone()
    seats, hands = row if row else (0, 0)
    return seats / hands if hands else 0.0


def _setting(con: duckdb.DuckDBPyConnection, name: str) -> str:
    row = con.execute("SELECT current_setting(?)", [name]).fetchone()
    return str(row[0]) if row and row[0] is not None else ""


def _gb(n: int) -> str:
    return f"{n / 1e9:.1f} GB"
