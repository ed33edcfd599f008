"""Effect sizes per opportunity (detectors.pairfx), checked against numbers worked by hand."""

from __future__ import annotations

import polars as pl
import pytest

from detectors import pairfx
from detectors.stats import GROUPS


def _row(a: str, b: str, **over: float) -> dict[str, object]:
    row: dict[str, object] = {"player_a": a, "player_b": b}
    for g in GROUPS:
        for m in ("aggr", "fold"):
            row |= {f"{g}_{m}_obs": 0.0, f"{g}_{m}_exp": 0.0}
        row |= {f"{g}_n": 0.0, f"{g}_strong_n": 0.0, f"{g}_strong_aggr": 0.0}
    for k in ("cs_b_stronger", "cs_b_weaker"):
        row |= {f"{k}_n": 0.0, f"{k}_fold": 0.0, f"{k}_exp": 0.0}
    for k in ("csn_b_stronger", "csn_b_weaker"):
        row |= {f"{k}_n": 0.0, f"{k}_aggr": 0.0, f"{k}_exp": 0.0}
    row |= {"hands_together": 0.0, "confrontations": 0.0, "hu_confrontations": 0.0, "hu_checkdowns": 0.0,
            "flow_cbb": 0.0, "flow_fold_cbb": 0.0, "flow_beaten_cbb": 0.0, "squeezes": 0.0,
            "callers_squeezed": 0.0, "whipsaw_folds": 0.0}
    return row | over


def test_effect_sizes_by_hand() -> None:
    # A against B heads-up postflop: 17 spots, A's own baseline expects 10 bets/raises, A made 2:
    # (2 - 10) / (17 + 3) = -0.4. B against A: as expected, 0.
    summed = pl.DataFrame([
        _row("s:A", "s:B", hu_post_aggr_obs=2.0, hu_post_aggr_exp=10.0, hu_post_n=17.0, hands_together=180.0,
             confrontations=47.0, flow_cbb=-500.0, squeezes=4.0),
        _row("s:B", "s:A", hu_post_aggr_obs=9.0, hu_post_aggr_exp=9.0, hu_post_n=17.0, hands_together=180.0,
             confrontations=47.0, flow_cbb=1000.0),
    ])
    u = pl.DataFrame({"player_a": ["s:A"], "player_b": ["s:B"], "hands_together": [180.0],
                      "hu_confrontations": [27.0], "hu_checkdowns": [7.0], "confrontations": [47.0]})
    out = pairfx.add(u, summed).row(0, named=True)
    assert out["e_hu_post_aggr_ab"] == pytest.approx(-0.4)
    assert out["e_hu_post_aggr_ba"] == pytest.approx(0.0)
    assert out["e_flow_ab"] == pytest.approx(-500 / 50)
    assert out["e_flow_ba"] == pytest.approx(1000 / 50)
    assert out["e_squeeze_ab"] == pytest.approx(4 / 200)
    assert out["e_checkdown"] == pytest.approx(7 / 30)
    assert set(pairfx.FEATURES) <= set(out)


def test_card_sharing_effect_needs_the_partner_s_cards() -> None:
    # A folds 8 of 10 times when B holds the stronger hand (baseline 4) and 4 of 10 when B holds the
    # weaker one (baseline 4): (8 - 4) / 13 - (4 - 4) / 13
    summed = pl.DataFrame([_row("s:A", "s:B", cs_b_stronger_n=10.0, cs_b_stronger_fold=8.0, cs_b_stronger_exp=4.0,
                                cs_b_weaker_n=10.0, cs_b_weaker_fold=4.0, cs_b_weaker_exp=4.0)])
    u = pl.DataFrame({"player_a": ["s:A"], "player_b": ["s:B"], "hands_together": [50.0],
                      "hu_confrontations": [0.0], "hu_checkdowns": [0.0], "confrontations": [0.0]})
    out = pairfx.add(u, summed).row(0, named=True)
    assert out["e_cs_ab"] == pytest.approx(4 / 13)
    assert out["e_cs_ba"] == 0.0  # no B-against-A row: filled with no deviation, not null


def test_a_long_honest_sitting_is_not_a_big_effect() -> None:
    # friends: 2,000 heads-up spots, 2% below the baseline (z about -1.9 at p=0.4) -> effect -0.02;
    # a soft-playing pair: 40 spots, 16 expected, 2 made -> effect -0.33
    summed = pl.DataFrame([
        _row("s:F", "s:G", hu_post_aggr_obs=760.0, hu_post_aggr_exp=800.0, hu_post_n=2000.0),
        _row("s:S", "s:T", hu_post_aggr_obs=2.0, hu_post_aggr_exp=16.0, hu_post_n=40.0),
    ])
    u = pl.DataFrame({"player_a": ["s:F", "s:S"], "player_b": ["s:G", "s:T"], "hands_together": [5000.0, 300.0],
                      "hu_confrontations": [0.0, 0.0], "hu_checkdowns": [0.0, 0.0], "confrontations": [0.0, 0.0]})
    out = pairfx.add(u, summed).sort("player_a")
    friends, soft = out["e_hu_post_aggr_ab"].to_list()
    assert friends == pytest.approx(-40 / 2003)
    assert soft == pytest.approx(-14 / 43)
