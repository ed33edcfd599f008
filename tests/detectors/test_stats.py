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


def test_card_spot_sums_match_the_per_hand_rows(pluribus: duckdb.DuckDBPyConnection) -> None:
    """The pair table's card-conditioned counts (cs: folds facing a bet; csn: bets when not facing
    one) are the per-hand rows of ``pcs`` summed on the right side of B's strength."""
    got = pluribus.execute(
        """SELECT player_a, player_b, sum(cs_b_stronger_n), sum(cs_b_stronger_fold), sum(cs_b_weaker_n),
                  sum(cs_b_weaker_fold), round(sum(cs_b_stronger_exp), 6), sum(csn_b_stronger_n),
                  sum(csn_b_stronger_aggr), sum(csn_b_weaker_aggr)
        FROM t_pair_stats GROUP BY ALL"""
    ).fetchall()
    want = {
        (a, b): row for a, b, *row in pluribus.execute(
            """SELECT a, b,
                count(*) FILTER (WHERE facing AND b_stronger), count(*) FILTER (WHERE facing AND b_stronger AND fold),
                count(*) FILTER (WHERE facing AND NOT b_stronger),
                count(*) FILTER (WHERE facing AND NOT b_stronger AND fold),
                round(coalesce(sum(p_fold) FILTER (WHERE facing AND b_stronger), 0), 6),
                count(*) FILTER (WHERE NOT facing AND b_stronger),
                count(*) FILTER (WHERE NOT facing AND b_stronger AND aggr),
                count(*) FILTER (WHERE NOT facing AND NOT b_stronger AND aggr)
            FROM pcs GROUP BY ALL"""
        ).fetchall()
    }
    assert got
    for a, b, *row in got:
        assert tuple(row) == tuple(want.get((a, b), (0, 0, 0, 0, 0.0, 0, 0, 0))), (a, b)
    assert sum(r[3] for r in got) > 0 and sum(r[8] for r in got) > 0, "Pluribus bots fold and bet with cards known"


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




LIVE_IN = ("post_sb", "post_bb", "post_straddle", "call", "bet", "raise")
DECISIONS = ("fold", "check", "call", "bet", "raise")


