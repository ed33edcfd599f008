"""What a check reports: one ``Finding`` per broken rule, floor's call or export anomaly at one action.

Why a NamedTuple: findings are produced in the replay's inner loop and written in bulk, so they
are plain tuples; ``rulebook``, ``run_id`` and the rule version are added once per run when stored.

One meaning per severity (issue 13):

- ``ERROR``: the rulebook's text decides the case and the record breaks it.
- ``WARNING``: an irregularity the book says "may be penalized", or a default the book does not
  state (rules_matrix §0.5).
- ``REVIEW``: a house decision: the book leaves the ruling to the floor or TD. The finding lists the
  rulings the book allows (``allowed_outcomes``) and says what the record shows; the floor's
  ruling is recorded against it in the review store. ``house_decision`` is True exactly for these.
- ``INFO``: the remedy the book prescribes (RAISE.FIFTY_PCT), or a special rule applied.
- ``DATA``: the site's export is inconsistent with itself (unwritten jackpot drops, stale stacks):
  no player or dealer did anything, so it is counted apart from violations everywhere.

Build findings with ``finding`` (or ``review``), which keep ``house_decision`` and ``allowed_outcomes``
consistent with the severity.
"""

from __future__ import annotations

import re
from typing import NamedTuple

#: bump when a check's logic changes, so stored findings say which logic produced them
RULES_VERSION = "2026.5"  # leave marker, four anomalies; 2026.4: REVIEW / DATA; 2026.3: CLOCK.*; 2026.2: round 3

#: the rulebook's text decides and the record breaks it
ERROR = "error"
#: an irregularity the book says may be penalized, or a default the book does not state
WARNING = "warning"
#: the rulebook prescribes a remedy (RAISE.FIFTY_PCT): what the floor applies, not a breach
INFO = "info"
#: a house decision: the rulebook leaves the call to the floor or TD; allowed_outcomes lists rulings
REVIEW = "review"
#: the site's export is inconsistent with itself (stale stacks, unwritten drops); nobody broke a rule
DATA = "data"

SEVERITIES = (ERROR, WARNING, REVIEW, INFO, DATA)
#: what a player or dealer did against the book (the violations page); REVIEW and DATA are counted apart
VIOLATIONS = (ERROR, WARNING)
#: separator of ``allowed_outcomes``
OUTCOME_SEP = "|"


class Finding(NamedTuple):
    hand_id: str
    action_seq: int | None  # None: the finding concerns the whole hand
    rule_id: str
    severity: str  # error | warning | review | info | data (``SEVERITIES``)
    house_decision: bool  # True exactly when severity is REVIEW: the floor rules, from allowed_outcomes
    allowed_outcomes: str | None  # for REVIEW, the rulings the book allows ("|"-separated); else None
    expected: str
    actual: str  # for REVIEW: what the record shows
    message: str  # plain English, quoting the seed passage


def finding(
    hand_id: str, seq: int | None, rule_id: str, severity: str, expected: str, actual: str, message: str,
    outcomes: tuple[str, ...] | None = None,
) -> Finding:
    """A finding whose house-decision flag and outcomes follow its severity (REVIEW needs outcomes)."""
    if severity == REVIEW and not outcomes:
        raise ValueError(f"{rule_id}: a REVIEW finding lists the rulings the book allows")
    if severity != REVIEW and outcomes:
        raise ValueError(f"{rule_id}: only a REVIEW finding carries allowed outcomes")
    return Finding(
        hand_id, seq, rule_id, severity, severity == REVIEW,
        OUTCOME_SEP.join(outcomes) if outcomes else None, expected, actual, message,
    )


def review(
    hand_id: str, seq: int | None, rule_id: str, outcomes: tuple[str, ...], expected: str, actual: str,
    message: str,
) -> Finding:
    """A house decision: the floor rules among ``outcomes``; ``actual`` is what the record shows."""
    return finding(hand_id, seq, rule_id, REVIEW, expected, actual, message, outcomes)


#: the seed citation a message ends with (`` [file] «passage»``, or ``rules.citations.citation``'s
#: `` — <book>, <article>: [file] «passage»``)
_CITATION = re.compile(r"(?: — [^«»\[\]]*:)? \[[^\]]*\] «[^»]*»$")


def uncited(message: str) -> str:
    """A message without its closing seed citation: a DATA finding rests on no rulebook passage."""
    return _CITATION.sub("", message)


def fmt(amount: int | None) -> str:
    """Amounts in findings are the hand's integer units, grouped for reading."""
    return "-" if amount is None else f"{amount:,}"
