"""The evidence queries on a detector run's integer-keyed tables pick and order exactly the hands
the same queries pick over the string-keyed views (the reference, and what training reads): on a
simulated warehouse, for every colluding pair of the truth as a flag of its own family, with the
SQL order and with the shipped evidence ranker."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from detectors import evrank
from detectors.families import evidence, is_keyed
from detectors.run import Params, compute

simulator = pytest.importorskip("simulator.run")


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    from warehouse.ingest import ingest_paths

    base = tmp_path_factory.mktemp("keyed")
    simulator.simulate(simulator.Config(hands=4000, seed=9, tables=4, players=30, operator_mode=True),
                       base / "hh", base / "truth.json")
    ingest_paths([base / "hh"], base / "w.duckdb", progress=False)
    return base / "w.duckdb", json.loads((base / "truth.json").read_text())


@pytest.mark.parametrize("mode", ["operator", "player"])
def test_keyed_evidence_equals_the_views(warehouse: tuple[Path, dict[str, object]], mode: str) -> None:
    db, truth = warehouse
    flags, _acts = evrank.truth_flags(truth)
    with duckdb.connect(str(db), read_only=True) as con:
        compute(con, Params(mode=mode))
        assert is_keyed(con)
        for ranker in (None, evrank.load(evrank.model_path(mode))):
            keyed = evidence(con, flags, ranker=ranker)
            views = evidence(con, flags, ranker=ranker, keyed=False)
            assert sum(len(h) for h in keyed.values()) >= 10 * len(flags) // 2  # real evidence, not two empties
            assert keyed == views