def _pt4_reference(con: duckdb.DuckDBPyConnection) -> dict[str, dict[str, int]]:
    """PokerTracker 4's opportunity counts by one Python replay of each hand, action by action
    (independent of the SQL: its own stacks, bet levels, raise counts, all-ins and positions)."""
    site = dict(con.execute("SELECT hand_id, site FROM hands").fetchall())
    button = dict(con.execute("SELECT hand_id, button_seat FROM hands").fetchall())
    seats: dict[str, list[tuple[int, str, int]]] = defaultdict(list)
    for hid, seat, player, stack in con.execute(
            "SELECT hand_id, seat_no, player, stack FROM seats WHERE NOT sitting_out").fetchall():
        seats[hid].append((seat, f"{site[hid]}:{player}", stack))
    acts: dict[str, list[tuple[int, str, str, str, int, bool]]] = defaultdict(list)
    for hid, seq, street, player, kind, contrib, all_in in con.execute(
            "SELECT hand_id, seq, street, player, kind, contribution, all_in FROM actions").fetchall():
        acts[hid].append((seq, street, f"{site[hid]}:{player}", kind, contrib or 0, bool(all_in)))
    won = {(h, f"{site[h]}:{p}")
           for h, p in con.execute("SELECT hand_id, player FROM awards WHERE amount > 0").fetchall()}
    boards = dict(con.execute("SELECT hand_id, cards FROM boards WHERE board_no = 1").fetchall())
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for hid, seated in seats.items():
        n = len(seated)
        order = sorted(seated, key=lambda s: (s[0] - (button[hid] or 0) + 999) % 1000)
        pos = {p: i for i, (_, p, _) in enumerate(order)}
        stack = {p: st for _, p, st in seated}
        rows = sorted(acts[hid])
        sb = {p for _, _, p, k, _, _ in rows if k == "post_sb"}
        bb = {p for _, _, p, k, _, _ in rows if k == "post_bb"}
        steal_seat = {p for p in stack
                      if p in sb or (p not in bb and (pos[p] == n - 1 or (pos[p] == n - 2 and pos[p] >= 2)))}
        total = dict.fromkeys(stack, 0)
        street_in: dict[str, int] = {}
        folded: set[str] = set()
        allin: set[str] = set()
        raisers: list[str] = []  # preflop aggressors in order
        seen_decision: set[str] = set()
        street, raises, calls = "", 0, 0
        stealer: str | None = None
        pfa: str | None = None
        last_aggr: str | None = None
        flop_last: dict[str, str] = {}
        for _, st, p, kind, contrib, is_allin in rows:
            if st != street:
                street, raises, street_in = st, 0, {}
                if st == "flop":
                    pfa = raisers[-1] if raisers else None
            s = out[p]
            if kind in DECISIONS and st == "preflop":
                to_call = max(max(street_in.values(), default=0) - street_in.get(p, 0), 0)
                others = [q for q in stack if q != p and q not in folded and q not in allin]
                can_raise = stack[p] - total[p] > to_call and len(others) > 0
                if p not in seen_decision and can_raise:
                    s["pfr_opp"] += 1
                seen_decision.add(p)
                aggr = kind in ("bet", "raise")
                if raises == 1 and can_raise:
                    s["threebet_opp"] += 1
                    s["threebet"] += aggr
                if raises == 2 and can_raise:
                    s["fourbet_opp"] += 1
                    s["fourbet"] += aggr
                if raises == 2 and raisers[0] == p:
                    s["fold_to_3bet_opp"] += 1
                    s["fold_to_3bet"] += kind == "fold"
                if raises == 3 and raisers[1] == p:
                    s["fold_to_4bet_opp"] += 1
                    s["fold_to_4bet"] += kind == "fold"
                if p in steal_seat and raises == 0 and calls == 0:
                    s["steal_opp"] += 1
                    s["steal"] += aggr
                    if aggr:
                        stealer = p
                if (p in sb or p in bb) and raises == 1 and calls == 0 and stealer is not None \
                        and raisers[-1] == stealer:
                    s["fold_to_steal_opp"] += 1
                    s["fold_to_steal"] += kind == "fold"
                if aggr:
                    raisers.append(p)
            if kind in DECISIONS and st == "flop":
                facing = max(street_in.values(), default=0) > street_in.get(p, 0)
                if raises == 0 and p == pfa:
                    s["cbet_opp"] += 1
                    s["cbet"] += kind in ("bet", "raise")
                if raises == 1 and pfa is not None and p != pfa and last_aggr == pfa:
                    s["fold_to_cbet_opp"] += 1
                    s["fold_to_cbet"] += kind == "fold"
                if facing and flop_last.get(p) == "check":
                    s["flop_check_raise_opp"] += 1
                    s["flop_check_raise"] += kind == "raise"
                flop_last[p] = kind
            if kind in DECISIONS and st != "preflop":
                s["post_folds"] += kind == "fold"
            if kind in ("bet", "raise"):
                raises += 1
                last_aggr = p
            if st == "preflop" and kind == "call":
                calls += 1
            if kind in LIVE_IN:
                street_in[p] = street_in.get(p, 0) + contrib
            total[p] += contrib
            if kind == "fold":
                folded.add(p)
            if is_allin:
                allin.add(p)
        for p in stack:
            s = out[p]
            vpip = any(st == "preflop" and k in ("call", "bet", "raise") and q == p for _, st, q, k, _, _ in rows)
            saw_flop = len(boards.get(hid) or "") >= 6 and not any(
                q == p and k == "fold" and st == "preflop" for _, st, q, k, _, _ in rows)
            walk = not vpip and p not in folded and len([q for q in stack if q not in folded]) == 1 and not saw_flop
            s["walks"] += walk
            s["vpip_opp"] += not walk
            s["wwsf"] += saw_flop and (hid, p) in won
    return out


PT4_COLUMNS = ("walks", "vpip_opp", "pfr_opp", "threebet_opp", "threebet", "fourbet_opp", "fourbet",
               "fold_to_3bet_opp", "fold_to_3bet", "fold_to_4bet_opp", "fold_to_4bet", "steal_opp", "steal",
               "fold_to_steal_opp", "fold_to_steal", "cbet_opp", "cbet", "fold_to_cbet_opp", "fold_to_cbet",
               "flop_check_raise_opp", "flop_check_raise", "post_folds", "wwsf")


