"""bench/quality.py's --model-dir: the pair models (one or a seed bag) and a candidate family model beside them."""

from __future__ import annotations

from pathlib import Path

from bench.quality import model_params


def test_no_model_dir_means_the_shipped_models() -> None:
    assert model_params(None, "operator") == {}


def test_a_pair_model_alone_keeps_the_shipped_family_model(tmp_path: Path) -> None:
    (tmp_path / "pair_model_player.pkl").write_bytes(b"")
    assert model_params(str(tmp_path), "player") == {"model": str(tmp_path / "pair_model_player.pkl")}


def test_the_family_model_of_the_same_mode_is_picked_up(tmp_path: Path) -> None:
    for name in ("pair_model_operator.pkl", "family_model_operator.pkl", "family_model_player.pkl"):
        (tmp_path / name).write_bytes(b"")
    assert model_params(str(tmp_path), "operator") == {
        "model": str(tmp_path / "pair_model_operator.pkl"),
        "family_model": str(tmp_path / "family_model_operator.pkl"),
    }


def test_a_seed_bag_in_the_model_dir_is_passed_whole(tmp_path: Path) -> None:
    for name in ("pair_model_operator.pkl", "pair_model_operator_s1.pkl", "pair_model_operator_s2.pkl",
                 "pair_model_player_s1.pkl"):
        (tmp_path / name).write_bytes(b"")
    got = model_params(str(tmp_path), "operator")["model"].split(",")
    assert got == [str(tmp_path / f"pair_model_operator{s}.pkl") for s in ("", "_s1", "_s2")]
