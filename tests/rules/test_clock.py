"""CLOCK.SHOT_CLOCK and CLOCK.TIME_BANK: hand-written decision times on both sides of each limit
(rules_matrix §5.12's worked examples), the profile/map wiring, the fast path's fallback, and real
PokerNow times read from the file's own ``at`` column."""

from __future__ import annotations

import csv
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import pytest

from parsers.formats.pokernow import FORMAT as POKERNOW
from parsers.model import Hand, Kind
from rules.check import check_batches, check_hand, check_hands
from rules.clock import cards_needed, clock_findings, decision_ms
from rules.columnar import as_checked, check_columnar
from rules.findings import Finding
from rules.profiles import ProfileMap, load_profile, seed_anchors
from rules.store import column_windows, hand_batches, load_hands
from tests.conftest import SHARED, real_data
from tests.rules.builder import make_hand
from warehouse.ingest import ingest_paths

SHOT = "CEP-2023+shot_clock"
T0 = datetime(2023, 5, 1, 18, 0, 0)
POKERNOW_LOG = ("pokernow_ohh_whywaita", "sample", "input", "poker_now_log_pglhniqprRDmWFv9sLLZZA-ru.csv")


def _timed(hand: Hand, at: list[float | None]) -> Hand:
    """The hand with action k logged ``at[k]`` seconds after the deal (None: no time)."""
    hand.started_at = T0
    hand.actions = [a._replace(acted_at=None if s is None else T0 + timedelta(seconds=s))
                    for a, s in zip(hand.actions, at, strict=True)]
    return hand


def _facing(decision_s: float) -> Hand:
    """Heads-up: A raises at 5 s, B decides (facing the raise) ``decision_s`` seconds later."""
    h = make_hand([("A", 10_000), ("B", 10_000)],
                  [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200),
                   ("preflop", "A", "raise", 600), ("preflop", "B", "call", 400)],
                  button=1, awards=[("B", 1200)], hole={"A": "QsQc", "B": "AhKd"}, boards=["2c7d9hJsKs"])
    return _timed(h, [0, 0, 5, 5 + decision_s])


def _clock(hand: Hand, held: dict[str, int] | None = None) -> list[Finding]:
    prof = load_profile(SHOT)
    return [f for f in check_hand(hand, prof).findings if f.rule_id.startswith("CLOCK.")] if held is None \
        else clock_findings(hand, prof, check_hand(hand, prof).replay, held)


# ---- CLOCK.SHOT_CLOCK: rules_matrix §5.12 ---------------------------------------------------------

def test_acts_at_27s_facing_a_bet_is_in_time() -> None:
    assert _clock(_facing(27), {"B": 0}) == []


def test_acts_at_45s_with_6_tbc_uses_one_card() -> None:
    assert cards_needed(45_000, 30, 30) == 1
    assert _clock(_facing(45), {"B": 6}) == []


def test_acts_at_75s_with_2_tbc_uses_both_in_time() -> None:
    assert cards_needed(75_000, 30, 30) == 2
    assert _clock(_facing(75), {"B": 2}) == []


def test_acts_at_95s_with_2_tbc_hand_was_dead() -> None:
    (f,) = _clock(_facing(95), {"B": 2})
    assert (f.rule_id, f.severity, f.house_decision, f.action_seq) == ("CLOCK.SHOT_CLOCK", "error", False, 3)
    assert "90.0 s" in f.expected and "95.0 s" in f.actual


def test_shot_clock_limit_and_tolerance_boundaries() -> None:
    assert _clock(_facing(90), {"B": 2}) == []  # exactly at the limit: in time
    (near,) = _clock(_facing(90.5), {"B": 2})  # inside ±1 s: the doubt favours the player
    assert near.house_decision and near.allowed_outcomes == "dead|action_stands"
    (past,) = _clock(_facing(91.2), {"B": 2})
    assert not past.house_decision and past.allowed_outcomes is None
    assert _clock(_facing(30), {"B": 0}) == []  # no cards: 30 s only
    (zero,) = _clock(_facing(30.8), {"B": 0})
    assert zero.house_decision
    (late,) = _clock(_facing(31.5), {"B": 0})
    assert not late.house_decision


def test_not_facing_a_bet_at_zero_tbc_is_a_house_decision() -> None:
    # B checks his option after 40 s holding no card: shot clock says dead, called clock says check
    h = make_hand([("A", 10_000), ("B", 10_000)],
                  [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200),
                   ("preflop", "A", "call", 100), ("preflop", "B", "check", None)],
                  button=1, awards=[("B", 400)], hole={"A": "AhKd", "B": "QsQc"}, boards=["2c7d9hJsKs"])
    (f,) = _clock(_timed(h, [0, 0, 3, 43]), {"B": 0})
    assert f.house_decision and f.allowed_outcomes == "dead|check"


