"""The one set of helpers the parser tests share: finding real files, parsing them, and the
per-hand sums the tests compare with what the sites wrote.

Why one module: every format's tests walk the same corpus, split hands from quarantine records
and sum contributions and awards the same way; a second copy of any of these could drift and
make one format's test pass for a reason another's would not. Hands are reconciled by the real
reconciler (``warehouse.reconcile.reconcile_hands``); ``balance`` only adds what it does not
report (who is overdrawn, the signed award difference when the site wrote no rake).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import polars as pl

from parsers.base import HandFormat
from parsers.model import Hand, Kind, Quarantined
from parsers.reading import read_head
from parsers.registry import all_formats, sniff_format
from tests.conftest import real_data
from warehouse.reconcile import reconcile_hands

FPDB = ("fpdb3_regression", "regression-test-files", "cash")
SMITHY = ("hhsmithy_sample_hh", "HandHistories.Parser.UnitTests", "SampleHandHistories")
EXPECTED_SUFFIXES = (".hp", ".hands", ".gt")
_NOT_HISTORIES = (*EXPECTED_SUFFIXES, ".py", ".md")
_HEADS_SKIP = (*_NOT_HISTORIES, ".rst", ".json5")


# -- finding real files ------------------------------------------------------------------------
def history_files(folder: Path) -> list[Path]:
    """Every non-empty hand-history file under ``folder`` (fpdb's expected-output files excluded)."""
    return [
        p
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.endswith(EXPECTED_SUFFIXES) and p.stat().st_size > 0
    ]


def files_of(fmt: HandFormat, *roots: tuple[str, ...]) -> list[Path]:
    """Every file under the named data folders that the registry sniffs as ``fmt`` (content, not
    folder name: hhsmithy's 'Pacific' folder holds PartyPoker hands, for instance)."""
    found: list[Path] = []
    for parts in roots:
        root = real_data(*parts)
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix not in _NOT_HISTORIES:
                sniffed = sniff_format(path)
                if sniffed is not None and sniffed.name == fmt.name:
                    found.append(path)
    return found


def sniffs(fmt: HandFormat, path: Path) -> bool:
    """The format's own sniffer on the file's head (the registry would ask every format)."""
    return fmt.sniff(read_head(path)[1])


@cache
def _heads() -> tuple[tuple[Path, str], ...]:
    """The head of every real file, read once per test session."""
    root = real_data()
    return tuple(
        (p, read_head(p)[1]) for p in sorted(root.rglob("*")) if p.is_file() and not p.name.endswith(_HEADS_SKIP)
    )


def claims(fmt: HandFormat) -> list[Path]:
    """Every real file ``fmt`` sniffs as its own."""
    return [p for p, head in _heads() if fmt.sniff(head)]


def foreign_claims(fmt: HandFormat) -> dict[str, list[str]]:
    """Files both ``fmt`` and another registered format sniff: must be empty."""
    clash: dict[str, list[str]] = {}
    others = [f for f in all_formats() if f.name != fmt.name]
    for p, head in _heads():
        if fmt.sniff(head):
            also = [f.name for f in others if f.sniff(head)]
            if also:
                clash[str(p)] = also
    return clash


# -- parsing -----------------------------------------------------------------------------------
def parse_all(fmt: HandFormat, files: Iterable[Path]) -> tuple[list[Hand], list[Quarantined]]:
    """Every record of the files, split into hands and quarantine records."""
    hands: list[Hand] = []
    quarantined: list[Quarantined] = []
    for path in files:
        for item in fmt.parse(path):
            if isinstance(item, Hand):
                hands.append(item)
            else:
                quarantined.append(item)
    return hands, quarantined


def parse_one(fmt: HandFormat, path: Path) -> list[Hand]:
    hands, quarantined = parse_all(fmt, [path])
    assert not quarantined, [q.reason for q in quarantined]
    return hands


def hand_from(fmt: HandFormat, path: Path, hand_no: str) -> Hand:
    for rec in fmt.parse(path):
        if isinstance(rec, Hand) and rec.site_hand_no == hand_no:
            return rec
    raise AssertionError(f"hand {hand_no} not parsed from {path}")


def by_id(hands: list[Hand], hand_id: str) -> Hand:
    return next(h for h in hands if h.hand_id == hand_id)


def unique(hands: list[Hand]) -> list[Hand]:
    """HHSmithy copies one hand into several sample files: each hand_id once, first copy kept."""
    seen: dict[str, Hand] = {}
    for h in hands:
        seen.setdefault(h.hand_id, h)
    return list(seen.values())


# -- per-hand sums -----------------------------------------------------------------------------
def put_in(hand: Hand) -> dict[str, int]:
    """Σ contribution per player."""
    out: dict[str, int] = {}
    for a in hand.actions:
        out[a.player] = out.get(a.player, 0) + a.contribution
    return {k: v for k, v in out.items() if v}


def net_of(hand: Hand) -> dict[str, int]:
    """Own awards − own contributions per player who acted or won (0 for anyone else)."""
    out: dict[str, int] = defaultdict(int)
    for a in hand.actions:
        out[a.player] -= a.contribution
    for w in hand.awards:
        out[w.player] += w.amount
    return out


def results(hand: Hand) -> dict[str, int]:
    """stack − own contributions + own awards, per seated player (the stack after the hand)."""
    gained = net_of(hand)
    return {s.player: s.stack + gained[s.player] for s in hand.seats}


def awards(hand: Hand) -> list[tuple[str, int, int, int]]:
    return sorted((a.player, a.amount, a.pot_no, a.board_no) for a in hand.awards)


def kinds(hand: Hand, kind: Kind) -> list[tuple[str, int | None, int]]:
    return [(a.player, a.amount, a.contribution) for a in hand.actions if a.kind is kind]


# -- reconciliation ----------------------------------------------------------------------------
def not_ok(hands: list[Hand]) -> dict[str, dict[str, object]]:
    """hand_id -> reconciliation row, for every hand whose status is not 'ok'."""
    df = reconcile_hands(hands)
    return {r["hand_id"]: r for r in df.filter(pl.col("status") != "ok").iter_rows(named=True)}


@dataclass
class Balance:
    """One hand's sums where a test needs more than the reconciliation row: the award
    difference with no implied rake (so a site that writes none shows it as negative) and the
    names of overdrawn players."""

    contributed: int
    awarded: int
    diff_awards: int  # awarded + rake + fees - contributed (rake 0 when not written)
    overdrawn: list[str]


def balance(hand: Hand) -> Balance:
    given = put_in(hand)
    c = sum(given.values())
    awarded = sum(w.amount for w in hand.awards)
    diff_awards = awarded + (hand.site_rake or 0) + (hand.site_fees or 0) - c
    stacks = {s.player: s.stack for s in hand.seats}
    over = [p for p, v in given.items() if v > stacks.get(p, 0)]
    return Balance(c, awarded, diff_awards, over)


def cut_copy(raw: bytes, starts: list[int], k: int, den: int, dst: Path, sep: bytes = b"\n") -> Path:
    """Write ``raw`` to ``dst`` with hand ``k`` (0-based, starting at ``starts[k]``) cut after the
    first 1/``den`` of its bytes and ``sep`` before the next hand; byte offsets before it stay."""
    dst.write_bytes(raw[: starts[k] + (starts[k + 1] - starts[k]) // den] + sep + raw[starts[k + 1] :])
    return dst


def truncated_copy(src: Path, dst: Path, start_marker: str, keep_fraction: float = 0.5) -> int:
    """Copy ``src`` to ``dst`` cutting its second hand in half; return how many hands it had."""
    text = src.read_bytes().decode("utf-8-sig")
    starts = [
        i for i in range(len(text)) if text.startswith(start_marker, i) and (i == 0 or text[i - 1] == "\n")
    ]
    assert len(starts) >= 3, "need a file with at least three hands"
    second, third = starts[1], starts[2]
    cut = second + int((third - second) * keep_fraction)
    dst.write_text(text[:cut] + "\n\n" + text[third:], encoding="utf-8")
    return len(starts)
