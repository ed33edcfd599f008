"""A warehouse ingested from two real hand histories, for the export's Unicode and encoding tests.

Why real files: the PokerMaster sample's players have Chinese names ("身轻如燕") and its table
name mixes scripts; the Full Tilt sample is UTF-16 (LE, BOM) with "€" and "–" in its header. Both
go through the real ingest (which records each file's encoding in ``raw_files``), the real rule
checker and the real summaries; only the flag is typed in, since no detector flags one hand.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import duckdb
import pytest

from dashboards.precompute import build_summaries
from rules.check import check_batches
from rules.store import load_hands, write_results
from tests.conftest import real_data
from tests.dashboards.warehouse_fixture import EXTRA_DDL
from warehouse.ingest import ingest_paths

CASH = ("fpdb3_regression", "regression-test-files", "cash")
POKERMASTER = (*CASH, "Stars", "Flop", "NLHE-9-max-USD-2.00-4.00-201901.PokerMaster.w.Straddle.txt")
FULLTILT = (*CASH, "FTP", "Flop", "NLHE-6max-EUR-0.01-0.02.201008.Weird.table.character.txt")
PM_HAND, FT_HAND = "pokermaster:154651502936610012", "fulltilt:20000000801"
CASE = "F-cjk-001"
NAMES = ("身轻如燕", "乖就亲你")
PARAMS = {"min_hands": 2, "window_days": 30, "weights": {"squeeze": 0.7, "soft_play": 0.3}}


def build_real_warehouse(db_path: Path) -> tuple[Path, dict[str, Path]]:
    """Ingest the two real files into ``db_path`` and add one case naming the Chinese players."""
    files = {"pokermaster": real_data(*POKERMASTER), "fulltilt": real_data(*FULLTILT)}
    summary = ingest_paths(list(files.values()), db_path, progress=False)
    assert summary.files == 2 and not summary.errors
    con = duckdb.connect(str(db_path))
    try:
        con.execute(EXTRA_DDL)
        for batch in check_batches([list(load_hands(con))]):
            write_results(con, batch, "run-real")
        con.execute(
            "INSERT INTO flags VALUES (?, 'run-real', 'squeeze', ?, 0.8, 'high', 'operator', ?, ?, ?,"
            " 'A straddled pot: the re-raise may be a plain value raise.', 'The same line against others.',"
            " 'squeeze-0.2.0', ?, TIMESTAMP '2026-11-29 03:10:00', TIMESTAMP '2019-01-03 11:48:00',"
            " TIMESTAMP '2019-01-03 11:48:00', NULL)",  # NULL: no family per hand (flags before 1.11)
            [CASE, list(NAMES), f"{NAMES[1]} re-raises 赤兔丶's open while {NAMES[0]} folds the small blind.",
             [PM_HAND, FT_HAND], json.dumps({"pair_score": 0.8, "hands_together": 1}), json.dumps(PARAMS)],
        )
        build_summaries(con)
    finally:
        con.close()
    return db_path, files


def pdf_text(pdf: bytes, tmp: Path, first: int | None = None, last: int | None = None) -> str:
    """The PDF's text as poppler's ``pdftotext`` reads it (what a reviewer's search finds)."""
    exe = shutil.which("pdftotext")
    if exe is None:
        if os.environ.get("CI") or os.environ.get("FLOORMAN_E2E"):
            pytest.fail("pdftotext not installed: run scripts/ensure_poppler.sh (apt-get install poppler-utils)")
        pytest.skip("pdftotext not installed (make test installs it: scripts/ensure_poppler.sh)")
    path = tmp / "report.pdf"
    path.write_bytes(pdf)
    pages = [*(["-f", str(first)] if first else []), *(["-l", str(last)] if last else [])]
    out = subprocess.run([exe, "-enc", "UTF-8", *pages, str(path), "-"], capture_output=True, check=True)
    return out.stdout.decode("utf-8")