def test_default_holding_is_the_maximum() -> None:
    # no balance known: each player holds 6 at the hand's start, so 210 s is in time, 212 s is not
    assert _clock(_facing(210)) == []
    assert {f.rule_id for f in _clock(_facing(212))} == {"CLOCK.SHOT_CLOCK", "CLOCK.TIME_BANK"}


# ---- CLOCK.TIME_BANK --------------------------------------------------------------------------------

def _three_streets(flop_s: float, turn_s: float, river_s: float) -> Hand:
    """B's bets on flop, turn and river are logged that many seconds after the action before them."""
    h = make_hand([("A", 10_000), ("B", 10_000)],
                  [("preflop", "A", "post_sb", 100), ("preflop", "B", "post_bb", 200),
                   ("preflop", "A", "call", 100), ("preflop", "B", "check", None),
                   ("flop", "B", "bet", 200), ("flop", "A", "call", 200),
                   ("turn", "B", "bet", 200), ("turn", "A", "call", 200),
                   ("river", "B", "bet", 200), ("river", "A", "call", 200)],
                  button=1, awards=[("B", 1600)], hole={"A": "AhKd", "B": "QsQc"}, boards=["2c7d9hJsKs"])
    t1 = 2 + flop_s
    t2 = t1 + 1 + turn_s
    t3 = t2 + 1 + river_s
    return _timed(h, [0, 0, 1, 2, t1, t1 + 1, t2, t2 + 1, t3, t3 + 1])


def test_six_cards_in_a_hand_is_the_allowance() -> None:
    # 120 s twice: 3 cards each, 6 in all, the day's allowance exactly; a quick river
    assert _clock(_three_streets(120, 120, 10)) == []


def test_a_seventh_card_breaks_the_time_bank() -> None:
    found = _clock(_three_streets(120, 120, 31.5))
    assert [(f.rule_id, f.action_seq) for f in found] == [("CLOCK.TIME_BANK", 8), ("CLOCK.SHOT_CLOCK", 8)]
    assert found[0].severity == "error" and not found[0].house_decision and "7 cards" in found[0].actual


def test_one_decision_needing_seven_cards_breaks_the_time_bank() -> None:
    assert cards_needed(211_000, 30, 30) == 7 and cards_needed(210_000, 30, 30) == 6
    found = _clock(_three_streets(211, 5, 5))
    assert [f.rule_id for f in found] == ["CLOCK.TIME_BANK", "CLOCK.SHOT_CLOCK"]


# ---- wiring -------------------------------------------------------------------------------------------

def test_clock_checks_need_the_phase_and_the_times() -> None:
    late = _facing(95)
    assert not [f for f in check_hand(late, load_profile("CEP-2023")).findings if f.rule_id.startswith("CLOCK")]
    assert not [f for f in check_hand(late, load_profile("online-standard")).findings
                if f.rule_id.startswith("CLOCK")]
    untimed = _timed(_facing(95), [None, None, None, None])
    assert not [f for f in check_hand(untimed, load_profile(SHOT)).findings if f.rule_id.startswith("CLOCK")]
    with pytest.raises(KeyError):
        load_profile("online-standard+shot_clock")  # no shot clock in that rulebook


def test_the_map_selects_the_shot_clock_phase() -> None:
    pmap = ProfileMap("online-standard", (((("table_name", "ME-*"),), SHOT), ((("site", "cep*"),), "CEP-2023")))
    late = _facing(212)  # past 30 s + 6 cards x 30 s
    late.site, late.table_name = "cep", "ME-day2-t14"
    before = _facing(212)
    before.site, before.table_name, before.hand_id = "cep", "SIDE-1", "test:2"
    _, found = check_hands([late, before], mapping=pmap)
    assert [(f.hand_id, f.rule_id, book) for f, book in found if f.rule_id.startswith("CLOCK")] == [
        ("test:1", "CLOCK.TIME_BANK", SHOT), ("test:1", "CLOCK.SHOT_CLOCK", SHOT)]


