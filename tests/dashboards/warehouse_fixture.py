"""A small, hand-checked warehouse with the tables the dashboard reads (incl. others' WIP tables).

Why hand-written: the detectors, rules and pipeline tables are being built in parallel, so the
dashboard tests need realistic rows now. Three PokerStars-style hands are written to a text file
(the raw evidence the export must reproduce byte for byte) and their canonical rows are typed in
by hand from that text; every amount is checked by the reconciliation equations in the tests.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import duckdb

from dashboards.precompute import build_summaries
from pipelines.steps import RUN_REPORTS_DDL
from rules.check import check_batches
from rules.profiles import load_profile
from rules.store import SCHEMA as RULES_SCHEMA
from rules.store import load_hands, write_results
from warehouse.db import schema_sql

DETECTORS_SCHEMA = Path(__file__).resolve().parents[2] / "detectors" / "schema.sql"

#: the real schemas of the detector and rule-checker outputs (kept as a name for the bench)
EXTRA_DDL = (DETECTORS_SCHEMA.read_text(encoding="utf-8") + "\n" + RULES_SCHEMA.read_text(encoding="utf-8"))

HAND_TEXTS = [
    """PokerStars Hand #1001:  Hold'em No Limit ($0.50/$1.00 USD) - 2026/11/28 20:00:00 ET
Table 'Alcor' 6-max Seat #1 is the button
Seat 1: alice ($100 in chips)
Seat 2: bob ($100 in chips)
Seat 3: carol ($100 in chips)
Seat 4: dave ($100 in chips)
bob: posts small blind $0.50
carol: posts big blind $1
*** HOLE CARDS ***
dave: raises $2 to $3
alice: folds
bob: folds
carol: calls $2
*** FLOP *** [Ah 7d 2c]
carol: checks
dave: bets $4
carol: folds
Uncalled bet ($4) returned to dave
dave collected $6.50 from pot
*** SUMMARY ***
Total pot $6.50 | Rake $0
""",
    """PokerStars Hand #1002:  Hold'em No Limit ($0.50/$1.00 USD) - 2026/11/28 20:02:00 ET
Table 'Alcor' 6-max Seat #2 is the button
Seat 1: alice ($100 in chips)
Seat 2: bob ($99.50 in chips)
Seat 3: carol ($97 in chips)
Seat 4: dave ($103.50 in chips)
carol: posts small blind $0.50
dave: posts big blind $1
*** HOLE CARDS ***
alice: raises $2 to $3
bob: calls $3
carol: folds
dave: folds
*** FLOP *** [Kh Kd 4s]
alice: bets $5
bob: calls $5
*** TURN *** [Kh Kd 4s] [9c]
alice: bets $12
bob: calls $12
*** RIVER *** [Kh Kd 4s 9c] [Qh]
alice: bets $30
bob: folds
Uncalled bet ($30) returned to alice
alice collected $40.50 from pot
*** SUMMARY ***
Total pot $41.50 | Rake $1
""",
    """PokerStars Hand #1003:  Hold'em No Limit ($0.50/$1.00 USD) - 2026/11/28 20:04:00 ET
