"""The independent room generator (simulator.indie): determinism, clean ingest, truth and modes."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import defaultdict
from datetime import datetime
from pathlib import Path

import pytest

from simulator.indie import generate
from simulator.indie.engine import Action, Hand, Seat, play
from simulator.indie.writer import TableInfo, hand_text

ROOT = Path(__file__).resolve().parents[2]
SMALL = {"hands": 2000, "players": 60, "seed": 11}
FAMILIES = {"soft_play", "chip_dumping", "squeeze", "card_sharing"}
MONEY = r"\$([\d.]+)"


def _cents(text: str) -> int:
    dollars, _, cents = text.partition(".")
    return int(dollars) * 100 + int((cents + "00")[:2])


def hands_of(out: Path) -> dict[str, tuple[str, str]]:
    """hand_id -> (text, file name) for every hand the generator wrote."""
    found: dict[str, tuple[str, str]] = {}
    for path in sorted(out.glob("*.txt")):
        for text in path.read_text(encoding="utf-8").split("\n\n\n"):
            if text.strip():
                number = re.match(r"PokerStars Hand #(\d+): ", text)
                assert number, text[:80]
                found[f"pokerstars:{number.group(1)}"] = (text, path.name)
    return found


def seated(text: str) -> list[str]:
    return re.findall(r"^Seat \d+: (\S+) \(\$[\d.]+ in chips\)$", text, re.M)


def money_flow(text: str) -> tuple[int, int, int, int]:
    """(chips put in, chips collected, rake, total pot) read back from the hand's own lines."""
    put: dict[str, int] = defaultdict(int)
    street: dict[str, int] = defaultdict(int)
    collected = 0
    for line in text.split("*** SUMMARY ***", maxsplit=1)[0].splitlines():
        if line.startswith(("*** FLOP", "*** TURN", "*** RIVER")):
            for name, amount in street.items():
                put[name] += amount
            street.clear()
        elif m := re.match(rf"(\S+): (?:posts (?:small|big) blind|calls|bets) {MONEY}", line):
            street[m[1]] += _cents(m[2])
        elif m := re.match(rf"(\S+): raises {MONEY} to {MONEY}", line):
            street[m[1]] = _cents(m[3])
        elif m := re.match(rf"Uncalled bet \({MONEY}\) returned to (\S+)", line):
            street[m[2]] -= _cents(m[1])
        elif m := re.match(rf"(\S+) collected {MONEY} from", line):
            collected += _cents(m[2])
    for name, amount in street.items():
        put[name] += amount
    summary = text.split("*** SUMMARY ***")[1]
    rake = re.search(rf"\| Rake {MONEY}", summary)
    total = re.search(rf"Total pot {MONEY}", summary)
    assert rake and total
    return sum(put.values()), collected, _cents(rake[1]), _cents(total[1])


def make(root: Path, label: str, **overrides: object) -> tuple[Path, dict]:
    args = {**SMALL, **overrides}
    out, truth = root / label / "hh", root / label / "truth.json"
    generate(out, truth, **args)  # type: ignore[arg-type]
    return out, json.loads(truth.read_text())


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    return make(tmp_path_factory.mktemp("indie"), "operator")


