"""The ``floorman simulate`` command and the PHH output: same night, another format, same truth."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parsers.model import Hand, Provenance
from parsers.registry import sniff_format
from pipelines.cli import main
from tests.simulator.test_output import replay
from warehouse.reconcile import reconcile_hands


def _parse(out: Path, pattern: str) -> list[Hand]:
    hands: list[Hand] = []
    for path in sorted(out.glob(pattern)):
        fmt = sniff_format(path)
        assert fmt is not None, path
        for h in fmt.parse(path):
            assert isinstance(h, Hand), h
            hands.append(h)
    return hands


def test_cli_writes_stars_files_and_truth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, truth = tmp_path / "hh", tmp_path / "truth.json"
    code = main(["simulate", "--hands", "800", "--seed", "3", "--out", str(out), "--truth", str(truth),
                 "--tables", "3", "--players", "30", "--start", "2026-11-29"])
    assert code == 0
    assert "800 hands" in capsys.readouterr().out
    hands = _parse(out, "*.txt")
    assert len(hands) == 800 and {h.format for h in hands} == {"pokerstars"}
    # no --operator-mode: an observer's view, only cards shown at showdown are known
    assert {c.provenance for h in hands for c in h.hole_cards} == {Provenance.SHOWN}
    data = json.loads(truth.read_text())
    assert data["seed"] == 3 and data["stats"]["tables"] == 3 and len(data["players"]) == 30


@pytest.mark.filterwarnings("ignore:A card being dealt")
def test_phh_output_parses_reconciles_and_replays(tmp_path: Path) -> None:
    out, truth = tmp_path / "phh", tmp_path / "truth.json"
    code = main(["simulate", "--hands", "1500", "--seed", "4", "--out", str(out), "--truth", str(truth),
                 "--format", "phh", "--players", "30", "--start", "2026-11-29"])
    assert code == 0
    hands = _parse(out, "*.phhs")
    assert len(hands) == 1500 and {h.format for h in hands} == {"phh"}
    frame = reconcile_hands(hands)
    assert frame.filter(frame["status"] != "ok").height == 0
    ids = {h.hand_id for h in hands}
    evidence = [e["hand_id"] for t in json.loads(truth.read_text())["teams"] for e in t["evidence"]]
    assert evidence and set(evidence) <= ids
    for hand in hands[::15]:
        pk = replay(hand)  # every action legal in pokerkit, which rakes nothing here
        ours = sum(s.final_stack or 0 for s in hand.seats)
        rake = sum(a.contribution for a in hand.actions) - sum(a.amount for a in hand.awards)
        assert sum(pk) - ours == rake and rake == min(rake, 300)
