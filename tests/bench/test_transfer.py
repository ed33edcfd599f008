"""bench/transfer.py's per-world metrics and their pooling, against numbers worked by hand."""

from __future__ import annotations

import argparse

import numpy as np
import polars as pl
import pytest

from bench.transfer import check_args, mean_metrics, rule_peer, with_intensity, world_metrics
from detectors.families import FAMILIES

TEAMS = {"teams": [{"members": ["b", "a"], "intensity": 0.35}, {"members": ["c", "d"], "intensity": 0.7}]}


def _world() -> pl.DataFrame:
    # two colluding pairs (card sharers at intensity 0.35, squeezers at 0.7) among four honest pairs
    return pl.DataFrame({
        "player_a": ["s:a", "s:c", "s:e", "s:g", "s:i", "s:k"],
        "player_b": ["s:b", "s:d", "s:f", "s:h", "s:j", "s:l"],
        "family": ["card_sharing", "squeeze", "none", "none", "none", "none"],
        **{f"r_{f}": [0.0] * 6 for f in FAMILIES},
    })


def _q(rows: dict[int, dict[str, float]]) -> np.ndarray:
    q = np.full((6, len(FAMILIES)), 1.0 / len(FAMILIES))
    for i, shares in rows.items():
        q[i] = [shares.get(f, 0.0) for f in FAMILIES]
    return q


def test_intensity_comes_from_the_pair_s_team_and_the_last_team_wins() -> None:
    assert with_intensity(_world(), TEAMS)["intensity"].to_list() == [0.35, 0.7, None, None, None, None]
    twice = {"teams": [*TEAMS["teams"], {"members": ["a", "b", "e"], "intensity": 0.9}]}
    assert with_intensity(_world(), twice)["intensity"].to_list() == [0.9, 0.7, None, None, None, None]


def test_world_metrics_by_hand() -> None:
    f = with_intensity(_world(), TEAMS)
    # ranking: card sharers 1st, an honest pair 2nd, the squeezers 3rd -> AP (1/1 + 2/3) / 2
    p = np.array([0.9, 0.5, 0.8, 0.1, 0.1, 0.1])
    q = _q({0: {"squeeze": 0.7, "card_sharing": 0.1, "soft_play": 0.1, "chip_dumping": 0.1},
            1: {"squeeze": 1.0}})
    m = world_metrics(f, p, q)
    assert m["pair_ap"] == pytest.approx((1 + 2 / 3) / 2)
    assert "ap_low" not in m  # 0.35 is medium, 0.7 is high: the bins are [lo, hi)
    assert m["ap_medium"] == pytest.approx(1.0)  # the card sharers alone against the honest pairs
    assert m["ap_high"] == pytest.approx(0.5)  # the squeezers 2nd, behind the honest pair at 0.8
    assert (m["named_right"], m["colluding"]) == (1.0, 2.0)
    # card sharing: p x q = 0.09 for the team, 0.8 x 0.25 = 0.2 for the honest pair -> 2nd -> AP 0.5
    assert m["ap_card_sharing"] == pytest.approx(0.5)
    assert m["ap_squeeze"] == pytest.approx(0.5)  # 0.5 x 1.0, behind only the card sharers' 0.9 x 0.7
    assert "ap_soft_play" not in m and "ap_chip_dumping" not in m  # no such team in the world


def test_the_rule_peer_ranks_by_the_strongest_positive_rule_and_names_no_family_without_one() -> None:
    # the first pair soft-plays: naming the first family by default would count it right
    f = _world().with_columns(pl.Series("family", ["soft_play", "squeeze", "none", "none", "none", "none"]),
                              pl.Series("r_squeeze", [-1.0, 3.0, 1.0, -2.0, 0.0, 0.0]),
                              pl.Series("r_card_sharing", [-1.0, 1.0, 0.0, 0.0, 0.0, 0.0]))
    p, q = rule_peer(f)
    assert p.tolist() == [0.0, 3.0, 1.0, 0.0, 0.0, 0.0]
    shares = dict(zip(FAMILIES, q[1].tolist(), strict=True))
    assert shares == pytest.approx({"soft_play": 0.0, "chip_dumping": 0.0, "squeeze": 0.75, "card_sharing": 0.25})
    m = world_metrics(with_intensity(f, TEAMS), p, q)
    assert (m["named_right"], m["colluding"]) == (1.0, 2.0)  # the soft players, all rules <= 0: no family


def test_aps_are_averaged_over_the_worlds_that_have_them_and_accuracy_pools_the_pairs() -> None:
    worlds = [{"pair_ap": 1.0, "ap_low": 0.5, "named_right": 1.0, "colluding": 1.0},
              {"pair_ap": 0.0, "named_right": 0.0, "colluding": 4.0},
              {"pair_ap": 0.2, "ap_low": 0.1, "named_right": 3.0, "colluding": 4.0}]
    m = mean_metrics(worlds)
    assert m["pair_ap"] == pytest.approx(0.4) and m["ap_low"] == pytest.approx(0.3)
    assert m["family_acc"] == pytest.approx(4 / 9)  # not the mean of 1, 0 and 0.75
    assert set(m) == {"pair_ap", "ap_low", "family_acc"}


@pytest.mark.parametrize("fit,test,without", [
    (["first:1001-1003"], ["first:1003-1005"], []),
    (["first:1001-1003"], ["rival:201-203"], ["z_cs_abx"]),
])
def test_in_sample_scoring_and_unknown_features_are_refused(fit: list[str], test: list[str],
                                                            without: list[str]) -> None:
    parser = argparse.ArgumentParser()
    with pytest.raises(SystemExit):
        check_args(parser, argparse.Namespace(fit=fit, test=test, without=without))
    check_args(parser, argparse.Namespace(fit=fit, test=["rival:201-203"], without=["z_cs_ab"]))
