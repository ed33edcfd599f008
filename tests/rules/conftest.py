"""The both-engines fixture: a test taking ``engine`` runs once per rule engine (tests/rules/engines.py)."""

from __future__ import annotations

import pytest

from tests.rules.engines import ENGINES


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)
