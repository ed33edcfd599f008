"""Team support: a triangle of top-ranked pairs lifts its pairs; a lone pair at the top gets none."""

from __future__ import annotations

import duckdb
import polars as pl

from detectors import teams
from detectors.run import apply_schema, ranking_score


def _room() -> tuple[pl.DataFrame, pl.Series]:
    """Team T1-T2-T3 (three links near the top), friends F1-F2 (the single top link), 16 honest pairs."""
    rows = [("F1", "F2", 10.0), ("T1", "T2", 9.0), ("T1", "T3", 8.5), ("T2", "T3", 8.0)]
    rows += [(f"H{i}", f"H{i + 1}", float(i) / 10) for i in range(16)]
    rows += [("F1", "T1", 0.5)]  # a weak link between the friends and the team
    frame = pl.DataFrame(rows, schema=["player_a", "player_b", "base"], orient="row")
    return frame, frame["base"]


def test_a_triangle_of_top_links_supports_its_pairs_and_a_lone_pair_gets_none() -> None:
    frame, base = _room()
    got = dict(zip(zip(frame["player_a"], frame["player_b"], strict=True),
                   teams.support(frame, base, top_share=0.25).to_list(), strict=True))
    assert got[("F1", "F2")] == 0.0  # the top pair, but no third partner at the top
    assert got[("T1", "T2")] > 0.0 and got[("T1", "T3")] > 0.0 and got[("T2", "T3")] > 0.0
    # the support is the weaker of the two links to the best third player, inside the top share
    pct = base.rank("average") / frame.height
    assert abs(got[("T1", "T2")] - (pct[3] - 0.75) / 0.25) < 1e-12  # via T3: links 8.5 and 8.0
    assert all(v == 0.0 for k, v in got.items() if k[0].startswith("H") or k == ("F1", "T1"))


def test_support_does_not_depend_on_row_order() -> None:
    frame, _ = _room()
    one = frame.with_columns(teams.support(frame, frame["base"], top_share=0.25)).sort("player_a", "player_b")
    rev = frame.reverse()
    two = rev.with_columns(teams.support(rev, rev["base"], top_share=0.25)).sort("player_a", "player_b")
    assert one.equals(two)


def test_the_queue_lifts_a_team_pair_over_a_lone_pair_the_model_rates_alike() -> None:
    frame = pl.DataFrame({"p_pair": [0.999, 0.998], "t_max": [1.0, 1.0], "team_support": [0.0, 1.0]})
    scored = frame.with_columns(ranking_score(frame, "model_z_team"))["score"].to_list()
    assert scored[1] > scored[0]
    plain = frame.with_columns(ranking_score(frame, "model_z"))["score"].to_list()
    assert plain[0] > plain[1]


def test_a_warehouse_from_before_team_support_gets_the_column() -> None:
    con = duckdb.connect()
    con.execute("""CREATE TABLE pair_scores (run_id VARCHAR NOT NULL, player_a VARCHAR NOT NULL,
        player_b VARCHAR NOT NULL, rank BIGINT NOT NULL, flagged BOOLEAN NOT NULL, score DOUBLE NOT NULL,
        family VARCHAR NOT NULL, PRIMARY KEY (run_id, player_a, player_b))""")
    con.execute("INSERT INTO pair_scores VALUES ('r0', 'a', 'b', 1, TRUE, 0.9, 'soft_play')")
    apply_schema(con)
    assert con.execute("SELECT run_id, team_support FROM pair_scores").fetchall() == [("r0", None)]
