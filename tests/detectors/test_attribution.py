"""Family attribution: the family model names mechanisms, the team context reads a pair's partners.

The model test runs on a random world of the first simulator whose seed the shipped family model
never saw (it was fitted on worlds 1001-1024), and compares it with what the queue used before:
the pair model's family probabilities, normalised.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pytest

from detectors import attribution, learn, queue
from detectors.evaluate import load_truth
from detectors.families import FAMILIES
from detectors.run import Params, compute, detect
from detectors.train import label_frame

simulator = pytest.importorskip("simulator.run")
FCOLS = [f"f_{f}" for f in FAMILIES]


def _frame(rows: list[tuple[str, str, bool, list[float]]]) -> pl.DataFrame:
    return pl.DataFrame(
        [{"player_a": a, "player_b": b, "flagged": fl, **dict(zip(FCOLS, dist, strict=True))}
         for a, b, fl, dist in rows])


def test_team_context_mixes_a_flagged_pair_with_its_flagged_neighbours() -> None:
    u = _frame([
        ("A", "B", True, [0.1, 0.0, 0.0, 0.9]),   # neighbours A-C and B-C
        ("A", "C", True, [0.9, 0.1, 0.0, 0.0]),   # neighbours A-B and B-C
        ("B", "C", True, [0.8, 0.0, 0.2, 0.0]),   # neighbours A-B and A-C
        ("D", "E", True, [0.0, 1.0, 0.0, 0.0]),   # flagged, nobody beside it: unchanged
        ("A", "D", False, [0.0, 0.0, 1.0, 0.0]),  # not flagged: neither mixed nor a neighbour
    ])
    out = attribution.with_team_context(u)
    got = {(r["player_a"], r["player_b"]): [r[c] for c in FCOLS] for r in out.iter_rows(named=True)}
    np.testing.assert_allclose(got[("A", "B")], 0.5 * np.array([0.1, 0, 0, 0.9]) + 0.25 * np.array(
        [0.9 + 0.8, 0.1, 0.2, 0.0]))
    np.testing.assert_allclose(got[("D", "E")], [0.0, 1.0, 0.0, 0.0])
    np.testing.assert_allclose(got[("A", "D")], [0.0, 0.0, 1.0, 0.0])
    families = dict(zip(zip(out["player_a"], out["player_b"], strict=True), out["family"], strict=True))
    # A-B alone said card sharing; its team says soft play, and its own mix now does too
    assert families[("A", "B")] == "soft_play"
    assert families[("A", "D")] == "squeeze"
    for dist in got.values():
        assert abs(sum(dist) - 1.0) < 1e-9


def test_team_weight_is_the_neighbours_share() -> None:
    u = _frame([("A", "B", True, [1.0, 0.0, 0.0, 0.0]), ("A", "C", True, [0.0, 0.0, 0.0, 1.0])])
    out = attribution.with_team_context(u, weight=0.3).sort("player_b")
    np.testing.assert_allclose(out.select(FCOLS).row(0), [0.7, 0.0, 0.0, 0.3])
    np.testing.assert_allclose(out.select(FCOLS).row(1), [0.3, 0.0, 0.0, 0.7])


def test_the_family_model_decides_the_distribution() -> None:
    """With q_ columns the queue's f_ are those (normalised), not the pair model's p_."""
    u = pl.DataFrame({
        **{f"p_{f}": [0.9 if f == "soft_play" else 0.01] for f in FAMILIES},
        **{f"q_{f}": [0.7 if f == "squeeze" else 0.1] for f in FAMILIES},
    })
    out = queue.family_distribution(u, learned=True)
    assert out["family"].item() == "squeeze"
    np.testing.assert_allclose(out.select(FCOLS).row(0), [0.1, 0.1, 0.7, 0.1], rtol=1e-9)
    without = queue.family_distribution(u.drop([f"q_{f}" for f in FAMILIES]), learned=True)
    assert without["family"].item() == "soft_play"


def test_team_context_does_not_depend_on_row_order() -> None:
    rng = np.random.default_rng(3)
    rows = [(f"P{a}", f"P{b}", bool(rng.random() < 0.7), list(rng.dirichlet(np.ones(4))))
            for a in range(8) for b in range(a + 1, 8)]
    one = attribution.with_team_context(_frame(rows)).sort("player_a", "player_b")
    two = attribution.with_team_context(_frame(rows[::-1])).sort("player_a", "player_b")
    assert one.equals(two)


@pytest.fixture(scope="module")
def random_world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    from warehouse.ingest import ingest_paths

    base = tmp_path_factory.mktemp("attribution")
    cfg = simulator.Config(hands=30_000, seed=36, operator_mode=True, world="random")
    simulator.simulate(cfg, base / "hh", base / "truth.json")
    db = base / "w.duckdb"
    ingest_paths([base / "hh"], db, progress=False)
    return db, base / "truth.json"


def test_family_model_names_more_mechanisms_than_the_pair_model(random_world: tuple[Path, Path]) -> None:
    db, truth = random_world
    model = attribution.load(attribution.model_path("operator"))
    pair_model = learn.load_many(learn.model_paths("operator"), "operator")
    assert model is not None and pair_model is not None, "the shipped models are missing"
    with duckdb.connect(str(db), read_only=True) as con:
        u = label_frame(compute(con, Params(mode="operator")), load_truth(truth))
    colluding = u.filter(pl.col("family") != "none")
    assert colluding.height >= 20, "too few colluding pairs for a comparison"
    fam = model.predict(colluding)
    by_model = np.array(FAMILIES)[fam.select([f"q_{f}" for f in FAMILIES]).to_numpy().argmax(1)]
    old = pair_model.predict(colluding)
    by_pair_model = np.array(FAMILIES)[old.select([f"p_{f}" for f in FAMILIES]).to_numpy().argmax(1)]
    truth_family = colluding["family"].to_numpy()
    right, right_before = (by_model == truth_family).mean(), (by_pair_model == truth_family).mean()
    print(f"colluding pairs {colluding.height}: family model right {right:.3f}, pair model {right_before:.3f}")
    # since the pair model is fitted on two generators' worlds (1.9.0) it names the family about
    # as well on this world (both 0.63 of 27 pairs); the family model must not name fewer
    assert right >= right_before, (right, right_before)
    assert right >= 0.5, right  # four families: chance is 0.25


def test_a_run_stores_the_mixed_distribution(random_world: tuple[Path, Path], tmp_path: Path) -> None:
    """``detect`` applies the family model and the team context: the stored f_ of a flagged pair
    with flagged neighbours is half the family model's and half theirs."""
    import shutil

    db = tmp_path / "w.duckdb"
    shutil.copyfile(random_world[0], db)
    run_id = detect(db, Params(mode="operator")).run_id
    with duckdb.connect(str(db), read_only=True) as con:
        stored = con.execute(
            f"SELECT player_a, player_b, flagged, {', '.join(FCOLS)} FROM pair_scores WHERE run_id = ?",
            [run_id]).pl()
        u = compute(con, Params(mode="operator"))
    model = attribution.load(attribution.model_path("operator"))
    assert model is not None
    q = model.predict(u).select("player_a", "player_b", *[f"q_{f}" for f in FAMILIES])
    own = q.with_columns([(pl.col(f"q_{f}") / pl.sum_horizontal([f"q_{g}" for g in FAMILIES])).alias(f"f_{f}")
                          for f in FAMILIES]).select("player_a", "player_b", *FCOLS)
    expected = attribution.with_team_context(own.join(stored.select("player_a", "player_b", "flagged"),
                                                      on=["player_a", "player_b"]))
    both = stored.join(expected, on=["player_a", "player_b"], suffix="_want")
    assert both.height == stored.height and both["flagged"].sum() >= 10
    for c in FCOLS:
        np.testing.assert_allclose(both[c].to_numpy(), both[f"{c}_want"].to_numpy(), atol=1e-5)


@pytest.mark.parametrize("mode", ["operator", "player"])
def test_shipped_family_model_never_saw_the_measured_seeds(mode: str) -> None:
    """Fitted on worlds 1001-1024 (first) and 101-124 (indie) only: not on the quality seeds (11; 31-35 and
    indie 21-22 while developing) nor 36 above."""
    model = attribution.load(attribution.model_path(mode))
    assert model is not None and model.mode == mode
    seen = set(model.trained_on["seeds"])
    assert seen and not seen & {11, 21, 22, 31, 32, 33, 34, 35, 36, 41, 42, 43}
    assert set(model.trained_on["class_counts"]) == set(FAMILIES)
