"""The queue's order (``detectors.run.ranking_score``).

Why ``model_z``: the pair model saturates for every pair that sits together a lot (friends too),
so among saturated pairs its order says little; the room's behavioural z must break those ties
without overturning a model that is confident and a z that is not.
"""

from __future__ import annotations

import polars as pl
import pytest

from detectors.run import ranking_score


def _order(frame: pl.DataFrame, ranking: str) -> list[str]:
    scored = frame.with_columns(ranking_score(frame, ranking))
    return scored.sort("score", descending=True)["pair"].to_list()


def test_model_z_breaks_saturated_ties_by_behaviour() -> None:
    frame = pl.DataFrame({
        "pair": ["friends", "team", "honest"],
        "p_pair": [0.999_999, 0.999_998, 0.2],
        "t_max": [0.4, 5.0, 9.0],
    })
    assert _order(frame, "model") == ["friends", "team", "honest"]
    # the team's behaviour lifts it over the friends; a strong z cannot lift a pair the model
    # rates at 0.2 over two it rates near 1
    assert _order(frame, "model_z") == ["team", "friends", "honest"]


def test_model_z_scores_stay_distinct_at_six_decimals() -> None:
    """Flags store scores to 6 decimals: saturated pairs must not all round to the same value."""
    frame = pl.DataFrame({"pair": list("abcd"), "p_pair": [1.0, 1.0, 1.0, 1.0], "t_max": [0.0, 1.0, 2.0, 3.0]})
    scores = frame.select(ranking_score(frame, "model_z"))["score"].round(6).to_list()
    assert len(set(scores)) == 4
    assert all(0.0 < s < 1.0 for s in scores)


def test_negative_z_does_not_lower_a_pair_below_its_model_order() -> None:
    frame = pl.DataFrame({"pair": ["a", "b"], "p_pair": [0.9, 0.8], "t_max": [-3.0, 0.0]})
    assert _order(frame, "model_z") == ["a", "b"]


def test_unknown_ranking_is_refused() -> None:
    frame = pl.DataFrame({"pair": ["a"], "p_pair": [0.5], "t_max": [1.0]})
    with pytest.raises(ValueError, match="model_z"):
        ranking_score(frame, "zz")


def test_model_z_counts_z_only_up_to_beyond_honest_play() -> None:
    """A heads-up match where one bot loses all along reaches z 40 on chip flow; that must not lift a
    pair the model doubts over pairs it is sure of."""
    frame = pl.DataFrame({
        "pair": ["bots", "sure"],
        "p_pair": [0.66, 0.999],
        "t_max": [40.0, 0.5],
    })
    assert _order(frame, "model_z") == ["sure", "bots"]