def test_findings_quote_verbatim_seed_passages() -> None:
    prof = load_profile(SHOT)
    messages = {f.rule_id: f.message for f in _clock(_three_streets(211, 5, 5))}
    for rid in ("CLOCK.SHOT_CLOCK", "CLOCK.TIME_BANK"):
        assert f"«{prof.citations[rid]}»" in messages[rid]
    seeds = SHARED / "seeds"
    if not seeds.exists():
        pytest.skip(f"seeds not available at {seeds}")
    body = " ".join((seeds / prof.seed_file).read_text(encoding="utf-8").split())
    for rid in ("CLOCK.SHOT_CLOCK", "CLOCK.TIME_BANK", "CLOCK.CALLED_CLOCK"):
        assert " ".join(prof.citations[rid].split()) in body, rid
    assert seed_anchors()["CLOCK.SHOT_CLOCK"] and seed_anchors()["CLOCK.TIME_BANK"]


# ---- real PokerNow times --------------------------------------------------------------------------------

_ACTION_LINE = re.compile(r'^".+?" (posts|calls|raises|bets|checks|folds|shows|mucks)\b|^Uncalled bet of ')


def _file_times(path: Path, number: str) -> list[datetime]:
    """The ``at`` of every action line of hand #number, oldest first, read with the csv module (shows
    written after the ending line, before the next hand starts, belong to the hand)."""
    rows = list(csv.reader(path.open(encoding="utf-8")))[1:][::-1]
    start = next(i for i, r in enumerate(rows) if r[0].startswith(f"-- starting hand #{number} "))
    end = next(i for i, r in enumerate(rows) if r[0] == f"-- ending hand #{number} --")
    stop = next((i for i in range(end, len(rows)) if rows[i][0].startswith("-- starting hand #")), len(rows))
    late = [r for r in rows[end:stop] if re.match(r'^".+?" (shows|mucks)\b', r[0])]
    return [datetime.fromisoformat(r[1].replace("Z", "+00:00")).astimezone(UTC).replace(tzinfo=None)
            for r in rows[start:end] + late if _ACTION_LINE.match(r[0])]


def _pokernow_hands() -> tuple[Path, list[Hand]]:
    path = real_data(*POKERNOW_LOG)
    return path, [h for h in POKERNOW.parse(path) if isinstance(h, Hand)]


def test_pokernow_actions_carry_the_files_at_times() -> None:
    path, hands = _pokernow_hands()
    assert hands and all(a.acted_at is not None for h in hands for a in h.actions)
    raw = path.read_bytes()
    checked = 0
    for h in hands[:: max(1, len(hands) // 12)]:
        block = raw[h.byte_offset : h.byte_offset + h.byte_length].decode("utf-8")
        number = re.findall(r"starting hand #(\d+)", block)
        assert len(number) == 1
        assert [a.acted_at for a in h.actions] == _file_times(path, number[0]), h.hand_id
        checked += 1
    assert checked >= 10
    # e.g. hand #121's "raises to" lines: 05:09:18.384Z and 05:09:22.189Z in the file
    last = max(hands, key=lambda h: h.started_at or T0)
    raises = [a.acted_at for a in last.actions if a.kind is Kind.RAISE]
    assert raises == [datetime(2025, 11, 15, 5, 9, 18, 384000), datetime(2025, 11, 15, 5, 9, 22, 189000)]


def test_real_pokernow_hands_raise_no_clock_finding_online() -> None:
    _, hands = _pokernow_hands()
    assert sum(len(decision_ms(h)) for h in hands) > 500
    _, found = check_hands(hands)
    assert not [f for f, _ in found if f.rule_id.startswith("CLOCK.")]


def test_times_round_trip_the_warehouse_and_the_fast_path_hands_timed_hands_to_python(tmp_path: Path) -> None:
    path, hands = _pokernow_hands()
    db = tmp_path / "w.duckdb"
    ingest_paths([path], db, progress=False)
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = {h.hand_id: h for h in load_hands(con.cursor())}
        batches = list(hand_batches(con.cursor(), 50))
        windows = list(column_windows(con.cursor(), 50))
    finally:
        con.close()
    for h in hands:
        assert [a.acted_at for a in stored[h.hand_id].actions] == [a.acted_at for a in h.actions]
    py = list(check_batches(batches, rulebook=SHOT))
    fast = list(check_columnar(windows, rulebook=SHOT))
    assert sum(b.fallback for b in fast) == len(hands)  # every hand is timed: all go to Python
    key = repr
    assert sorted(map(key, (s for b in py for s in b.states))) == sorted(
        map(key, (s for b in fast for s in as_checked(b).states)))
    assert sorted(map(key, (f for b in py for f in b.findings))) == sorted(
        map(key, (f for b in fast for f in b.findings)))
