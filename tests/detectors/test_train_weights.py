"""The decoy weight of the pair-model training: friends and staking groups of the truth file weigh
``weight`` as honest pairs, a colluding pair or any other honest pair weighs 1."""

from __future__ import annotations

import polars as pl

from detectors.evaluate import decoy_pairs
from detectors.train import weight_decoys

TRUTH = {
    "teams": [{"members": ["c1", "c2"], "family": "soft_play"}],
    "confounders": [
        {"kind": "friends", "players": ["f3", "f1", "f2"]},
        {"kind": "staking", "players": ["s1", "s2"]},
        {"kind": "nit", "players": ["n1"]},
        {"kind": "loose_loser", "players": ["f1"]},
    ],
}


def test_decoy_pairs_are_every_pair_of_a_group() -> None:
    assert decoy_pairs(TRUTH) == {("f1", "f3"), ("f2", "f3"), ("f1", "f2"), ("s1", "s2")}


def test_only_the_honest_decoys_are_weighted() -> None:
    frame = pl.DataFrame({
        "player_a": ["ps:f3", "ps:s1", "ps:c1", "ps:f1", "ps:n1"],
        "player_b": ["ps:f2", "ps:s2", "ps:c2", "ps:n1", "ps:x"],
        "family": ["none", "none", "soft_play", "none", "none"],
    })
    assert weight_decoys(frame, TRUTH, 20.0)["w"].to_list() == [20.0, 20.0, 1.0, 1.0, 1.0]
