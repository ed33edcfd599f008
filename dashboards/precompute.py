"""Nightly summaries the dashboard pages read instead of aggregating a million hands per click.

Why: a reviewer opening a page right after the nightly publish must not wait for a scan of every
seat and action (issue 7: < 1 s p95 at 1,000,000 hands, cold). ``build_summaries`` runs once in the
pipeline, on the build warehouse, right before publishing, and materialises each ``dash_*`` table
below, sorted by its lookup key so DuckDB's min/max zone maps skip all but a few row groups.

The SQL of each table is also the definition the pages fall back to (as an inline subquery) when a
snapshot has no summaries, so both paths mean exactly the same thing (see ``source``).
"""

from __future__ import annotations

from pathlib import Path

import duckdb

#: table -> (tables it needs, SELECT defining it, ORDER BY of the materialised copy)
SUMMARIES: dict[str, tuple[tuple[str, ...], str, str]] = {
    # the queue's rows: every flag with the tables its evidence hands were played at
    "dash_queue": (
        ("flags", "hands"),
        """
        WITH ev AS (SELECT flag_id, unnest(evidence_hands) AS hand_id FROM flags),
        tabs AS (SELECT ev.flag_id, list(DISTINCT h.table_name ORDER BY h.table_name) AS tables
                 FROM ev JOIN hands h USING (hand_id) GROUP BY ev.flag_id)
        SELECT f.flag_id, f.family, f.players, f.score, f.severity, f.mode, f.run_id,
               f.first_hand_at, f.last_hand_at, f.created_at, len(f.evidence_hands) AS n_evidence,
               coalesce(tabs.tables, []::VARCHAR[]) AS tables
        FROM flags f LEFT JOIN tabs USING (flag_id)
        """,
        "score DESC, flag_id",
    ),
    # one row per (player, hand) with the player's net result: the player, pair and case pages
    "dash_seat": (
        ("seats", "hands", "actions", "awards"),
        """
        WITH put AS (SELECT hand_id, player, sum(contribution) AS put FROM actions GROUP BY ALL),
        won AS (SELECT hand_id, player, sum(amount) AS won FROM awards GROUP BY ALL)
        SELECT s.player, s.hand_id, h.table_name, h.started_at, h.currency, h.unit_scale,
               CAST(coalesce(won.won, 0) - coalesce(put.put, 0) AS BIGINT) AS net
        FROM seats s JOIN hands h USING (hand_id)
        LEFT JOIN put ON put.hand_id = s.hand_id AND put.player = s.player
        LEFT JOIN won ON won.hand_id = s.hand_id AND won.player = s.player
        """,
        "player, started_at, hand_id",
    ),
    # per player and currency: hands, net result, first/last hand, tables
    "dash_player": (
        ("seats", "hands", "actions", "awards"),
        """
        SELECT player, currency, unit_scale, count(*) AS hands, CAST(sum(net) AS BIGINT) AS net,
               min(started_at) AS first_hand, max(started_at) AS last_hand,
               count(DISTINCT table_name) AS n_tables,
               list(DISTINCT table_name ORDER BY table_name)[1:20] AS tables
        FROM {dash_seat} GROUP BY player, currency, unit_scale
        """,
        "player, hands DESC, currency",
    ),
    # flags by player (a ring flag appears once per member)
    "dash_player_flags": (
        ("flags",),
        """
        SELECT unnest(players) AS player, flag_id, family, players, score, severity FROM flags
        """,
        "player, score DESC, flag_id",
    ),
    # rule findings at each player's own actions
    "dash_player_violations": (
        ("violations", "actions"),
        """
        SELECT a.player, v.rule_id, count(*) AS n,
               count(*) FILTER (WHERE NOT v.house_decision) AS violations,
               count(*) FILTER (WHERE v.house_decision) AS house_decisions
        FROM violations v JOIN actions a ON a.hand_id = v.hand_id AND a.seq = v.action_seq
        GROUP BY ALL
        """,
        "player, n DESC, rule_id",
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
}


def _has(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    row = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = ? AND table_schema = 'main'", [name]
    ).fetchone()
    return bool(row and row[0])


def available(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """The summary exists in this snapshot, or its source tables do (so it can be computed)."""
    return _has(con, name) or all(_has(con, t) for t in SUMMARIES[name][0])


def source(con: duckdb.DuckDBPyConnection, name: str) -> str:
    """What to put after FROM for summary ``name``: the table, or its definition inline.

    Raises KeyError when neither the summary nor its source tables are in the snapshot.
    """
    if _has(con, name):
        return name
    needs, sql, _ = SUMMARIES[name]
    if not all(_has(con, t) for t in needs):
        raise KeyError(f"{name}: snapshot lacks {', '.join(t for t in needs if not _has(con, t))}")
    refs = {dep: source(con, dep) for dep in SUMMARIES if "{" + dep + "}" in sql}
    return f"({sql.format(**refs)}) AS {name}"


def build_summaries(con: duckdb.DuckDBPyConnection) -> None:
    """Create or replace every ``dash_*`` table whose source tables exist in the build warehouse.

    All in one transaction: a half-built set of summaries is never published.
    """
    con.execute("BEGIN")
    try:
        _build(con)
    except Exception:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def _build(con: duckdb.DuckDBPyConnection) -> None:
    for name, (needs, sql, order) in SUMMARIES.items():
        con.execute(f"DROP TABLE IF EXISTS {name}")
        if not all(_has(con, t) for t in needs):
            continue
        refs = {dep: dep for dep in SUMMARIES if "{" + dep + "}" in sql}
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM ({sql.format(**refs)}) ORDER BY {order}")


def refresh_summaries(db: str | Path) -> None:
    """``build_summaries`` on the warehouse file at ``db`` (the pipeline's publish step calls this)."""
    con = duckdb.connect(str(db))
    try:
        con.execute("SET enable_progress_bar = false")
        build_summaries(con)
        con.execute("CHECKPOINT")
    finally:
        con.close()
