"""A family of worlds: classic stays byte for byte, random worlds vary by seed and knob, every
implementation can be forced and leaves its own acts, the equity model respects the price, and a
random world's PokerStars text still ingests cleanly."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from simulator.collusion import IMPLEMENTATIONS
from simulator.policy import CALL, FOLD, EquityKnobs, View, decide_equity
from simulator.run import Config, simulate
from simulator.styles import STYLES

START = datetime(2026, 11, 29, 19, 0, 0)
ROOT = Path(__file__).resolve().parents[2]

#: sha256 of the hand files (names and bytes, sorted) and of the truth without the world keys,
#: computed on the simulator before worlds existed
CLASSIC = (
    (dict(hands=3000, seed=7, players=60, tables=6, teams=8, operator_mode=True),
     "e5e79ddf60af82cc", "2bece18125bb9953"),
    (dict(hands=2000, seed=3), "f47eaecbbb36eff4", "613059262b17b19e"),
    (dict(hands=1500, seed=4, players=30, fmt="phh"), "3c3ef10e19bde832", "175f970f2807a54a"),
)
#: acts each implementation may log (its own names)
ACTS = {
    "bet_fold": {"dump_fold", "dump_call_allin"},
    "trash_call": {"dump_call_allin"},
    "river_overbet": {"overbet_fold"},
    "small_transfers": {"small_dump_fold"},
    "checkdown_fold": {"check_down", "fold_instead_of_raise"},
    "checkdown": {"check_down", "call_instead_of_raise"},
    "fold_to_partner": {"soft_fold", "check_down"},
    "multiway_no_raise": {"no_raise_multiway"},
    "sandwich": {"squeeze_reraise", "whipsaw_reraise", "no_contest_fold"},
    "lead_raise": {"lead_for_partner", "lead_raise", "no_contest_fold"},
    "isolation": {"iso_raise", "iso_fold", "no_contest_fold"},
    "fold_to_stronger": {"fold_to_partner", "fold_strong_to_partner"},
    "captain": {"fold_to_captain"},
    "dead_cards": {"dead_card_raise", "dead_card_call", "dead_card_check", "dead_card_fold"},
}
#: the act that shows the implementation is not another one of its family
SIGNATURE = {
    "bet_fold": "dump_fold", "trash_call": "dump_call_allin", "river_overbet": "overbet_fold",
    "small_transfers": "small_dump_fold", "checkdown_fold": "fold_instead_of_raise", "checkdown": "check_down",
    "fold_to_partner": "soft_fold", "multiway_no_raise": "no_raise_multiway", "sandwich": "squeeze_reraise",
    "lead_raise": "lead_raise", "isolation": "iso_raise", "fold_to_stronger": "fold_to_partner",
    "captain": "fold_to_captain", "dead_cards": None,
}


def _run(tmp: Path, **kw: Any) -> tuple[str, dict[str, Any]]:
    """Simulate; (digest of the hand files, truth)."""
    kw.setdefault("start", START)
    result = simulate(Config(**kw), tmp / "hh", tmp / "truth.json")
    h = hashlib.sha256()
    for path in sorted(result.files):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16], json.loads((tmp / "truth.json").read_text())


def _acts(truth: dict[str, Any]) -> Counter[str]:
    return Counter(e["act"] for t in truth["teams"] for e in t["evidence"])


@pytest.mark.parametrize("kw,hands_digest,truth_digest", CLASSIC)
def test_classic_world_is_byte_identical(tmp_path: Path, kw: dict[str, Any], hands_digest: str,
                                         truth_digest: str) -> None:
    digest, truth = _run(tmp_path, **kw)
    assert digest == hands_digest
    assert truth["world"]["kind"] == "classic"
    truth.pop("world")
    for team in truth["teams"]:
        assert team.pop("intensity") == 1.0 and team.pop("implementation")
    for player in truth["players"].values():
        assert player.pop("honest_model") == "style"
    assert hashlib.sha256(json.dumps(truth, indent=1, sort_keys=True).encode()).hexdigest()[:16] == truth_digest


def test_random_worlds_differ_by_seed_and_repeat_for_a_seed(tmp_path: Path) -> None:
    a, ta = _run(tmp_path / "a", hands=600, seed=31, world="random")
    b, tb = _run(tmp_path / "b", hands=600, seed=31, world="random")
    c, tc = _run(tmp_path / "c", hands=600, seed=32, world="random")
    assert a == b and ta == tb
    assert a != c and ta["world"] != tc["world"]
    assert ta["world"]["kind"] == "random"


def test_random_world_parameters_vary(tmp_path: Path) -> None:
    """Across seeds: pools, table sizes, stakes, honest models and implementations all move."""
    from simulator.world import random_world

    worlds = [random_world(Config(hands=50_000, seed=s, world="random")) for s in range(40)]
    assert min(w.players for w in worlds) < 300 and max(w.players for w in worlds) > 1500
    assert all(30 <= w.players <= 5000 for w in worlds)
    assert {w.honest_model for w in worlds} == {"equity", "style", "mixed"}
    assert len({tuple(s[:2] for s in w.stakes) for w in worlds}) > 20
    assert all(w.table_sizes.get(2, 0.0) < 0.05 for w in worlds)  # heads-up tables rare
    assert sum(2 in w.table_sizes for w in worlds) > 20 and all(len(w.table_sizes) >= 6 for w in worlds)
    assert all(w.players <= 500 // 5 for w in (random_world(Config(hands=500, seed=s, world="random"))
                                              for s in range(10)))


def test_intensity_scales_evidence(tmp_path: Path) -> None:
    kw = dict(hands=2500, seed=41, world="random", players=60, tables=6, teams=10)
    _, low = _run(tmp_path / "low", intensity=0.2, **kw)
    _, full = _run(tmp_path / "full", intensity=1.0, **kw)
    assert low["world"]["players"] == full["world"]["players"]
    assert [t["members"] for t in low["teams"]] == [t["members"] for t in full["teams"]]
    assert {t["intensity"] for t in low["teams"]} == {0.2}
    n_low, n_full = sum(_acts(low).values()), sum(_acts(full).values())
    assert n_full > 40 and n_low < 0.5 * n_full


@pytest.mark.parametrize("family", list(IMPLEMENTATIONS))
def test_each_implementation_can_be_forced(tmp_path: Path, family: str) -> None:
    for k, name in enumerate(IMPLEMENTATIONS[family]):
        _, truth = _run(tmp_path / name, hands=1500, seed=50 + k, world="random", players=40, tables=5, teams=8,
                        intensity=1.0, implementation=name, operator_mode=True)
        teams = [t for t in truth["teams"] if t["family"] == family]
        assert teams and {t["implementation"] for t in teams} == {name}
        acts = Counter(e["act"] for t in teams for e in t["evidence"])
        assert set(acts) <= ACTS[name], (name, acts)
        if SIGNATURE[name]:
            assert acts[SIGNATURE[name]] > 0, (name, acts)
        else:
            assert sum(acts.values()) > 0, (name, acts)


def _view(to_call: int, pot: int) -> View:
    return View(street=2, strength=0.3, to_call=to_call, pot=pot, cur_bet=to_call, min_to=2 * to_call,
                max_to=20_000, bb=100, n_opp=1, late=False, raises=1, can_raise=True)


def test_equity_model_folds_weak_hands_to_big_bets_more_than_to_small() -> None:
    """Pot 1,000 before the bet; 30% equity: a quarter-pot bet asks 17%, a two-pot bet asks 40%."""
    knobs = EquityKnobs(margin=0.05, value=0.66, open_eq=0.59, bluff=0.1, sizes=(0.5, 0.75))
    style = STYLES["tag"]
    rng = random.Random(5)
    small = [decide_equity(style, _view(250, 1250), 0.3, rng, knobs)[0] for _ in range(400)]
    large = [decide_equity(style, _view(2000, 3000), 0.3, rng, knobs)[0] for _ in range(400)]
    assert small.count(FOLD) < 0.2 * len(small) and small.count(CALL) > 0.6 * len(small)
    assert large.count(FOLD) > 0.9 * len(large)


def test_truth_records_world_intensity_and_implementation(tmp_path: Path) -> None:
    _, truth = _run(tmp_path, hands=800, seed=61, world="random", honest_model="mixed", table_size=9)
    world = truth["world"]
    for key in ("players", "tables", "table_sizes", "stakes", "honest_model", "equity_share", "style_jitter",
                "session_hands", "hop", "fill", "teams", "confounders"):
        assert key in world
    assert world["honest_model"] == "mixed" and world["table_sizes"] == {"9": 1.0}
    assert world["tables_by_size"] == {"9": world["tables"]}
    assert {p["honest_model"] for p in truth["players"].values()} == {"equity", "style"}
    for team in truth["teams"]:
        assert 0.1 <= team["intensity"] <= 1.0
        assert team["implementation"] in IMPLEMENTATIONS[team["family"]]


def test_random_world_ingests_cleanly(tmp_path: Path) -> None:
    """2,000 random-world hands through the real ingest and rule check: nothing quarantined, no
    rule ERROR."""
    out, db = tmp_path / "hh", tmp_path / "w.duckdb"
    simulate(Config(hands=2000, seed=71, world="random", start=START), out, tmp_path / "truth.json")

    def cli(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "pipelines.cli", *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    ingested = cli("ingest", str(out), "--db", str(db))
    assert "quarantined: 0 " in ingested and " 0 unreconciled" in ingested, ingested
    checked = json.loads(cli("check", "--db", str(db)).strip().splitlines()[-1])
    assert checked["hands"] == 2000 and checked["errors"] == 0, checked
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("select count(*) from hands").fetchone() == (2000,)
        tables = {r[0] for r in con.execute("select table_name from information_schema.tables").fetchall()}
        if "quarantine" in tables:
            assert con.execute("select count(*) from quarantine").fetchone() == (0,)
    finally:
        con.close()
    rows = [line for line in cli("violations", "--db", str(db), "--format", "csv").splitlines()[1:] if line]
    assert not [r for r in rows if ",ERROR," in r.upper() or r.upper().startswith("ERROR,")], rows[:5]
