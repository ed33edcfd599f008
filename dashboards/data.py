"""Read-only queries on a published warehouse snapshot, returning polars frames.

Why plain functions of the snapshot path: each call opens a short-lived ``read_only=True``
connection (never the writer's file, never a cached connection that would pin an old snapshot
or block a writer: engineering_anchors §4.2), and the path is the cache key the pages use, so
publishing a new snapshot invalidates every cached result. No Streamlit import here: the CLI
export and the bench use the same queries.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

HAND_TABLES = ("hands", "seats", "actions", "hole_cards", "boards", "pots", "awards", "reconciliation")


@contextmanager
def connect(db: str | Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short-lived read-only connection to a snapshot."""
    path = Path(db)
    if not path.exists():
        raise FileNotFoundError(f"warehouse snapshot {path} does not exist")
    con = duckdb.connect(str(path), read_only=True)
    try:
        yield con
    finally:
        con.close()


def has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    row = con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name]).fetchone()
    return bool(row and row[0])


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] = ()) -> pl.DataFrame:
    return con.execute(sql, list(params)).pl()


def queue(db: str | Path) -> pl.DataFrame:
    """Every flag ranked by score, with the tables its evidence hands were played at."""
    with connect(db) as con:
        if not has_table(con, "flags"):
            return pl.DataFrame()
        return _frame(
            con,
            """
            WITH ev AS (SELECT flag_id, unnest(evidence_hands) AS hand_id FROM flags),
            tabs AS (SELECT ev.flag_id, list(DISTINCT h.table_name ORDER BY h.table_name) AS tables
                     FROM ev JOIN hands h USING (hand_id) GROUP BY ev.flag_id)
            SELECT f.flag_id, f.family, f.players, f.score, f.severity, f.mode, f.run_id,
                   f.first_hand_at, f.last_hand_at, f.created_at, len(f.evidence_hands) AS n_evidence,
                   coalesce(tabs.tables, []) AS tables
            FROM flags f LEFT JOIN tabs USING (flag_id) ORDER BY f.score DESC, f.flag_id
            """,
        )


def flag(db: str | Path, flag_id: str) -> dict[str, Any] | None:
    with connect(db) as con:
        if not has_table(con, "flags"):
            return None
        rows = _frame(con, "SELECT * FROM flags WHERE flag_id = ?", [flag_id]).to_dicts()
    return rows[0] if rows else None


def observed_metrics(observed: str | None) -> list[dict[str, Any]]:
    """Normalise the detectors' ``observed`` JSON to a list of metric dicts with a ``name``.

    Accepts ``{"metrics": [{name, value, percentile, ...}]}`` or ``{name: {value, ...}}``.
    """
    if not observed:
        return []
    data = json.loads(observed)
    if isinstance(data, dict) and isinstance(data.get("metrics"), list):
        return [m for m in data["metrics"] if isinstance(m, dict)]
    if isinstance(data, dict):
        return [{"name": k, **v} for k, v in data.items() if isinstance(v, dict)]
    if isinstance(data, list):
        return [m for m in data if isinstance(m, dict)]
    return []


def hand_rows(db: str | Path, hand_ids: Sequence[str]) -> dict[str, pl.DataFrame]:
    """Canonical rows of the given hands, one frame per warehouse table, in a stable order."""
    ids = list(hand_ids)
    order = {
        "hands": "hand_id", "seats": "hand_id, seat_no", "actions": "hand_id, seq",
        "hole_cards": "hand_id, player", "boards": "hand_id, board_no", "pots": "hand_id, pot_no",
        "awards": "hand_id, pot_no, board_no, player", "reconciliation": "hand_id",
    }
    out: dict[str, pl.DataFrame] = {}
    with connect(db) as con:
        for table in HAND_TABLES:
            out[table] = _frame(
                con,
                f"SELECT * FROM {table} WHERE hand_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY {order[table]}",
                [ids],
            )
        if has_table(con, "violations"):
            out["violations"] = _frame(
                con,
                "SELECT * FROM violations WHERE hand_id IN (SELECT unnest(?::VARCHAR[])) "
                "ORDER BY hand_id, action_seq, rule_id",
                [ids],
            )
        if has_table(con, "action_states"):
            out["action_states"] = _frame(
                con,
                "SELECT * FROM action_states WHERE hand_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY hand_id, seq",
                [ids],
            )
    return out


