"""The both-engines fixture, and the recorder behind the corpus-wide both-engines check.

``engine``: a test taking it runs once per rule engine (tests/rules/engines.py).

The recorder (issue 13, Done-when "through both engines"): most hand-written rule tests call the Python
engine directly (``rules.check.check_hand``). Every hand-written hand (format "test") a test checks is
recorded with its rulebook, and ``tests/rules/test_zz_both_engines.py``, collected last, runs the whole
recorded corpus through both engines from one warehouse and requires identical findings, so a check
added to the Python engine alone fails there on the first hand-written hand that shows it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import rules.check as _check
from parsers.model import Hand
from rules.profiles import Profile
from tests.rules.engines import ENGINES

#: (hand, rulebook name) of every hand-written hand checked in this session, first seen first
RECORDED: dict[tuple[str, str], tuple[Hand, str]] = {}


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(autouse=True, scope="session")
def _record_hand_written_hands() -> Iterator[None]:
    """Wrap ``rules.check.replay`` (looked up at call time by ``check_hand``) to record test hands."""
    real = _check.replay

    def recording(hand: Hand, prof: Profile, *args: object, **kwargs: object) -> _check.Replay:
        if hand.format == "test":
            RECORDED.setdefault((repr(hand), prof.name), (hand, prof.name))
        return real(hand, prof, *args, **kwargs)  # type: ignore[arg-type]

    _check.replay = recording  # type: ignore[assignment]
    try:
        yield
    finally:
        _check.replay = real
