"""Train on some generators' worlds, score another generator's: does a model choice transfer?

    .venv/bin/python bench/transfer.py [--fit first:1001-1024 indie:101-124] [--test rival:201-224]
        [--work var/train] [--modes operator player] [--without FEATURE ...]

Fits a pair model and a family model the way ``scripts/train_pair_models.py`` does, on the ``--fit``
worlds, and scores every ``--test`` world (worlds are simulated, ingested and their labelled pair
frames cached by that script's helpers, so a second run only fits and scores). Printed per mode:
pair AP (every scored pair ranked by ``p_pair``), the same by the colluding teams' intensity (low
< 0.35, medium < 0.7, high) against all honest pairs, and each family's AP of ``p_pair`` x
P(family), each a mean of per-world APs; and the share of all colluding pairs whose most likely
family is their own. The peer row in the same run ranks by the strongest rule score
(``r_<family>``, no model; a pair with no positive rule score has no family), so a model that
merely copies a rule shows no gain over it. ``--without`` leaves features out of the pair model only.

Why beside ``bench/quality.py``: a quality room holds 10-20 colluding pairs, so one pair moves a cell
by 0.1 and a choice made on a few rooms is mostly noise. Twenty-four worlds of a generator the
models never saw hold about 380 colluding pairs of every family, intensity and pool size; that is
the issue's train-on-A / test-on-B with enough pairs to tell a choice from luck. The test worlds
are a development check: foreign and held-out stay the test.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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
from detectors.train import join_on_screen_names  # noqa: E402

#: team intensity bins (the issue's low ~0.2, medium ~0.5, high 1.0)
BINS = (("low", 0.0, 0.35), ("medium", 0.35, 0.7), ("high", 0.7, math.inf))


def world_frames(specs: Sequence[str], work: Path, mode: str) -> list[pl.DataFrame]:
    """Each world's labelled pair frame with the colluding pairs' team intensity (``intensity``)."""
    out = []
    for generator, seed in worlds(list(specs)):
        f = frame(seed, hands_of(generator, None), work, mode, generator)
        if f is None:
            continue
        f = with_intensity(f, load_truth(world_dir(generator, seed, work) / "truth.json"))
        if f.filter((pl.col("family") != "none") & pl.col("intensity").is_null()).height:
            raise SystemExit(f"{generator} world {seed}: a colluding pair has no team intensity in its truth")
        out.append(f)
    return out


def with_intensity(f: pl.DataFrame, truth: dict[str, Any]) -> pl.DataFrame:
    """``f`` with each pair's team intensity (null for honest pairs), matched on screen names; a pair
    in two teams takes the last one's, as its family label does (``detectors.evaluate.truth_pairs``)."""
    rows = [(a, b, float(t["intensity"])) for t in truth["teams"]
            for a in t["members"] for b in t["members"] if a < b]
    lab = pl.DataFrame(rows, schema=["_a", "_b", "intensity"], orient="row").unique(
        ["_a", "_b"], keep="last", maintain_order=True)
    return join_on_screen_names(f, lab)


def model_scores(f: pl.DataFrame, pair_model: learn.PairModel,
                 family_model: attribution.FamilyModel) -> tuple[np.ndarray, np.ndarray]:
    """(p_pair, family probabilities in ``FAMILIES`` order) for one world."""
    p = pair_model.predict(f)["p_pair"].to_numpy()
    q = family_model.predict(f).select([f"q_{x}" for x in FAMILIES]).to_numpy()
    return p, q


