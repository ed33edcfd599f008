"""Fitting the pair model on simulated warehouses with their truth files.

Why separate from the run: training uses simulator seeds that are then never used to measure
(the evaluation seed is another one), and the model file records which seeds it saw.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import polars as pl

from detectors import learn
from detectors.evaluate import load_truth, truth_pairs
from detectors.run import Params, compute


def labelled_pairs(db: str | Path, truth_path: str | Path, mode: str) -> pl.DataFrame:
    """The scored unordered pairs of a simulated warehouse with a ``family`` label column."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        u = compute(con, Params(mode=mode))
    finally:
        con.close()
    fam, _ = truth_pairs(load_truth(truth_path))
    lab = pl.DataFrame(
        [(a, b, f) for (a, b), f in fam.items()], schema=["player_a", "player_b", "family"], orient="row"
    )
    # the statistics key players "site:name"; truth names the simulated site's screen names
    names = u.select(
        pl.col("player_a").str.splitn(":", 2).struct.field("field_1").alias("_a"),
        pl.col("player_b").str.splitn(":", 2).struct.field("field_1").alias("_b"),
    )
    keyed = pl.concat([u, names], how="horizontal")
    return keyed.join(lab, left_on=["_a", "_b"], right_on=["player_a", "player_b"], how="left").drop(
        "_a", "_b").with_columns(pl.col("family").fill_null("none"))


def train_and_save(dbs: Sequence[str | Path], truths: Sequence[str | Path], mode: str,
                   out: str | Path | None = None) -> Path:
    if len(dbs) != len(truths):
        raise ValueError("give one truth file per warehouse")
    frames = [labelled_pairs(d, t, mode) for d, t in zip(dbs, truths, strict=True)]
    for d, f in zip(dbs, frames, strict=True):
        if f.filter(pl.col("family") != "none").is_empty():
            raise ValueError(f"{d}: no truth pair matched a scored pair (wrong truth file, or names not matched)")
    seeds = [load_truth(t).get("seed") for t in truths]
    model = learn.train(frames, mode, {"warehouses": [str(d) for d in dbs], "seeds": seeds,
                                       "trained_at": datetime.now(UTC).isoformat(timespec="seconds")})
    path = Path(out) if out else learn.model_path(mode)
    learn.save(model, path)
    path.with_suffix(".json").write_text(
        json.dumps({"version": model.version, "mode": mode, "features": model.features,
                    "trained_on": model.trained_on}, indent=1, sort_keys=True, default=str),
        encoding="utf-8",
    )
    return path
