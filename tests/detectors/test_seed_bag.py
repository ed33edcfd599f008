"""The pair model as a seed bag: members fitted on the same worlds are averaged as probabilities,
members fitted on different worlds by rank; the shipped models are such a bag."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from detectors import learn
from detectors.families import FAMILIES


def _frame(seed: int, n: int = 600) -> pl.DataFrame:
    """Pairs with every model feature; colluding ones (``soft_play``) are far out on one contrast."""
    rng = np.random.default_rng(seed)
    cols = {f: rng.normal(size=n) for f in learn.model_features()}
    family = np.where(rng.random(n) < 0.2, "soft_play", "none")
    cols["z_hu_post_aggr_ab"] = np.where(family == "soft_play", -2.5, 0.0) + rng.normal(size=n)
    extra = {"confrontations": rng.integers(1, 50, n), "hu_confrontations": rng.integers(0, 10, n),
             "conc_ab": rng.random(n) * 3, "conc_ba": rng.random(n) * 3, "sessions_together": rng.integers(0, 5, n),
             "joined_together": rng.integers(0, 3, n), "left_together": rng.integers(0, 3, n)}
    return pl.DataFrame({**cols, **extra, "family": family})


def _model(seed: int, worlds: list[str]) -> learn.PairModel:
    """A small pair model; ``seed`` changes its data as well, so members of a bag differ."""
    return learn.train([_frame(seed)], "operator", {"warehouses": worlds}, seed=seed)


def test_members_of_the_same_worlds_average_their_probabilities() -> None:
    a, b = _model(1, ["w1", "w2"]), _model(2, ["w1", "w2"])
    room = _frame(99)
    bag = learn.PairEnsemble([a, b]).predict(room)
    pa, pb = a.predict(room)["p_pair"].to_numpy(), b.predict(room)["p_pair"].to_numpy()
    assert not np.allclose(pa, pb), "the two members should differ"
    np.testing.assert_allclose(bag["p_pair"].to_numpy(), (pa + pb) / 2)
    for f in FAMILIES:
        np.testing.assert_allclose(bag[f"p_{f}"].to_numpy(),
                                   (a.predict(room)[f"p_{f}"].to_numpy() + b.predict(room)[f"p_{f}"].to_numpy()) / 2)


def test_members_of_different_worlds_are_combined_by_rank() -> None:
    a, b = _model(1, ["w1"]), _model(2, ["w2"])
    room = _frame(99)
    got = learn.PairEnsemble([a, b]).predict(room)["p_pair"].to_numpy()
    ranks = [m.predict(room)["p_pair"].rank("average").to_numpy() / room.height for m in (a, b)]
    np.testing.assert_allclose(got, (ranks[0] + ranks[1]) / 2)


def test_a_model_without_recorded_worlds_is_never_taken_for_a_bag_member() -> None:
    a, b = _model(1, ["w1"]), _model(2, ["w1"])
    a.trained_on.pop("warehouses")
    assert not learn.same_worlds([a, b])


@pytest.mark.parametrize("mode", ["operator", "player"])
def test_the_shipped_pair_model_is_a_bag_of_three_seeds_on_one_set_of_worlds(mode: str) -> None:
    model = learn.load_many(learn.model_paths(mode), mode)
    assert isinstance(model, learn.PairEnsemble), "expected pair_model_<mode>.pkl and its _s1, _s2 beside it"
    assert len(model.members) == 3 and learn.same_worlds(model.members)
    assert sorted(m.trained_on.get("random_state", 0) for m in model.members) == [0, 1, 2]
    assert len({m.trained_on["warehouses"][0] for m in model.members}) == 1
    assert all(m.features == model.members[0].features for m in model.members)
    assert model.version == "bag(pair-hgb-3.0; seeds 0,1,2)"  # what a run records as its model


def test_the_training_script_writes_a_bag_and_drops_members_of_a_bigger_one(tmp_path: Path) -> None:
    from scripts.train_pair_models import fit_bag

    stale = tmp_path / "pair_model_operator_s5.pkl"
    stale.write_bytes(b"from an older, bigger bag")
    frames = [_frame(1), _frame(2)]
    written = fit_bag(frames, ["world a", "world b"], [1, 2], "operator", tmp_path, k=3)
    assert [seed for seed, _ in written] == [0, 1, 2] and not stale.exists()
    paths = sorted(tmp_path.glob("pair_model_operator*.pkl"))
    assert [p.name for p in paths] == ["pair_model_operator.pkl", "pair_model_operator_s1.pkl",
                                       "pair_model_operator_s2.pkl"]
    bag = learn.load_many(paths, "operator")
    assert isinstance(bag, learn.PairEnsemble) and learn.same_worlds(bag.members)
    assert bag.version == "bag(pair-hgb-3.0; seeds 0,1,2)"
    assert (tmp_path / "pair_model_operator_s2.json").exists()
