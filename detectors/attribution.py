"""Family attribution: which collusion mechanism a suspicious pair shows, as a distribution.

Why a model of its own: the pair model answers "colluding or honest?" over 99.6% honest pairs, so
its family probabilities are shaped by that question (every family's probability rises with the
pair's suspicion) and say little about *which* family. The family model is fitted on colluding
pairs only, so all it learns is how the mechanisms differ: folds that follow the partner's cards,
re-raises around a caller, missing aggression, directed value lost. On the first generator's
rooms of seeds 31-35 (never used to fit it) it named the right family for 69% of colluding pairs
(operator; the pair model 60%). Since 1.9.0 both models are fitted on the first simulator's and the
third author's worlds (``scripts/train_pair_models.py``); the pair model now names the family
about as often, and the family model still adds FamilyMAP on rooms neither saw (ranking emulated
over every scored pair, first generator seeds 31-33 / third author's seeds 21-22 x 0.2/0.5/1.0,
operator 0.498 -> 0.509 / 0.636 -> 0.658, player 0.519 -> 0.531 / 0.576 -> 0.691).

Why the team context: colluders work in teams and a team runs one tactic, so the family of a
flagged pair's partners in the queue (flagged pairs sharing a player with it) is evidence about its
own. Each flagged pair's distribution becomes half its own and half the mean of those neighbours.
With the family model, mean FamilyMAP on those 15 rooms rose from 0.465 to 0.585 (operator) and
0.476 to 0.580 (player); the weight 0.5 was the middle of 0.3/0.5/0.7 tried on the same rooms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from sklearn.ensemble import HistGradientBoostingClassifier

from detectors import learn, queue, treepredict
from detectors.families import FAMILIES

FAMILY_MODEL_VERSION = "family-hgb-2.0"
#: how much of a flagged pair's family distribution its queue neighbours decide
TEAM_WEIGHT = 0.5


@dataclass
class FamilyModel:
    """A classifier over the four families, fitted on colluding pairs only."""

    estimator: Any
    features: list[str]
    version: str = FAMILY_MODEL_VERSION
    mode: str = "operator"
    trained_on: dict[str, Any] = field(default_factory=dict)

    def predict(self, u: pl.DataFrame) -> pl.DataFrame:
        """Columns q_<family>: the family distribution of every row (sums to 1), whatever the pair's
        suspicion (the pair model and the budget decide that)."""
        if u.is_empty():
            return u.with_columns([pl.lit(0.25).alias(f"q_{f}") for f in FAMILIES])
        proba = treepredict.predict_proba(self.estimator, learn.design(u, self.features, calibrated=False))
        classes = [str(c) for c in self.estimator.classes_]
        return u.with_columns([
            pl.Series(f"q_{f}", proba[:, classes.index(f)] if f in classes else np.zeros(u.height))
            for f in FAMILIES])


def fit(frames: list[pl.DataFrame], mode: str, trained_on: dict[str, Any], seed: int = 0) -> FamilyModel:
    """Fit on labelled pair frames (``family`` column, 'none' for honest pairs, which are left out).
    Raw features, unweighted: the colluding pairs of every world count alike."""
    feats = learn.model_features()
    colluding = [f.filter(pl.col("family") != "none") for f in frames]
    colluding = [f for f in colluding if f.height]
    if not colluding:
        raise ValueError("no colluding pair in the training frames")
    x = np.vstack([learn.design(f, feats, calibrated=False) for f in colluding])
    y = pl.concat([f.select("family") for f in colluding])["family"].to_numpy()
    # 150 rounds: on the dev rooms as accurate as 300 (68.8% against 69.0% of colluding pairs named
    # right) at half the trees, which is half the family model's time at 1,000,000 hands
    est = HistGradientBoostingClassifier(
        max_iter=150, learning_rate=0.05, max_leaf_nodes=15, min_samples_leaf=10,
        l2_regularization=1.0, random_state=seed,
    )
    est.fit(x, y)
    counts = {str(k): int(v) for k, v in zip(*np.unique(y, return_counts=True), strict=True)}
    return FamilyModel(est, feats, FAMILY_MODEL_VERSION, mode, {**trained_on, "class_counts": counts})


def model_path(mode: str) -> Path:
    return learn.MODEL_DIR / f"family_model_{mode}.pkl"


def save(model: FamilyModel, path: Path) -> None:
    learn.save_artefact(model, path)


def load(path: Path) -> FamilyModel | None:
    """The persisted family model, or None when there is none (the pair model's families instead)."""
    return learn.load_artefact(path, FamilyModel)


def with_team_context(u: pl.DataFrame, weight: float = TEAM_WEIGHT) -> pl.DataFrame:
    """f_<family> of each flagged pair mixed with the mean f_ of the other flagged pairs that share a
    player with it (``weight`` theirs), and ``family`` re-read; unflagged pairs keep their own.
    Every neighbour's own distribution is used (not an already mixed one), so the order of the
    pairs does not matter."""
    fcols = [f"f_{f}" for f in FAMILIES]
    flagged = u.filter(pl.col("flagged")).select("player_a", "player_b", *fcols).with_row_index("i")
    if flagged.height < 2:
        return u
    ends = pl.concat([flagged.select("i", pl.col("player_a").alias("p"), *fcols),
                      flagged.select("i", pl.col("player_b").alias("p"), *fcols)])
    # each pair's neighbours: the flagged pairs at either of its players, itself excluded, each once
    nb = ends.select("i", "p").join(ends.rename({"i": "j"}), on="p").filter(pl.col("i") != pl.col("j"))
    nb = nb.unique(["i", "j"]).sort("i", "j").group_by("i", maintain_order=True).agg(
        [pl.col(c).mean().alias(f"_nb_{c}") for c in fcols])
    # rounded like the pair frame (``run.stable_order``): a sum's last bits follow its row order
    mixed = flagged.join(nb, on="i", how="inner").select(
        "player_a", "player_b",
        *[((1 - weight) * pl.col(c) + weight * pl.col(f"_nb_{c}")).round(9).alias(f"_mix_{c}") for c in fcols])
    u = u.join(mixed, on=["player_a", "player_b"], how="left", maintain_order="left")
    u = u.with_columns([pl.coalesce(f"_mix_{c}", c).alias(c) for c in fcols]).drop([f"_mix_{c}" for c in fcols])
    return queue.with_leading_family(u)