Table 'Alcor' 6-max Seat #3 is the button
Seat 1: alice ($120.50 in chips)
Seat 2: bob ($79.50 in chips)
Seat 3: carol ($96.50 in chips)
Seat 4: dave ($102.50 in chips)
dave: posts small blind $0.50
alice: posts big blind $1
*** HOLE CARDS ***
bob: raises $0.50 to $1.50
carol: folds
dave: folds
alice: calls $0.50
*** FLOP *** [As Ad 5h]
alice: checks
bob: bets $60
alice: folds
Uncalled bet ($60) returned to bob
bob collected $3.50 from pot
*** SUMMARY ***
Total pot $3.50 | Rake $0
""",
]

PLAYERS = ("alice", "bob", "carol", "dave")

# (seq, street, player, kind, amount, raise_to, contribution) per hand, typed from HAND_TEXTS
ACTIONS: dict[str, list[tuple[int, str, str, str, int | None, int | None, int]]] = {
    "pokerstars:1001": [
        (0, "preflop", "bob", "post_sb", 50, None, 50),
        (1, "preflop", "carol", "post_bb", 100, None, 100),
        (2, "preflop", "dave", "raise", 200, 300, 300),
        (3, "preflop", "alice", "fold", None, None, 0),
        (4, "preflop", "bob", "fold", None, None, 0),
        (5, "preflop", "carol", "call", 200, None, 200),
        (6, "flop", "carol", "check", None, None, 0),
        (7, "flop", "dave", "bet", 400, 400, 400),
        (8, "flop", "carol", "fold", None, None, 0),
        (9, "flop", "dave", "uncalled_return", 400, None, -400),
    ],
    "pokerstars:1002": [
        (0, "preflop", "carol", "post_sb", 50, None, 50),
        (1, "preflop", "dave", "post_bb", 100, None, 100),
        (2, "preflop", "alice", "raise", 200, 300, 300),
        (3, "preflop", "bob", "call", 300, None, 300),
        (4, "preflop", "carol", "fold", None, None, 0),
        (5, "preflop", "dave", "fold", None, None, 0),
        (6, "flop", "alice", "bet", 500, 500, 500),
        (7, "flop", "bob", "call", 500, None, 500),
        (8, "turn", "alice", "bet", 1200, 1200, 1200),
        (9, "turn", "bob", "call", 1200, None, 1200),
        (10, "river", "alice", "bet", 3000, 3000, 3000),
        (11, "river", "bob", "fold", None, None, 0),
        (12, "river", "alice", "uncalled_return", 3000, None, -3000),
    ],
    "pokerstars:1003": [
        (0, "preflop", "dave", "post_sb", 50, None, 50),
        (1, "preflop", "alice", "post_bb", 100, None, 100),
        (2, "preflop", "bob", "raise", 50, 150, 150),
        (3, "preflop", "carol", "fold", None, None, 0),
        (4, "preflop", "dave", "fold", None, None, 0),
        (5, "preflop", "alice", "call", 50, None, 50),
        (6, "flop", "alice", "check", None, None, 0),
        (7, "flop", "bob", "bet", 6000, 6000, 6000),
        (8, "flop", "alice", "fold", None, None, 0),
        (9, "flop", "bob", "uncalled_return", 6000, None, -6000),
    ],
}
STACKS = {
    "pokerstars:1001": (10000, 10000, 10000, 10000),
    "pokerstars:1002": (10000, 9950, 9700, 10350),
    "pokerstars:1003": (12050, 7950, 9650, 10250),
}
BUTTON = {"pokerstars:1001": 1, "pokerstars:1002": 2, "pokerstars:1003": 3}
BOARDS = {"pokerstars:1001": "Ah7d2c", "pokerstars:1002": "KhKd4s9cQh", "pokerstars:1003": "AsAd5h"}
AWARDS = {"pokerstars:1001": ("dave", 650), "pokerstars:1002": ("alice", 4050), "pokerstars:1003": ("bob", 350)}
TOTAL_POT = {"pokerstars:1001": 650, "pokerstars:1002": 4150, "pokerstars:1003": 350}
RAKE = {"pokerstars:1001": 0, "pokerstars:1002": 100, "pokerstars:1003": 0}
#: operator-mode export: every player's cards known
HOLE = {
    "pokerstars:1001": {"alice": "9c8c", "bob": "Jd3s", "carol": "Td9d", "dave": "AcKs"},
    "pokerstars:1002": {"alice": "7s2d", "bob": "KsQs", "carol": "8h3c", "dave": "5d4d"},
    "pokerstars:1003": {"alice": "AhKc", "bob": "6c6d", "carol": "Jh2h", "dave": "QcTc"},
}
STARTED = {
    "pokerstars:1001": "2026-11-29 01:00:00",
    "pokerstars:1002": "2026-11-29 01:02:00",
    "pokerstars:1003": "2026-11-29 01:04:00",
}


def _observed(metrics: list[tuple[str, float, float, float]], pair_score: float, hands_together: int) -> str:
    """``observed`` exactly as detectors/run.py writes it: metric -> value, population median, percentile."""
    obs: dict[str, object] = {
        n: {"value": v, "population_median": med, "percentile": pct} for n, v, med, pct in metrics
    }
    obs["pair_score"] = pair_score
    obs["hands_together"] = hands_together
    return json.dumps(obs, sort_keys=True)


FLAGS = [
    (
        "F-chip-001", "run-2026-11-29", "chip_dumping", ["alice", "bob"], 0.93, "high", "operator",
        "bob folds strong made hands to alice's river bets and alice wins 20.50 from bob in 2 hands.",
        ["pokerstars:1002", "pokerstars:1003"],
        _observed([
            ("x_fold_ba", 10.35, 0.0, 100.0),
            ("net_flow_cbb", -3950.0, 0.0, 0.29),
            ("x_beaten_ba", 0.26, -0.006, 97.53),
        ], 0.93, 3),
        "Bob may be a weak, risk-averse player who folds too often on scary boards.",
        "Bob folds strong hands equally often against players other than alice.",
        "chip_dumping-1.2.0", json.dumps({"min_hands": 2, "window_days": 30}),
    ),
    (
        "F-ring-002", "run-2026-11-29", "collusion_ring", ["alice", "bob", "carol"], 0.71, "medium",
        "operator", "alice, bob and carol sit together far more often than chance and rarely raise each other.",
        ["pokerstars:1002", "pokerstars:1001"],
json.dumps({"members": ["alice", "bob", "carol"], "weakest_pair_score": 0.71}),
        "Friends who like the same table and stakes.",
        "Comparable raise rates against ring members and outsiders.",
        "ring-0.4.1", json.dumps({"min_cooccurrence": 3}),
    ),
    (
        "F-soft-003", "run-2026-11-28", "soft_play", ["carol", "dave"], 0.55, "medium", "operator",
        "dave checks back strong hands against carol.",
        ["pokerstars:1001"],
        _observed([("z_checkdown", 5.86, 0.0, 100.0), ("z_hu_post_aggr_ab", -2.95, 0.0, 0.08)], 0.55, 3),
        "Pot control on a dry board.", "Same line against other opponents.",
        "soft_play-0.9.0", json.dumps({}),
    ),
    (
        "F-sqz-004", "run-2026-11-28", "squeeze", ["bob", "dave"], 0.21, "low", "player",
        "bob and dave raise in sequence around a caller.",
        ["pokerstars:1003"],
        _observed([("x_squeeze_ab", 1.0, 0.2, 90.0)], 0.21, 3),
        "Small sample.", "More hands.", "squeeze-0.2.0", json.dumps({}),
    ),
]


#: player_stats rows as detectors/stats.py counts them (PokerTracker 4 opportunities), typed from
#: HAND_TEXTS for alice and bob (4-handed: the seat before the button is the cutoff, a steal seat):
#: alice: 1001 button, folds to dave's open (3-bet chance); 1002 cutoff, opens first in (steal), bets
#: flop (c-bet), turn, river, wins $40.50; 1003 big blind, calls bob's steal, checks, folds to his c-bet.
#: bob: 1001 small blind, folds to dave's steal; 1002 button, calls alice's raise, calls her c-bet and
#: the turn, folds the river; 1003 cutoff, steals, c-bets, wins. An older run's row must not be read.
PLAYER_STATS = [
    ("run-2026-11-29", "pokerstars:alice", {
        "hands": 3, "walks": 0, "vpip_opp": 3, "vpip": 2, "pfr_opp": 3, "pfr": 1, "threebet_opp": 2, "threebet": 0,
        "fourbet_opp": 0, "fourbet": 0, "fold_to_3bet_opp": 0, "fold_to_3bet": 0, "fold_to_4bet_opp": 0,
        "fold_to_4bet": 0, "steal_opp": 1, "steal": 1, "fold_to_steal_opp": 1, "fold_to_steal": 0,
        "cbet_opp": 1, "cbet": 1, "fold_to_cbet_opp": 1, "fold_to_cbet": 1, "flop_check_raise_opp": 1,
        "flop_check_raise": 0, "post_decisions": 5, "post_aggr": 3, "post_calls": 0, "post_folds": 1,
        "saw_flop": 2, "wtsd": 0, "wsd": 0, "wwsf": 1, "net_cbb": 1900, "allin_adj_net_cbb": 1900,
        "allin_hands_adjusted": 0}),
    ("run-2026-11-29", "pokerstars:bob", {
        "hands": 3, "walks": 0, "vpip_opp": 3, "vpip": 2, "pfr_opp": 3, "pfr": 1, "threebet_opp": 2, "threebet": 0,
        "fourbet_opp": 0, "fourbet": 0, "fold_to_3bet_opp": 0, "fold_to_3bet": 0, "fold_to_4bet_opp": 0,
        "fold_to_4bet": 0, "steal_opp": 1, "steal": 1, "fold_to_steal_opp": 1, "fold_to_steal": 1,
        "cbet_opp": 1, "cbet": 1, "fold_to_cbet_opp": 1, "fold_to_cbet": 0, "flop_check_raise_opp": 0,
        "flop_check_raise": 0, "post_decisions": 4, "post_aggr": 1, "post_calls": 2, "post_folds": 1,
        "saw_flop": 2, "wtsd": 0, "wsd": 0, "wwsf": 1, "net_cbb": -1850, "allin_adj_net_cbb": -1850,
        "allin_hands_adjusted": 0}),
    ("run-2026-11-28", "pokerstars:alice", {"hands": 99, "vpip_opp": 99, "vpip": 99}),
]
#: hands together per pair in the latest run's pair_stats (both orders are stored)
PAIR_TOGETHER = [("alice", "bob", 3), ("alice", "carol", 3), ("alice", "dave", 3)]


def write_hand_file(folder: Path) -> tuple[Path, str, list[tuple[int, int]]]:
    """Write the hand histories; return the file, its sha256 and each hand's (offset, length)."""
    path = folder / "Alcor-2026-11-28.txt"
    spans: list[tuple[int, int]] = []
    data = b""
    for text in HAND_TEXTS:
        raw = text.encode("utf-8")
        spans.append((len(data), len(raw)))
        data += raw + b"\n\n"
    path.write_bytes(data)
    return path, hashlib.sha256(data).hexdigest(), spans


