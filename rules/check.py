"""Run every check on hands: the one entry point the CLI, pipelines and tests call.

Why here: choosing the profile per hand (config map, ``--rulebook`` override) and combining the
replay's betting findings with the hand-level and cross-hand checks is the same everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from parsers.model import Hand

from .findings import Finding
from .handchecks import hand_findings
from .profiles import Profile, ProfileMap, load_mapping, load_profile
from .replay import ActionState, Replay, replay
from .sequence import sequence_findings


class HandCheck(NamedTuple):
    hand: Hand
    profile: Profile
    replay: Replay
    findings: list[Finding]


def check_hand(hand: Hand, prof: Profile) -> HandCheck:
    """Replay one hand and run its per-hand checks."""
    rp = replay(hand, prof)
    return HandCheck(hand, prof, rp, rp.findings + hand_findings(hand, prof, rp))


def check_hands(
    hands: Iterable[Hand], rulebook: str | None = None, mapping: ProfileMap | None = None
) -> tuple[list[ActionState], list[tuple[Finding, str]]]:
    """Every state row, and every finding with the rulebook it was judged under."""
    pmap = mapping or load_mapping()
    states: list[ActionState] = []
    findings: list[tuple[Finding, str]] = []
    by_profile: dict[str, list[Hand]] = {}
    for hand in hands:
        name = rulebook or pmap.name_for(hand)
        prof = load_profile(name)
        hc = check_hand(hand, prof)
        states.extend(hc.replay.states)
        findings.extend((f, prof.name) for f in hc.findings)
        by_profile.setdefault(name, []).append(hand)
    for name, group in by_profile.items():
        prof = load_profile(name)
        findings.extend((f, prof.name) for f in sequence_findings(group, prof))
    return states, findings