def hand_ids_like(db: str | Path, prefix: str, limit: int = 50) -> list[str]:
    with connect(db) as con:
        rows = con.execute(
            "SELECT hand_id FROM hands WHERE hand_id LIKE ? ORDER BY hand_id LIMIT ?", [prefix + "%", limit]
        ).fetchall()
    return [r[0] for r in rows]


def player_summary(db: str | Path, player: str) -> dict[str, Any]:
    """Hands, net result (in each currency) and flags for one player."""
    with connect(db) as con:
        stats = _frame(
            con,
            """
            WITH mine AS (SELECT hand_id FROM seats WHERE player = ?),
            put AS (SELECT hand_id, sum(contribution) AS put FROM actions
                    WHERE player = ? AND hand_id IN (SELECT hand_id FROM mine) GROUP BY hand_id),
            won AS (SELECT hand_id, sum(amount) AS won FROM awards
                    WHERE player = ? AND hand_id IN (SELECT hand_id FROM mine) GROUP BY hand_id)
            SELECT h.currency, h.unit_scale, count(*) AS hands,
                   CAST(sum(coalesce(won.won, 0) - coalesce(put.put, 0)) AS BIGINT) AS net,
                   min(h.started_at) AS first_hand, max(h.started_at) AS last_hand,
                   list(DISTINCT h.table_name ORDER BY h.table_name)[1:20] AS tables
            FROM mine JOIN hands h USING (hand_id)
            LEFT JOIN put USING (hand_id) LEFT JOIN won USING (hand_id)
            GROUP BY h.currency, h.unit_scale ORDER BY hands DESC
            """,
            [player, player, player],
        )
        flags = (
            _frame(
                con,
                "SELECT flag_id, family, players, score, severity FROM flags "
                "WHERE list_contains(players, ?) ORDER BY score DESC",
                [player],
            )
            if has_table(con, "flags")
            else pl.DataFrame()
        )
        violations = (
            _frame(
                con,
                "SELECT v.rule_id, count(*) AS n FROM violations v JOIN actions a "
                "ON a.hand_id = v.hand_id AND a.seq = v.action_seq WHERE a.player = ? GROUP BY 1 ORDER BY 2 DESC",
                [player],
            )
            if has_table(con, "violations")
            else pl.DataFrame()
        )
    return {"stats": stats, "flags": flags, "violations": violations}


def shared_hands(db: str | Path, players: Sequence[str], limit: int = 5000) -> pl.DataFrame:
    """Hands where at least two of ``players`` were seated, with each one's net result."""
    ps = list(players)
    with connect(db) as con:
        return _frame(
            con,
            """
            WITH together AS (
                SELECT hand_id FROM seats WHERE list_contains(?, player)
                GROUP BY hand_id HAVING count(DISTINCT player) >= 2 LIMIT ?),
            put AS (SELECT hand_id, player, sum(contribution) AS put FROM actions
                    WHERE hand_id IN (SELECT hand_id FROM together) GROUP BY ALL),
            won AS (SELECT hand_id, player, sum(amount) AS won FROM awards
                    WHERE hand_id IN (SELECT hand_id FROM together) GROUP BY ALL)
            SELECT s.hand_id, h.table_name, h.started_at, s.player,
                   CAST(coalesce(won.won, 0) - coalesce(put.put, 0) AS BIGINT) AS net
            FROM seats s JOIN together USING (hand_id) JOIN hands h USING (hand_id)
            LEFT JOIN put ON put.hand_id = s.hand_id AND put.player = s.player
            LEFT JOIN won ON won.hand_id = s.hand_id AND won.player = s.player
            ORDER BY h.started_at, s.hand_id, s.player
            """,
            [ps, limit],
        )


