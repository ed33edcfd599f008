"""The held-out generator (``simulator.heldout``): chips conserved in every hand, legal no-limit
betting, text our ingest reads without quarantine or reconciliation mismatch, and a truth file
whose teams really sit together in the hands it cites."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import duckdb
import pytest
from pokerkit import StandardHighHand

from detectors.evaluate import load_truth, truth_pairs
from parsers.formats.pokerstars import FORMAT
from parsers.model import Hand
from simulator.heldout import generate
from simulator.heldout.cards import card_str, evaluate
from simulator.heldout.engine import HandState, SeatState, play_hand
from warehouse.ingest import ingest_paths

HANDS = 2000


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    base = tmp_path_factory.mktemp("heldout")
    info = generate(base / "hh", base / "truth.json", hands=HANDS, seed=5, intensity=0.8)
    return base, info, load_truth(base / "truth.json")


def _parsed(folder: Path) -> list[Hand]:
    hands = []
    for path in sorted(folder.glob("*.txt")):
        for item in FORMAT.parse(path):
            assert isinstance(item, Hand), item
            hands.append(item)
    return hands


def test_evaluator_orders_hands_like_pokerkit() -> None:
    rng = random.Random(1)
    for _ in range(300):
        cards = rng.sample(range(52), 11)
        board, a, b = cards[:5], cards[5:7], cards[7:9]
        mine = (evaluate(a + board) > evaluate(b + board)) - (evaluate(a + board) < evaluate(b + board))
        text = "".join(card_str(c) for c in board)
        pa = StandardHighHand.from_game("".join(card_str(c) for c in a), text)
        pb = StandardHighHand.from_game("".join(card_str(c) for c in b), text)
        assert mine == (pa > pb) - (pa < pb), (a, b, board)


def _fuzz(hand: HandState, i: int, rng: random.Random) -> tuple[str, int]:
    kind = rng.choice(("fold", "check", "call", "call", "bet", "raise", "raise"))
    top = hand.max_to(i)
    to = rng.choice((hand.min_raise_to(), top, hand.min_raise_to() + rng.randrange(1, 500)))
    return kind, to


def test_engine_conserves_chips_and_bets_legally() -> None:
    """Random (often absurd) decisions: every hand still conserves chips and obeys min-raises."""
    rng = random.Random(7)
    for _ in range(600):
        n = rng.randint(3, 9)
        seats = [SeatState(k + 1, f"p{k}", rng.choice((60, 300, 1250, 5000, rng.randint(50, 9000))), (0, 0))
                 for k in range(n)]
        hand = play_hand(seats, rng.randrange(n), 25, 50, 150, lambda h, i: _fuzz(h, i, rng), rng)
        assert sum(s.won for s in seats) + hand.rake == sum(s.total_in for s in seats) == hand.total_pot
        for s in seats:
            assert 0 <= s.total_in <= s.stack and s.chips + s.total_in == s.stack
        _replay_legal(hand, seats, bb=50)


def _replay_legal(hand: HandState, seats: list[SeatState], bb: int) -> None:
    """Walk the events: calls match the bet (or all-in), raises are full unless all-in."""
    chips = {s.name: s.stack for s in seats}
    street_in = dict.fromkeys(chips, 0)
    current, last_inc = 0, bb
    for ev in hand.events:
        tag = ev[0]
        if tag == "street":
            street_in = dict.fromkeys(chips, 0)
            current, last_inc = 0, bb
        elif tag == "post":
            _, name, _, amount, _ = ev
            chips[name] -= amount
            street_in[name] += amount
            current = max(current, street_in[name])
        elif tag == "call":
            _, name, amount, allin = ev
            assert amount == min(current - street_in[name], chips[name]) and allin == (amount == chips[name])
            chips[name] -= amount
            street_in[name] += amount
        elif tag in ("bet", "raise"):
            name, to, allin = ev[1], ev[-2], ev[-1]
            assert to - current >= last_inc or allin, ev
            assert to - street_in[name] <= chips[name]
            chips[name] -= to - street_in[name]
            street_in[name] = to
            assert allin == (chips[name] == 0)
            last_inc = max(last_inc, to - current)
            current = to
        elif tag == "uncalled":
            chips[ev[1]] += ev[2]
            street_in[ev[1]] -= ev[2]
        elif tag == "check":
            assert street_in[ev[1]] == current, ev


def test_text_conserves_chips_per_hand(room: tuple[Path, dict[str, Any], dict[str, Any]]) -> None:
    base, info, _ = room
    hands = _parsed(base / "hh")
    assert len(hands) == info["hands"] == HANDS
    for h in hands:
        put = sum(a.contribution for a in h.actions)
        got = sum(a.amount for a in h.awards)
        assert put == h.site_total_pot and got + (h.site_rake or 0) == put, h.hand_id
        assert len(h.hole_cards) == len(h.seats)  # operator mode: every player's cards


def test_ingest_reads_every_hand(room: tuple[Path, dict[str, Any], dict[str, Any]], tmp_path: Path) -> None:
    base, info, _ = room
    summary = ingest_paths([base / "hh"], tmp_path / "w.duckdb", progress=False)
    assert summary.hands == summary.new_hands == info["hands"]
    assert summary.quarantined == 0 and summary.unreconciled == 0 and not summary.errors
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM quarantine").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM hands").fetchone() == (info["hands"],)
        assert con.execute("SELECT count(*) FROM reconciliation WHERE status <> 'ok'").fetchone() == (0,)
        assert con.execute("SELECT DISTINCT hole_cards_mode FROM hands").fetchall() == [("operator",)]
        stakes = con.execute("SELECT count(DISTINCT bb), count(DISTINCT max_seats) FROM hands").fetchone()
        assert stakes == (2, 2)
    finally:
        con.close()


def test_truth_teams_sit_together_in_their_evidence(room: tuple[Path, dict[str, Any], dict[str, Any]]) -> None:
    base, _, truth = room
    assert truth["generator"] == "heldout-1" and truth["site"] == "pokerstars"
    assert {t["family"] for t in truth["teams"]} <= {"soft_play", "chip_dumping", "squeeze", "card_sharing"}
    seated = {h.hand_id: {s.player for s in h.seats} for h in _parsed(base / "hh")}
    fam, ev = truth_pairs(truth)
    together = {p: sum(1 for names in seated.values() if set(p) <= names) for p in fam}
    assert all(n > 0 for n in together.values()), together
    assert sum(len(v) for v in ev.values()) > 0
    for team in truth["teams"]:
        for e in team["evidence"]:
            assert set(e["players"]) <= set(team["members"]) and len(e["players"]) >= 2
            assert set(e["players"]) <= seated[e["hand_id"]], e
    decoys = [c for c in truth["confounders"] if c["kind"] in ("friends", "staking")]
    assert decoys and all(set(c["players"]) <= set(truth["players"]) for c in truth["confounders"])
    members = {m for t in truth["teams"] for m in t["members"]}
    assert not members & {p for c in truth["confounders"] for p in c["players"]}


def test_player_mode_shows_only_showdown_cards(tmp_path: Path) -> None:
    info = generate(tmp_path / "hh", tmp_path / "t.json", hands=300, seed=9, operator_mode=False)
    text = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "hh").glob("*.txt"))
    assert "Dealt to " not in text and ("shows [" in text or "mucked [" in text)
    assert json.loads((tmp_path / "t.json").read_text())["operator_mode"] is False
    hands = _parsed(tmp_path / "hh")
    assert len(hands) == info["hands"]
    assert all(h.hero is None and all(c.provenance.value != "operator" for c in h.hole_cards) for h in hands)


def test_same_seed_same_room(tmp_path: Path) -> None:
    for k in ("a", "b"):
        generate(tmp_path / k, tmp_path / f"{k}.json", hands=200, seed=3)
    files = sorted(p.name for p in (tmp_path / "a").glob("*.txt"))
    assert files == sorted(p.name for p in (tmp_path / "b").glob("*.txt"))
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)


def test_a_mate_still_joining_can_follow_a_switching_player(tmp_path: Path) -> None:
    """Seed 9 (3,000 hands) once stopped with StopIteration: a group mate who had sat down but was
    not yet dealt in was looked for among the seated players when the other switched tables."""
    generate(tmp_path / "hh", tmp_path / "truth.json", hands=3000, seed=9, intensity=0.5)
    db = tmp_path / "w.duckdb"
    summary = ingest_paths([tmp_path / "hh"], db, progress=False)
    assert summary.hands == 3000
    assert summary.quarantined == 0 and summary.unreconciled == 0
