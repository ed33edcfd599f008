"""Per-hand features as DuckDB temp tables: who was dealt in, what they put in and won, every
decision with its spot (street, facing a bet, position, own strength), and each player's
strength per street.

Why DuckDB SQL: the warehouse is DuckDB and these are joins and window functions over millions
of rows; nothing here loops in Python except the card evaluator over distinct (cards, board).

Modes: ``operator`` uses every hole card the warehouse holds; ``player`` uses only cards a
player at the table could see (dealt to the hero, or shown / mucked face up), so strength is
unknown (bucket -1) for everyone else and card-conditioned signals degrade to unconditioned ones.

Players are keyed ``site:name`` from here on (hp, dec, strength, the statistics tables): a name
is only an identity within one site ("Hero" on two sites, or the same screen name on two
networks, are different people). Flags show the plain name; ``run.plain_name`` strips the site.
"""

from __future__ import annotations

import duckdb
import polars as pl

from tests.detectors.frozen.cards import POST_BUCKETS, evaluate_many, preflop_table

MODES = ("operator", "player")
STREETS = ("preflop", "flop", "turn", "river")


def build(con: duckdb.DuckDBPyConnection, mode: str = "operator", since: str | None = None,
          until: str | None = None) -> None:
    """Create temp tables hh, hp, strength, dec for the hands in [since, until] (dates)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    where = ["NOT h.cancelled"]
    params: list[str] = []
    if since:
        where.append("h.hand_date >= CAST(? AS DATE)")
        params.append(since)
    if until:
        where.append("h.hand_date <= CAST(? AS DATE)")
        params.append(until)
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE hh AS
        SELECT h.hand_id, h.site, h.started_at,
               coalesce(h.hand_date, CAST(h.started_at AS DATE), DATE '1970-01-01') AS hand_date,
               h.table_name, h.variant, greatest(h.bb, 1) AS bb, h.button_seat,
               coalesce(b.cards, '') AS board
        FROM hands h LEFT JOIN boards b ON b.hand_id = h.hand_id AND b.board_no = 1
        WHERE {" AND ".join(where)}""",
        params,
    )
    _cards(con, mode)
    _hand_players(con)
    _strength(con)
    _decisions(con)


