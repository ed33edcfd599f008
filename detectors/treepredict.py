"""Fast, exact class probabilities for fitted HistGradientBoostingClassifier models.

Why: scikit-learn predicts one tree at a time over all rows, opening an OpenMP region per tree;
with hundreds of trees per class and a machine shared with DuckDB's threads, scoring every pair
of a 1,000,000-hand night took most of the model stage (7 s single-threaded for 66,000 pairs,
twice that with two threads under load). Here the trees are flattened once into arrays and one
compiled loop walks every row through every tree, the same comparisons scikit-learn makes
(``x <= threshold`` goes left, a missing value follows ``missing_go_to_left``), so the raw scores
agree to the last bits and the softmax is scikit-learn's own.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from rules.numba_cache import use_writable_cache

use_writable_cache(__file__)

import numba  # noqa: E402  (after the cache directory is chosen: numba reads it at import)
import numpy as np  # noqa: E402


@dataclass(frozen=True)
class FlatForest:
    """Every tree of a fitted model as arrays: roots[i, k] is tree (iteration i, class k)'s root."""

    feature: np.ndarray[Any, Any]
    threshold: np.ndarray[Any, Any]
    missing_left: np.ndarray[Any, Any]
    left: np.ndarray[Any, Any]
    right: np.ndarray[Any, Any]
    is_leaf: np.ndarray[Any, Any]
    value: np.ndarray[Any, Any]
    roots: np.ndarray[Any, Any]
    baseline: np.ndarray[Any, Any]


def flatten(estimator: Any) -> FlatForest:
    """The fitted model's trees as one set of arrays (categorical splits are not supported: none
    of Floorman's models has categorical features)."""
    trees = estimator._predictors  # list over iterations of lists over classes (scikit-learn's layout)
    nodes, roots, offset = [], np.zeros((len(trees), len(trees[0])), dtype=np.int64), 0
    for i, per_class in enumerate(trees):
        for k, tree in enumerate(per_class):
            if tree.nodes["is_categorical"].any():
                raise ValueError("categorical splits are not supported")
            n = tree.nodes.copy()
            n["left"] += offset
            n["right"] += offset
            nodes.append(n)
            roots[i, k] = offset
            offset += len(n)
    a = np.concatenate(nodes)
    return FlatForest(
        a["feature_idx"].astype(np.int64), a["num_threshold"].astype(np.float64),
        a["missing_go_to_left"].astype(np.bool_), a["left"].astype(np.int64), a["right"].astype(np.int64),
        a["is_leaf"].astype(np.bool_), a["value"].astype(np.float64), roots,
        np.asarray(estimator._baseline_prediction, dtype=np.float64).reshape(-1),
    )


#: rows walked through one tree before the next: the tree's nodes stay in the L1 cache while a block
#: of rows (128 x ~75 features x 8 bytes) sits in L2; row by row, every tree left the cache (1.5x slower)
BLOCK = 128


@numba.njit(cache=True, nogil=True)
def _leaf(x: np.ndarray, r: int, node: int, feature: np.ndarray, threshold: np.ndarray,
          missing_left: np.ndarray, left: np.ndarray, right: np.ndarray, is_leaf: np.ndarray) -> int:
    """The leaf row ``r`` reaches from ``node``: ``x <= threshold`` goes left, a missing value follows
    ``missing_go_to_left`` (scikit-learn's rule)."""
    while not is_leaf[node]:
        v = x[r, feature[node]]
        if np.isnan(v):
            node = left[node] if missing_left[node] else right[node]
        elif v <= threshold[node]:
            node = left[node]
        else:
            node = right[node]
    return node


@numba.njit(cache=True, nogil=True)
def _raw(x: np.ndarray, feature: np.ndarray, threshold: np.ndarray, missing_left: np.ndarray,
         left: np.ndarray, right: np.ndarray, is_leaf: np.ndarray, value: np.ndarray,
         roots: np.ndarray, baseline: np.ndarray) -> np.ndarray:
    """Raw scores (rows x classes): the baseline plus each iteration's tree value per class, added in
    iteration order for every row (scikit-learn's order, so the sums agree to the last bit)."""
    n_rows, n_iter, n_cls = x.shape[0], roots.shape[0], roots.shape[1]
    out = np.empty((n_rows, n_cls))
    for r in range(n_rows):
        for k in range(n_cls):
            out[r, k] = baseline[k]
    for start in range(0, n_rows, BLOCK):
        stop = min(start + BLOCK, n_rows)
        for i in range(n_iter):
            for k in range(n_cls):
                root = roots[i, k]
                for r in range(start, stop):
                    out[r, k] += value[_leaf(x, r, root, feature, threshold, missing_left, left, right, is_leaf)]
    return out


def by_row_chunks(score: Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]], x: np.ndarray[Any, Any],
                  min_rows: int, threads: int | None = None) -> np.ndarray[Any, Any]:
    """``score(x)`` with the rows split across ``threads`` (default: the cores, at most 4; one chunk
    per ``min_rows`` rows at least), results stacked in row order. Only for a ``score`` whose rows do
    not depend on each other and that releases the GIL (a compiled or Cython tree walk)."""
    n = max(1, min(threads or os.cpu_count() or 1, 4, len(x) // min_rows or 1))
    if n == 1:
        return score(x)
    with ThreadPoolExecutor(n) as pool:
        return np.concatenate(list(pool.map(score, np.array_split(x, n))))


def raw_scores(forest: FlatForest, x: np.ndarray[Any, Any], threads: int | None = None) -> np.ndarray[Any, Any]:
    """scikit-learn's ``_raw_predict`` (rows x classes; one column for a binary model), the rows
    split across threads (``by_row_chunks``); the compiled walk releases the GIL."""
    f = forest

    def walk(part: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return _raw(part, f.feature, f.threshold, f.missing_left, f.left, f.right, f.is_leaf, f.value,
                    f.roots, f.baseline)

    return by_row_chunks(walk, np.ascontiguousarray(x, dtype=np.float64), 5000, threads)


def predict_proba(estimator: Any, x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``estimator.predict_proba(x)``, computed by the compiled walk. The flattened trees are kept
    on the estimator (a plain attribute, rebuilt after unpickling) so a run flattens them once."""
    forest = getattr(estimator, "_floorman_flat", None)
    if forest is None:
        forest = flatten(estimator)
        estimator._floorman_flat = forest
    raw = raw_scores(forest, x)
    return np.asarray(estimator._loss.predict_proba(raw if raw.shape[1] > 1 else raw[:, 0]))
