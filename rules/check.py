"""Run every check on hands: the one entry point the CLI, pipelines and tests call.

Why here: choosing the profile per hand (config map, ``--rulebook`` override) and combining the
replay's betting findings with the hand-level and cross-hand checks is the same everywhere. Large
warehouses are checked batch by batch (``check_batches``); the cross-hand checks see one hand of
look-behind across each batch border, so a table split between two batches loses no pair.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from parsers.model import NON_FLOP_VARIANTS, Hand

from .clock import clock_findings
from .exportdata import export_findings
from .findings import Finding
from .handchecks import hand_findings
from .money import check_money
from .profiles import Profile, ProfileMap, load_mapping, load_profile
from .replay import ActionState, Replay, replay
from .sequence import sequence_findings


class HandCheck(NamedTuple):
    hand: Hand
    profile: Profile
    replay: Replay
    findings: list[Finding]


class CheckedBatch(NamedTuple):
    """One batch's results, ready for ``rules.store.write_results``."""

    hand_ids: list[str]
    states: list[ActionState]
    findings: list[tuple[Finding, str]]  # with the rulebook each was judged under
    rulebook_of: dict[str, str]


def check_hand(hand: Hand, prof: Profile) -> HandCheck:
    """Replay one hand and run its per-hand checks (CLOCK.* only when the profile's shot clock is on
    and the hand logs per-action times: ``clock_findings`` returns nothing otherwise). Online, the ERRORs
    that rest on the export contradicting itself are then turned DATA (``rules.exportdata``)."""
    if hand.variant in NON_FLOP_VARIANTS:  # stud/draw (issue 12): money checks only, no betting replay
        rp, found = check_money(hand, prof)
        return HandCheck(hand, prof, rp, found)
    rp = replay(hand, prof)
    found = rp.findings + hand_findings(hand, prof, rp) + clock_findings(hand, prof, rp)
    return HandCheck(hand, prof, rp, export_findings(hand, prof, rp, found))


def _book_namer(rulebook: str | None, pmap: ProfileMap) -> Callable[[Hand], str]:
    """``pmap.name_for``, memoised on the hand fields the map's patterns read (a batch has few tables)."""
    if rulebook:
        return lambda _hand: rulebook
    keys = sorted({key for match, _ in pmap.entries for key, _ in match})
    seen: dict[tuple[object, ...], str] = {}

    def name_for(hand: Hand) -> str:
        key = tuple(getattr(hand, k, None) for k in keys)
        name = seen.get(key)
        if name is None:
            name = seen[key] = pmap.name_for(hand)
        return name

    return name_for


def _check_batch(
    hands: list[Hand], rulebook: str | None, pmap: ProfileMap, carry: Hand | None
) -> CheckedBatch:
    states: list[ActionState] = []
    findings: list[tuple[Finding, str]] = []
    books: dict[str, str] = {}
    by_profile: dict[str, list[Hand]] = {}
    book_of = _book_namer(rulebook, pmap)
    for hand in hands:
        name = book_of(hand)
        prof = load_profile(name)
        hc = check_hand(hand, prof)
        states.extend(hc.replay.states)
        findings.extend((f, prof.name) for f in hc.findings)
        books[hand.hand_id] = prof.name
        by_profile.setdefault(name, []).append(hand)
    if carry is not None:  # the previous batch's last hand: only ever the "previous" of a pair
        name = rulebook or pmap.name_for(carry)
        by_profile.setdefault(name, []).insert(0, carry)
    for name, group in by_profile.items():
        prof = load_profile(name)
        findings.extend((f, prof.name) for f in sequence_findings(group, prof) if f.hand_id in books)
    return CheckedBatch([h.hand_id for h in hands], states, findings, books)


def check_batches(
    batches: Iterable[list[Hand]], rulebook: str | None = None, mapping: ProfileMap | None = None
) -> Iterator[CheckedBatch]:
    """Check batches of hands given in table-and-time order, one result per batch."""
    pmap = mapping or load_mapping()
    carry: Hand | None = None
    for hands in batches:
        if not hands:
            continue
        yield _check_batch(hands, rulebook, pmap, carry)
        carry = hands[-1]


def check_hands(
    hands: Iterable[Hand], rulebook: str | None = None, mapping: ProfileMap | None = None
) -> tuple[list[ActionState], list[tuple[Finding, str]]]:
    """Every state row, and every finding with the rulebook it was judged under (one batch)."""
    done = _check_batch(list(hands), rulebook, mapping or load_mapping(), None)
    return done.states, done.findings
