"""Player statistics from SQL against a plain-Python reference over the same warehouse rows,
on real hands with every hole card known (the Pluribus sessions)."""

from __future__ import annotations

from collections import defaultdict

import duckdb
import pytest

from detectors import allin, cards, features, stats
from tests.conftest import real_data
from warehouse.ingest import ingest_paths


@pytest.fixture(scope="module")
def pluribus(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    src = real_data("pluribus_raw_pkcore")
    db = tmp_path_factory.mktemp("pluribus") / "w.duckdb"
    ingest_paths([src], db, progress=False)
    con = duckdb.connect(str(db))
    features.build(con, "operator")
    allin.build_allin_ev(con)
    stats.player_stats(con)
    stats.pair_stats(con)
    return con


def _reference(con: duckdb.DuckDBPyConnection) -> dict[str, dict[str, int]]:
    """VPIP, PFR, saw flop, WTSD, W$SD and net winnings with one Python pass over the rows
    (players keyed "site:name" like the detectors, from the hands' own site column)."""
    site = dict(con.execute("SELECT hand_id, site FROM hands").fetchall())
    acts: dict[str, list[tuple[int, str, str, str, int]]] = defaultdict(list)
    for hid, seq, street, player, kind, contrib in con.execute(
        "SELECT hand_id, seq, street, player, kind, contribution FROM actions"
    ).fetchall():
        acts[hid].append((seq, street, f"{site[hid]}:{player}", kind, contrib))
    won: dict[tuple[str, str], int] = defaultdict(int)
    for hid, player, amount in con.execute("SELECT hand_id, player, amount FROM awards").fetchall():
        won[(hid, f"{site[hid]}:{player}")] += amount
    boards = dict(con.execute("SELECT hand_id, cards FROM boards WHERE board_no = 1").fetchall())
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    seats = con.execute("SELECT hand_id, player FROM seats WHERE NOT sitting_out").fetchall()
    by_hand: dict[str, list[str]] = defaultdict(list)
    for hid, player in seats:
        by_hand[hid].append(f"{site[hid]}:{player}")
    for hid, players in by_hand.items():
        rows = sorted(acts[hid])
        folded = {p: st for _, st, p, k, _ in rows if k == "fold"}
        live_end = [p for p in players if p not in folded]
        for p in players:
            mine = [r for r in rows if r[2] == p]
            s = out[p]
            s["hands"] += 1
            s["vpip"] += any(st == "preflop" and k in ("call", "raise", "bet") for _, st, _, k, _ in mine)
            s["pfr"] += any(st == "preflop" and k in ("raise", "bet") for _, st, _, k, _ in mine)
            saw_flop = len(boards.get(hid, "")) >= 6 and folded.get(p) != "preflop"
            s["saw_flop"] += saw_flop
            wtsd = saw_flop and p not in folded and len(live_end) >= 2
            s["wtsd"] += wtsd
            s["wsd"] += wtsd and won[(hid, p)] > 0
            s["net"] += won[(hid, p)] - sum(c for *_, c in mine)
    return out


def test_player_stats_match_python_reference(pluribus: duckdb.DuckDBPyConnection) -> None:
    ref = _reference(pluribus)
    got = {
        r[0]: r[1:]
        for r in pluribus.execute(
            "SELECT player, sum(hands), sum(vpip), sum(pfr), sum(saw_flop), sum(wtsd), sum(wsd) "
            "FROM t_player_stats GROUP BY player"
        ).fetchall()
    }
    assert set(got) == set(ref)
    for player, s in ref.items():
        assert tuple(int(x) for x in got[player]) == (
            s["hands"], s["vpip"], s["pfr"], s["saw_flop"], s["wtsd"], s["wsd"]
        ), player
    # Pluribus: 6 players a hand, so everyone has thousands of hands and plausible HUD numbers
    vpip = {p: s["vpip"] / s["hands"] for p, s in ref.items()}
    assert all(0.1 < v < 0.5 for v in vpip.values())


def test_net_winnings_sum_to_zero_without_rake(pluribus: duckdb.DuckDBPyConnection) -> None:
    """ACPC/Pluribus games have no rake: winnings are a zero-sum transfer, exactly."""
    total = pluribus.execute("SELECT sum(net) FROM hp").fetchone()
    assert total is not None and int(total[0]) == 0
    ref = _reference(pluribus)
    got = dict(pluribus.execute("SELECT player, sum(net) FROM hp GROUP BY player").fetchall())
    assert {p: int(v) for p, v in got.items()} == {p: s["net"] for p, s in ref.items()}


def test_allin_adjustment_is_zero_sum_per_hand(pluribus: duckdb.DuckDBPyConnection) -> None:
    """Equity credits split each adjusted pot between its two players: per hand Σ ev_net equals
    Σ net up to rounding (one unit per player)."""
    rows = pluribus.execute(
        "SELECT a.hand_id, sum(a.ev_net), sum(h.net) FROM allin_ev a JOIN hp h USING (hand_id, player) GROUP BY 1"
    ).fetchall()
    assert rows, "Pluribus sessions have heads-up all-in showdowns"
    assert all(abs(int(ev) - int(net)) <= 1 for _, ev, net in rows)


def test_pair_stats_are_symmetric_where_they_must_be(pluribus: duckdb.DuckDBPyConnection) -> None:
    rows = pluribus.execute(
        """SELECT a.hands_together = b.hands_together AND a.confrontations = b.confrontations
                  AND a.hu_confrontations = b.hu_confrontations
        FROM t_pair_stats a JOIN t_pair_stats b ON a.player_a = b.player_b AND a.player_b = b.player_a
             AND a.hand_date = b.hand_date"""
    ).fetchall()
    assert rows and all(r[0] for r in rows)


def test_decision_to_call_is_never_negative_and_matches_calls(pluribus: duckdb.DuckDBPyConnection) -> None:
    """A call moves exactly the amount owed (capped by the stack on all-ins)."""
    bad = pluribus.execute(
        "SELECT count(*) FROM dec WHERE to_call < 0 OR (calls AND contribution > to_call)"
    ).fetchone()
    assert bad == (0,)
    checks_facing = pluribus.execute("SELECT count(*) FROM dec WHERE kind = 'check' AND facing").fetchone()
    assert checks_facing == (0,)


@pytest.mark.parametrize(
    ("r1", "r2", "suited", "score"),
    # values from Bill Chen's published examples: AA 20, AKs 12, 72o -1 (rounded up), JTs 9, 55 5
    [("A", "A", False, 20), ("A", "K", True, 12), ("7", "2", False, -1), ("J", "T", True, 9), ("5", "5", False, 5)],
)
def test_chen_formula(r1: str, r2: str, suited: bool, score: int) -> None:
    assert cards.chen_score(r1, r2, suited) == score


def test_postflop_rank_orders_hands() -> None:
    royal, quads, air = cards.evaluate_many([("AsKs", "QsJsTs2d3c"), ("AhAd", "AsAc2d"), ("7h2d", "KsQdJc9s3h")])
    assert royal == 1 and quads is not None and air is not None and royal < quads < air
    assert cards.post_bucket(1) == 4 and cards.post_bucket(7000) == 0