@pytest.fixture(scope="module")
def player_room(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    return make(tmp_path_factory.mktemp("indie"), "player", operator_mode=False)


def test_same_arguments_give_identical_bytes(room, tmp_path):
    out, _ = room
    again, _ = make(tmp_path, "again")
    first = {p.name: p.read_bytes() for p in sorted(out.glob("*.txt"))}
    second = {p.name: p.read_bytes() for p in sorted(again.glob("*.txt"))}
    assert first == second
    assert (out.parent / "truth.json").read_bytes() == (again.parent / "truth.json").read_bytes()
    other, _ = make(tmp_path, "seed12", seed=12)
    assert {p.name: p.read_bytes() for p in other.glob("*.txt")} != first


def test_truth_schema(room):
    out, truth = room
    assert truth["generator"] == "indie-1" and truth["site"] == "pokerstars"
    assert truth["hands"] == SMALL["hands"] == len(hands_of(out))
    assert {t["family"] for t in truth["teams"]} == FAMILIES
    names = list(truth["players"])
    assert len(names) == SMALL["players"] == len({n.lower() for n in names})
    assert all(" " not in n and ":" not in n for n in names)
    labelled = {p for c in truth["confounders"] for p in c["players"]}
    for team in truth["teams"]:
        assert 2 <= len(team["members"]) <= 4 and 0.1 <= team["intensity"] <= 1.0
        assert not labelled & set(team["members"])
    kinds = {c["kind"] for c in truth["confounders"]}
    assert kinds == {"friends", "staking", "loose_loser", "nit", "multi_regular"}


def test_ingest_and_rule_check_are_clean(room, tmp_path):
    out, _ = room
    db = tmp_path / "w.duckdb"
    cli = [sys.executable, "-m", "pipelines.cli"]
    ingest = subprocess.run([*cli, "ingest", "--db", str(db), "--json", str(out)], cwd=ROOT, check=True,
                            capture_output=True, text=True)
    summary = json.loads(ingest.stdout.strip().splitlines()[-1])
    assert summary["hands"] == SMALL["hands"] and summary["quarantined"] == 0 and summary["unreconciled"] == 0
    check = subprocess.run([*cli, "check", "--db", str(db), "--json"], cwd=ROOT, check=True, capture_output=True,
                           text=True)
    report = json.loads(check.stdout.strip().splitlines()[-1])
    assert report["hands"] == SMALL["hands"]
    assert report["errors"] == 0 and report["warnings"] == 0, report["errors_by_rule"]


def test_evidence_hands_exist_and_members_were_dealt_in(room):
    out, truth = room
    hands = hands_of(out)
    acts = 0
    for team in truth["teams"]:
        for ev in team["evidence"]:
            acts += 1
            assert ev["hand_id"] in hands, ev
            players = set(seated(hands[ev["hand_id"]][0]))
            assert set(ev["players"]) <= players & set(team["members"]), ev
            assert len(ev["players"]) >= 2 and ev["street"] in (0, 1, 2, 3)
    assert acts > 20


def test_chips_are_conserved_in_every_hand(room):
    out, _ = room
    for hand_id, (text, _) in hands_of(out).items():
        put, collected, rake, total = money_flow(text)
        assert put == collected + rake == total, hand_id
        assert rake == 0 or "*** FLOP ***" in text, hand_id


def test_showdowns_and_all_ins_occur(room):
    texts = [t for t, _ in hands_of(room[0]).values()]
    assert sum("*** SHOW DOWN ***" in t for t in texts) > 100
    assert sum("and is all-in" in t for t in texts) > 10


def test_side_pots_and_uncalled_bet_when_three_stacks_shove():
    """Engine and writer on a scripted hand: every player shoves, three different stacks."""
    seats = [Seat(1, "Deep", 6000), Seat(3, "Short", 1000), Seat(5, "Middle", 3000)]
    hand = Hand(123456789012, 100, seats, button=0, sb_i=1, bb_i=2, posters=[])
    play(hand, random.Random(3), lambda h, i: Action("raise", 10**9), lambda i: False)
    text = hand_text(hand, TableInfo("Test I", 6, 50, 100), datetime(2026, 3, 2, 12), set(range(3)))
    assert "Uncalled bet ($30) returned to Deep" in text
    assert re.search(r"Total pot \$70 Main pot \$[\d.]+\. Side pot \$[\d.]+\. \| Rake \$2\n", text)
    assert "Short: calls $9.50 and is all-in" in text and "Middle: calls $29 and is all-in" in text
    put, collected, rake, total = money_flow(text)
    assert put == collected + rake == total == 7000
    assert sum(s.stack for s in hand.seats) == 10000 - rake


def test_higher_intensity_fires_more_acts(tmp_path):
    def acts(level: float) -> int:
        _, truth = make(tmp_path, f"i{level}", intensity=level)
        return sum(len(t["evidence"]) for t in truth["teams"])

    low, high = acts(0.15), acts(0.9)
    assert high > 2 * low > 0


def test_operator_mode_deals_everyone(room):
    for text, _ in hands_of(room[0]).values():
        dealt = re.findall(r"^Dealt to (\S+) \[", text, re.M)
        assert dealt == seated(text)


def test_player_mode_shows_only_the_hero_and_showdowns(player_room):
    out, _ = player_room
    hands = hands_of(out)
    assert len(hands) == SMALL["hands"]
    hero_of: dict[str, set[str]] = defaultdict(set)
    for text, fname in hands.values():
        dealt = re.findall(r"^Dealt to (\S+) \[", text, re.M)
        assert len(dealt) == 1 and dealt[0] in seated(text)
        hero_of[fname].add(dealt[0])
        mucked = re.findall(r"^Seat \d+: (\S+) .*mucked \[", text, re.M)
        assert set(mucked) <= set(dealt)
    assert all(len(h) == 1 for h in hero_of.values())
    assert any("shows [" in t for t, _ in hands.values())


def test_command_line(tmp_path):
    out, truth = tmp_path / "hh", tmp_path / "t.json"
    subprocess.run([sys.executable, "-m", "simulator.indie", "--out", str(out), "--truth", str(truth), "--hands",
                    "300", "--seed", "5", "--players", "50", "--intensity", "0.7", "--player-mode"], cwd=ROOT,
                   check=True)
    doc = json.loads(truth.read_text())
    assert doc["hands"] == 300 and doc["operator_mode"] is False and doc["intensity"] == 0.7
    assert len(hands_of(out)) == 300
