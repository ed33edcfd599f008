"""Helpers shared by the site-parser tests (GGPoker, Winamax, Winning, Bovada)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import polars as pl

from parsers.base import TextHandFormat
from parsers.model import Hand, Kind, Quarantined
from warehouse.reconcile import reconcile_hands

EXPECTED_SUFFIXES = (".hp", ".hands", ".gt")


def history_files(folder: Path) -> list[Path]:
    """Every non-empty hand-history file under ``folder`` (fpdb's expected-output files excluded)."""
    return [
        p
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.endswith(EXPECTED_SUFFIXES) and p.stat().st_size > 0
    ]


def parse_all(fmt: TextHandFormat, files: Iterable[Path]) -> tuple[list[Hand], list[Quarantined]]:
    hands: list[Hand] = []
    quarantined: list[Quarantined] = []
    for path in files:
        for item in fmt.parse(path):
            if isinstance(item, Hand):
                hands.append(item)
            else:
                quarantined.append(item)
    return hands, quarantined


def parse_one(fmt: TextHandFormat, path: Path) -> list[Hand]:
    hands, quarantined = parse_all(fmt, [path])
    assert not quarantined, [q.reason for q in quarantined]
    return hands


def by_id(hands: list[Hand], hand_id: str) -> Hand:
    return next(h for h in hands if h.hand_id == hand_id)


def put_in(hand: Hand) -> dict[str, int]:
    """Σ contribution per player."""
    out: dict[str, int] = {}
    for a in hand.actions:
        out[a.player] = out.get(a.player, 0) + a.contribution
    return {k: v for k, v in out.items() if v}


def awards(hand: Hand) -> list[tuple[str, int, int, int]]:
    return sorted((a.player, a.amount, a.pot_no, a.board_no) for a in hand.awards)


def kinds(hand: Hand, kind: Kind) -> list[tuple[str, int | None, int]]:
    return [(a.player, a.amount, a.contribution) for a in hand.actions if a.kind is kind]


def not_ok(hands: list[Hand]) -> dict[str, dict[str, object]]:
    """hand_id -> reconciliation row, for every hand whose status is not 'ok'."""
    df = reconcile_hands(hands)
    return {r["hand_id"]: r for r in df.filter(pl.col("status") != "ok").iter_rows(named=True)}


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