def test_pt4_opportunities_match_a_python_replay(pluribus: duckdb.DuckDBPyConnection) -> None:
    ref = _pt4_reference(pluribus)
    cols = ", ".join(f"sum({c})" for c in PT4_COLUMNS)
    got = {r[0]: dict(zip(PT4_COLUMNS, map(int, r[1:]), strict=True)) for r in pluribus.execute(
        f"SELECT player, {cols} FROM t_player_stats GROUP BY player").fetchall()}
    assert set(got) == set(ref)
    for player, s in ref.items():
        assert got[player] == {c: s[c] for c in PT4_COLUMNS}, player
    total = {c: sum(s[c] for s in ref.values()) for c in PT4_COLUMNS}
    # the sample exercises every opportunity (no column is trivially zero on both sides)
    assert all(total[c] > 0 for c in PT4_COLUMNS if c != "fold_to_4bet"), total


#: the scripted night's hands, one per situation (see test_pt4_definitions_on_scripted_hands)
SCRIPTED = [
    """PokerStars Hand #2001:  Hold'em No Limit ($0.50/$1.00 USD) - 2026/11/28 20:00:00 ET
Table 'Vega' 6-max Seat #1 is the button
Seat 1: alice ($100 in chips)
Seat 2: bob ($100 in chips)
Seat 3: carol ($100 in chips)
Seat 4: dave ($100 in chips)
bob: posts small blind $0.50
carol: posts big blind $1
*** HOLE CARDS ***
dave: folds
alice: raises $2 to $3
bob: folds
carol: folds
Uncalled bet ($2) returned to alice
alice collected $2.50 from pot
*** SUMMARY ***
Total pot $2.50 | Rake $0
Seat 1: alice (button) collected ($2.50)
Seat 2: bob (small blind) folded before Flop
Seat 3: carol (big blind) folded before Flop
Seat 4: dave folded before Flop (didn't bet)
""",
    """PokerStars Hand #2002:  Hold'em No Limit ($0.50/$1.00 USD) - 2026/11/28 20:01:00 ET
Table 'Vega' 6-max Seat #1 is the button
Seat 1: alice ($100 in chips)
Seat 2: bob ($100 in chips)
Seat 3: carol ($100 in chips)
Seat 4: dave ($100 in chips)
bob: posts small blind $0.50
carol: posts big blind $1
*** HOLE CARDS ***
dave: folds
alice: folds
bob: folds
Uncalled bet ($0.50) returned to carol
carol collected $1 from pot
*** SUMMARY ***
Total pot $1 | Rake $0
Seat 1: alice (button) folded before Flop (didn't bet)
Seat 2: bob (small blind) folded before Flop
Seat 3: carol (big blind) collected ($1)
Seat 4: dave folded before Flop (didn't bet)
""",
    """PokerStars Hand #2003:  Hold'em No Limit ($0.50/$1.00 USD) - 2026/11/28 20:02:00 ET
Table 'Vega' 6-max Seat #1 is the button
Seat 1: alice ($100 in chips)
Seat 2: bob ($100 in chips)
Seat 3: carol ($100 in chips)
Seat 4: dave ($100 in chips)
bob: posts small blind $0.50
carol: posts big blind $1
*** HOLE CARDS ***
dave: raises $2 to $3
alice: raises $6 to $9
bob: folds
carol: folds
dave: folds
Uncalled bet ($6) returned to alice
alice collected $7.50 from pot
*** SUMMARY ***
Total pot $7.50 | Rake $0
Seat 1: alice (button) collected ($7.50)
Seat 2: bob (small blind) folded before Flop
Seat 3: carol (big blind) folded before Flop
Seat 4: dave folded before Flop
""",
    """PokerStars Hand #2004:  Hold'em No Limit ($0.50/$1.00 USD) - 2026/11/28 20:03:00 ET
Table 'Vega' 6-max Seat #1 is the button
Seat 1: alice ($100 in chips)
Seat 2: bob ($100 in chips)
Seat 3: carol ($100 in chips)
Seat 4: dave ($100 in chips)
bob: posts small blind $0.50
carol: posts big blind $1
*** HOLE CARDS ***
dave: raises $99 to $100 and is all-in
alice: folds
bob: folds
carol: folds
Uncalled bet ($99) returned to dave
dave collected $2.50 from pot
*** SUMMARY ***
Total pot $2.50 | Rake $0
Seat 1: alice (button) folded before Flop (didn't bet)
Seat 2: bob (small blind) folded before Flop
Seat 3: carol (big blind) folded before Flop
Seat 4: dave collected ($2.50)
""",
    """PokerStars Hand #2005:  Hold'em No Limit ($0.50/$1.00 USD) - 2026/11/28 20:04:00 ET
Table 'Vega' 6-max Seat #1 is the button
Seat 1: alice ($100 in chips)
Seat 2: bob ($100 in chips)
Seat 3: carol ($100 in chips)
Seat 4: dave ($100 in chips)
bob: posts small blind $0.50
carol: posts big blind $1
*** HOLE CARDS ***
dave: raises $2 to $3
alice: calls $3
bob: folds
carol: calls $2
*** FLOP *** [Ah 7d 2c]
carol: checks
dave: bets $5
alice: folds
carol: raises $10 to $15
dave: calls $10
*** TURN *** [Ah 7d 2c] [9s]
carol: bets $20
dave: folds
Uncalled bet ($20) returned to carol
carol collected $39.50 from pot
*** SUMMARY ***
Total pot $39.50 | Rake $0
Board [Ah 7d 2c 9s]
Seat 1: alice (button) folded on the Flop
Seat 2: bob (small blind) folded before Flop
Seat 3: carol (big blind) collected ($39.50)
Seat 4: dave folded on the Turn
""",
]

