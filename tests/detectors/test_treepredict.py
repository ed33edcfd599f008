"""The compiled tree walk gives scikit-learn's own probabilities for the shipped models."""

from __future__ import annotations

import numpy as np
import pytest

from detectors import attribution, evrank, learn, treepredict


def _inputs(n_features: int, seed: int) -> np.ndarray:
    """Rows spread over and beyond the training range, some missing, some exactly zero."""
    rng = np.random.default_rng(seed)
    x = rng.standard_t(3, size=(3000, n_features)) * 3.0
    x[rng.random(x.shape) < 0.05] = np.nan
    x[rng.random(x.shape) < 0.2] = 0.0
    return x


@pytest.mark.parametrize("mode", ["operator", "player"])
def test_pair_models_match_sklearn(mode: str) -> None:
    paths = learn.model_paths(mode)
    assert paths, f"no shipped pair model for {mode}"
    for path in paths:
        model = learn.load(path)
        assert model is not None
        x = _inputs(len(model.features), seed=len(path.name))
        ours = treepredict.predict_proba(model.estimator, x)
        theirs = model.estimator.predict_proba(x)
        assert ours.shape == theirs.shape == (len(x), len(model.estimator.classes_))
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)


@pytest.mark.parametrize("mode", ["operator", "player"])
def test_family_models_match_sklearn(mode: str) -> None:
    model = attribution.load(attribution.model_path(mode))
    assert model is not None, f"no shipped family model for {mode}"
    x = _inputs(len(model.features), seed=11)
    ours = treepredict.predict_proba(model.estimator, x)
    assert ours.shape == (len(x), 4)
    np.testing.assert_allclose(ours, model.estimator.predict_proba(x), rtol=0, atol=1e-12)


@pytest.mark.parametrize("mode", ["operator", "player"])
def test_evidence_rankers_match_sklearn(mode: str) -> None:
    ranker = evrank.load(evrank.model_path(mode))
    assert ranker is not None and ranker.models
    for family, est in ranker.models.items():
        x = _inputs(len(ranker.features), seed=len(family))
        ours = treepredict.predict_proba(est, x)
        np.testing.assert_allclose(ours, est.predict_proba(x), rtol=0, atol=1e-12)
        assert ours.shape[1] == 2, family


def test_threads_split_rows_without_changing_them() -> None:
    model = learn.load(learn.model_paths("operator")[0])
    assert model is not None
    x = _inputs(len(model.features), seed=7)
    forest = treepredict.flatten(model.estimator)
    many = np.tile(x, (4, 1))  # 12,000 rows: enough for the walk to be split across threads
    split = treepredict.raw_scores(forest, many, threads=3)
    np.testing.assert_array_equal(split, np.tile(treepredict.raw_scores(forest, x, threads=1), (4, 1)))


def test_threaded_isolation_forest_scores_are_sklearns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The anomaly scores split across threads (``learn._score_samples``) are scikit-learn's, bit
    for bit, in the rows' order, also when the rows do not split evenly."""
    from sklearn.ensemble import IsolationForest

    monkeypatch.setattr(treepredict.os, "cpu_count", lambda: 3)  # three uneven chunks, on any machine
    x = np.nan_to_num(np.vstack([_inputs(29, seed=s) for s in range(21)]))  # 63,000 rows
    forest = IsolationForest(n_estimators=50, random_state=0).fit(x)
    np.testing.assert_array_equal(learn._score_samples(forest, x), forest.score_samples(x))