def chip_flow(shared: pl.DataFrame, players: Sequence[str]) -> dict[tuple[str, str], int]:
    """Net chips from loser to winner between the given players over shared hands.

    Each hand's losses among the group are split over the group's winners in proportion to
    their wins (integer floor; the remainder goes to the biggest winner), then netted per pair.
    """
    group = set(players)
    flow: dict[tuple[str, str], int] = {}
    if shared.is_empty():
        return flow
    for (_hand,), rows in shared.filter(pl.col("player").is_in(list(group))).group_by(
        ["hand_id"], maintain_order=True
    ):
        winners = [(r["player"], r["net"]) for r in rows.iter_rows(named=True) if r["net"] > 0]
        losers = [(r["player"], -r["net"]) for r in rows.iter_rows(named=True) if r["net"] < 0]
        total_won = sum(w for _, w in winners)
        if not winners or not losers:
            continue
        winners.sort(key=lambda x: (-x[1], x[0]))
        for loser, lost in losers:
            moved = min(lost, total_won)
            shares = [moved * w // total_won for _, w in winners]
            shares[0] += moved - sum(shares)
            for (winner, _), share in zip(winners, shares, strict=True):
                flow[(loser, winner)] = flow.get((loser, winner), 0) + share
    net: dict[tuple[str, str], int] = {}
    for (a, b), v in flow.items():
        back = flow.get((b, a), 0)
        if v > back:
            net[(a, b)] = v - back
    return dict(sorted(net.items()))


def sessions(shared: pl.DataFrame, gap_minutes: int = 30) -> pl.DataFrame:
    """Sessions together: consecutive shared hands at one table with no gap over ``gap_minutes``."""
    if shared.is_empty():
        return pl.DataFrame(schema={"table_name": pl.String, "start": pl.Datetime, "end": pl.Datetime,
                                    "hands": pl.UInt32, "players": pl.List(pl.String)})
    per_hand = (
        shared.group_by(["hand_id", "table_name", "started_at"])
        .agg(pl.col("player").sort().alias("players"))
        .sort(["table_name", "started_at", "hand_id"])
    )
    per_hand = per_hand.with_columns(
        (
            (pl.col("started_at").diff().over("table_name") > pl.duration(minutes=gap_minutes))
            .fill_null(True)
            .cum_sum()
            .over("table_name")
        ).alias("session")
    )
    return (
        per_hand.group_by(["table_name", "session"])
        .agg(
            pl.col("started_at").min().alias("start"),
            pl.col("started_at").max().alias("end"),
            pl.len().alias("hands"),
            pl.col("players").list.explode(keep_nulls=False, empty_as_null=False).unique().sort().alias("players"),
        )
        .sort(["start", "table_name"])
        .drop("session")
    )


def violations_summary(db: str | Path, by: str) -> pl.DataFrame:
    """Violation counts grouped by rule, table or rulebook (house decisions counted apart)."""
    col = {"rule": "v.rule_id", "table": "h.table_name", "rulebook": "v.rulebook"}[by]
    with connect(db) as con:
        if not has_table(con, "violations"):
            return pl.DataFrame()
        return _frame(
            con,
            f"""
            SELECT {col} AS {by}, count(*) FILTER (WHERE NOT coalesce(v.house_decision, false)) AS violations,
                   count(*) FILTER (WHERE v.house_decision) AS house_decisions,
                   count(*) FILTER (WHERE v.severity = 'high') AS high
            FROM violations v LEFT JOIN hands h USING (hand_id)
            GROUP BY 1 ORDER BY violations DESC, 1
            """,
        )


def violations_list(db: str | Path, rule_id: str | None = None, limit: int = 500) -> pl.DataFrame:
    with connect(db) as con:
        if not has_table(con, "violations"):
            return pl.DataFrame()
        return _frame(
            con,
            "SELECT v.*, h.table_name FROM violations v LEFT JOIN hands h USING (hand_id) "
            "WHERE ? IS NULL OR v.rule_id = ? ORDER BY v.hand_id, v.action_seq LIMIT ?",
            [rule_id, rule_id, limit],
        )


def run_reports(db: str | Path) -> pl.DataFrame:
    with connect(db) as con:
        if not has_table(con, "run_reports"):
            return pl.DataFrame()
        return _frame(con, "SELECT * FROM run_reports ORDER BY started_at DESC")


def overview(db: str | Path) -> dict[str, int]:
    """Row counts the landing pages show (cheap: DuckDB keeps counts in metadata)."""
    out: dict[str, int] = {}
    with connect(db) as con:
        for t in ("hands", "quarantine", "flags", "violations"):
            if has_table(con, t):
                row = con.execute(f"SELECT count(*) FROM {t}").fetchone()
                out[t] = int(row[0]) if row else 0
    return out
