"""Nightly summaries the dashboard pages read instead of aggregating a million hands per click.

Why: a reviewer opening a page right after the nightly publish must not wait for a scan of every
seat and action (issue 7: < 1 s p95 at 1,000,000 hands, cold). ``build_summaries`` runs once in the
pipeline, on the build warehouse, right before publishing, and materialises each ``dash_*`` table
below, sorted by its lookup key so DuckDB's min/max zone maps skip all but a few row groups.

The SQL of each table is also the definition the pages fall back to (as an inline subquery) when a
snapshot has no summaries, so both paths mean exactly the same thing (see ``source``).
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from warehouse.db import open_duckdb

#: bumped whenever a summary's columns or sort key change: a snapshot whose dash_* tables were built
#: by another version (or whose tables changed since) is read through the inline definitions instead
#: (never a missing column, never a stale row)
SUMMARY_VERSION = "8"

#: the tables whose rows of one hand the replayer and the export read through ``dash_hand_loc``
#: (violations are few: a filtered scan of them is as fast)
LOC_TABLES = ("hands", "reconciliation", "seats", "actions", "hole_cards", "boards", "pots", "awards",
              "action_states")

#: table -> (tables it needs, SELECT defining it, ORDER BY of the materialised copy)
SUMMARIES: dict[str, tuple[tuple[str, ...], str, str]] = {
    # the queue's rows: every flag (its latest run's row: a flag id is stable night after night) with
    # the tables its evidence hands were played at, its explanation and its evidence strength (the
    # robust z of the evidence under the room's honest null, which orders cases whose scores tie);
    # dashboards/cases.py groups them into one case per suspected group
    "dash_queue": (
        ("flags", "hands"),
        """
        WITH f AS (SELECT *, min(created_at) OVER (PARTITION BY flag_id) AS first_flagged_at FROM flags
                   QUALIFY row_number() OVER (PARTITION BY flag_id ORDER BY created_at DESC, run_id DESC) = 1),
        ev AS (SELECT flag_id, unnest(evidence_hands) AS hand_id FROM f),
        tabs AS (SELECT ev.flag_id, list(DISTINCT h.table_name ORDER BY h.table_name) AS tables
                 FROM ev JOIN hands h USING (hand_id) GROUP BY ev.flag_id)
        SELECT f.flag_id, f.family, f.players, f.score, f.severity, f.mode, f.run_id,
               f.first_hand_at, f.last_hand_at, f.created_at, f.first_flagged_at, len(f.evidence_hands) AS n_evidence,
               coalesce(tabs.tables, []::VARCHAR[]) AS tables, f.evidence_hands,
               f.explanation,
               TRY_CAST(json_extract_string(f.observed, '$.evidence_z') AS DOUBLE) AS evidence_z,
               TRY_CAST(json_extract_string(f.observed, '$.hands_together') AS BIGINT) AS hands_together
        FROM f LEFT JOIN tabs USING (flag_id)
        """,
        "score DESC, flag_id",
    ),
    # one row per (player, hand) with the player's net result: the player, pair and case pages.
    # Why one aggregate over only the rows that move money (non-zero contributions and awards, about
    # half the actions), joined to the seats: the (hand, player) aggregate is the costliest step at
    # 1M hands and this keeps its input and group count smallest. The hand is kept as its row in
    # ``hands`` (hr, resolved to hand_id by the pages for the few hands they show): writing 6.5M
    # hand id strings cost ~3 CPU-s of the publish step. pkey (a hash of the player) is the sort key
    # because DuckDB keeps only 8-byte prefixes of strings in its zone maps, so sorting by name would
    # not let a lookup skip row groups
    "dash_seat": (
        ("seats", "hands", "actions", "awards"),
        """
        WITH m AS (SELECT hand_id, player, sum(v) AS v
                   FROM (SELECT hand_id, player, -contribution AS v FROM actions WHERE contribution <> 0
                         UNION ALL SELECT hand_id, player, amount FROM awards)
                   GROUP BY hand_id, player)
        SELECT hash(s.player) AS pkey, s.player, h.hr, h.table_name, h.started_at, h.currency, h.unit_scale,
               h.bb, CAST(coalesce(m.v, 0) AS BIGINT) AS net
        FROM seats s JOIN (SELECT rowid AS hr, hand_id, table_name, started_at, currency, unit_scale, bb FROM hands) h
             USING (hand_id)
        LEFT JOIN m ON m.hand_id = s.hand_id AND m.player = s.player
        """,
        "pkey",
    ),
    # every flag's player group (sorted, distinct): the case page's chip flow and sessions of a case's
    # players are read from the next two tables instead of being computed over their shared hands
    # per view (regulars can share 100k+ hands at 1M)
    "dash_groups": (
        ("flags",),
        "SELECT DISTINCT list_sort(list_distinct(players)) AS grp FROM flags WHERE len(list_distinct(players)) >= 2",
        "grp",
    ),
    # per group: chips each member lost to each other member over the hands at least two of them sat
    # in (data.chip_flow's rule: a hand's losses split over its winners in proportion, floor, the
    # remainder to the biggest winner, ties by name); not yet netted per pair
    "dash_group_flow": (
        ("flags", "seats", "hands", "actions", "awards"),
        """
        WITH gm AS (SELECT grp, unnest(grp) AS player FROM {dash_groups}),
        m AS (SELECT gm.grp, ds.hr, ds.player, ds.net
              FROM gm JOIN (SELECT pkey, hr, player, net FROM {dash_seat}) AS ds
              ON ds.pkey = hash(gm.player) AND ds.player = gm.player),
        mm AS (SELECT m.* FROM m SEMI JOIN (SELECT grp, hr FROM m GROUP BY grp, hr HAVING count(*) >= 2) t
               USING (grp, hr)),
        w AS (SELECT grp, hr, player AS winner, net AS won, sum(net) OVER (PARTITION BY grp, hr) AS total_won,
                     row_number() OVER (PARTITION BY grp, hr ORDER BY net DESC, player) = 1 AS top
              FROM mm WHERE net > 0),
        x AS (SELECT mm.grp, mm.hr, mm.player AS loser, w.winner, w.top, least(-mm.net, w.total_won) AS moved,
                     least(-mm.net, w.total_won) * w.won // w.total_won AS share
              FROM mm JOIN w USING (grp, hr) WHERE mm.net < 0),
        y AS (SELECT grp, loser, winner,
                     share + CASE WHEN top THEN moved - sum(share) OVER (PARTITION BY grp, hr, loser) ELSE 0 END AS s
              FROM x)
        SELECT grp, loser, winner, CAST(sum(s) AS BIGINT) AS chips FROM y GROUP BY ALL
        """,
        "grp, loser, winner",
    ),
    # per group: sessions together (data.sessions: consecutive hands at one table where at least two
    # of them sat, no gap over 30 minutes), with the members seen in each
    "dash_group_sessions": (
        ("flags", "seats", "hands", "actions", "awards"),
        """
        WITH gm AS (SELECT grp, unnest(grp) AS player FROM {dash_groups}),
        m AS (SELECT gm.grp, ds.hr, ds.player, ds.table_name, ds.started_at
              FROM gm JOIN (SELECT pkey, hr, player, table_name, started_at FROM {dash_seat}) AS ds
              ON ds.pkey = hash(gm.player) AND ds.player = gm.player),
        t AS (SELECT grp, hr, any_value(table_name) AS table_name, any_value(started_at) AS started_at
              FROM m GROUP BY grp, hr HAVING count(*) >= 2),
        g AS (SELECT *, CASE WHEN started_at - lag(started_at)
                                  OVER (PARTITION BY grp, table_name ORDER BY started_at, hr)
                             <= INTERVAL 30 MINUTE THEN 0 ELSE 1 END AS new FROM t),
        s AS (SELECT *, sum(new) OVER (PARTITION BY grp, table_name ORDER BY started_at, hr
                                       ROWS UNBOUNDED PRECEDING) AS session FROM g),
        -- the members present in each session, one row each, before any list is built: a list per
        -- shared hand held every hand's names in memory and ran out of it at ten million hands
        who AS (SELECT DISTINCT s.grp, s.table_name, s.session, m.player
                FROM s JOIN m ON m.grp = s.grp AND m.hr = s.hr),
        span AS (SELECT grp, table_name, session, min(started_at) AS start, max(started_at) AS "end",
                        count(*) AS hands
                 FROM s GROUP BY grp, table_name, session),
        names AS (SELECT grp, table_name, session, list(player ORDER BY player) AS players
                  FROM who GROUP BY grp, table_name, session)
        SELECT span.grp, span.table_name, span.start, span."end", span.hands, names.players
        FROM span JOIN names ON names.grp = span.grp AND names.table_name = span.table_name
                            AND names.session = span.session
        """,
        "grp, start, table_name",
    ),
    # the player page's results line: cumulative net won (currency units) after every k-th hand and the
    # last (at most ~2000 points per player and currency), and each day's last hand with the median big
    # blind (data.player_line's definition; the page reads these rows instead of a regular's 100k+)
    "dash_player_line": (
        ("seats", "hands", "actions", "awards"),
        """
        WITH c AS (
            SELECT pkey, player, currency, CAST(started_at AS DATE) AS hand_date, bb::DOUBLE / unit_scale AS bb_units,
                   row_number() OVER w AS hand, sum(net::DOUBLE / unit_scale) OVER w AS net_won,
                   count(*) OVER (PARTITION BY player, currency) AS n
            FROM {dash_seat}
            WINDOW w AS (PARTITION BY player, currency ORDER BY started_at, hr ROWS UNBOUNDED PRECEDING))
        SELECT pkey, player, 'line' AS part, currency, hand, net_won, NULL::DATE AS hand_date, NULL::DOUBLE AS bb_units
        FROM c WHERE (hand - 1) % greatest(1, CAST(ceil(n / 2000) AS BIGINT)) = 0 OR hand = n
        UNION ALL
        SELECT any_value(pkey), player, 'end', currency, max(hand), arg_max(net_won, hand), hand_date, median(bb_units)
        FROM c GROUP BY player, currency, hand_date
        """,
        "pkey, player, part, currency, hand",
    ),
    # the player's sessions (data.player_sessions: one table, no gap over 30 minutes)
    "dash_player_sessions": (
        ("seats", "hands", "actions", "awards"),
        """
        WITH g AS (SELECT pkey, player, hr, table_name, started_at, currency, unit_scale, net,
                          CASE WHEN started_at - lag(started_at)
                                    OVER (PARTITION BY player, table_name ORDER BY started_at, hr)
                               <= INTERVAL 30 MINUTE THEN 0 ELSE 1 END AS new FROM {dash_seat}),
        s AS (SELECT *, sum(new) OVER (PARTITION BY player, table_name ORDER BY started_at, hr
                                       ROWS UNBOUNDED PRECEDING) AS session FROM g)
        SELECT any_value(pkey) AS pkey, player, table_name, min(started_at) AS start, max(started_at) AS "end",
               count(*) AS hands, currency, sum(net)::DOUBLE / any_value(unit_scale) AS net
        FROM s GROUP BY player, table_name, session, currency
        """,
        "pkey, player, start, table_name",
    ),
    # per flag group and member: hands at least two of them sat in and the member's net over them
    "dash_group_nets": (
        ("flags", "seats", "hands", "actions", "awards"),
        """
        WITH gm AS (SELECT grp, unnest(grp) AS player FROM {dash_groups}),
        m AS (SELECT gm.grp, ds.hr, ds.player, ds.net, ds.currency, ds.unit_scale
              FROM gm JOIN (SELECT pkey, hr, player, net, currency, unit_scale FROM {dash_seat}) AS ds
              ON ds.pkey = hash(gm.player) AND ds.player = gm.player)
        SELECT m.grp, m.player, m.currency, any_value(m.unit_scale) AS unit_scale, count(*) AS hands,
               CAST(sum(m.net) AS BIGINT) AS net
        FROM m SEMI JOIN (SELECT grp, hr FROM m GROUP BY grp, hr HAVING count(*) >= 2) t USING (grp, hr)
        GROUP BY m.grp, m.player, m.currency
        """,
        "grp, currency, player",
    ),
    # per player and currency: hands, net result, first/last hand, tables
    "dash_player": (
        ("seats", "hands", "actions", "awards"),
        """
        SELECT any_value(pkey) AS pkey, player, currency, unit_scale, count(*) AS hands,
               CAST(sum(net) AS BIGINT) AS net,
               min(started_at) AS first_hand, max(started_at) AS last_hand,
               count(DISTINCT table_name) AS n_tables,
               list(DISTINCT table_name ORDER BY table_name)[1:20] AS tables
        FROM {dash_seat} GROUP BY player, currency, unit_scale
        """,
        "pkey, hands DESC, currency, unit_scale",
    ),
    # the HUD counts of the latest detector run (player_stats: PokerTracker 4 opportunities, per day), by
    # the player's screen name (the stats key players "site:name"); the player page sums the days
    "dash_player_days": (
        ("player_stats", "detector_runs"),
        """
        SELECT hash(substr(ps.player, strpos(ps.player, ':') + 1)) AS pkey,
               substr(ps.player, strpos(ps.player, ':') + 1) AS player,
               CASE WHEN strpos(ps.player, ':') > 0 THEN split_part(ps.player, ':', 1) END AS site,
               ps.* EXCLUDE (player, run_id)
        FROM player_stats ps
        WHERE ps.run_id = (SELECT run_id FROM detector_runs ORDER BY started_at DESC, run_id DESC LIMIT 1)
        """,
        "pkey, site, hand_date",
    ),
    # frequent opponents: hands together per pair in the latest detector run (pairs the detectors scored)
    "dash_opponents": (
        ("pair_stats", "detector_runs"),
        """
        SELECT hash(substr(player_a, strpos(player_a, ':') + 1)) AS pkey,
               substr(player_a, strpos(player_a, ':') + 1) AS player,
               substr(player_b, strpos(player_b, ':') + 1) AS opponent,
               CAST(sum(hands_together) AS BIGINT) AS hands_together,
               CAST(sum(confrontations) AS BIGINT) AS confrontations,
               CAST(sum(hu_confrontations) AS BIGINT) AS heads_up
        FROM pair_stats
        WHERE run_id = (SELECT run_id FROM detector_runs ORDER BY started_at DESC, run_id DESC LIMIT 1)
        GROUP BY ALL
        """,
        "pkey, hands_together DESC, opponent",
    ),
    # flags by player (a ring flag appears once per member)
    "dash_player_flags": (
        ("flags",),
        """
        SELECT hash(player) AS pkey, player, flag_id, family, players, score, severity
        FROM (SELECT unnest(players) AS player, flag_id, family, players, score, severity FROM flags)
        """,
        "pkey, score DESC, flag_id",
    ),
    # every finding with where it happened (table, time, player), in the listing's order
    "dash_violations": (
        ("violations", "hands", "actions"),
        """
        SELECT v.hand_id, v.action_seq, v.rule_id, v.rulebook, v.severity, v.house_decision,
               v.allowed_outcomes, v.expected, v.actual, v.message, v.run_id,
               h.table_name, h.started_at, a.player
        FROM violations v LEFT JOIN hands h USING (hand_id)
        LEFT JOIN actions a ON a.hand_id = v.hand_id AND a.seq = v.action_seq
        """,
        "rule_id, hand_id, action_seq NULLS FIRST",
    ),
    # counts by rule / table / rulebook; house decisions (floor discretion) counted apart
    "dash_violations_by": (
        ("violations", "hands", "actions"),
        """
        SELECT dim, key, count(*) FILTER (WHERE NOT house_decision) AS violations,
               count(*) FILTER (WHERE house_decision) AS house_decisions,
               count(*) FILTER (WHERE severity = 'error' AND NOT house_decision) AS errors,
               count(*) FILTER (WHERE severity = 'warning' AND NOT house_decision) AS warnings,
               count(DISTINCT hand_id) AS hands
        FROM (SELECT 'rule' AS dim, rule_id AS key, * FROM {dash_violations}
              UNION ALL BY NAME SELECT 'table' AS dim, table_name AS key, * FROM {dash_violations}
              UNION ALL BY NAME SELECT 'rulebook' AS dim, rulebook AS key, * FROM {dash_violations})
        GROUP BY dim, key
        """,
        "dim, violations DESC, house_decisions DESC, key",
    ),
    # rule findings at each player's own actions (hand-level findings have no player)
    "dash_player_violations": (
        ("violations", "hands", "actions"),
        """
        SELECT hash(player) AS pkey, player, rule_id, count(*) AS n,
               count(*) FILTER (WHERE NOT house_decision) AS violations,
               count(*) FILTER (WHERE house_decision) AS house_decisions
        FROM {dash_violations} WHERE player IS NOT NULL
        GROUP BY ALL
        """,
        "pkey, n DESC, rule_id",
    ),
}


def _has(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    row = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = ? AND schema_name = 'main'"
        " AND database_name = current_database()", [name]
    ).fetchone()
    return bool(row and row[0])


#: tables whose row counts the summaries record: a file written to after the build (rows added or
#: deleted, rowids possibly moved by a checkpoint) no longer matches and is read live instead
COUNTED = ("hands", "seats", "actions", "awards", "violations")

#: (file, inode, mtime) -> the file's summaries are current; a snapshot is immutable once published
#: and a changed file has a new mtime, so each file is checked once per process, not per query
_CURRENT: dict[tuple[str, int, int], bool] = {}


def _counts_sql(con: duckdb.DuckDBPyConnection) -> str:
    return " || ',' || ".join(f"(SELECT count(*) FROM {t})::VARCHAR" if _has(con, t) else "'-'" for t in COUNTED)


def _file_key(con: duckdb.DuckDBPyConnection) -> tuple[str, int, int] | None:
    row = con.execute("SELECT path FROM duckdb_databases() WHERE database_name = current_database()").fetchone()
    if not row or not row[0]:
        return None
    try:
        st = os.stat(row[0])
    except OSError:
        return None
    return (str(row[0]), st.st_ino, st.st_mtime_ns)


def _current(con: duckdb.DuckDBPyConnection) -> bool:
    """This snapshot's dash_* tables were built by this SUMMARY_VERSION from the rows it holds now."""
    key = _file_key(con)
    if key is not None and key in _CURRENT:
        return _CURRENT[key]
    ok = _check_current(con)
    if key is not None:
        _CURRENT[key] = ok
    return ok


