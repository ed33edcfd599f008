"""Evidence support (``detectors.evsupport``) on a simulated warehouse: it only re-orders the top of
the queue, never a pair below it; colluding pairs get more of it than honest ones; the keyed and
string paths agree; a second run gives the same numbers; the evidence lists it hands on equal
what the evidence ranker gives from the family queries; and a pair's leading flag lists its hands
pooled over every family, weighed by the attribution."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import duckdb
import polars as pl
import pytest

from detectors import evrank, evsupport
from detectors.families import FAMILIES, evidence
from detectors.run import Params, compute, detect, score

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


def _reference_pooled(probs: pl.DataFrame, shares: dict[tuple[str, str], dict[str, float]],
                      top: int = 10) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """The pooled order written out hand by hand: best family's p * sqrt(share), then that family's
    own s, then id; each hand named by that best family (the first in name order on a tie)."""
    best: dict[tuple[str, str], dict[str, tuple[float, float, str]]] = {}
    for r in probs.sort("family").iter_rows(named=True):
        share = shares[(r["player_a"], r["player_b"])][r["family"]]
        if share <= 0:
            continue
        hands = best.setdefault((r["player_a"], r["player_b"]), {})
        w = r["p"] * share ** 0.5
        if w > hands.get(r["hand_id"], (float("-inf"), 0.0, ""))[0]:
            hands[r["hand_id"]] = (w, r["s"], r["family"])
    return {pair: [(h, v[2]) for h, v in sorted(hands.items(), key=lambda x: (-x[1][0], -x[1][1], x[0]))[:top]]
            for pair, hands in best.items()}


def test_pooled_evidence_weighs_every_family_by_its_share(scored: Scored) -> None:
    con, u, ranker, _ = scored
    pairs = _top(u, 20)
    probs = evsupport.hand_probabilities(con, pairs, ranker)
    rows = list(pairs.iter_rows())
    # a different attribution per pair: one family alone, an even split, and skewed mixes
    patterns = [(1.0, 0.0, 0.0, 0.0), (0.25, 0.25, 0.25, 0.25), (0.1, 0.6, 0.3, 0.0), (0.0, 0.2, 0.05, 0.75)]
    shares = {(a, b): dict(zip(FAMILIES, patterns[i % len(patterns)], strict=True)) for i, (a, b) in enumerate(rows)}
    leads = pl.DataFrame([{"flag_key": f"lead|{a}|{b}", "player_a": b, "player_b": a,  # either order of the pair
                           **{f"f_{f}": v for f, v in shares[(a, b)].items()}} for a, b in rows])
    ours = evsupport.pooled_evidence(probs, leads)
    expected = _reference_pooled(probs, shares)
    assert sum(len(h) for h in ours.values()) >= 150
    assert ours == {f"lead|{a}|{b}": hands for (a, b), hands in expected.items()}
    # whole lists: a family the pair has no share of lends it no hand, even at the end
    assert evsupport.pooled_evidence(probs, leads, top=10_000) == {
        f"lead|{a}|{b}": hands for (a, b), hands in _reference_pooled(probs, shares, top=10_000).items()}
    # one family alone gives exactly that family's own evidence list
    alone = [(a, b) for i, (a, b) in enumerate(rows) if i % len(patterns) == 0]
    own = evsupport.ranked_evidence(probs, pl.DataFrame(
        {"flag_key": [f"lead|{a}|{b}" for a, b in alone], "family": FAMILIES[0],
         "a": [a for a, _ in alone], "b": [b for _, b in alone]}))
    assert own and all(ours[k] == [(x, FAMILIES[0]) for x in h] for k, h in own.items())


def _detected_copy(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> Path:
    """A copy of the fixture's warehouse after a whole detector run (default parameters)."""
    source = con.execute("SELECT path FROM duckdb_databases() WHERE NOT internal AND path IS NOT NULL").fetchone()
    assert source is not None
    db = tmp_path / "w.duckdb"
    shutil.copy(source[0], db)
    detect(db, Params())
    return db


def test_leading_flags_list_the_pooled_evidence(scored: Scored, tmp_path: Path) -> None:
    """Through a whole detector run: each pair's leading flag lists its pooled evidence, and a
    secondary family flag keeps its own family's hands."""
    con, u, ranker, _ = scored
    db = _detected_copy(con, tmp_path)
    with duckdb.connect(str(db), read_only=True) as run:
        flags = run.execute("""SELECT family, score, evidence_hands, evidence_families, observed FROM flags
                               WHERE len(players) = 2 AND family <> 'anomaly'""").pl()
        # the attribution the run used, unrounded (the flags' observed facts round it to 3 decimals)
        shares = run.execute(f"""SELECT least(player_a, player_b) AS a, greatest(player_a, player_b) AS b,
                                 {', '.join(f'f_{f}' for f in FAMILIES)} FROM pair_scores""").pl()
    obs = [json.loads(o) for o in flags["observed"]]
    flags = flags.with_columns(
        pl.Series("a", [min(o["player_keys"]) for o in obs]), pl.Series("b", [max(o["player_keys"]) for o in obs]))
    leading = flags.sort("score", descending=True).unique(["a", "b"], keep="first", maintain_order=True)
    assert leading.height >= 5 and flags.height > leading.height  # some pairs carry a second family's flag
    # the hands the run scored: its re-ordered top (card sharing reads triangles among those pairs)
    top = u.sort(["score", "player_a", "player_b"], descending=[True, False, False]).head(evsupport.RERANK_MIN)
    probs = evsupport.hand_probabilities(con, top.select(
        pl.min_horizontal("player_a", "player_b").alias("player_a"),
        pl.max_horizontal("player_a", "player_b").alias("player_b")), ranker)
    leads = leading.join(shares, on=["a", "b"]).select(
        pl.concat_str("a", pl.lit("|"), "b").alias("flag_key"), pl.col("a").alias("player_a"),
        pl.col("b").alias("player_b"), *[f"f_{f}" for f in FAMILIES])
    pooled = evsupport.pooled_evidence(probs, leads)
    assert len(pooled) == leading.height
    stored = {f"{a}|{b}": list(zip(h, f, strict=True)) for a, b, h, f in
              leading.select("a", "b", "evidence_hands", "evidence_families").iter_rows()}
    assert len({f for hands in stored.values() for _, f in hands}) >= 2  # the lists do mix families
    assert stored == pooled
    second = flags.join(leading.select("a", "b", "family"), on=["a", "b", "family"], how="anti").head(10)
    own = evsupport.ranked_evidence(probs, second.select(
        pl.concat_str("family", pl.lit("|"), "a", pl.lit("|"), "b").alias("flag_key"), "family", "a", "b"))
    assert second.height and all(own[f"{f}|{a}|{b}"] == list(h) and set(fs) == {f} for f, a, b, h, fs in
                                 second.select("family", "a", "b", "evidence_hands", "evidence_families").iter_rows())


