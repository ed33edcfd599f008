"""Train on some generators' worlds, score another generator's: does a model choice transfer?

    .venv/bin/python bench/transfer.py [--fit first:1001-1024 indie:101-124] [--test rival:201-224]
        [--work var/train] [--modes operator player] [--without FEATURE ...]

Fits a pair model and a family model the way ``scripts/train_pair_models.py`` does, on the ``--fit``
worlds, and scores every ``--test`` world (worlds are simulated, ingested and their labelled pair
frames cached by that script's helpers, so a second run only fits and scores). Printed per mode:
pair AP (every scored pair ranked by ``p_pair``), by the colluding teams' intensity (low < 0.35,
medium < 0.7, high) against all honest pairs, the share of colluding pairs whose most likely
family is their own, and each family's AP of ``p_pair`` x P(family). The peer row in the same run
ranks by the strongest rule score (``r_<family>``, no model), so a model that merely copies a rule
shows no gain over it. ``--without`` leaves features out of the pair model only.

Why beside ``bench/quality.py``: a quality room holds 10-20 colluding pairs, so one pair moves a cell
by 0.1 and a choice made on a few rooms is mostly noise. Twenty-four worlds of a generator the
models never saw hold about 300 colluding pairs of every family, intensity and pool size; that is
the issue's train-on-A / test-on-B with enough pairs to tell a choice from luck. The test worlds
are a development check: foreign and held-out stay the test.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl
from sklearn.metrics import average_precision_score

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_pair_models import frame, hands_of, world_dir, worlds  # noqa: E402

from detectors import attribution, learn  # noqa: E402
from detectors.evaluate import load_truth  # noqa: E402
from detectors.families import FAMILIES  # noqa: E402

#: team intensity bins (the issue's low ~0.2, medium ~0.5, high 1.0)
BINS = (("low", 0.0, 0.35), ("medium", 0.35, 0.7), ("high", 0.7, 1.01))


def world_frames(specs: Sequence[str], work: Path, mode: str) -> list[pl.DataFrame]:
    """Each world's labelled pair frame with the colluding pairs' team intensity (``intensity``)."""
    out = []
    for generator, seed in worlds(list(specs)):
        f = frame(seed, hands_of(generator, None), work, mode, generator)
        if f is not None:
            out.append(with_intensity(f, load_truth(world_dir(generator, seed, work) / "truth.json")))
    return out


def with_intensity(f: pl.DataFrame, truth: dict[str, object]) -> pl.DataFrame:
    """``f`` with each pair's team intensity (null for honest pairs), matched on screen names."""
    teams = truth["teams"]
    assert isinstance(teams, list)
    rows = [(min(a, b), max(a, b), float(t["intensity"]))
            for t in teams for a in t["members"] for b in t["members"] if a < b]
    lab = pl.DataFrame(rows, schema=["_a", "_b", "intensity"], orient="row").unique(["_a", "_b"])
    names = f.select(pl.col("player_a").str.splitn(":", 2).struct.field("field_1").alias("_a"),
                     pl.col("player_b").str.splitn(":", 2).struct.field("field_1").alias("_b"))
    keyed = pl.concat([f.drop("intensity", strict=False), names], how="horizontal")
    return keyed.join(lab, on=["_a", "_b"], how="left").drop("_a", "_b")


def scores(f: pl.DataFrame, pair_model: learn.PairModel | None,
           family_model: attribution.FamilyModel | None) -> tuple[np.ndarray, np.ndarray]:
    """(pair score, family probabilities in ``FAMILIES`` order) for one world: the models', or the
    strongest rule score with the rules' own shares (the peer)."""
    if pair_model is None or family_model is None:
        rules = f.select([pl.col(f"r_{x}").clip(lower_bound=0.0) for x in FAMILIES]).to_numpy()
        shares = rules / np.maximum(rules.sum(axis=1, keepdims=True), 1e-9)
        return rules.max(axis=1), shares
    p = pair_model.predict(f)["p_pair"].to_numpy()
    q = family_model.predict(f).select([f"q_{x}" for x in FAMILIES]).to_numpy()
    return p, q


def world_metrics(f: pl.DataFrame, p: np.ndarray, q: np.ndarray) -> dict[str, float]:
    """One world's pair AP (overall and per intensity bin), family accuracy and per-family AP."""
    lab = f["family"].to_numpy()
    colluding = lab != "none"
    out: dict[str, float] = {"pair_ap": float(average_precision_score(colluding, p))}
    inten = f["intensity"].fill_null(-1.0).to_numpy()
    for name, lo, hi in BINS:
        keep = ~colluding | ((inten >= lo) & (inten < hi))
        if (colluding & keep).any():
            out[f"ap_{name}"] = float(average_precision_score(colluding[keep], p[keep]))
    named = np.array(FAMILIES)[q[colluding].argmax(axis=1)]
    out["family_acc"] = float(np.mean(named == lab[colluding]))
    for k, fam in enumerate(FAMILIES):
        if (lab == fam).any():
            out[f"ap_{fam}"] = float(average_precision_score(lab == fam, p * q[:, k]))
    return out


def mean_metrics(per_world: list[dict[str, float]]) -> dict[str, float]:
    """Each metric's mean over the worlds that have it (a world may lack a family or a bin)."""
    keys = sorted({k for m in per_world for k in m})
    return {k: float(np.mean([m[k] for m in per_world if k in m])) for k in keys}


def run(fit: Sequence[str], test: Sequence[str], work: Path, mode: str,
        without: Sequence[str] = ()) -> dict[str, dict[str, float]]:
    """The model fitted on ``fit`` and the rule peer, each scored on every ``test`` world."""
    train = world_frames(fit, work, mode)
    tests = world_frames(test, work, mode)
    pair_model = learn.train(train, mode, {"worlds": list(fit)}, without=without)
    family_model = attribution.fit(train, mode, {"worlds": list(fit)})
    rows = {}
    for who, pm, fm in (("models", pair_model, family_model), ("rules (peer)", None, None)):
        rows[who] = mean_metrics([world_metrics(f, *scores(f, pm, fm)) for f in tests])
    rows["models"]["colluding_pairs"] = float(sum(int((f["family"] != "none").sum()) for f in tests))
    return rows


COLUMNS = ("pair_ap", "ap_low", "ap_medium", "ap_high", "family_acc", *(f"ap_{f}" for f in FAMILIES))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fit", nargs="+", default=["first:1001-1024", "indie:101-124"], metavar="GENERATOR:SEEDS")
    p.add_argument("--test", nargs="+", default=["rival:201-224"], metavar="GENERATOR:SEEDS")
    p.add_argument("--work", default=str(ROOT / "var" / "train"))
    p.add_argument("--modes", nargs="+", default=["operator", "player"], choices=["operator", "player"])
    p.add_argument("--without", nargs="+", default=[], metavar="FEATURE")
    args = p.parse_args(argv)
    print(f"fit on {' '.join(args.fit)}; scored on {' '.join(args.test)}")
    print("mode | who | " + " | ".join(COLUMNS))
    print(" | ".join(["---"] * (len(COLUMNS) + 2)))
    for mode in args.modes:
        rows = run(args.fit, args.test, Path(args.work), mode, args.without)
        for who, m in rows.items():
            print(f"{mode} | {who} | " + " | ".join(f"{m[c]:.3f}" if c in m else "-" for c in COLUMNS))
        print(f"({mode}: {int(rows['models']['colluding_pairs'])} colluding pairs in the scored worlds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
