"""Per-hand features: who was dealt in, what they put in and won, every decision with its spot
(street, facing a bet, position, own strength), and each player's strength per street.

Why DuckDB SQL: the warehouse is DuckDB and these are joins and window functions over millions
of rows; nothing here loops in Python except the card evaluator over the (cards, board) pairs.

Why integer keys: the work is done on internal temp tables keyed by a hand number ``hk`` and a
player number ``pk`` (k_hand, k_player, k_act, k_cards, k_hp, k_strength, k_dec), built once from
the warehouse's string ids; joins, window partitions and group-bys on integers are several times
cheaper in time and memory than on ``site:name`` and ``site:number`` strings. The tables other
code reads (hh, cards, hp, strength, dec) are temp views over them with the string ids back.

Modes: ``operator`` uses every hole card the warehouse holds; ``player`` uses only cards a
player at the table could see (dealt to the hero, or shown / mucked face up), so strength is
unknown (bucket -1) for everyone else and card-conditioned signals degrade to unconditioned ones.

Players are keyed ``site:name`` from here on (hp, dec, strength, the statistics tables): a name
is only an identity within one site ("Hero" on two sites, or the same screen name on two
networks, are different people). Flags show the plain name; ``run.plain_name`` strips the site.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import duckdb
import polars as pl

from detectors.cards import POST_BUCKETS, evaluate_frame, preflop_table
from detectors.identity import anonymous_sql
from parsers.model import NON_FLOP_VARIANTS

MODES = ("operator", "player")
STREETS = ("preflop", "flop", "turn", "river")


def replace_view(con: duckdb.DuckDBPyConnection, name: str, sql: str) -> None:
    """(Re)create temp view ``name``; a temp table of that name from older code is dropped first."""
    for kind in ("VIEW", "TABLE"):
        with contextlib.suppress(duckdb.CatalogException):  # it is the other kind
            con.execute(f"DROP {kind} IF EXISTS temp.main.{name}")
    con.execute(f"CREATE TEMP VIEW {name} AS {sql}")


#: the string-keyed views other code reads over the integer-keyed tables (``create_views``)
VIEWS = {
    "hh": "SELECT hand_id, site, started_at, hand_date, table_name, variant, bb, button_seat, board FROM k_hand",
    "cards": "SELECT h.hand_id, p.player, c.cards FROM k_cards c JOIN k_hand h USING (hk) JOIN k_player p USING (pk)",
    "hp": """SELECT h.hand_id, p.player, k.seat_no, k.stack, k.bb, k.hand_date, h.started_at, h.table_name,
               k.n_dealt, k.pos, k.pos_group, k.put_in, k.won, k.net, k.vpip, k.pfr, k.fold_seq, k.fold_street,
               k.post_aggr, k.post_call, k.post_passive, k.all_in, k.saw_flop, k.cards, k.wtsd, k.n_live_end
        FROM k_hp k JOIN k_hand h USING (hk) JOIN k_player p USING (pk)""",
    "strength": "SELECT h.hand_id, p.player, s.street, s.bucket, s.rank, s.chen "
                "FROM k_strength s JOIN k_hand h USING (hk) JOIN k_player p USING (pk)",
    "dec": """SELECT h.hand_id, d.seq, d.street, p.player, d.kind, d.contribution,
               CAST(d.to_call AS HUGEINT) AS to_call, d.facing, d.aggr, d.fold, d.calls, l.player AS last_aggr,
               CAST(d.raises_before AS HUGEINT) AS raises_before,
               CAST(d.n_live AS HUGEINT) AS n_live, CAST(d.pot_before AS HUGEINT) AS pot_before, d.pos_group, d.bb,
               d.bucket, d.rank, d.chen
        FROM k_dec d JOIN k_hand h USING (hk) JOIN k_player p USING (pk)
        LEFT JOIN k_player l ON l.pk = d.last_aggr""",
}


def create_views(con: duckdb.DuckDBPyConnection, names: Sequence[str] = tuple(VIEWS)) -> None:
    """The views of ``VIEWS`` over k_ tables built elsewhere (``detectors.partial`` loads them from
    the partitions' files instead of building them here)."""
    for name in names:
        replace_view(con, name, VIEWS[name])


def detected_hands(alias: str = "h") -> str:
    """The hands the detectors read (``hands`` rows aliased ``alias``), before any date window."""
    non_flop = ", ".join(f"'{v}'" for v in sorted(NON_FLOP_VARIANTS))
    return f"NOT {alias}.cancelled AND {alias}.variant NOT IN ({non_flop})"


def window(since: str | None = None, until: str | None = None) -> tuple[str, list[str]]:
    """The WHERE clause (over ``hands h``) and its parameters for the hands a run reads."""
    # the detectors model flop games only: stud and draw hands (rules.money checks their money)
    # would count as hands dealt with no preflop entry in VPIP/PFR and in co-presence and chip flow
    where = [detected_hands()]
    params: list[str] = []
    if since:
        where.append("h.hand_date >= CAST(? AS DATE)")
        params.append(since)
    if until:
        where.append("h.hand_date <= CAST(? AS DATE)")
        params.append(until)
    return " AND ".join(where), params


def build(con: duckdb.DuckDBPyConnection, mode: str = "operator", since: str | None = None,
          until: str | None = None) -> None:
    """Create the feature tables (views hh, cards, hp, strength, dec) for hands in [since, until]."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    where, params = window(since, until)
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE k_hand AS
        SELECT CAST(row_number() OVER (ORDER BY h.hand_id) AS INTEGER) AS hk, h.hand_id, h.site, h.started_at,
               coalesce(h.hand_date, CAST(h.started_at AS DATE), DATE '1970-01-01') AS hand_date,
               h.table_name, h.variant, greatest(h.bb, 1) AS bb, h.button_seat,
               coalesce(b.cards, '') AS board,
               CAST(dense_rank() OVER (ORDER BY h.table_name) AS INTEGER) AS tk
        FROM hands h LEFT JOIN boards b ON b.hand_id = h.hand_id AND b.board_no = 1
        WHERE {where}""",
        params,
    )
    replace_view(con, "hh", VIEWS["hh"])
    _keys(con)
    _cards(con, mode)
    _hand_players(con)
    _strength(con)
    _decisions(con)


