"""Dashboard page render times on a large synthetic warehouse (default 1,000,000 hands).

Usage: .venv/bin/python bench/dashboard.py [--hands N] [--runs R] [--db PATH]
Rows are generated in bulk with DuckDB SQL (no Python loop per hand), then the dashboard's
``dash_*`` summaries are built exactly as the pipeline's publish step does
(``dashboards.precompute.refresh_summaries``); each page is rendered
through Streamlit's AppTest R times with the data cache cleared (cold) and R times warm, and
p50/p95 wall times are printed. Not a test: run by hand, it takes a minute or two.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import duckdb  # noqa: E402
import streamlit as st  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from dashboards import data, evidence  # noqa: E402
from dashboards.precompute import refresh_summaries  # noqa: E402
from dashboards.review_store import User  # noqa: E402
from pipelines.steps import RUN_REPORTS_DDL  # noqa: E402
from tests.dashboards.warehouse_fixture import EXTRA_DDL  # noqa: E402
from warehouse.db import schema_sql  # noqa: E402

APP = str(ROOT / "dashboards" / "app.py")


def generate(db: Path, hands: int) -> None:
    """Bulk synthetic rows: 6 seats and 9 actions per hand, 1 award, flags and violations."""
    con = duckdb.connect(str(db))
    con.execute(schema_sql())
    con.execute(EXTRA_DDL)
    con.execute(RUN_REPORTS_DDL)
    con.execute(f"CREATE TEMP TABLE ids AS SELECT range AS i FROM range({hands})")
    con.execute("""
        INSERT INTO hands (hand_id, site, site_hand_no, format, variant, betting, game_type, table_name, max_seats,
            button_seat, sb, bb, ante, bb_ante, straddle, currency, unit_scale, started_at, hand_date,
            hole_cards_mode, site_total_pot, site_rake, site_fees, cancelled, n_players, source_file, file_sha256,
            byte_offset, byte_length)
        SELECT 'synth:' || i, 'synth', i::VARCHAR, 'synthetic', 'holdem', 'NL', 'cash', 'T' || (i % 2000), 6, 1,
            50, 100, 0, 0, 0, 'USD', 100, TIMESTAMP '2026-11-01' + to_seconds(i * 2), NULL, 'operator',
            250, 0, 0, false, 6, 'synthetic.txt', repeat('0', 64), i * 500, 500
        FROM ids""")
    con.execute("UPDATE hands SET hand_date = CAST(started_at AS DATE)")
    con.execute("""
        INSERT INTO seats (hand_id, seat_no, player, stack, sitting_out)
        SELECT 'synth:' || i, s + 1, 'p' || (((i // 200) * 6 + s) % 20000), 10000, false
        FROM ids, range(6) t(s)""")
    con.execute("""
        INSERT INTO actions (hand_id, seq, street, player, kind, amount, raise_to, all_in, contribution)
        SELECT 'synth:' || i, a.seq, 'preflop', 'p' || (((i // 200) * 6 + a.seat) % 20000), a.kind, a.amount,
               a.raise_to, false, a.contribution
        FROM ids, (VALUES (0, 0, 'post_sb', 50, NULL, 50), (1, 1, 'post_bb', 100, NULL, 100),
                          (2, 2, 'fold', NULL, NULL, 0), (3, 3, 'fold', NULL, NULL, 0), (4, 4, 'fold', NULL, NULL, 0),
                          (5, 5, 'raise', 200, 300, 300), (6, 0, 'fold', NULL, NULL, 0),
                          (7, 1, 'fold', NULL, NULL, 0), (8, 5, 'uncalled_return', 200, NULL, -200))
             a(seq, seat, kind, amount, raise_to, contribution)""")
    con.execute("""
        INSERT INTO awards (hand_id, player, amount, pot_no, board_no)
        SELECT 'synth:' || i, 'p' || (((i // 200) * 6 + 5) % 20000), 250, 0, 1 FROM ids""")
    con.execute(f"""
        INSERT INTO flags SELECT 'F' || f, 'run-1',
            (['chip_dumping', 'soft_play', 'squeeze', 'collusion_ring'])[f % 4 + 1],
            ['p' || (f * 6 % 20000), 'p' || ((f * 6 + 1) % 20000)], (f * 7919 % 1000) / 1000.0,
            (['low', 'medium', 'high'])[f % 3 + 1], 'operator', 'synthetic flag',
            list_transform(range(10), x -> 'synth:' || ((f * 200 + x) % {hands})),
            '{{"hands_together": 200, "pair_score": 0.9,'
            ' "z_checkdown": {{"percentile": 99.0, "population_median": 0.0, "value": 5.1}}}}',
            'benign', 'overturn', 'bench-1', '{{}}', TIMESTAMP '2026-11-29', TIMESTAMP '2026-11-01',
            TIMESTAMP '2026-11-02'
        FROM range(5000) t(f)""")
    con.execute(f"""
        INSERT INTO violations SELECT 'synth:' || (v * 37 % {hands}), 5,
            (['RAISE.MIN', 'BET.STRING', 'ACT.OOT'])[v % 3 + 1],
            'online-standard', 'error', v % 5 = 0, NULL, 'x', 'y', 'synthetic finding [seed.txt] «passage»', 'run-1',
            '2026.1', TIMESTAMP '2026-11-29'
        FROM range(20000) t(v)""")
    con.execute("CHECKPOINT")
    con.close()


def time_page(page: str | None, state: dict[str, object], setup: list[tuple[str, str, str]], runs: int,
              cold: bool) -> list[float]:
    out = []
    for _ in range(runs):
        if cold:  # a reviewer's first view after the nightly publish: no cached data, no open handle
            st.cache_data.clear()
            data.close_all()
        at = AppTest.from_file(APP, default_timeout=120)
        for k, v in state.items():
            at.session_state[k] = v
        t0 = time.perf_counter()
        at.run()
        if page:
            at.switch_page(f"app_pages/{page}.py").run()
        for kind, key, value in setup:
            getattr(at, kind)(key=key).set_value(value).run()
        out.append(time.perf_counter() - t0)
        assert not at.exception, at.exception
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--db", help="reuse (or create) this warehouse file")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="floorman-bench-"))
    db = Path(args.db) if args.db else work / "bench.duckdb"
    if not db.exists():
        t0 = time.perf_counter()
        generate(db, args.hands)
        print(f"generated {args.hands:,} hands in {time.perf_counter() - t0:.1f} s -> {db} "
              f"({db.stat().st_size / 2**20:.0f} MiB)")
        t0 = time.perf_counter()
        refresh_summaries(db)
        print(f"dash_* summaries (the publish step's work) in {time.perf_counter() - t0:.1f} s "
              f"({db.stat().st_size / 2**20:.0f} MiB)")
    os.environ.update({"FLOORMAN_DB": str(db), "FLOORMAN_REVIEW_DB": str(work / "review.sqlite"),
                       "FLOORMAN_USERS": str(work / "users.json")})
    user: dict[str, object] = {"user": User("bench", "reviewer")}
    pages: list[tuple[str, str | None, dict[str, object], list[tuple[str, str, str]]]] = [
        ("queue", None, user, []),
        ("case", "case", {**user, "case_id": "F17"}, []),
        ("hand", "hand", {**user, "hand_id": "synth:123456"}, []),
        ("player", "player", user, [("text_input", "player_input", "p42")]),
        ("pair", "pair", user, [("text_input", "pair_a", "p42"), ("text_input", "pair_b", "p43")]),
        ("violations", "violations", user, []),
        ("runs", "runs", user, []),
    ]
    print(f"{'page':<12}{'cold p50':>10}{'cold p95':>10}{'warm p50':>10}{'warm p95':>10}   (seconds, {args.runs} runs)")
    for name, page, state, setup in pages:
        cold = time_page(page, state, setup, args.runs, cold=True)
        warm = time_page(page, state, setup, args.runs, cold=False)
        print(f"{name:<12}{statistics.median(cold):>10.3f}{pct(cold, 0.95):>10.3f}"
              f"{statistics.median(warm):>10.3f}{pct(warm, 0.95):>10.3f}")
    t0 = time.perf_counter()
    blob = evidence.build_bundle(db, "F17", allow_unverified=True)
    print(f"export F17 (raw text skipped: synthetic source): {time.perf_counter() - t0:.3f} s, {len(blob):,} bytes")


if __name__ == "__main__":
    main()
