"""The rival room generator: deterministic, balanced to the cent, truth consistent with the text.

Why our own tiny reader for the balance test: the money check must not trust the code under test
or the project's parser; it re-adds every post, call, bet, raise, return and collection itself.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from parsers.formats.pokerstars import FORMAT
from parsers.model import Quarantined
from simulator.rival import generate

HANDS = 1200
PLAYERS = 120
_SEAT = re.compile(r"^Seat (\d+): (.+) \(\$([\d.]+) in chips\)( is sitting out)?$")
_MONEY = r"\$([\d.]+)"


def _cents(text: str) -> int:
    whole, _, frac = text.partition(".")
    return int(whole) * 100 + int(frac.ljust(2, "0") or 0)


def _room(tmp: Path, name: str, **kw: object) -> tuple[Path, dict]:
    out, truth = tmp / name, tmp / f"{name}.json"
    generate(out, truth, hands=kw.pop("hands", HANDS), players=kw.pop("players", PLAYERS), **kw)  # type: ignore[arg-type]
    return out, json.loads(truth.read_text())


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    return _room(tmp_path_factory.mktemp("rival"), "room", seed=5, intensity=0.6)


def _hands(folder: Path) -> list[tuple[str, str]]:
    """(file name, hand text) for every hand in the room."""
    out = []
    for f in sorted(folder.glob("*.txt")):
        out.extend((f.name, h) for h in f.read_text(encoding="utf-8").split("\n\n\n") if h.strip())
    return out


def _ledger(hand: str) -> tuple[dict[str, int], dict[str, int], int, int]:
    """Start stacks, net result per player, rake and total pot, re-added from the lines."""
    start: dict[str, int] = {}
    paid: dict[str, int] = {}
    got: dict[str, int] = {}
    street: dict[str, int] = {}
    rake = total = -1
    for line in hand.split("\n"):
        m = _SEAT.match(line)
        if m and m.group(4) is None and "in chips" in line:
            start[m.group(2)] = _cents(m.group(3))
            continue
        if line.startswith("*** ") and line[4:8] in ("FLOP", "TURN", "RIVE"):
            street = {}
        if m2 := re.match(rf"^(.+): (?:posts (?:small|big) blind|calls|bets) {_MONEY}", line):
            name, amt = m2.group(1), _cents(m2.group(2))
            paid[name] = paid.get(name, 0) + amt
            street[name] = street.get(name, 0) + amt
        elif m2 := re.match(rf"^(.+): raises {_MONEY} to {_MONEY}", line):
            name, to = m2.group(1), _cents(m2.group(3))
            paid[name] = paid.get(name, 0) + to - street.get(name, 0)
            street[name] = to
        elif m2 := re.match(rf"^Uncalled bet \({_MONEY}\) returned to (.+)$", line):
            paid[m2.group(2)] -= _cents(m2.group(1))
        elif m2 := re.match(rf"^(.+) collected {_MONEY} from", line):
            got[m2.group(1)] = got.get(m2.group(1), 0) + _cents(m2.group(2))
        elif m2 := re.match(rf"^Total pot {_MONEY}.*\| Rake {_MONEY}$", line):
            total, rake = _cents(m2.group(1)), _cents(m2.group(2))
    net = {n: got.get(n, 0) - paid.get(n, 0) for n in start}
    return start, net, rake, total


def test_every_hand_balances_and_stacks_carry_over(room):
    out, _ = room
    last: dict[tuple[str, str], int] = {}
    hands = _hands(out)
    assert len(hands) == HANDS
    for fname, hand in hands:
        start, net, rake, total = _ledger(hand)
        seated = {m.group(2) for line in hand.split("\n") if (m := _SEAT.match(line))}
        for key in [k for k in last if k[0] == fname and k[1] not in seated]:
            del last[key]  # left the table: a later return is a new buy-in
        assert rake >= 0 and total > 0, hand
        assert sum(net.values()) == -rake, hand
        assert sum(-v for v in net.values() if v < 0) <= total, hand
        for name, chips in start.items():
            assert chips + net[name] >= 0, hand
            before = last.get((fname, name))
            # a stack never shrinks between hands (rebuys only add chips)
            assert before is None or chips >= before, (name, before, chips, hand)
            last[(fname, name)] = chips + net[name]


def test_real_parser_reads_every_hand(room):
    out, _ = room
    parsed = 0
    for f in sorted(out.glob("*.txt")):
        for item in FORMAT.parse(f):
            assert not isinstance(item, Quarantined), item
            assert item.site_total_pot is not None
            parsed += 1
    assert parsed == HANDS


def test_generation_is_deterministic(tmp_path):
    a_out, a_truth = _room(tmp_path, "a", seed=9, hands=400)
    b_out, b_truth = _room(tmp_path, "b", seed=9, hands=400)
    c_out, _ = _room(tmp_path, "c", seed=10, hands=400)
    files = sorted(p.name for p in a_out.glob("*.txt"))
    assert files == sorted(p.name for p in b_out.glob("*.txt"))
    assert all((a_out / f).read_bytes() == (b_out / f).read_bytes() for f in files)
    assert a_truth == b_truth
    a_text = b"".join((a_out / f).read_bytes() for f in files)
    c_text = b"".join(p.read_bytes() for p in sorted(c_out.glob("*.txt")))
    assert a_text != c_text


def test_hand_numbers_unique_across_seeds(tmp_path):
    ids: list[str] = []
    for seed in (1, 2):
        out, _ = _room(tmp_path, f"s{seed}", seed=seed, hands=300)
        ids += [re.match(r"PokerStars Hand #(\d+):", h).group(1) for _, h in _hands(out)]  # type: ignore[union-attr]
    assert len(ids) == len(set(ids)) == 600


def test_truth_schema(room):
    _, truth = room
    assert truth["generator"] == "rival" and truth["site"] == "pokerstars"
    assert truth["seed"] == 5 and truth["hands"] == HANDS and truth["operator_mode"] is True
    assert isinstance(truth["intensity"], float)
    families = [t["family"] for t in truth["teams"]]
    for fam in ("soft_play", "chip_dumping", "squeeze", "card_sharing"):
        assert families.count(fam) >= 2
    players = truth["players"]
    for t in truth["teams"]:
        assert set(t) == {"id", "family", "implementation", "intensity", "members", "evidence"}
        assert 2 <= len(t["members"]) <= 3 and all(m in players for m in t["members"])
        assert 0 < t["intensity"] <= 1
        for e in t["evidence"]:
            assert set(e) == {"hand_id", "act", "players"}
            assert e["hand_id"].startswith("pokerstars:") and e["act"] and not e["act"].startswith("_")
            assert e["players"] == sorted(e["players"]) and set(e["players"]) <= set(t["members"])
            assert len(e["players"]) >= 2
    kinds = {c["kind"] for c in truth["confounders"]}
    assert {"friends", "staking", "loose_loser", "nit", "multi_tabler"} <= kinds
    assert all(set(v) == {"style", "hands"} for v in players.values())
    assert sum(v["hands"] for v in players.values()) > HANDS * 2
    assert not any(re.fullmatch(r"(?i)player\s*\d+|seat\s*\d+", n) for n in players)


def test_evidence_hands_exist_and_hold_the_members(room):
    out, truth = room
    by_id = {"pokerstars:" + re.match(r"PokerStars Hand #(\d+):", h).group(1): h  # type: ignore[union-attr]
             for _, h in _hands(out)}
    evidence = [e for t in truth["teams"] for e in t["evidence"]]
    assert evidence, "a 1,200-hand room at intensity 0.6 should leave some evidence"
    for e in evidence:
        hand = by_id[e["hand_id"]]
        for name in e["players"]:
            assert re.search(rf"^Seat \d+: {re.escape(name)} \(", hand, re.M), (name, e)


def test_higher_intensity_leaves_more_evidence(tmp_path):
    def count(intensity: float) -> int:
        _, truth = _room(tmp_path, f"i{intensity}", seed=3, intensity=intensity, hands=2000)
        return sum(len(t["evidence"]) for t in truth["teams"])

    low, high = count(0.1), count(0.9)
    assert high > 2 * max(low, 1), (low, high)


def test_player_view_has_no_dealt_lines(tmp_path):
    out, truth = _room(tmp_path, "pv", seed=4, hands=300, operator_mode=False)
    assert truth["operator_mode"] is False
    text = "".join(p.read_text() for p in out.glob("*.txt"))
    assert "Dealt to" not in text
    assert ": shows [" in text  # cards still appear at showdown


def test_operator_view_deals_every_seat(room):
    out, _ = room
    for _, hand in _hands(out)[:300]:
        seated = [m.group(2) for line in hand.split("\n") if (m := _SEAT.match(line)) and m.group(4) is None]
        dealt = re.findall(r"^Dealt to (.+) \[\w\w \w\w\]$", hand, re.M)
        assert sorted(seated) == sorted(dealt)


def test_room_is_realistic(room):
    out, _ = room
    hands = _hands(out)
    headers = {re.search(r"\((\$[\d.]+/\$[\d.]+) USD\)", h).group(1) for _, h in hands}  # type: ignore[union-attr]
    sizes = {re.search(r"' (\d)-max", h).group(1) for _, h in hands}  # type: ignore[union-attr]
    assert len(headers) >= 3 and sizes == {"6", "9"}
    assert len({f for f, _ in hands}) >= 5
    text = "\n".join(h for _, h in hands)
    for needle in ("Uncalled bet (", "*** SHOW DOWN ***", "and is all-in", "side pot", "is sitting out"):
        assert needle in text, needle
