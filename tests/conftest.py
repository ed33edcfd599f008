"""Shared fixtures: where the real hand histories live, and temporary warehouses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("FLOORMAN_SHARED", ROOT.parent / "shared"))
HANDS = SHARED / "data" / "hands"


def real_data(*parts: str) -> Path:
    """Path under ../shared/data/hands, skipping the test with a clear reason when absent."""
    path = HANDS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real hand histories not available at {path} (set FLOORMAN_SHARED)")
    return path


@pytest.fixture
def hands_dir() -> Path:
    return real_data()
