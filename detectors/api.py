"""Entry points the pipelines and the CLI call (plain values in, plain dicts out)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import duckdb

from detectors.evaluate import evaluate, load_truth
from detectors.run import Params, detect


def detect_warehouse(con: duckdb.DuckDBPyConnection, mode: str = "operator",
                     partials: Sequence[tuple[Path, str]] = (), **params: Any) -> dict[str, Any]:
    """Run every detector on an open (writable) warehouse connection; returns the run summary.
    ``partials``: the partitions' detector tables (``detectors.partial``), used when they match."""
    summary = detect("", Params(mode=mode, **params), con=con, partials=partials)
    out = asdict(summary)
    out["by_family"] = ", ".join(f"{k} {v}" for k, v in sorted(summary.by_family.items()))
    out["by_severity"] = ", ".join(f"{k} {v}" for k, v in sorted(summary.by_severity.items()))
    return out


def evaluate_warehouse(db: str | Path, truth: str | Path, run_id: str | None = None) -> dict[str, Any]:
    """PairAP, EvidenceMAP@5, FamilyMAP and composite of the latest (or given) run in ``db``."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return evaluate(con, load_truth(truth), run_id)
    finally:
        con.close()
