"""simulator.authors: every other author's generator answers the one call shape the quality grid
and the training script use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.authors import AUTHORS, generator


@pytest.mark.parametrize("name", sorted(AUTHORS))
def test_each_author_writes_a_room_through_the_shared_call(name: str, tmp_path: Path) -> None:
    generator(name)(tmp_path / "hh", tmp_path / "truth.json", hands=300, seed=3, intensity=0.5,
                    operator_mode=True, players=100)
    truth = json.loads((tmp_path / "truth.json").read_text(encoding="utf-8"))
    assert truth["teams"] and all(len(t["members"]) >= 2 for t in truth["teams"])
    assert any("Dealt to" in p.read_text(encoding="utf-8") for p in (tmp_path / "hh").rglob("*.txt"))


def test_an_unknown_generator_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match="'nobody'"):
        generator("nobody")
