"""Room for the detectors' intermediate tables: checked before a run starts, explained when DuckDB
runs out.

Why: a run keeps per-hand tables (``k_hp``, ``k_dec``, ``k_pcs`` ...) of roughly 730 bytes per
seated player, and what does not fit under DuckDB's memory limit spills to its temp directory. A
ten-million-hand night spilled about 45 GB; when the disk is too small, DuckDB fails many minutes
in with "failed to offload data block", naming none of the settings a deployment controls. Counting
the hands is cheap, so a run says before it starts when its spill clearly will not fit, and what to
change. The partitions' own detector tables (``detectors.partial``) are not checked: a partition is
a day or a shard, far below the night's spill.

Calibration (temp files' peak, ``du`` every second): ``floorman detect`` on 1,000,000 simulated
hands (6.6M seats) under a 4 GB limit spilled 2.76 GB (2026-12-07); the 10M cluster night (about
66M seats, tables loaded from the partitions) under 6 GB spilled about 45 GB. Both fit
``730 B x seats - 0.5 x memory limit``: about half of the limit holds tables, the rest is working
memory for the queries. Two points fit two constants, so the estimate is a rule of thumb: a run is
refused only when it exceeds the room by ``MARGIN``, and ``FLOORMAN_DETECT_SPILL_CHECK=off`` skips
the check.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import duckdb

BYTES_PER_SEAT = 730
MEMORY_SHARE_FOR_TABLES = 0.5
#: refuse only a spill this many times the room: the estimate is a two-point fit
MARGIN = 1.2
#: DuckDB's own default cap on its temp directory: 90% of the disk space free when it starts
DEFAULT_DISK_SHARE = 0.9
SKIP_VARIABLE = "FLOORMAN_DETECT_SPILL_CHECK"
CAP_VARIABLE = "FLOORMAN_DUCKDB_MAX_TEMP"
_DECIMAL = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15}
_BINARY = {"KI": 2**10, "MI": 2**20, "GI": 2**30, "TI": 2**40, "PI": 2**50}
_WORDS = {"BYTE": "", "KILO": "K", "MEGA": "M", "GIGA": "G", "TERA": "T", "PETA": "P"}
_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([a-z]+)\s*$", re.IGNORECASE)
DISK_ADVICE = "free space there, point FLOORMAN_DUCKDB_TEMP at a larger disk"
MEMORY_ADVICE = "raise FLOORMAN_DUCKDB_MEMORY (each GB of memory saves about half a GB of spill)"


class DetectorSpaceError(RuntimeError):
    """The detectors' spill does not fit (or did not fit) in DuckDB's temp directory, or memory."""


@dataclass(frozen=True)
class Room:
    """Where DuckDB spills, how much it may write there, and what decided that (for the advice)."""

    directory: Path | None  # None: spilling is disabled
    usable: int
    capped: bool  # FLOORMAN_DUCKDB_MAX_TEMP (or max_temp_directory_size), not the free disk, decided

    def describe(self) -> str:
        if self.directory is None:
            return "spilling is disabled (DuckDB's temp_directory is empty)"
        limit = f", the cap {CAP_VARIABLE} sets" if self.capped else f" ({DEFAULT_DISK_SHARE:.0%} of the free disk)"
        return f"{_size(self.usable)} is usable in {self.directory}{limit}"

    def advice(self) -> str:
        disk = f"raise {CAP_VARIABLE}" if self.capped else DISK_ADVICE
        return f"{disk}, or {MEMORY_ADVICE}"


def parse_size(text: str) -> int | None:
    """Bytes in a DuckDB size such as ``4GB``, ``3.7 GiB``, ``1000 bytes`` or ``4 gigabytes``; None
    for anything else (``90% of available disk space``, ``none``, ``-1``: no number to compare)."""
    m = _SIZE.match(text or "")
    if not m:
        return None
    unit = m.group(2).upper()
    for word, prefix in _WORDS.items():
        if unit.startswith(word):
            unit = prefix
            break
    else:
        unit = unit.removesuffix("B").removesuffix("YTES")
    scale = _BINARY.get(unit) or _DECIMAL.get(unit)
    return int(float(m.group(1)) * scale) if scale else None


def spill_estimate(seats: int, memory_limit: int) -> int:
    """Bytes a run over ``seats`` seated players is expected to spill under ``memory_limit``."""
    return max(0, BYTES_PER_SEAT * seats - int(MEMORY_SHARE_FOR_TABLES * memory_limit))


def temp_room(con: duckdb.DuckDBPyConnection) -> Room:
    """DuckDB's temp directory and the bytes it may fill: the deployment's cap, else DuckDB's default
    share of the free disk, whichever is smaller."""
    setting = _setting(con, "temp_directory")
    if not setting:
        return Room(None, 0, capped=False)
    directory = Path(setting).absolute()
    existing = next(p for p in (directory, *directory.parents) if p.exists())
    free = int(DEFAULT_DISK_SHARE * shutil.disk_usage(existing).free)
    # the variable's own value when set: DuckDB shows sizes truncated (2GB reads back as 1.8 GiB)
    cap = parse_size(os.environ.get(CAP_VARIABLE, "")) or parse_size(_setting(con, "max_temp_directory_size"))
    if cap is not None and cap < free:
        return Room(directory, cap, capped=True)
    return Room(directory, free, capped=False)


def check_room(con: duckdb.DuckDBPyConnection, hands_in_run: int) -> None:
    """Raise ``DetectorSpaceError`` if a run over ``hands_in_run`` hands would clearly spill more
    than its temp directory takes (seats estimated from the warehouse's own seats per hand, the
    limit read back from the connection). The temp directory is created first: DuckDB creates
    the directory itself but not its parents, and would fail on them only when it first spills."""
    if os.environ.get(SKIP_VARIABLE, "").strip().lower() in ("off", "0", "false", "no"):
        return
    setting = _setting(con, "temp_directory")
    if setting:
        Path(setting).mkdir(parents=True, exist_ok=True)
    limit = parse_size(_setting(con, "memory_limit"))
    if limit is None:  # no number to compare (no limit): nothing to estimate against
        return
    seats = round(hands_in_run * _seats_per_hand(con))
    need = spill_estimate(seats, limit)
    room = temp_room(con)
    if need > MARGIN * room.usable:
        raise DetectorSpaceError(
            f"the detectors need about {_size(need)} of temporary disk for {hands_in_run:,} hands "
            f"(about {seats:,} seated players) beyond the {_size(limit)} memory limit, and "
            f"{room.describe()}: {room.advice()} (or set {SKIP_VARIABLE}=off to try anyway)")


def restated(exc: duckdb.Error, con: duckdb.DuckDBPyConnection) -> DetectorSpaceError | None:
    """DuckDB's out-of-memory or out-of-disk error restated with the settings a deployment can
    change (None for any other error): a block it could not offload, or a full disk, means the temp
    directory; any other allocation means memory."""
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    disk = "offload" in first or "No space left" in first
    if not disk and not isinstance(exc, duckdb.OutOfMemoryException):
        return None
    room = temp_room(con)
    limit = _setting(con, "memory_limit")
    if disk:
        return DetectorSpaceError(f"the detectors ran out of temporary disk (DuckDB: {first}); {room.describe()}, "
                                  f"memory limit {limit}: {room.advice()}")
    return DetectorSpaceError(f"the detectors ran out of memory (DuckDB: {first}); memory limit {limit}: "
                              f"{MEMORY_ADVICE}, or lower FLOORMAN_DUCKDB_THREADS")


def _seats_per_hand(con: duckdb.DuckDBPyConnection) -> float:
    row = con.execute("SELECT (SELECT count(*) FROM seats), (SELECT count(*) FROM hands)").fetchone()
    seats, hands = row if row else (0, 0)
    return seats / hands if hands else 0.0


def _setting(con: duckdb.DuckDBPyConnection, name: str) -> str:
    row = con.execute("SELECT current_setting(?)", [name]).fetchone()
    return str(row[0]) if row and row[0] is not None else ""


def _size(n: int) -> str:
    return f"{n / 1e9:.1f} GB" if n >= 10**9 else f"{n / 1e6:.1f} MB"
