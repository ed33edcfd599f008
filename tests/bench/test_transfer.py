"""bench/transfer.py's per-world metrics, against numbers worked by hand."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from bench.transfer import mean_metrics, scores, with_intensity, world_metrics


def _world() -> pl.DataFrame:
    # two colluding pairs (a card-sharing team at 0.2, a squeeze team at 0.9) among four honest pairs
    return pl.DataFrame({
        "player_a": ["s:a", "s:c", "s:e", "s:g", "s:i", "s:k"],
        "player_b": ["s:b", "s:d", "s:f", "s:h", "s:j", "s:l"],
        "family": ["card_sharing", "squeeze", "none", "none", "none", "none"],
        **{f"r_{f}": [0.0] * 6 for f in ("soft_play", "chip_dumping", "squeeze", "card_sharing")},
    })


def test_intensity_comes_from_the_pair_s_team() -> None:
    truth = {"teams": [{"members": ["b", "a"], "intensity": 0.2}, {"members": ["c", "d"], "intensity": 0.9}]}
    got = with_intensity(_world(), truth)["intensity"].to_list()
    assert got == [0.2, 0.9, None, None, None, None]


def test_world_metrics_by_hand() -> None:
    f = with_intensity(_world(), {"teams": [{"members": ["a", "b"], "intensity": 0.2},
                                            {"members": ["c", "d"], "intensity": 0.9}]})
    # ranking: card sharers 1st, an honest pair 2nd, the squeezers 3rd -> AP (1/1 + 2/3) / 2
    p = np.array([0.9, 0.5, 0.8, 0.1, 0.1, 0.1])
    q = np.full((6, 4), 0.25)
    q[0] = [0.1, 0.1, 0.7, 0.1]  # the card sharers look like squeezers
    q[1] = [0.0, 0.0, 1.0, 0.0]
    m = world_metrics(f, p, q)
    assert m["pair_ap"] == pytest.approx((1 + 2 / 3) / 2)
    assert m["ap_low"] == pytest.approx(1.0)  # the low-intensity team alone against the honest pairs
    assert m["ap_high"] == pytest.approx(0.5)  # the squeezers rank 2nd among themselves and honest pairs
    assert "ap_medium" not in m
    assert m["family_acc"] == pytest.approx(0.5)
    # card sharing: p x q_card_sharing = 0.09 for the team, 0.2 for the honest pair at 0.8 -> 2nd -> 0.5
    assert m["ap_card_sharing"] == pytest.approx(0.5)


def test_the_rule_peer_ranks_by_the_strongest_rule_and_shares_by_the_rules() -> None:
    f = _world().with_columns(pl.Series("r_squeeze", [0.0, 3.0, 1.0, -2.0, 0.0, 0.0]),
                              pl.Series("r_card_sharing", [1.0, 1.0, 0.0, 0.0, 0.0, 0.0]))
    p, q = scores(f, None, None)
    assert p.tolist() == [1.0, 3.0, 1.0, 0.0, 0.0, 0.0]
    assert q[1].tolist() == pytest.approx([0.0, 0.0, 0.75, 0.25])


def test_a_metric_missing_in_a_world_is_averaged_over_the_others() -> None:
    assert mean_metrics([{"a": 1.0, "b": 0.5}, {"a": 0.0}]) == {"a": 0.5, "b": 0.5}
