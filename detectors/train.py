"""Fitting the pair model on simulated warehouses with their truth files.

Why separate from the run: training uses simulator seeds that are then never used to measure
(the evaluation seed is another one), and the model file records which seeds it saw.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from detectors import learn
from detectors.evaluate import decoy_pairs, load_truth, truth_pairs
from detectors.run import Params, compute, frame_from_summed


def labelled_pairs(db: str | Path, truth_path: str | Path, mode: str) -> pl.DataFrame:
    """The scored unordered pairs of a simulated warehouse with a ``family`` label column."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        u = compute(con, Params(mode=mode))
    finally:
        con.close()
    return label_frame(u, load_truth(truth_path))


def label_frame(u: pl.DataFrame, truth: dict[str, Any]) -> pl.DataFrame:
    """u with a ``family`` column from simulator truth ('none' for honest pairs)."""
    fam, _ = truth_pairs(truth)
    lab = pl.DataFrame([(a, b, f) for (a, b), f in fam.items()], schema=["_a", "_b", "family"], orient="row")
    return join_on_screen_names(u, lab).with_columns(pl.col("family").fill_null("none"))


def join_on_screen_names(u: pl.DataFrame, lab: pl.DataFrame) -> pl.DataFrame:
    """u left-joined with ``lab``, whose ``_a`` / ``_b`` are a pair's screen names (``_a`` < ``_b``, as
    truth files name players); u's own columns of the same names as lab's are replaced. Why: the
    statistics key players "site:name", and truth names the simulated site's screen names."""
    names = u.select(
        pl.col("player_a").str.splitn(":", 2).struct.field("field_1").alias("_a"),
        pl.col("player_b").str.splitn(":", 2).struct.field("field_1").alias("_b"),
    )
    keyed = pl.concat([u.drop([c for c in lab.columns if c not in ("_a", "_b")], strict=False), names],
                      how="horizontal")
    return keyed.join(lab, on=["_a", "_b"], how="left").drop("_a", "_b")


def weight_decoys(frame: pl.DataFrame, truth: dict[str, Any], weight: float) -> pl.DataFrame:
    """``frame`` with a sample weight ``w``: ``weight`` on the honest pairs of the truth's friends and
    staking groups, 1 elsewhere. Why: a world holds a handful of them among thousands of honest
    pairs, so unweighted the trees learn "sits together a lot" as collusion; weighted, sitting
    together without the behaviour has to count as honest."""
    decoys = decoy_pairs(truth)
    names = [tuple(sorted((a.split(":", 1)[-1], b.split(":", 1)[-1])))
             for a, b in zip(frame["player_a"], frame["player_b"], strict=True)]
    is_decoy = pl.Series([n in decoys for n in names]) & (frame["family"] == "none")
    return frame.with_columns(pl.when(is_decoy).then(weight).otherwise(1.0).alias("w"))


def train_and_save(dbs: Sequence[str | Path], truths: Sequence[str | Path], mode: str,
                   out: str | Path | None = None) -> Path:
    if len(dbs) != len(truths):
        raise ValueError("give one truth file per warehouse")
    frames = [labelled_pairs(d, t, mode) for d, t in zip(dbs, truths, strict=True)]
    return fit_and_save(frames, [str(d) for d in dbs], [load_truth(t).get("seed") for t in truths], mode, out)


def summed_frame(summed_parquet: str | Path, truth_path: str | Path) -> pl.DataFrame:
    """A labelled pair frame from a cached summed ordered pair_stats parquet (``pairs.summed_pair_stats``
    of a warehouse): retraining after a feature change needs no new pass over the hands."""
    return label_frame(frame_from_summed(pl.read_parquet(summed_parquet)), load_truth(truth_path))


def fit_and_save(frames: Sequence[pl.DataFrame], sources: Sequence[str], seeds: Sequence[Any], mode: str,
                 out: str | Path | None = None, calibrated: bool = False, without: Sequence[str] = (),
                 random_state: int = 0) -> Path:
    """Fit the pair model on labelled frames and write it with its JSON sidecar (what it saw)."""
    for d, f in zip(sources, frames, strict=True):
        if f.filter(pl.col("family") != "none").is_empty():
            raise ValueError(f"{d}: no truth pair matched a scored pair (wrong truth file, or names not matched)")
    model = learn.train(list(frames), mode, {"warehouses": list(sources), "seeds": list(seeds),
                                             "trained_at": datetime.now(UTC).isoformat(timespec="seconds")},
                        seed=random_state, calibrated=calibrated, without=without)
    path = Path(out) if out else learn.model_path(mode)
    learn.save(model, path)
    path.with_suffix(".json").write_text(
        json.dumps({"version": model.version, "mode": mode, "features": model.features,
                    "calibrated": model.calibrated, "trained_on": model.trained_on},
                   indent=1, sort_keys=True, default=str),
        encoding="utf-8",
    )
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m detectors.train MODE SEED:SUMMED_PARQUET:TRUTH[:WEIGHT] ...`` (cached statistics).

    WEIGHT (default 1) multiplies the rows of that warehouse: a 30-player pool has ~435 pairs
    against ~65,000 on a site-sized seed, and its regime (everyone sits together) must still count."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    mode, specs = args[0], [[*a.split(":", 3), "1"][:4] for a in args[1:]]
    frames = [summed_frame(p, t).with_columns(pl.lit(float(w)).alias("w")) for _, p, t, w in specs]
    path = fit_and_save(frames, [f"{p} (weight {w})" for _, p, _, w in specs], [int(s) for s, _, _, _ in specs],
                        mode)
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