#: expected counts per player (alice BTN, bob SB, carol BB, dave CO in every hand)
SCRIPTED_EXPECTED = {
    #                      alice bob carol dave
    "hands":                (5, 5, 5, 5),
    "walks":                (0, 0, 1, 0),
    "vpip_opp":             (5, 5, 4, 5),
    "vpip":                 (3, 0, 1, 3),
    "pfr":                  (2, 0, 0, 3),
    "pfr_opp":              (4, 4, 3, 5),  # hand 4: facing the shove is no chance to raise
    "threebet_opp":         (2, 2, 2, 0),
    "threebet":             (1, 0, 0, 0),
    "fourbet_opp":          (0, 1, 1, 1),
    "fold_to_3bet_opp":     (0, 0, 0, 1),
    "fold_to_3bet":         (0, 0, 0, 1),
    "steal_opp":            (2, 1, 0, 5),
    "steal":                (1, 0, 0, 3),
    "fold_to_steal_opp":    (0, 2, 2, 0),
    "fold_to_steal":        (0, 2, 2, 0),
    "cbet_opp":             (0, 0, 0, 1),
    "cbet":                 (0, 0, 0, 1),
    "fold_to_cbet_opp":     (1, 0, 1, 0),
    "fold_to_cbet":         (1, 0, 0, 0),
    "flop_check_raise_opp": (0, 0, 1, 0),
    "flop_check_raise":     (0, 0, 1, 0),
    "post_decisions":       (1, 0, 3, 3),
    "post_aggr":            (0, 0, 2, 1),
    "post_calls":           (0, 0, 0, 1),
    "post_folds":           (1, 0, 0, 1),
    "saw_flop":             (1, 0, 1, 1),
    "wwsf":                 (0, 0, 1, 0),
}


def test_pt4_definitions_on_scripted_hands(tmp_path) -> None:
    """Each PokerTracker 4 opportunity on a hand written to contain it (one situation a hand)."""
    src = tmp_path / "Vega.txt"
    src.write_text("\n\n\n".join(SCRIPTED), encoding="utf-8")
    db = tmp_path / "w.duckdb"
    assert ingest_paths([src], db, progress=False).files == 1
    con = duckdb.connect(str(db))
    assert con.execute("SELECT count(*) FROM hands").fetchone() == (5,)
    features.build(con, "operator")
    allin.build_allin_ev(con)
    stats.player_stats(con)
    cols = list(SCRIPTED_EXPECTED)
    rows = con.execute(f"SELECT player, {', '.join(f'sum({c})' for c in cols)} FROM t_player_stats "
                       "GROUP BY player ORDER BY player").fetchall()
    assert [r[0] for r in rows] == ["pokerstars:alice", "pokerstars:bob", "pokerstars:carol", "pokerstars:dave"]
    got = {c: tuple(int(r[i + 1]) for r in rows) for i, c in enumerate(cols)}
    assert got == SCRIPTED_EXPECTED
    # AF = (B+R)/C and AFq = (B+R)/(B+R+C+F), as PokerTracker 4 reads them: dave 1/1 and 1/3
    af, afq = con.execute(
        "SELECT sum(post_aggr) / sum(post_calls), sum(post_aggr) / (sum(post_aggr) + sum(post_calls)"
        " + sum(post_folds)) FROM t_player_stats WHERE player = 'pokerstars:dave'").fetchone()
    assert (af, round(afq, 4)) == (1.0, 0.3333)
