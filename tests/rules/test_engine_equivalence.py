"""Differential harness: the optimised rule checker against the frozen engine in ``rules.reference``.

Why: the speed work (issue 3) must not change a single finding or action_state. Both engines run on
the same inputs and every row is compared: every real hand under every rulebook (in memory, the API
the tests and the replay view use), and a simulated night plus the real hands loaded into a
warehouse (``floorman check``'s path: bulk loading, batches with cross-batch look-behind, writing).
The reference is live code, not a stored digest, so a parser fix that changes the real hands
changes both sides alike.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import duckdb
import pytest

from parsers.model import Hand
from parsers.registry import sniff_format
from pipelines.cli import main as floorman
from pipelines.cli_rules import run_check
from rules.check import check_hand
from rules.profiles import PROFILE_NAMES, load_mapping, load_profile
from rules.reference import check as ref_check
from rules.reference import store as ref_store
from tests.conftest import real_data
from warehouse.db import connect
from warehouse.frames import hands_to_frames
from warehouse.ingest import ingest_paths, iter_input_files

#: every Nth real hand is also checked under the four non-default rulebooks (all of them under
#: online-standard), keeping the test well under a minute on the shared 2-core machine
OTHER_BOOK_STRIDE = 5

_STATE_COLS = (
    "hand_id, seq, player, street, position, kind, contribution, raise_to, to_call, current_bet, min_raise_to,"
    " max_raise_to, last_full_raise, reopened, pot_before, players_to_act, stack_before, committed_before,"
    " facing_aggressor, all_in, rulebook"
)
_VIOL_COLS = (
    "hand_id, action_seq, rule_id, rulebook, severity, house_decision, allowed_outcomes, expected, actual, message"
)


def _digest(rows: list[tuple[Any, ...]]) -> str:
    h = hashlib.sha256()
    for r in sorted(rows, key=repr):
        h.update(repr(r).encode())
    return h.hexdigest()


def _first_diff(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> str:
    sa, sb = set(a), set(b)
    only_a, only_b = sorted(sa - sb, key=repr)[:3], sorted(sb - sa, key=repr)[:3]
    return f"{len(a)} vs {len(b)} rows; only new: {only_a}; only reference: {only_b}"


@pytest.fixture(scope="module")
def real_hands() -> list[Hand]:
    root = real_data()
    seen: set[str] = set()
    hands: list[Hand] = []
    for path in iter_input_files([root]):
        fmt = sniff_format(path)
        if fmt is None:
            continue
        for h in fmt.parse(path):
            if isinstance(h, Hand) and h.hand_id not in seen:
                seen.add(h.hand_id)
                hands.append(h)
    return hands


@pytest.mark.parametrize("book", PROFILE_NAMES)
def test_real_hands_identical_in_memory(real_hands: list[Hand], book: str) -> None:
    prof = load_profile(book)
    hands = real_hands if book == "online-standard" else real_hands[::OTHER_BOOK_STRIDE]
    assert len(hands) > 1000
    new_states: list[tuple[Any, ...]] = []
    new_find: list[tuple[Any, ...]] = []
    ref_states: list[tuple[Any, ...]] = []
    ref_find: list[tuple[Any, ...]] = []
    for h in hands:
        got = check_hand(h, prof)
        want = ref_check.check_hand(h, prof)
        new_states.extend(tuple(s) for s in got.replay.states)
        ref_states.extend(tuple(s) for s in want.replay.states)
        new_find.extend(tuple(f) for f in got.findings)
        ref_find.extend(tuple(f) for f in want.findings)
    assert ref_find, "the reference finds something on real hands: the comparison is not vacuous"
    assert new_states == ref_states, _first_diff(new_states, ref_states)
    assert new_find == ref_find, _first_diff(new_find, ref_find)


def _reference_rows(db: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """What the frozen engine writes for the warehouse, as table rows (without run ids and times)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        states: list[tuple[Any, ...]] = []
        finds: list[tuple[Any, ...]] = []
        for done in ref_check.check_batches(ref_store.hand_batches(con), mapping=load_mapping()):
            states.extend((*s, done.rulebook_of[s.hand_id]) for s in done.states)
            for f, book in done.findings:
                finds.append(
                    (f.hand_id, f.action_seq, f.rule_id, book, f.severity, f.house_decision, f.allowed_outcomes,
                     f.expected, f.actual, f.message)
                )
        return states, finds
    finally:
        con.close()


def _stored_rows(db: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        states = con.execute(f"SELECT {_STATE_COLS} FROM action_states").fetchall()
        finds = con.execute(f"SELECT {_VIOL_COLS} FROM violations").fetchall()
        return states, finds
    finally:
        con.close()


def _compare_warehouse(db: Path, batch_size: int) -> tuple[int, int]:
    summary = run_check(str(db), None, batch_size=batch_size)
    got_states, got_find = _stored_rows(db)
    ref_states, ref_find = _reference_rows(db)
    assert summary["hands"] > 0 and summary["action_states"] == len(ref_states)
    assert _digest(got_states) == _digest(ref_states), _first_diff(got_states, ref_states)
    assert _digest(got_find) == _digest(ref_find), _first_diff(got_find, ref_find)
    return len(ref_states), len(ref_find)


def test_simulated_night_identical_in_warehouse(tmp_path: Path) -> None:
    # .venv/bin/python -m pipelines.cli simulate --hands 5000 --seed 5 --out DIR --truth DIR/t.json --operator-mode
    land = tmp_path / "land"
    code = floorman(
        ["simulate", "--hands", "5000", "--seed", "5", "--out", str(land), "--truth", str(tmp_path / "t.json"),
         "--operator-mode"]
    )
    assert code == 0
    db = tmp_path / "w.duckdb"
    assert ingest_paths([land], db, progress=False).new_hands >= 4900
    # batches of 777: many batch borders inside tables, so the cross-batch look-behind is exercised
    states, _ = _compare_warehouse(db, batch_size=777)
    assert states > 20_000


def _load(db: Path, hands: list[Hand]) -> None:
    """Store parsed hands as the ingest does (frames into the warehouse tables), without re-parsing."""
    frames = hands_to_frames(hands)
    con = connect(db)
    try:
        for name, frame in frames.tables.items():
            con.register("batch_rows", frame.to_arrow())
            extra = ", CAST(started_at AS DATE) AS hand_date" if name == "hands" else ""
            con.execute(f"INSERT INTO {name} BY NAME SELECT *{extra} FROM batch_rows")
            con.unregister("batch_rows")
    finally:
        con.close()


def test_real_hands_identical_in_warehouse(real_hands: list[Hand], tmp_path: Path) -> None:
    db = tmp_path / "real.duckdb"
    _load(db, real_hands)
    states, finds = _compare_warehouse(db, batch_size=4_000)
    assert states > 50_000 and finds > 100