def _insert(con: duckdb.DuckDBPyConnection, table: str, row: dict[str, object]) -> None:
    """Insert the values for the columns the table has (the shared schema grows while we work)."""
    have = {r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ?", [table]).fetchall()}
    cols = [c for c in row if c in have]
    con.execute(
        f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})", [row[c] for c in cols]
    )


def build_warehouse(db_path: Path, data_dir: Path) -> Path:
    """Create a warehouse at db_path from the three hands plus flags/violations/states/runs."""
    data_dir.mkdir(parents=True, exist_ok=True)
    src, sha, spans = write_hand_file(data_dir)
    con = duckdb.connect(str(db_path))
    try:
        con.execute(schema_sql())
        con.execute(EXTRA_DDL)
        for (hand_id, acts), (offset, length) in zip(ACTIONS.items(), spans, strict=True):
            no = hand_id.split(":")[1]
            con.execute(
                "INSERT INTO hands (hand_id, site, site_hand_no, format, variant, betting, game_type,"
                " tournament_id, tournament_level, table_name, max_seats, button_seat, sb, bb, ante, bb_ante,"
                " straddle, currency, unit_scale, started_at, hand_date, hero, hole_cards_mode, site_total_pot,"
                " site_rake, site_fees, cancelled, n_players, source_file, file_sha256, byte_offset, byte_length)"
                " VALUES (?, 'pokerstars', ?, 'pokerstars', 'holdem', 'NL', 'cash', NULL, NULL,"
                " 'Alcor', 6, ?, 50, 100, 0, 0, 0, 'USD', 100, ?, CAST(? AS TIMESTAMP)::DATE, NULL,"
                " 'operator', ?, ?, 0, false, 4, ?, ?, ?, ?)",
                [hand_id, no, BUTTON[hand_id], STARTED[hand_id], STARTED[hand_id], TOTAL_POT[hand_id],
                 RAKE[hand_id], str(src), sha, offset, length],
            )
            for i, (player, stack) in enumerate(zip(PLAYERS, STACKS[hand_id], strict=True)):
                _insert(con, "seats", {"hand_id": hand_id, "seat_no": i + 1, "player": player, "stack": stack,
                                       "sitting_out": False})
            for seq, street, player, kind, amount, raise_to, contrib in acts:
                con.execute(
                    "INSERT INTO actions (hand_id, seq, street, player, kind, amount, raise_to, all_in, contribution)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, false, ?)",
                    [hand_id, seq, street, player, kind, amount, raise_to, contrib],
                )
            for player, cards in HOLE[hand_id].items():
                _insert(con, "hole_cards", {"hand_id": hand_id, "player": player, "cards": cards,
                                            "provenance": "operator"})
            con.execute("INSERT INTO boards (hand_id, board_no, cards) VALUES (?, 1, ?)", [hand_id, BOARDS[hand_id]])
            winner, amount = AWARDS[hand_id]
            _insert(con, "awards", {"hand_id": hand_id, "player": winner, "amount": amount, "pot_no": 0, "board_no": 1})
            contributed = sum(a[6] for a in acts)
            recon = {
                "hand_id": hand_id, "status": "ok", "contributed": contributed, "awarded": amount,
                "rake": RAKE[hand_id], "rake_implied": False, "fees": 0,
                "diff_awards": amount + RAKE[hand_id] - contributed,
                "diff_total_pot": contributed - TOTAL_POT[hand_id], "overdrawn": 0,
            }
            _insert(con, "reconciliation", recon)
        con.execute(
            "INSERT INTO raw_files (sha256, path, size_bytes, format, encoding, hands, new_hands, quarantined,"
            " ingested_at, partition_key) VALUES (?, ?, ?, 'pokerstars', 'utf-8', 3, 3, 0,"
            " TIMESTAMP '2026-11-29 03:00:00', '2026-11-29')",
            [sha, str(src), src.stat().st_size],
        )
        con.execute(
            "INSERT INTO quarantine (file_sha256, source_file, byte_offset, format, reason, category, raw_text,"
            " quarantined_at) VALUES (?, ?, 9999, 'pokerstars', 'truncated hand', 'unreadable',"
            " 'PokerStars Hand #1004: ...',"
            " TIMESTAMP '2026-11-29 03:00:00')",
            [sha, str(src)],
        )
        for f in FLAGS:
            con.execute(
                "INSERT INTO flags VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, TIMESTAMP '2026-11-29 03:10:00',"
                " TIMESTAMP '2026-11-29 01:00:00', TIMESTAMP '2026-11-29 01:04:00', NULL)",  # as before 1.11
                list(f),
            )
        # violations and action_states from the real rule checker (hand 1003: bob raises to $1.50
        # where the minimum raise-to is $2.00, BB $1 + a $1 raise: the test names it)
        for batch in check_batches([list(load_hands(con))]):
            write_results(con, batch, "run-2026-11-29")
        # one house decision typed in the checker's shape, citing the CEP-2023 seed as the checker does
        con.execute(
            "INSERT INTO violations VALUES ('pokerstars:1002', 3, 'UNDERCALL.FULL_CALL', 'CEP-2023', 'info', true,"
            " 'accept the call|require the full amount', 'call $3.00', 'call $3.00', ?, 'run-2026-11-29',"
            " '2026.1', TIMESTAMP '2026-11-29 03:05:00')",
            ["Floor discretion example (house decision)." + load_profile("CEP-2023").cite("UNDERCALL.FULL_CALL")],
        )
        checks = [
            {"name": "parse_rate", "passed": True, "severity": "error", "detail": "3/4 hands parsed (75.0%)"},
            {"name": "chip_conservation", "passed": True, "severity": "error", "detail": "0 mismatches"},
            {"name": "rule_errors", "passed": False, "severity": "warn", "detail": "1 high-severity finding"},
        ]
        con.execute(RUN_REPORTS_DDL)
        for run_id, started, part, hands, quarantined, violations, run_checks in (
            ("run-2026-11-28", "2026-11-28 03:00:00", "2026-11-27", 0, 0, {},
             [{"name": "parse_rate", "passed": True, "severity": "error", "detail": "no hands"}]),
            ("run-2026-11-29", "2026-11-29 03:00:00", "2026-11-28", 3, 1,
             {"by_rule": {"RAISE.MIN": 1, "UNDERCALL.FULL_CALL": 1}}, checks),
        ):
            report = {"run_id": run_id, "hands": hands, "checks": run_checks}
            con.execute(
                "INSERT INTO run_reports VALUES (?, CAST(? AS TIMESTAMP), CAST(? AS TIMESTAMP) + INTERVAL 5 MINUTE,"
                " ?, ?, ?, ?, 0, ?, ?, '[]', ?, ?)",
                [run_id, started, started, json.dumps([part]), hands, hands, quarantined, json.dumps(violations),
                 json.dumps({"new": 2, "updated": 0}), json.dumps(run_checks), json.dumps(report)],
            )
        con.execute("INSERT INTO detector_runs (run_id, started_at, finished_at, mode) VALUES"
                    " ('run-2026-11-28', TIMESTAMP '2026-11-28 03:10:00', TIMESTAMP '2026-11-28 03:11:00', 'operator'),"
                    " ('run-2026-11-29', TIMESTAMP '2026-11-29 03:10:00', TIMESTAMP '2026-11-29 03:11:00', 'operator')")
        for run_id, player, counts in PLAYER_STATS:
            _insert(con, "player_stats", {"run_id": run_id, "hand_date": "2026-11-29", "player": player, **counts})
        for a, b, together in PAIR_TOGETHER:
            for x, y in ((a, b), (b, a)):
                _insert(con, "pair_stats", {"run_id": "run-2026-11-29", "hand_date": "2026-11-29",
                                            "player_a": f"pokerstars:{x}", "player_b": f"pokerstars:{y}",
                                            "hands_together": together, "confrontations": 1, "hu_confrontations": 1})
        build_summaries(con)  # as the pipeline does right before publishing
    finally:
        con.close()
    return db_path