def rule_peer(f: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(strongest rule score, each family's share of the positive rule scores) for one world; a
    pair with no positive rule score gets all-zero shares: no family, not the first one."""
    rules = f.select([pl.col(f"r_{x}").clip(lower_bound=0.0) for x in FAMILIES]).to_numpy()
    shares = rules / np.maximum(rules.sum(axis=1, keepdims=True), 1e-9)
    return rules.max(axis=1), shares


def world_metrics(f: pl.DataFrame, p: np.ndarray, q: np.ndarray) -> dict[str, float]:
    """One world's pair AP (overall and per intensity bin), per-family AP, and the counts behind the
    family accuracy (``named_right`` of ``colluding``; all-zero shares name no family)."""
    lab = f["family"].to_numpy()
    colluding = lab != "none"
    out: dict[str, float] = {"pair_ap": float(average_precision_score(colluding, p))}
    inten = f["intensity"].fill_null(-1.0).to_numpy()
    for name, lo, hi in BINS:
        keep = ~colluding | ((inten >= lo) & (inten < hi))
        if (colluding & keep).any():
            out[f"ap_{name}"] = float(average_precision_score(colluding[keep], p[keep]))
    shares = q[colluding]
    named = np.where(shares.sum(axis=1) > 0, np.array(FAMILIES)[shares.argmax(axis=1)], "none")
    out["named_right"] = float(np.sum(named == lab[colluding]))
    out["colluding"] = float(colluding.sum())
    for k, fam in enumerate(FAMILIES):
        if (lab == fam).any():
            out[f"ap_{fam}"] = float(average_precision_score(lab == fam, p * q[:, k]))
    return out


#: per-world counts, summed over the worlds instead of averaged
COUNTS = ("named_right", "colluding")


def mean_metrics(per_world: list[dict[str, float]]) -> dict[str, float]:
    """Each AP's mean over the worlds that have it (a world may lack a family or a bin), and the
    family accuracy as the share of all colluding pairs named right."""
    keys = sorted({k for m in per_world for k in m} - set(COUNTS))
    out = {k: float(np.mean([m[k] for m in per_world if k in m])) for k in keys}
    totals = {c: sum(m[c] for m in per_world) for c in COUNTS}
    out["family_acc"] = totals["named_right"] / max(totals["colluding"], 1.0)
    return out


def run(fit: Sequence[str], test: Sequence[str], work: Path, mode: str,
        without: Sequence[str] = ()) -> tuple[dict[str, dict[str, float]], int]:
    """The model fitted on ``fit`` and the rule peer, each scored on every ``test`` world, and the
    number of colluding pairs in those worlds."""
    train = world_frames(fit, work, mode)
    tests = world_frames(test, work, mode)
    pair_model = learn.train(train, mode, {"worlds": list(fit)}, without=without)
    family_model = attribution.fit(train, mode, {"worlds": list(fit)})
    rows = {
        "models": mean_metrics([world_metrics(f, *model_scores(f, pair_model, family_model)) for f in tests]),
        "rules (peer)": mean_metrics([world_metrics(f, *rule_peer(f)) for f in tests]),
    }
    return rows, sum(int((f["family"] != "none").sum()) for f in tests)


def check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse what would silently give wrong figures: in-sample scoring, an unknown feature."""
    shared = set(worlds(args.fit)) & set(worlds(args.test))
    if shared:
        example = sorted(shared)[0]
        parser.error(f"--fit and --test share {len(shared)} worlds (e.g. {example}): scores would be in-sample")
    unknown = sorted(set(args.without) - set(learn.model_features()))
    if unknown:
        parser.error(f"--without: not a pair-model feature: {', '.join(unknown)}")


COLUMNS = ("pair_ap", "ap_low", "ap_medium", "ap_high", "family_acc", *(f"ap_{f}" for f in FAMILIES))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fit", nargs="+", default=["first:1001-1024", "indie:101-124"], metavar="GENERATOR:SEEDS")
    parser.add_argument("--test", nargs="+", default=["rival:201-224"], metavar="GENERATOR:SEEDS")
    parser.add_argument("--work", default=str(ROOT / "var" / "train"))
    parser.add_argument("--modes", nargs="+", default=["operator", "player"], choices=["operator", "player"])
    parser.add_argument("--without", nargs="+", default=[], metavar="FEATURE")
    args = parser.parse_args(argv)
    check_args(parser, args)
    print(f"fit on {' '.join(args.fit)}; scored on {' '.join(args.test)} (APs: mean per world)")
    print("mode | who | " + " | ".join(COLUMNS))
    print(" | ".join(["---"] * (len(COLUMNS) + 2)))
    for mode in args.modes:
        rows, colluding = run(args.fit, args.test, Path(args.work), mode, args.without)
        for who, m in rows.items():
            print(f"{mode} | {who} | " + " | ".join(f"{m[c]:.3f}" if c in m else "-" for c in COLUMNS))
        print(f"({mode}: {colluding} colluding pairs in the scored worlds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
