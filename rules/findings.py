"""What a check reports: one ``Finding`` per broken (or floor-discretion) rule at one action.

Why a NamedTuple: findings are produced in the replay's inner loop and written in bulk, so they
are plain tuples; ``rulebook``, ``run_id`` and the rule version are added once per run when stored.
"""

from __future__ import annotations

from typing import NamedTuple

#: bump when a check's logic changes, so stored findings say which logic produced them
RULES_VERSION = "2026.3"  # CLOCK.SHOT_CLOCK and CLOCK.TIME_BANK on timed hands (shot-clock phase); 2026.2: round 3

#: the rulebook's text decides and the record breaks it
ERROR = "error"
WARNING = "warning"
#: the rulebook prescribes a remedy (RAISE.FIFTY_PCT): what the floor applies, not a breach
INFO = "info"
#: a house decision: the rulebook leaves the call to the floor or TD; allowed_outcomes lists rulings
REVIEW = "review"
#: the site's export is inconsistent with itself (stale stacks, unwritten drops); nobody broke a rule
DATA = "data"


class Finding(NamedTuple):
    hand_id: str
    action_seq: int | None  # None: the finding concerns the whole hand
    rule_id: str
    severity: str  # error | warning | info | review | data
    house_decision: bool  # the rulebook leaves it to the floor: not a violation
    allowed_outcomes: str | None  # for house decisions, the legal rulings ("|"-separated)
    expected: str
    actual: str
    message: str  # plain English, quoting the seed passage


def fmt(amount: int | None) -> str:
    """Amounts in findings are the hand's integer units, grouped for reading."""
    return "-" if amount is None else f"{amount:,}"
