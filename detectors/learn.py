"""Statistical stage: a calibrated pair model trained on simulator truth, and an anomaly score.

Why a multi-class model over the contrasts: families overlap (a squeeze team also avoids
contesting, a dumper also looks soft), so one model that sees every contrast and says
P(none), P(soft_play), ... separates them better than four thresholds. Gradient boosting on log
loss gives probabilities directly; on a held-out simulator seed they were better calibrated (Brier
0.00069) than after isotonic (0.00081) or sigmoid (0.00087) post-calibration, which also cost
pair AP, so the raw probabilities are the score. The model file
carries its version, the feature list and what it was trained on, so a run can say exactly which
model produced a flag.
The isolation forest is fitted on each run's own pairs (no labels) to surface unseen patterns.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import polars as pl
from sklearn.ensemble import HistGradientBoostingClassifier, IsolationForest

from detectors import pairfx, treepredict
from detectors.calibrate import population_z
from detectors.families import FAMILIES
from detectors.pairs import feature_columns

MODEL_VERSION = "pair-hgb-3.0"
CLASSES = ("none", *FAMILIES)
MODEL_DIR = Path(__file__).resolve().parent / "models"
T = TypeVar("T")


def model_features() -> list[str]:
    # no absolute exposure (log_conf, log_hu_conf): a pool where pairs share far more hands than on
    # the training site (a small private game) pushed honest-looking scales out of the trees' range and
    # collapsed the scores of real teams there; contrasts and effect sizes are scale-free
    return [*feature_columns(), *(f"r_{f}" for f in FAMILIES),
            "conc_min", "conc_max", "join_rate", "left_rate", *pairfx.FEATURES]


def with_exposure(u: pl.DataFrame) -> pl.DataFrame:
    """Exposure (how much the pair played) and co-presence (sitting, joining, leaving together):
    the relationship indicators operators check first; alone they flag friends, so the model only
    sees them beside the behavioural contrasts (the simulator's friends confounder is labelled honest)."""
    sess = pl.col("sessions_together") + 1.0
    return u.with_columns(
        pl.col("confrontations").log1p().alias("log_conf"),
        pl.col("hu_confrontations").log1p().alias("log_hu_conf"),
        pl.min_horizontal("conc_ab", "conc_ba").alias("conc_min"),
        pl.max_horizontal("conc_ab", "conc_ba").alias("conc_max"),
        (pl.col("joined_together") / sess).alias("join_rate"),
        (pl.col("left_together") / sess).alias("left_rate"),
    )


@dataclass
class PairModel:
    """A fitted calibrated classifier plus what is needed to use and cite it."""

    estimator: Any
    features: list[str]
    version: str = MODEL_VERSION
    mode: str = "operator"
    trained_on: dict[str, Any] = field(default_factory=dict)

    #: features as robust z among the room's own pairs (``calibrate``): models from 2.0 on
    calibrated: bool = False

    def predict(self, u: pl.DataFrame) -> pl.DataFrame:
        """Columns p_pair (1 - P(none)) and p_<family> for every row of u."""
        x = design(u, self.features, getattr(self, "calibrated", False))
        proba = treepredict.predict_proba(self.estimator, x)
        classes = [str(c) for c in self.estimator.classes_]
        cols = {f"p_{c}": proba[:, classes.index(c)] if c in classes else np.zeros(len(x)) for c in CLASSES}
        cols["p_pair"] = 1.0 - cols["p_none"]
        return u.with_columns([pl.Series(k, v) for k, v in cols.items() if k != "p_none"])


def design(u: pl.DataFrame, features: list[str], calibrated: bool) -> np.ndarray[Any, Any]:
    """The model's input matrix for one room: raw features, or each one's robust z among the
    room's scored pairs, so a room's scale (pool size, exposure, baseline fit) never reaches the trees."""
    x = with_exposure(u)
    x = population_z(x, features).select([f"cz_{f}" for f in features]) if calibrated else x.select(features)
    return x.fill_null(0.0).fill_nan(0.0).to_numpy()


def train(frames: list[pl.DataFrame], mode: str, trained_on: dict[str, Any], seed: int = 0,
          calibrated: bool = False, without: Sequence[str] = ()) -> PairModel:
    """Fit on unordered pair frames (one per room) carrying a ``family`` label column ('none' for
    honest pairs); a calibrated model standardises each room on its own before they are stacked.
    ``without``: features left out (the model records the ones it used, and predicts from those)."""
    left_out = set(without)
    feats = [f for f in model_features() if f not in left_out]
    x = np.vstack([design(f, feats, calibrated) for f in frames])
    data = pl.concat(frames, how="diagonal_relaxed")
    y = data["family"].to_numpy()
    # optional per-row weight column ``w`` (small pools: few pairs each, but the regime must count)
    w = data["w"].fill_null(1.0).to_numpy() if "w" in data.columns else None
    est = HistGradientBoostingClassifier(
        max_iter=300, learning_rate=0.05, max_leaf_nodes=15, min_samples_leaf=10,
        l2_regularization=1.0, random_state=seed,
    )
    est.fit(x, y, sample_weight=w)
    counts = {str(k): int(v) for k, v in zip(*np.unique(y, return_counts=True), strict=True)}
    return PairModel(est, feats, MODEL_VERSION, mode, {**trained_on, "class_counts": counts, "random_state": seed},
                     calibrated)


def model_path(mode: str) -> Path:
    return MODEL_DIR / f"pair_model_{mode}.pkl"


def model_paths(mode: str, folder: Path = MODEL_DIR) -> list[Path]:
    """The models of a mode in ``folder`` (the shipped ones by default): ``pair_model_<mode>.pkl`` and
    every ``pair_model_<mode>_*.pkl`` beside it (the seed bag's other members, or models trained on
    other worlds), which ``load_many`` combines into one ensemble."""
    return sorted(p for p in folder.glob(f"pair_model_{mode}*.pkl")
                  if p.stem == f"pair_model_{mode}" or p.stem.startswith(f"pair_model_{mode}_"))


@dataclass
class PairEnsemble:
    """Several pair models combined: p_<family> is the mean of the members' probabilities; p_pair
    is the mean of their probabilities when the members were fitted on the same worlds (a seed bag,
    ``same_worlds``), else the mean of their rank percentiles in the room.

    Why a seed bag (1.12.0): with more than 200,000 training pairs the trees' bin edges come from a
    random subsample, so the random seed alone moved the dev grid's mean composite by 0.026 (operator)
    and a room by up to 0.046. The mean of three seeds' probabilities is steadier than any one of them
    and was as good or better on the dev rooms (``scripts/train_pair_models.py --bag``; README).
    Probabilities, not ranks: the members learned the same worlds, so their probabilities mean the
    same, and the queue's order (``run.ranking_score``) reads p_pair as a probability.
    Why ranks otherwise: models fitted on different worlds are calibrated on their own worlds, not
    on this room; a rank says only "more suspicious than that pair here", which every member means
    the same way (until 1.9.0 the shipped model was such an ensemble)."""

    members: list[PairModel]
    mode: str = "operator"

    @property
    def version(self) -> str:
        if same_worlds(self.members) and len({m.version for m in self.members}) == 1:
            seeds = ",".join(str(m.trained_on.get("random_state", 0)) for m in self.members)
            return f"bag({self.members[0].version}; seeds {seeds})"
        return "ens(" + " + ".join(m.version for m in self.members) + ")"

    @property
    def trained_on(self) -> dict[str, Any]:
        return {f"{m.version}#{i}": m.trained_on for i, m in enumerate(self.members)}

    def predict(self, u: pl.DataFrame) -> pl.DataFrame:
        outs = [m.predict(u) for m in self.members]
        cols = {f"p_{f}": np.mean([o[f"p_{f}"].to_numpy() for o in outs], axis=0) for f in FAMILIES}
        if same_worlds(self.members):
            cols["p_pair"] = np.mean([o["p_pair"].to_numpy() for o in outs], axis=0)
        else:
            n = max(u.height, 1)
            cols["p_pair"] = np.mean([o["p_pair"].rank("average").to_numpy() / n for o in outs], axis=0)
        return u.with_columns([pl.Series(k, v) for k, v in cols.items()])


def same_worlds(members: Sequence[PairModel]) -> bool:
    """Whether every member was fitted on the same training warehouses (recorded in ``trained_on``)."""
    worlds = [m.trained_on.get("warehouses") for m in members]
    return worlds[0] is not None and all(w == worlds[0] for w in worlds[1:])


def load_many(paths: list[Path], mode: str) -> PairModel | PairEnsemble | None:
    """One model, an ensemble of several, or None when there is none (rule scores instead)."""
    models = [m for m in (load(p) for p in paths) if m is not None]
    if not models:
        return None
    return models[0] if len(models) == 1 else PairEnsemble(models, mode)


def save(model: PairModel, path: Path) -> None:
    save_artefact(model, path)


def load(path: Path) -> PairModel | None:
    """The persisted model, or None when there is none (rule scores are used instead)."""
    return load_artefact(path, PairModel)


def save_artefact(obj: object, path: Path) -> None:
    """A fitted model of ours, pickled (``load_artefact`` reads it back)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(obj))


def load_artefact(path: Path, kind: type[T]) -> T | None:
    """The pickled model at ``path`` if it is a ``kind``, None when the file is absent."""
    if not path.exists():
        return None
    obj = pickle.loads(path.read_bytes())  # our own artefact, written by save_artefact()
    if not isinstance(obj, kind):
        raise TypeError(f"{path} is not a {kind.__name__}")
    return obj


def anomaly_scores(u: pl.DataFrame, seed: int = 0) -> pl.DataFrame:
    """Column anomaly in [0, 1]: the pair's isolation-forest outlyingness as a percentile."""
    feats = feature_columns()
    if u.height < 20:
        return u.with_columns(pl.lit(0.0).alias("anomaly"))
    x = u.select(feats).fill_null(0.0).fill_nan(0.0).to_numpy()
    forest = IsolationForest(n_estimators=200, random_state=seed).fit(x)
    raw = -_score_samples(forest, x)
    pct = raw.argsort().argsort() / max(len(raw) - 1, 1)
    return u.with_columns(pl.Series("anomaly", pct), pl.Series("anomaly_raw", raw))


def _score_samples(forest: IsolationForest, x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``forest.score_samples(x)``, the rows split across threads. Why: scikit-learn scores on one
    core; each row's score depends on that row alone and the tree walks release the GIL, so threads
    give the same values, bit for bit. 332,190 random rows of the 29 features: 2.6-3.4 s -> 1.4 s on
    two cores; the model stage of ``bench/detect.py`` at 1,000,000 hands: 11.3 s -> 10.9 s."""
    return treepredict.by_row_chunks(forest.score_samples, x, 20_000)