def _keys(con: duckdb.DuckDBPyConnection) -> None:
    """k_player (pk, site, name, player) and k_act: the window's actions with integer keys."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_act AS
        SELECT h.hk, h.site, a.seq, a.street, a.player AS name, a.kind, a.contribution, a.all_in, a.cards
        FROM actions a JOIN k_hand h USING (hand_id)"""
    )
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE k_player AS
        SELECT CAST(row_number() OVER (ORDER BY site, name) AS INTEGER) AS pk, site, name,
               site || ':' || name AS player, {anonymous_sql('name')} AS anon FROM (
            SELECT DISTINCT site, name FROM (
                SELECT site, name FROM k_act
                UNION ALL SELECT h.site, s.player FROM seats s JOIN k_hand h USING (hand_id)
                UNION ALL SELECT h.site, w.player FROM awards w JOIN k_hand h USING (hand_id)
                UNION ALL SELECT h.site, c.player FROM hole_cards c JOIN k_hand h USING (hand_id)))"""
    )
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_act AS
        SELECT a.hk, a.seq, a.street, p.pk, a.kind, a.contribution, a.all_in, a.cards
        FROM k_act a JOIN k_player p ON p.site = a.site AND p.name = a.name"""
    )


def _cards(con: duckdb.DuckDBPyConnection, mode: str) -> None:
    prov = "('dealt', 'shown', 'operator')" if mode == "operator" else "('dealt', 'shown')"
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE k_cards AS
        SELECT hk, pk, any_value(cards) AS cards FROM (
            SELECT h.hk, p.pk, c.cards FROM hole_cards c JOIN k_hand h USING (hand_id)
            JOIN k_player p ON p.site = h.site AND p.name = c.player
            WHERE c.provenance IN {prov} AND length(c.cards) = 4 AND c.cards NOT LIKE '%?%'
            UNION ALL
            SELECT a.hk, a.pk, a.cards FROM k_act a
            WHERE a.kind IN ('show', 'muck') AND length(a.cards) = 4 AND a.cards NOT LIKE '%?%'
        ) GROUP BY ALL"""
    )
    replace_view(con, "cards", VIEWS["cards"])


def _hand_players(con: duckdb.DuckDBPyConnection) -> None:
    """k_hp / hp: one row per (hand, dealt-in player) with money, preflop flags and how far they got."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_hp AS
        WITH seated AS (
            -- the window sorts only these narrow rows; the hand's other columns are joined after
            SELECT h.hk, p.pk, s.seat_no, s.stack,
                   row_number() OVER (PARTITION BY h.hk
                        ORDER BY (s.seat_no - coalesce(h.button_seat, 0) + 1000 - 1) % 1000) - 1 AS pos,
                   count(*) OVER (PARTITION BY h.hk) AS n_dealt
            FROM seats s JOIN k_hand h USING (hand_id) JOIN k_player p ON p.site = h.site AND p.name = s.player
            WHERE NOT s.sitting_out
        ), dealt AS (
            SELECT d.*, h.button_seat, h.bb, h.board, h.hand_date, h.tk FROM seated d JOIN k_hand h USING (hk)
        ), act AS (
            SELECT a.hk, a.pk,
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
            FROM k_act a GROUP BY ALL
        ), won AS (
            SELECT h.hk, p.pk, sum(w.amount) AS won
            FROM awards w JOIN k_hand h USING (hand_id) JOIN k_player p ON p.site = h.site AND p.name = w.player
            GROUP BY ALL
        ), j AS (
            SELECT d.hk, d.pk, d.seat_no, d.stack, d.bb, d.hand_date, d.tk, d.board, d.n_dealt, d.pos,
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
            FROM dealt d LEFT JOIN act a USING (hk, pk) LEFT JOIN won w USING (hk, pk)
            LEFT JOIN k_cards c USING (hk, pk)
        ), live AS (
            -- players still in at the end, per hand: a group-by joined back, not a window over wide rows
            SELECT hk, count(*) FILTER (WHERE fold_seq IS NULL) AS n_live_end
            FROM j GROUP BY hk
        )
        SELECT j.*, l.n_live_end, j.fold_seq IS NULL AND l.n_live_end >= 2 AND j.saw_flop AS wtsd
        FROM j JOIN live l USING (hk)"""
    )
    replace_view(con, "hp", VIEWS["hp"])


def _strength(con: duckdb.DuckDBPyConnection) -> None:
    """k_strength / strength: (hand, player, street) → bucket 0..4 and, postflop, the exact rank
    (lower wins)."""
    pre = preflop_table()
    con.register("_preflop", pre.to_arrow())
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_strength AS
        SELECT hp.hk, hp.pk, 'preflop' AS street, p.bucket, NULL::INTEGER AS rank, p.chen
        FROM k_hp hp JOIN _preflop p ON p.r1 = substr(hp.cards, 1, 1) AND p.r2 = substr(hp.cards, 3, 1)
             AND p.suited = (substr(hp.cards, 2, 1) = substr(hp.cards, 4, 1))
        WHERE hp.cards IS NOT NULL"""
    )
    con.unregister("_preflop")
    # postflop ranks per street reached, and 'final' (the whole board dealt, also for players who
    # folded earlier: who was ahead, for equity-adjusted transfers); in chunks of ~200k hands so
    # memory stays flat whatever the period
    bucket = "CASE " + " ".join(f"WHEN rank <= {b} THEN {k}" for b, k in POST_BUCKETS) + " ELSE 0 END"
    row = con.execute("SELECT count(*) FROM k_hand").fetchone()
    chunks = max(1, int(row[0] if row else 0) // 200_000)
    for k in range(chunks):
        part = f"hp.hk % {chunks} = {k}"
        need = con.execute(
            f"""SELECT hp.hk, hp.pk, s.street, hp.cards, substr(hp.board, 1, s.n * 2) AS board
            FROM k_hp hp
            CROSS JOIN (VALUES ('flop', 3), ('turn', 4), ('river', 5)) s(street, n)
            WHERE hp.cards IS NOT NULL AND length(hp.board) >= s.n * 2 AND hp.saw_flop AND {part}
              AND (hp.fold_street IS NULL OR list_position(['flop', 'turn', 'river'], hp.fold_street)
                   >= list_position(['flop', 'turn', 'river'], s.street))
            UNION ALL
            SELECT hp.hk, hp.pk, 'final', hp.cards, hp.board FROM k_hp hp
            WHERE hp.cards IS NOT NULL AND length(hp.board) >= 6 AND (hp.vpip OR hp.saw_flop) AND {part}"""
        ).pl()
        post = need.select("hk", "pk", "street").with_columns(evaluate_frame(need["cards"], need["board"]))
        con.register("_post", post.filter(pl.col("rank").is_not_null()).to_arrow())
        con.execute(f"INSERT INTO k_strength SELECT hk, pk, street, {bucket}, rank, NULL FROM _post")
        con.unregister("_post")
    replace_view(con, "strength", VIEWS["strength"])


_DECISIONS = ("fold", "check", "call", "bet", "raise")


def _segment_excl(x: pl.Expr, start: pl.Expr) -> pl.Expr:
    """Running sum of ``x`` over the earlier rows of a segment (rows sorted, ``start`` marks a
    segment's first row): the whole column's running sum minus its value where the segment began."""
    before = x.cum_sum() - x
    return before - pl.when(start).then(before).forward_fill()


def _betting_scan(a: pl.DataFrame) -> pl.DataFrame:
    """Per action, what the table looked like just before it: the bet level and the actor's own
    money on this street, the last aggressor, raises and folds so far, the pot.

    Why polars scans instead of SQL window functions: the same figures as ``OVER (PARTITION BY
    hand, street ORDER BY seq ROWS ... 1 PRECEDING)``, but six framed windows cost DuckDB ~1.5 µs a
    row each; on rows sorted by (hand, seq) every one is a running sum or max over the whole column
    with a reset where a hand or street begins, a few vectorised passes."""
    c = pl.col
    first_of = (c("hk") != c("hk").shift(1)) | (c("st") != c("st").shift(1)) | (c("pk") != c("pk").shift(1))
    a = a.sort("hk", "st", "pk", "seq").with_columns(
        cum_after=_segment_excl(c("live_in"), first_of.fill_null(True)) + c("live_in"))
    new_hand = (c("hk") != c("hk").shift(1)).fill_null(True)
    new_street = (new_hand | (c("st") != c("st").shift(1))).fill_null(True)
    a = a.sort("hk", "seq").with_columns(g=new_street.cast(pl.Int64).cum_sum(),
                                          i=pl.int_range(pl.len(), dtype=pl.Int64))
    # running max per street: offset each street by g * m (m > every amount), so one running max
    # over the column never carries a value across a street's start
    lo, hi, groups = a.select(c("cum_after").min().fill_null(0).alias("lo"), c("cum_after").max().fill_null(0),
                              c("g").max().fill_null(0)).row(0)
    m = int(hi) + 1
    if (int(groups) + 1) * m < 2**62 and int(lo) >= 0:
        level = ((c("g") * m + c("cum_after")).cum_max().shift(1) - c("g") * m).clip(lower_bound=0)
    else:  # amounts too large (or negative) for the offset: the grouped form
        level = c("cum_after").cum_max().shift(1).over("g").fill_null(0)
    last_pos = pl.when("aggr").then(c("i")).forward_fill().shift(1)
    street_start = pl.when(new_street).then(c("i")).forward_fill()
    return a.with_columns(
        level_before=level,
        own_before=c("cum_after") - c("live_in"),
        last_aggr=pl.when(last_pos >= street_start).then(pl.when("aggr").then(c("pk")).forward_fill().shift(1)),
        raises_before=_segment_excl(c("aggr").cast(pl.Int64), new_street),
        folds_before=_segment_excl(c("fold").cast(pl.Int64), new_hand),
        pot_before=_segment_excl(c("live_in"), new_hand),
    ).drop("g", "i", "cum_after", "live_in", "aggr", "fold")


def _decisions(con: duckdb.DuckDBPyConnection) -> None:
    """k_dec / dec: every fold/check/call/bet/raise with to_call, last aggressor, live players,
    strength (k_dec also carries the hand's date for the per-day statistics). Counts and amounts are
    stored as INTEGER / BIGINT (the scan's own types), not HUGEINT: 16-byte columns in every
    decision row and in the pair-decision rows built from them; the dec view keeps HUGEINT."""
    a = con.execute(
        f"""SELECT hk, seq, CAST(list_position({list(STREETS)}, street) AS TINYINT) AS st, pk,
            CAST(coalesce(list_position({list(_DECISIONS)}, kind), 0) AS TINYINT) AS kc, contribution,
            kind IN ('bet', 'raise') AS aggr, kind = 'fold' AS fold,
            CASE WHEN kind IN ('post_sb', 'post_bb', 'post_straddle', 'call', 'bet', 'raise')
                 THEN contribution ELSE 0 END AS live_in
        FROM k_act WHERE street IN {STREETS}"""
    ).pl()
    scan = _betting_scan(a).filter(pl.col("kc") > 0)
    del a
    con.register("_scan", scan.to_arrow())
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE k_dec AS
        WITH c AS (
            SELECT hk, seq, {list(STREETS)}[st] AS street, pk, {list(_DECISIONS)}[kc] AS kind, contribution,
                   level_before, own_before, last_aggr, raises_before, folds_before, pot_before
            FROM _scan
        )
        SELECT c.hk, c.seq, c.street, c.pk, c.kind, c.contribution,
               CAST(greatest(c.level_before - c.own_before, 0) AS BIGINT) AS to_call,
               c.level_before > c.own_before AS facing,
               c.kind IN ('bet', 'raise') AS aggr, c.kind = 'fold' AS fold, c.kind = 'call' AS calls,
               c.last_aggr, CAST(c.raises_before AS INTEGER) AS raises_before,
               CAST(hp.n_dealt - c.folds_before AS INTEGER) AS n_live, c.pot_before,
               hp.pos_group, hp.bb, coalesce(s.bucket, -1) AS bucket, s.rank, s.chen, hp.hand_date
        FROM c JOIN k_hp hp USING (hk, pk)
        LEFT JOIN k_strength s ON s.hk = c.hk AND s.pk = c.pk AND s.street = c.street"""
    )
    con.unregister("_scan")
    replace_view(con, "dec", VIEWS["dec"])
