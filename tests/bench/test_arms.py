"""bench/arms.py: the ship rule over two sets of quality rows."""

from __future__ import annotations

import pytest

from bench.arms import composites, judge


def _rows(values: dict[tuple[str, float, str], float], seed: int = 41) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = [
        {"generator": g, "seed": seed, "intensity": i, "mode": m, "who": "floorman", "composite": c}
        for (g, i, m), c in values.items()]
    rows.append({"generator": "rival", "seed": seed, "intensity": 0.2, "mode": "operator", "who": "naive",
                 "composite": 0.99})  # a peer's row never counts
    return rows


BASE = {("rival", 0.2, "operator"): 0.60, ("rival", 0.2, "player"): 0.50,
        ("first", 0.2, "operator"): 0.70, ("first", 0.2, "player"): 0.70}


def test_a_gain_everywhere_ships() -> None:
    arm = {k: v + 0.01 for k, v in BASE.items()}
    v = judge(composites(_rows(BASE)), composites(_rows(arm)))
    assert v.ships and v.gain == pytest.approx(0.01) and v.rooms == 4


def test_a_gain_paid_for_by_one_generator_does_not_ship() -> None:
    arm = {**{k: v + 0.05 for k, v in BASE.items()}, ("first", 0.2, "player"): 0.67}
    v = judge(composites(_rows(BASE)), composites(_rows(arm)))
    assert v.gain > 0.005 and not v.ships
    assert v.worst[:2] == ("player", "first") and v.worst[2] == pytest.approx(-0.03)


def test_too_small_a_gain_does_not_ship() -> None:
    arm = {k: v + 0.004 for k, v in BASE.items()}
    assert not judge(composites(_rows(BASE)), composites(_rows(arm))).ships


def test_only_rooms_on_both_sides_are_compared() -> None:
    arm = {**{k: v + 0.01 for k, v in BASE.items()}, ("indie", 0.5, "operator"): 0.0}
    assert judge(composites(_rows(BASE)), composites(_rows(arm))).rooms == 4


def test_two_seeds_of_a_generator_are_two_rooms_but_one_seed_twice_is_an_error() -> None:
    both = composites(_rows(BASE, seed=41) + _rows(BASE, seed=42))
    assert len(both) == 8
    with pytest.raises(ValueError, match="appears twice"):
        composites(_rows(BASE) + _rows(BASE))
