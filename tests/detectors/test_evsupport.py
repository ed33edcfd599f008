"""Evidence support (``detectors.evsupport``) on a simulated warehouse: it only re-orders the top of
the queue, never a pair below it; colluding pairs get more of it than honest ones; the keyed and
string paths agree; a second run gives the same numbers; and the evidence lists it hands on equal
what the evidence ranker gives from the family queries."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import combinations

import duckdb
import polars as pl
import pytest

from detectors import evrank, evsupport
from detectors.families import FAMILIES, evidence
from detectors.run import Params, compute, score

simulator = pytest.importorskip("simulator.run")


Scored = tuple[duckdb.DuckDBPyConnection, pl.DataFrame, evrank.EvidenceRanker, set[tuple[str, str]]]


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scored]:
    """A simulated operator-mode room after a detector run's features and scores (the k_ tables on
    the open connection), the shipped evidence ranker and the truth's colluding pairs."""
    from warehouse.ingest import ingest_paths

    base = tmp_path_factory.mktemp("evsupport")
    simulator.simulate(simulator.Config(hands=4000, seed=9, tables=4, players=30, operator_mode=True),
                       base / "hh", base / "truth.json")
    ingest_paths([base / "hh"], base / "w.duckdb", progress=False)
    truth = json.loads((base / "truth.json").read_text())
    colluders = {p for t in truth["teams"] for p in combinations(sorted(t["members"]), 2)}
    ranker = evrank.load(evrank.model_path("operator"))
    assert ranker is not None
    with duckdb.connect(str(base / "w.duckdb"), read_only=True) as con:
        u, _ = score(compute(con, Params()), Params())
        yield con, u, ranker, colluders


def _name(key: str) -> str:
    return key.split(":", 1)[1]


def _top(u: pl.DataFrame, n: int) -> pl.DataFrame:
    return u.sort("score", descending=True).head(n).select("player_a", "player_b")


def test_support_reorders_only_the_top(scored: Scored, monkeypatch: pytest.MonkeyPatch) -> None:
    con, u, ranker, colluders = scored
    monkeypatch.setattr(evsupport, "RERANK_MIN", 12)
    raised, probs = evsupport.add_support(con, u, ranker, budget=16)  # the top 16 pairs
    again, probs_again = evsupport.add_support(con, u, ranker, budget=16)
    off, none = evsupport.add_support(con, u, ranker, budget=16, weight=0.0)
    assert raised.equals(again) and probs.sort(probs.columns).equals(probs_again.sort(probs.columns))
    assert none.is_empty() and probs.select(pl.struct("player_a", "player_b").n_unique()).item() >= 8
    assert off["score"].equals(u["score"]) and off["evidence_support"].sum() == 0
    before = u.sort(["score", "player_a", "player_b"], descending=[True, False, False]).with_row_index("rank_before")
    both = before.select("player_a", "player_b", "rank_before", pl.col("score").alias("old")).join(
        raised.select("player_a", "player_b", "score", "evidence_support"), on=["player_a", "player_b"])
    top, rest = both.filter(pl.col("rank_before") < 16), both.filter(pl.col("rank_before") >= 16)
    assert rest["evidence_support"].max() == 0 and rest["score"].equals(rest["old"])
    assert (top["score"] >= top["old"]).all() and top["score"].min() > rest["score"].max()
    assert top.filter(pl.col("evidence_support") > 0).height >= 8  # the support is really there
    # the colluding pairs of the top carry far more support than the honest ones (the most of all)
    is_team = pl.struct("player_a", "player_b").map_elements(
        lambda r: tuple(sorted((_name(r["player_a"]), _name(r["player_b"])))) in colluders, return_dtype=pl.Boolean)
    top = top.with_columns(is_team.alias("team"))
    assert top["team"].any() and not top["team"].all()
    assert top.sort("evidence_support", descending=True)["team"][0]
    assert top.filter("team")["evidence_support"].mean() > 2 * top.filter(~pl.col("team"))["evidence_support"].mean()


def test_keyed_support_equals_the_views(scored: Scored) -> None:
    con, u, ranker, _ = scored
    keyed = evsupport.hand_probabilities(con, _top(u, 30), ranker, keyed=True)
    views = evsupport.hand_probabilities(con, _top(u, 30), ranker, keyed=False)
    order = ["player_a", "player_b", "family", "hand_id"]
    assert keyed.height >= 300 and keyed.sort(order).equals(views.sort(order))
    assert evsupport.support(keyed).sort("player_a", "player_b").equals(
        evsupport.support(views).sort("player_a", "player_b"))


def test_evidence_lists_equal_the_rankers(scored: Scored) -> None:
    con, u, ranker, _ = scored
    pairs = _top(u, 25)
    probs = evsupport.hand_probabilities(con, pairs, ranker)
    flags = pl.concat([pairs.select(pl.concat_str(pl.lit(f), pl.lit("|"), "player_a", pl.lit("|"), "player_b")
                                    .alias("flag_key"), pl.lit(f).alias("family"),
                                    pl.col("player_a").alias("a"), pl.col("player_b").alias("b"))
                       for f in FAMILIES])
    reference = evidence(con, flags, ranker=ranker)
    ours = evsupport.ranked_evidence(probs, flags)
    assert sum(len(h) for h in ours.values()) >= 200  # real lists, not two empties
    assert {k: h for k, h in reference.items() if h} == ours