def _check_current(con: duckdb.DuckDBPyConnection) -> bool:
    cols = {c for (c,) in con.execute(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = 'dash_meta' AND schema_name = 'main'"
        " AND database_name = current_database()").fetchall()}
    if not {"version", "counts"} <= cols:
        return False
    row = con.execute(f"SELECT max(version), max(counts) = {_counts_sql(con)} FROM dash_meta").fetchone()
    return bool(row and row[0] == SUMMARY_VERSION and row[1])


def materialised(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """Summary ``name`` is a table of this snapshot, built by this version of the definitions."""
    return _has(con, name) and _current(con)


def available(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """The summary exists in this snapshot, or its source tables do (so it can be computed)."""
    return materialised(con, name) or all(_has(con, t) for t in SUMMARIES[name][0])


def source(con: duckdb.DuckDBPyConnection, name: str) -> str:
    """What to put after FROM for summary ``name``: the table, or its definition inline.

    Raises KeyError when neither the summary nor its source tables are in the snapshot.
    """
    if materialised(con, name):
        return name
    needs, sql, _ = SUMMARIES[name]
    if not all(_has(con, t) for t in needs):
        raise KeyError(f"{name}: snapshot lacks {', '.join(t for t in needs if not _has(con, t))}")
    refs = {dep: source(con, dep) for dep in SUMMARIES if "{" + dep + "}" in sql}
    return f"({sql.format(**refs)}) AS {name}"


def build_summaries(con: duckdb.DuckDBPyConnection) -> None:
    """Create or replace every ``dash_*`` table whose source tables exist in the build warehouse.

    A half-built set is never used: ``dash_meta``, which readers check before they read any summary
    (``materialised``), is dropped first and written last. Why not one transaction around them all:
    DuckDB kept every new row of the uncommitted tables in memory until the commit, and at 10 million
    hands that ran out of memory (18.8 GiB) where the same tables built one commit each fit.
    """
    con.execute("DROP TABLE IF EXISTS dash_meta")
    _build(con)


def _build(con: duckdb.DuckDBPyConnection) -> None:
    for name, (needs, sql, order) in SUMMARIES.items():
        con.execute(f"DROP TABLE IF EXISTS {name}")
        if not all(_has(con, t) for t in needs):
            continue
        refs = {dep: dep for dep in SUMMARIES if "{" + dep + "}" in sql}
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM ({sql.format(**refs)}) ORDER BY {order}")
    _build_locator(con)
    con.execute(f"CREATE OR REPLACE TABLE dash_meta AS SELECT ?::VARCHAR AS version, {_counts_sql(con)} AS counts,"
                " now() AS built_at", [SUMMARY_VERSION])


def _build_locator(con: duckdb.DuckDBPyConnection) -> None:
    """``dash_hand_loc``: per hand, the rowid range and row count of its rows in each big table.

    Why: the hand replayer needs one hand's rows from tables of millions of rows whose hand_id zone
    maps are useless (every id starts 'pokersta'), and the primary-key index is loaded from disk on
    its first use (~0.8 s at 1M hands). A rowid range is a scan DuckDB prunes to one row group.
    One row per hand (a column trio per table), sorted by a hash of the id for the lookup. Rowids
    are positions in the file, so this runs after the last write and checkpoint (see
    ``refresh_summaries``); readers still check the ids and the count and fall back to a scan.
    """
    con.execute("DROP TABLE IF EXISTS dash_hand_loc")
    if not _has(con, "hands"):
        return
    present = [t for t in LOC_TABLES[1:] if _has(con, t)]
    ctes = ", ".join(f"l_{t} AS (SELECT hand_id, min(rowid) AS lo, max(rowid) AS hi, count(*) AS n"
                     f" FROM {t} GROUP BY hand_id)" for t in present)
    cols = ", ".join(f"l_{t}.lo AS {t}_lo, l_{t}.hi AS {t}_hi, l_{t}.n AS {t}_n" for t in present)
    joins = " ".join(f"LEFT JOIN l_{t} USING (hand_id)" for t in present)
    con.execute(f"""
        CREATE TABLE dash_hand_loc AS
        WITH {ctes + ", " if ctes else ""}h AS (SELECT hand_id, rowid AS r FROM hands)
        SELECT hash(h.hand_id) AS hkey, h.hand_id, h.r AS hands_lo, h.r AS hands_hi, 1::BIGINT AS hands_n
               {", " + cols if cols else ""}
        FROM h {joins} ORDER BY hkey""")


def refresh_summaries(db: str | Path) -> None:
    """``build_summaries`` on the warehouse file at ``db`` (the pipeline's publish step calls this)."""
    con = open_duckdb(db)  # bounded by the deployment's memory limit, if it set one
    try:
        con.execute("SET preserve_insertion_order = false")  # every summary has its ORDER BY
        con.execute("CHECKPOINT")  # fold pending deletes first: the locator records rowids
        build_summaries(con)
        con.execute("CHECKPOINT")
    finally:
        con.close()