def test_flags_command_lists_each_hands_family(scored: Scored, tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                               ) -> None:
    """``floorman flags --format json`` carries evidence_families in step with evidence_hands, and a
    warehouse whose flags predate the column still lists its flags (families null)."""
    from pipelines.cli import main

    con, _, _, _ = scored
    db = _detected_copy(con, tmp_path)
    assert main(["flags", "--db", str(db), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    pair_flags = [r for r in rows if len(r["players"]) == 2 and r["family"] != "anomaly"]
    assert pair_flags and all(len(r["evidence_families"]) == len(r["evidence_hands"]) for r in pair_flags)
    assert set(FAMILIES) >= {f for r in pair_flags for f in r["evidence_families"]}
    # without the evidence support there are no per-hand probabilities: a pair's leading list is
    # split by D'Hondt between its flagged families, each hand tagged with the list it came from
    detect(db, Params(evidence_weight=0.0))
    assert main(["flags", "--db", str(db), "--format", "json"]) == 0
    unpooled = json.loads(capsys.readouterr().out)
    hedged = [r for r in unpooled if len(r["players"]) == 2 and r["family"] != "anomaly"]
    assert hedged and all(r["evidence_hands"] and len(r["evidence_families"]) == len(r["evidence_hands"])
                          for r in hedged)
    own: dict[tuple[str, str, str], set[str]] = {}
    for r in hedged:
        own.setdefault((*sorted(r["players"]), r["family"]), set()).update(
            h for h, f in zip(r["evidence_hands"], r["evidence_families"], strict=True) if f == r["family"])
    mixed = [r for r in hedged if len(set(r["evidence_families"])) > 1]
    assert mixed  # some leading lists do draw on a second family
    for r in mixed:
        for h, f in zip(r["evidence_hands"], r["evidence_families"], strict=True):
            assert h in own[(*sorted(r["players"]), f)]  # a hand tagged f is in the pair's own f list
    with duckdb.connect(str(db)) as old:
        old.execute("ALTER TABLE flags DROP COLUMN evidence_families")
    assert main(["flags", "--db", str(db), "--format", "json"]) == 0
    before = json.loads(capsys.readouterr().out)
    assert [r["flag_id"] for r in before] == [r["flag_id"] for r in unpooled]
    assert all(r["evidence_families"] is None for r in before)


def test_a_tie_on_weight_is_broken_by_the_weighing_familys_own_score() -> None:
    """Each family's query score s is on a scale of its own: hand h1's big chip-dumping s must not
    lift it over h2 when both weigh the same as soft play and chip dumping gave h1 less weight."""
    probs = pl.DataFrame({
        "player_a": ["a"] * 3, "player_b": ["b"] * 3, "family": ["soft_play", "soft_play", "chip_dumping"],
        "hand_id": ["h1", "h2", "h1"], "s": [1.0, 2.0, 500.0], "p": [0.5, 0.5, 0.1], "n_dealt": [6, 6, 6]})
    leads = pl.DataFrame({"flag_key": ["soft_play|a|b"], "player_a": ["a"], "player_b": ["b"], "f_soft_play": [0.8],
                          "f_chip_dumping": [0.2], "f_squeeze": [0.0], "f_card_sharing": [0.0]})
    assert evsupport.pooled_evidence(probs, leads) == {"soft_play|a|b": [("h2", "soft_play"), ("h1", "soft_play")]}


def test_pairs_led_by_a_family_the_ranker_lacks_keep_that_familys_hands() -> None:
    """Player mode has no card-sharing ranker: a pair led by card sharing is not pooled (its list
    would hold none of its own family's hands); a pair led by a ranked family is, and its
    card-sharing flag, if any, keeps its own list."""
    from detectors.run import _leading_flags

    flagged = pl.DataFrame({
        "family": ["card_sharing", "squeeze", "squeeze"], "player_a": ["a", "c", "e"], "player_b": ["b", "d", "f"],
        "f_soft_play": [0.1, 0.2, 0.3], "f_chip_dumping": [0.1, 0.1, 0.1], "f_squeeze": [0.3, 0.55, 0.55],
        "f_card_sharing": [0.5, 0.15, 0.05]})
    ranked = ["soft_play", "chip_dumping", "squeeze"]
    assert _leading_flags(flagged, ranked)["flag_key"].to_list() == ["squeeze|c|d", "squeeze|e|f"]
    assert _leading_flags(flagged, [*ranked, "card_sharing"]).height == 3
