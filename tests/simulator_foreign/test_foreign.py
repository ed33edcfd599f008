"""The independent room generator: determinism, parseability, truth and chip conservation."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.foreign import FAMILIES, generate

ROOT = Path(__file__).resolve().parents[2]
HANDS = 3000


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, list[tuple[int, int, int, int]]]:
    base = tmp_path_factory.mktemp("foreign")
    ledger: list[tuple[int, int, int, int]] = []
    truth = generate(base / "hh", base / "truth.json", hands=HANDS, seed=11, intensity=0.6, ledger=ledger)
    return base, truth, ledger


def _files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def _hand_numbers(d: Path) -> set[int]:
    text = "".join(p.read_text(encoding="utf-8") for p in d.iterdir())
    return {int(n) for n in re.findall(r"^PokerStars Hand #(\d+):", text, re.M)}


def test_same_seed_is_byte_identical(room, tmp_path):
    base, _, _ = room
    generate(tmp_path / "hh", tmp_path / "truth.json", hands=HANDS, seed=11, intensity=0.6)
    assert _files(tmp_path / "hh") == _files(base / "hh")
    assert (tmp_path / "truth.json").read_bytes() == (base / "truth.json").read_bytes()


def test_ingests_without_quarantine(room, tmp_path):
    base, _, _ = room
    db = tmp_path / "w.duckdb"
    out = subprocess.run([sys.executable, "-m", "pipelines.cli", "ingest", str(base / "hh"), "--db", str(db), "--json"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["hands"] == HANDS
    assert summary["quarantined"] == 0
    assert summary["files_unrecognised"] == 0
    assert summary["files_failed"] == 0


def test_truth_shape_and_evidence(room):
    base, truth, _ = room
    assert truth["generator"] == "foreign-1" and truth["site"] == "pokerstars"
    assert {t["family"] for t in truth["teams"]} == set(FAMILIES)
    numbers = _hand_numbers(base / "hh")
    assert len(numbers) == HANDS
    with_evidence = [t for t in truth["teams"] if t["evidence"]]
    assert {t["family"] for t in with_evidence} == set(FAMILIES)
    for team in truth["teams"]:
        assert 2 <= len(team["members"]) <= 3
        for ev in team["evidence"]:
            assert ev["hand_id"].startswith("pokerstars:")
            assert int(ev["hand_id"].split(":")[1]) in numbers
            assert set(ev["players"]) <= set(team["members"])
            assert len(ev["players"]) >= 2
    assert set(truth["players"]) >= {m for t in truth["teams"] for m in t["members"]}
    assert truth["stats"]["colluding_pairs_met"] <= truth["stats"]["colluding_pairs"]


def test_chip_conservation(room):
    _, truth, ledger = room
    assert len(ledger) == HANDS
    for _, before, after, rake in ledger:
        assert before - after == rake
        assert rake >= 0
    assert sum(r for *_, r in ledger) == truth["stats"]["rake_total"]


def test_hand_numbers_rise_with_time(room):
    base, _, _ = room
    stamps = []
    for p in (base / "hh").iterdir():
        for m in re.finditer(r"^PokerStars Hand #(\d+):.* - (\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) ET$",
                             p.read_text(encoding="utf-8"), re.M):
            stamps.append((int(m.group(1)), m.group(2)))
    stamps.sort()
    assert [s for _, s in stamps] == sorted(s for _, s in stamps)


def test_player_mode_hides_cards(tmp_path):
    generate(tmp_path / "hh", tmp_path / "t.json", hands=300, seed=3, operator_mode=False)
    text = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "hh").iterdir())
    assert "Dealt to" not in text
    assert "*** SHOW DOWN ***" in text


def test_intensity_scales_evidence(tmp_path):
    low = generate(tmp_path / "a", tmp_path / "a.json", hands=HANDS, seed=5, intensity=0.2)
    high = generate(tmp_path / "b", tmp_path / "b.json", hands=HANDS, seed=5, intensity=1.0)
    count_low = sum(len(t["evidence"]) for t in low["teams"])
    count_high = sum(len(t["evidence"]) for t in high["teams"])
    assert count_low < count_high