def _cards(con: duckdb.DuckDBPyConnection, mode: str) -> None:
    prov = "('dealt', 'shown', 'operator')" if mode == "operator" else "('dealt', 'shown')"
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE cards AS
        SELECT hand_id, player, any_value(cards) AS cards FROM (
            SELECT c.hand_id, hh.site || ':' || c.player AS player, c.cards FROM hole_cards c JOIN hh USING (hand_id)
            WHERE c.provenance IN {prov} AND length(c.cards) = 4 AND c.cards NOT LIKE '%?%'
            UNION ALL
            SELECT a.hand_id, hh.site || ':' || a.player, a.cards FROM actions a JOIN hh USING (hand_id)
            WHERE a.kind IN ('show', 'muck') AND length(a.cards) = 4 AND a.cards NOT LIKE '%?%'
        ) GROUP BY ALL"""
    )


def _hand_players(con: duckdb.DuckDBPyConnection) -> None:
    """hp: one row per (hand, dealt-in player) with money, preflop flags and how far they got."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE hp AS
        WITH dealt AS (
            SELECT s.hand_id, hh.site || ':' || s.player AS player, s.seat_no, s.stack, hh.button_seat,
                   hh.bb, hh.board,
                   hh.hand_date, hh.started_at, hh.table_name,
                   row_number() OVER (PARTITION BY s.hand_id
                        ORDER BY (s.seat_no - coalesce(hh.button_seat, 0) + 1000 - 1) % 1000) - 1 AS pos,
                   count(*) OVER (PARTITION BY s.hand_id) AS n_dealt
            FROM seats s JOIN hh USING (hand_id) WHERE NOT s.sitting_out
        ), act AS (
            SELECT a.hand_id, hh.site || ':' || a.player AS player,
                sum(a.contribution) AS put_in,
                bool_or(a.street = 'preflop' AND a.kind IN ('call', 'bet', 'raise')) AS vpip,
                bool_or(a.street = 'preflop' AND a.kind IN ('bet', 'raise')) AS pfr,
                min(a.seq) FILTER (WHERE a.kind = 'fold') AS fold_seq,
                any_value(a.street) FILTER (WHERE a.kind = 'fold') AS fold_street,
                count(*) FILTER (WHERE a.street IN ('flop', 'turn', 'river') AND a.kind IN ('bet', 'raise'))
                    AS post_aggr,
                count(*) FILTER (WHERE a.street IN ('flop', 'turn', 'river') AND a.kind = 'call')
                    AS post_call,
                count(*) FILTER (WHERE a.street IN ('flop', 'turn', 'river') AND a.kind IN ('check', 'fold'))
                    AS post_passive,
                bool_or(a.all_in) AS all_in
            FROM actions a JOIN hh USING (hand_id) GROUP BY ALL
        ), won AS (
            SELECT w.hand_id, hh.site || ':' || w.player AS player, sum(w.amount) AS won
            FROM awards w JOIN hh USING (hand_id) GROUP BY ALL
        )
        SELECT d.hand_id, d.player, d.seat_no, d.stack, d.bb, d.hand_date, d.started_at, d.table_name,
               d.n_dealt, d.pos,
               CASE WHEN d.button_seat IS NULL THEN 'unk' WHEN d.pos < 2 THEN 'blind'
                    WHEN d.pos >= d.n_dealt - 2 THEN 'late' ELSE 'early' END AS pos_group,
               coalesce(a.put_in, 0) AS put_in, coalesce(w.won, 0) AS won,
               coalesce(w.won, 0) - coalesce(a.put_in, 0) AS net,
               coalesce(a.vpip, FALSE) AS vpip, coalesce(a.pfr, FALSE) AS pfr,
               a.fold_seq, a.fold_street,
               coalesce(a.post_aggr, 0) AS post_aggr, coalesce(a.post_call, 0) AS post_call,
               coalesce(a.post_passive, 0) AS post_passive, coalesce(a.all_in, FALSE) AS all_in,
               length(d.board) >= 6 AND coalesce(a.fold_street, 'x') <> 'preflop' AS saw_flop,
               c.cards
        FROM dealt d LEFT JOIN act a USING (hand_id, player) LEFT JOIN won w USING (hand_id, player)
        LEFT JOIN cards c USING (hand_id, player)"""
    )
    con.execute(
        """CREATE OR REPLACE TEMP TABLE hp AS
        SELECT hp.*, hp.fold_seq IS NULL AND n_live_end >= 2 AND hp.saw_flop AS wtsd, n_live_end
        FROM hp JOIN (SELECT hand_id, count(*) FILTER (WHERE fold_seq IS NULL) AS n_live_end
                      FROM hp GROUP BY hand_id) USING (hand_id)"""
    )


def _strength(con: duckdb.DuckDBPyConnection) -> None:
    """strength: (hand, player, street) → bucket 0..4 and, postflop, the exact rank (lower wins)."""
    pre = preflop_table()
    con.register("_preflop", pre.to_arrow())
    con.execute(
        """CREATE OR REPLACE TEMP TABLE strength AS
        SELECT hp.hand_id, hp.player, 'preflop' AS street, p.bucket, NULL::INTEGER AS rank, p.chen
        FROM hp JOIN _preflop p ON p.r1 = substr(hp.cards, 1, 1) AND p.r2 = substr(hp.cards, 3, 1)
             AND p.suited = (substr(hp.cards, 2, 1) = substr(hp.cards, 4, 1))
        WHERE hp.cards IS NOT NULL"""
    )
    con.unregister("_preflop")
    # postflop ranks per street reached, and 'final' (the whole board dealt, also for players who
    # folded earlier: who was ahead, for equity-adjusted transfers); in chunks of ~100k hands so
    # memory stays flat whatever the period
    bucket = "CASE " + " ".join(f"WHEN rank <= {b} THEN {k}" for b, k in POST_BUCKETS) + " ELSE 0 END"
    row = con.execute("SELECT count(*) FROM hh").fetchone()
    chunks = max(1, int(row[0] if row else 0) // 100_000)
    for k in range(chunks):
        part = f"hash(hp.hand_id) % {chunks} = {k}"
        need = con.execute(
            f"""SELECT hp.hand_id, hp.player, s.street, hp.cards, substr(hh.board, 1, s.n * 2) AS board
            FROM hp JOIN hh USING (hand_id)
            CROSS JOIN (VALUES ('flop', 3), ('turn', 4), ('river', 5)) s(street, n)
            WHERE hp.cards IS NOT NULL AND length(hh.board) >= s.n * 2 AND hp.saw_flop AND {part}
              AND (hp.fold_street IS NULL OR list_position(['flop', 'turn', 'river'], hp.fold_street)
                   >= list_position(['flop', 'turn', 'river'], s.street))
            UNION ALL
            SELECT hp.hand_id, hp.player, 'final', hp.cards, hh.board FROM hp JOIN hh USING (hand_id)
            WHERE hp.cards IS NOT NULL AND length(hh.board) >= 6 AND (hp.vpip OR hp.saw_flop) AND {part}"""
        ).pl()
        ranks = evaluate_many(zip(need["cards"].to_list(), need["board"].to_list(), strict=True))
        post = need.select("hand_id", "player", "street").with_columns(pl.Series("rank", ranks, dtype=pl.Int32))
        con.register("_post", post.filter(pl.col("rank").is_not_null()).to_arrow())
        con.execute(f"INSERT INTO strength SELECT hand_id, player, street, {bucket}, rank, NULL FROM _post")
        con.unregister("_post")


def _decisions(con: duckdb.DuckDBPyConnection) -> None:
    """dec: every fold/check/call/bet/raise with to_call, last aggressor, live players, strength."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE dec AS
        WITH a AS (
            SELECT a.hand_id, a.seq, a.street, hh.site || ':' || a.player AS player, a.kind, a.contribution,
                CASE WHEN a.kind IN ('post_sb', 'post_bb', 'post_straddle', 'call', 'bet', 'raise')
                     THEN a.contribution ELSE 0 END AS live_in
            FROM actions a JOIN hh USING (hand_id)
            WHERE a.street IN ('preflop', 'flop', 'turn', 'river')
        ), b AS (
            SELECT *, sum(live_in) OVER (PARTITION BY hand_id, street, player ORDER BY seq
                                         ROWS UNBOUNDED PRECEDING) AS cum_after
            FROM a
        ), c AS (
            SELECT *,
                coalesce(max(cum_after) OVER w_prev, 0) AS level_before,
                cum_after - live_in AS own_before,
                last_value(CASE WHEN kind IN ('bet', 'raise') THEN player END IGNORE NULLS) OVER w_prev
                    AS last_aggr,
                coalesce(sum(CASE WHEN kind IN ('bet', 'raise') THEN 1 ELSE 0 END) OVER w_prev, 0)
                    AS raises_before,
                coalesce(sum(CASE WHEN kind = 'fold' THEN 1 ELSE 0 END) OVER (
                    PARTITION BY hand_id ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
                    AS folds_before,
                coalesce(sum(live_in) OVER (PARTITION BY hand_id ORDER BY seq
                    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS pot_before
            FROM b
            WINDOW w_prev AS (PARTITION BY hand_id, street ORDER BY seq
                              ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
        )
        SELECT c.hand_id, c.seq, c.street, c.player, c.kind, c.contribution,
               greatest(c.level_before - c.own_before, 0) AS to_call,
               c.level_before > c.own_before AS facing,
               c.kind IN ('bet', 'raise') AS aggr, c.kind = 'fold' AS fold, c.kind = 'call' AS calls,
               c.last_aggr, c.raises_before, hp.n_dealt - c.folds_before AS n_live, c.pot_before,
               hp.pos_group, hp.bb, coalesce(s.bucket, -1) AS bucket, s.rank, s.chen
        FROM c JOIN hp USING (hand_id, player)
        LEFT JOIN strength s ON s.hand_id = c.hand_id AND s.player = c.player AND s.street = c.street
        WHERE c.kind IN ('fold', 'check', 'call', 'bet', 'raise')"""
    )
