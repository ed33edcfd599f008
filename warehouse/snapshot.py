"""Publishing read-only snapshots of the warehouse for the dashboard.

Why: DuckDB allows one writer *or* many readers per file, never both across processes
(engineering_anchors §0.2-0.3). The pipeline writes the build file; when a night is done it copies
it to a new versioned snapshot and flips a pointer file atomically. The dashboard opens short-lived
read-only connections on whatever ``CURRENT`` names, so a publish never blocks or breaks a reader.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from .db import open_duckdb

POINTER = "CURRENT"
KEEP = 3  # snapshots kept besides the current one (readers may still hold old ones open)


def publish(db_path: str | Path, root: str | Path) -> Path:
    """Copy a closed warehouse file into ``root`` as a new snapshot and make it current."""
    db_path, root = Path(db_path), Path(root)
    snapshots = root / "snapshots"
    snapshots.mkdir(parents=True, exist_ok=True)
    # make sure the WAL is folded into the file before copying it
    con = open_duckdb(db_path)
    con.execute("CHECKPOINT")
    con.close()
    name = f"warehouse-{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}-{time.time_ns() % 1_000_000:06d}.duckdb"
    tmp = snapshots / f".{name}.tmp"
    shutil.copyfile(db_path, tmp)
    final = snapshots / name
    os.replace(tmp, final)
    pointer_tmp = root / f".{POINTER}.tmp"
    pointer_tmp.write_text(f"snapshots/{name}\n", encoding="utf-8")
    os.replace(pointer_tmp, root / POINTER)
    _prune(snapshots, keep=final)
    return final


def current_snapshot(root: str | Path) -> Path:
    """The snapshot the dashboard should read now."""
    root = Path(root)
    pointer = root / POINTER
    if not pointer.exists():
        raise FileNotFoundError(f"no published snapshot under {root} (run the audit first)")
    return root / pointer.read_text(encoding="utf-8").strip()


def _prune(snapshots: Path, keep: Path) -> None:
    old = sorted(p for p in snapshots.glob("warehouse-*.duckdb") if p != keep)
    for path in old[: max(0, len(old) - KEEP)]:
        path.unlink(missing_ok=True)
