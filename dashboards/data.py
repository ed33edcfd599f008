"""Read-only queries on a published warehouse snapshot, returning polars frames.

Why plain functions of the snapshot path: each call opens a short-lived ``read_only=True``
connection (never the writer's file, never a cached connection that would pin an old snapshot
or block a writer: engineering_anchors §4.2), and the path is the cache key the pages use, so
publishing a new snapshot invalidates every cached result. No Streamlit import here: the CLI
export and the bench use the same queries.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from dashboards.precompute import available, materialised, source
from dashboards.replay import HandReplay, apply_rule_view, build_replay

SHARED_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "hand_id": pl.String, "table_name": pl.String, "started_at": pl.Datetime("us"), "player": pl.String,
    "net": pl.Int64,
}
HAND_TABLES = ("hands", "seats", "actions", "hole_cards", "boards", "pots", "awards", "reconciliation")


@dataclass
class _Handle:
    con: duckdb.DuckDBPyConnection
    active: int = 0
    retired: bool = False


#: one read-only database handle per snapshot file (path, inode, mtime): opening a large snapshot
#: costs ~50 ms, so queries take cursors on the newest file's handle; older handles are closed as
#: soon as their last cursor is (a publish never leaves an old snapshot held by an idle reader)
_HANDLES: dict[tuple[str, int, int], _Handle] = {}
_LOCK = threading.Lock()


def _acquire(path: Path) -> tuple[tuple[str, int, int], duckdb.DuckDBPyConnection]:
    st = path.stat()
    key = (str(path.resolve()), st.st_ino, st.st_mtime_ns)
    with _LOCK:
        h = _HANDLES.get(key)
        if h is None:
            for old_key, old in list(_HANDLES.items()):
                old.retired = True
                if old.active == 0:
                    old.con.close()
                    del _HANDLES[old_key]
            h = _HANDLES[key] = _Handle(duckdb.connect(str(path), read_only=True))
        h.active += 1
        return key, h.con.cursor()


def _release(key: tuple[str, int, int], cur: duckdb.DuckDBPyConnection) -> None:
    cur.close()
    with _LOCK:
        h = _HANDLES.get(key)
        if h is None:
            return
        h.active -= 1
        if h.retired and h.active == 0:
            h.con.close()
            del _HANDLES[key]


@contextmanager
def connect(db: str | Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short-lived read-only cursor on a snapshot.

    Snapshots are immutable files (a publish writes a new file and flips ``CURRENT``), so a
    read-only handle blocks no writer and cannot show stale rows (the key has inode and mtime).
    """
    path = Path(db)
    if not path.exists():
        raise FileNotFoundError(f"warehouse snapshot {path} does not exist")
    key, cur = _acquire(path)
    try:
        yield cur
    finally:
        _release(key, cur)


def close_all() -> None:
    """Drop every cached handle (tests that rewrite a file in place, shutdown)."""
    with _LOCK:
        for key, h in list(_HANDLES.items()):
            h.retired = True
            if h.active == 0:
                h.con.close()
                del _HANDLES[key]


def has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    row = con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name]).fetchone()
    return bool(row and row[0])


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] = ()) -> pl.DataFrame:
    return con.execute(sql, list(params)).pl()


def queue(db: str | Path) -> pl.DataFrame:
    """Every flag ranked by score, with the tables its evidence hands were played at."""
    with connect(db) as con:
        if not available(con, "dash_queue"):
            return pl.DataFrame()
        return _frame(con, f"SELECT * FROM {source(con, 'dash_queue')} ORDER BY score DESC, flag_id")


def flag(db: str | Path, flag_id: str) -> dict[str, Any] | None:
    with connect(db) as con:
        if not has_table(con, "flags"):
            return None
        rows = _frame(con, "SELECT * FROM flags WHERE flag_id = ? ORDER BY created_at DESC, run_id DESC LIMIT 1",
                      [flag_id]).to_dicts()
    return rows[0] if rows else None


#: each table's row order within a hand (the frames hand_rows returns are sorted this way): total, so
#: the replay and the export's canonical rows never depend on which path read them
ORDER = {
    "hands": "hand_id", "seats": "hand_id, seat_no", "actions": "hand_id, seq",
    "hole_cards": "hand_id, player, provenance, cards", "boards": "hand_id, board_no", "pots": "hand_id, pot_no",
    "awards": "hand_id, pot_no, board_no, player, amount", "reconciliation": "hand_id",
    "violations": "hand_id, action_seq, rule_id, expected, actual, message", "action_states": "hand_id, seq",
}


def hand_rows(db: str | Path, hand_ids: Sequence[str], tables: Sequence[str] | None = None) -> dict[str, pl.DataFrame]:
    """Canonical rows of the given hands, one frame per warehouse table, in a stable order.

    ``tables`` limits the read (the case page needs only hands and violations). Each hand is read
    through ``dash_hand_loc`` (rowid ranges: milliseconds at 1M hands) when the snapshot has it;
    a hand the locator cannot vouch for (count or id differ) is read by a scan of each table.
    """
    ids = list(dict.fromkeys(hand_ids))
    with connect(db) as con:
        wanted = [t for t in (tables or (*HAND_TABLES, "violations", "action_states"))
                  if t in HAND_TABLES or has_table(con, t)]
        located = _located_rows(con, ids, wanted) if materialised(con, "dash_hand_loc") else {}
        rest = [h for h in ids if h not in located]
        out: dict[str, pl.DataFrame] = {}
        for table in wanted:
            frames = [located[h][table] for h in ids if h in located]
            if rest:
                frames.append(_frame(con, f"SELECT * FROM {table} WHERE hand_id IN (SELECT unnest(?::VARCHAR[]))"
                                          f" ORDER BY {ORDER[table]}", [rest]))
            if not frames:
                frames.append(_frame(con, f"SELECT * FROM {table} LIMIT 0"))
            out[table] = _sorted(pl.concat(frames, how="vertical_relaxed"), table) if len(frames) > 1 else frames[0]
    return out


def _sorted(df: pl.DataFrame, table: str) -> pl.DataFrame:
    """``df`` in ``ORDER[table]`` order, nulls last as DuckDB sorts them."""
    return df.sort([c.strip() for c in ORDER[table].split(",")], nulls_last=True, maintain_order=True)


#: hands per located read (one UNION ALL of rowid ranges per table and chunk)
LOC_CHUNK = 64


def _located_rows(con: duckdb.DuckDBPyConnection, ids: list[str],
                  tables: list[str]) -> dict[str, dict[str, pl.DataFrame]]:
    """Rows of each hand the locator covers, read by rowid range; a hand whose rows do not all come
    back (the file changed after the locator was built) is left out, so the caller scans for it.

    One query per table and chunk of hands (a UNION ALL of pruned range scans), not one per hand.
    """
    out: dict[str, dict[str, pl.DataFrame]] = {}
    for k in range(0, len(ids), LOC_CHUNK):
        out.update(_located_chunk(con, ids[k : k + LOC_CHUNK], tables))
    return out


def _located_chunk(con: duckdb.DuckDBPyConnection, ids: list[str],
                   tables: list[str]) -> dict[str, dict[str, pl.DataFrame]]:
    if not ids:
        return {}
    locs = con.execute(
        " UNION ALL ".join("SELECT * FROM dash_hand_loc WHERE hkey = hash(?::VARCHAR) AND hand_id = ?" for _ in ids),
        [x for h in ids for x in (h, h)],
    ).pl()
    found = locs["hand_id"].to_list()
    if not found:
        return {}
    good = set(found)
    parts: dict[str, dict[str, pl.DataFrame]] = {}
    for table in tables:
        if f"{table}_n" not in locs.columns:  # not located (violations): a filtered scan of a small table
            df = _frame(con, f"SELECT * FROM {table} WHERE hand_id IN (SELECT unnest(?::VARCHAR[]))"
                             f" ORDER BY {ORDER[table]}", [found])
        else:
            spans = locs.filter(pl.col(f"{table}_n").is_not_null())
            if spans.is_empty():
                df = _frame(con, f"SELECT * FROM {table} LIMIT 0")
            else:
                ranges = _merged(spans.select(f"{table}_lo", f"{table}_hi").iter_rows())
                # the ids are filtered here, not in SQL: given both, DuckDB filters the id column first
                df = _frame(con, " UNION ALL ".join(f"SELECT * FROM {table} WHERE rowid BETWEEN ? AND ?"
                                                    for _ in ranges), [x for r in ranges for x in r])
                df = df.filter(pl.col("hand_id").is_in(found))
            got = dict(df.group_by("hand_id").len().iter_rows())
            for hand_id, n in locs.select("hand_id", f"{table}_n").iter_rows():
                if got.get(hand_id, 0) != (n or 0):
                    good.discard(hand_id)
        by_hand = df.partition_by("hand_id", as_dict=True, maintain_order=True) if df.height else {}
        empty = df.clear()
        for hand_id in found:
            parts.setdefault(hand_id, {})[table] = _sorted(by_hand.get((hand_id,), empty), table)
    return {h: parts[h] for h in found if h in good}


def _merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping or touching rowid ranges joined, so no row is read twice."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def rule_view(db: str | Path, hand_id: str, rows: dict[str, pl.DataFrame] | None = None) -> Any | None:
    """The rule engine's replay of one hand (``rules.view.render_hand``), None when it cannot replay it.

    Why a private in-memory database: ``render_hand`` reads the hand with joins over whole tables
    (seconds at 1M hands); given the hand's rows (read by rowid), it runs on a copy of just them.
    """
    from rules.view import render_hand  # preloaded with the profiles by ui.warm_up at server start

    rows = rows if rows is not None else hand_rows(db, [hand_id], HAND_TABLES)
    try:
        with _one_hand_db(rows, hand_id) as con:
            return render_hand(con, hand_id)
    except Exception:  # any failure falls back to the dashboard's own replay
        return None


@contextmanager
def _one_hand_db(rows: dict[str, pl.DataFrame], hand_id: str) -> Iterator[duckdb.DuckDBPyConnection]:
    """An in-memory warehouse holding one hand's canonical rows (the real schema, so types match)."""
    from warehouse.db import schema_sql

    con = duckdb.connect()
    try:
        con.execute(schema_sql())
        for table in HAND_TABLES:
            df = rows.get(table)
            if df is None or df.is_empty():
                continue
            part = df.filter(pl.col("hand_id") == hand_id)
            con.register("_part", part.to_arrow())
            con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _part")
            con.unregister("_part")
        yield con
    finally:
        con.close()


def replay(db: str | Path, hand_id: str, rows: dict[str, pl.DataFrame] | None = None) -> HandReplay:
    """One hand for the replayer and the report: canonical rows with the nightly rule check's stored
    states and findings; the rule engine replays the hand now only when no states were stored.

    Raises KeyError when the hand is not in the snapshot.
    """
    rows = rows if rows is not None else hand_rows(db, [hand_id])
    r = build_replay(rows, hand_id)
    if r.source == "stored":
        return r
    view = rule_view(db, hand_id, rows)
    return apply_rule_view(r, view) if view is not None else r


def find_hands(db: str | Path, text: str, limit: int = 20) -> list[str]:
    """Hand ids matching what a reviewer typed, best first: the exact id; else the site's hand
    number without the ``site:`` prefix ('1002' or 'PokerStars:1002', any case); else ids that
    contain the text, case-insensitively (a scan of one column; shortest ids first).

    Why in this order: the first two are an index probe and an equality scan (milliseconds);
    the partial match is the only costly one and runs only when they found nothing.
    """
    t = text.strip()
    if not t:
        return []
    site, _, number = t.rpartition(":")
    with connect(db) as con:
        if con.execute("SELECT 1 FROM hands WHERE hand_id = ?", [t]).fetchone():
            return [t]
        exact = con.execute(
            "SELECT hand_id FROM hands WHERE site_hand_no = ? AND (? = '' OR lower(site) = lower(?))"
            " ORDER BY hand_id LIMIT ?", [number, site, site, limit],
        ).fetchall()
        if exact:
            return [r[0] for r in exact]
        rows = con.execute(
            "SELECT hand_id FROM hands WHERE contains(lower(hand_id), lower(?)) ORDER BY length(hand_id), hand_id"
            " LIMIT ?", [t, limit],
        ).fetchall()
    return [r[0] for r in rows]


def short_ids(ids: Sequence[str], min_len: int = 6, keep_upto: int = 12) -> dict[str, str]:
    """A short, readable form of each case id: the shortest prefix (at least ``min_len``) that no
    other id shares; ids of at most ``keep_upto`` characters stay whole. The long id stays the key."""
    out: dict[str, str] = {}
    lowered = sorted({i.lower() for i in ids})
    for i in ids:
        if len(i) <= keep_upto:
            out[i] = i
            continue
        low = i.lower()
        k = lowered.index(low)
        neighbours = [lowered[j] for j in (k - 1, k + 1) if 0 <= j < len(lowered)]
        common = max((_common_prefix(low, n) for n in neighbours), default=0)
        out[i] = i[: max(min_len, common + 1)]
    return out


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def resolve_case(text: str | None, ids: Sequence[str], min_len: int = 4) -> str | None:
    """The case id ``text`` names: the id itself, its short form or any unique prefix of at least
    ``min_len`` characters, ignoring case; None when it names no case or several."""
    if not text:
        return None
    t = text.strip().lower()
    by_lower = {i.lower(): i for i in ids}
    if t in by_lower:
        return by_lower[t]
    if len(t) < min_len:
        return None
    hits = [i for low, i in by_lower.items() if low.startswith(t)]
    return hits[0] if len(hits) == 1 else None


#: a player's rows in a summary sorted by ``pkey``: DuckDB skips every row group whose hash range
#: misses it (names make poor zone maps: only their first 8 bytes are kept)
BY_PLAYER = "pkey = hash(?::VARCHAR) AND player = ?"


def player_summary(db: str | Path, player: str) -> dict[str, Any]:
    """Hands, net result (in each currency), flags and rule findings for one player."""
    key = [player, player]
    with connect(db) as con:
        stats = _frame(
            con,
            f"SELECT * EXCLUDE (pkey, player) FROM {source(con, 'dash_player')} WHERE {BY_PLAYER}"
            " ORDER BY hands DESC, currency, unit_scale", key,  # ties in hands: the same order every read
        )
        flags = (
            _frame(con, f"SELECT * EXCLUDE (pkey, player) FROM {source(con, 'dash_player_flags')} WHERE {BY_PLAYER}"
                   " ORDER BY score DESC, flag_id", key)
            if available(con, "dash_player_flags") else pl.DataFrame()
        )
        violations = (
            _frame(con, f"SELECT * EXCLUDE (pkey, player) FROM {source(con, 'dash_player_violations')}"
                   f" WHERE {BY_PLAYER} ORDER BY n DESC, rule_id", key)
            if available(con, "dash_player_violations") else pl.DataFrame()
        )
    return {"stats": stats, "flags": flags, "violations": violations}


def shared_hands(db: str | Path, players: Sequence[str]) -> pl.DataFrame:
    """Hands where at least two of ``players`` were seated: one row per such player and hand.

    Why one pruned lookup per player: ``dash_seat`` is sorted by a hash of the player, so each
    lookup reads a row group or two, not six million rows; the shared hands' ids come from their
    rows in ``hands`` (``hr``: the summary stores no id strings).
    """
    ps = sorted(set(players))
    if len(ps) < 2:
        return pl.DataFrame(schema=SHARED_SCHEMA)
    with connect(db) as con:
        src = source(con, "dash_seat")
        mine = " UNION ALL ".join(
            f"SELECT hr, table_name, started_at, player, net FROM {src} WHERE {BY_PLAYER}" for _ in ps)
        out = _frame(
            con,
            f"""
            WITH mine AS ({mine}),
            together AS (SELECT hr FROM mine GROUP BY hr HAVING count(DISTINCT player) >= 2)
            SELECT h.hand_id, m.table_name, m.started_at, m.player, m.net
            FROM mine m SEMI JOIN together USING (hr) JOIN hands h ON h.rowid = m.hr
            ORDER BY m.started_at, h.hand_id, m.player
            """,
            [x for p in ps for x in (p, p)],
        )
    return out if not out.is_empty() else pl.DataFrame(schema=SHARED_SCHEMA)


def chip_flow(shared: pl.DataFrame, players: Sequence[str]) -> dict[tuple[str, str], int]:
    """Net chips from loser to winner between the given players over shared hands.

    Each hand's losses among the group are split over the group's winners in proportion to
    their wins (integer floor; the remainder goes to the biggest winner), then netted per pair.
    Vectorised (one join of each hand's losers with its winners): a pair of regulars can share
    a hundred thousand hands, which a loop over hands took seconds to walk.
    """
    group = list(dict.fromkeys(players))
    if shared.is_empty() or len(group) < 2:
        return {}
    # hands and players as small integers for the joins (string keys cost most of the time)
    rows = shared.filter(pl.col("player").is_in(group)).select(
        pl.col("hand_id").cast(pl.Categorical).to_physical().alias("hand_id"),
        pl.col("player").replace_strict({p: i for i, p in enumerate(sorted(group))}, return_dtype=pl.Int32),
        pl.col("net").cast(pl.Int64))
    return _flow(rows, sorted(group))


def _flow(rows: pl.DataFrame, names: list[str]) -> dict[tuple[str, str], int]:
    """``chip_flow`` on integer keys: ``hand_id`` (any integer key of the hand), ``player`` (the
    index of the name in ``names``, which are sorted) and ``net``."""
    winners = rows.filter(pl.col("net") > 0).rename({"player": "winner", "net": "won"})
    losers = rows.filter(pl.col("net") < 0).select("hand_id", pl.col("player").alias("loser"),
                                                   (-pl.col("net")).alias("lost"))
    if winners.is_empty() or losers.is_empty():
        return {}
    # per hand: the group's total won and its biggest winner (ties by name), who takes the remainder
    top = (winners.sort(["hand_id", "won", "winner"], descending=[False, True, False])
           .group_by("hand_id", maintain_order=True)
           .agg(pl.col("won").sum().alias("total_won"), pl.col("winner").first().alias("top")))
    x = losers.join(winners, on="hand_id").join(top, on="hand_id").with_columns(
        pl.min_horizontal("lost", "total_won").alias("moved"))
    x = x.with_columns((pl.col("moved") * pl.col("won") // pl.col("total_won")).alias("share"))
    rest = x.group_by(["hand_id", "loser"]).agg((pl.col("moved").first() - pl.col("share").sum()).alias("rest"))
    x = x.join(rest, on=["hand_id", "loser"]).with_columns(
        pl.when(pl.col("winner") == pl.col("top")).then(pl.col("share") + pl.col("rest"))
        .otherwise(pl.col("share")).alias("share"))
    flow = {(names[a], names[b]): int(v) for a, b, v in
            x.group_by(["loser", "winner"]).agg(pl.col("share").sum()).iter_rows()}
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
    """Finding counts by rule, table or rulebook: violations (errors, warnings) and house decisions apart."""
    if by not in ("rule", "table", "rulebook"):
        raise ValueError(f"cannot group violations by {by!r}")
    with connect(db) as con:
        if not available(con, "dash_violations_by"):
            return pl.DataFrame()
        return _frame(
            con,
            f"SELECT key AS {by}, violations, errors, warnings, house_decisions, hands"
            f" FROM {source(con, 'dash_violations_by')} WHERE dim = ?"
            " ORDER BY violations DESC, house_decisions DESC, key",
            [by],
        )


def violations_list(db: str | Path, rule_id: str | None = None, limit: int = 500) -> pl.DataFrame:
    """Findings (of one rule, or all) with table, time and player, in rule/hand/action order."""
    with connect(db) as con:
        if not available(con, "dash_violations"):
            return pl.DataFrame()
        return _frame(
            con,
            f"SELECT * FROM {source(con, 'dash_violations')} WHERE ? IS NULL OR rule_id = ?"
            " ORDER BY rule_id, hand_id, action_seq NULLS FIRST LIMIT ?",
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


def find_players(db: str | Path, text: str, limit: int = 20) -> list[str]:
    """Player names matching what a reviewer typed, best first: the exact name; else names equal
    to it ignoring case; else names containing it, ignoring case (shortest first). A ``site:``
    prefix is accepted and ignored (players are keyed by their seat name)."""
    t = text.strip()
    if ":" in t:
        t = t.split(":", 1)[1].strip() or t
    if not t:
        return []
    with connect(db) as con:
        if not available(con, "dash_player"):
            return []
        src = source(con, "dash_player")
        if con.execute(f"SELECT 1 FROM {src} WHERE {BY_PLAYER} LIMIT 1", [t, t]).fetchone():
            return [t]
        rows = con.execute(
            f"SELECT player, max(hands) AS n FROM {src} WHERE contains(lower(player), lower(?)) GROUP BY player"
            " ORDER BY lower(player) = lower(?) DESC, length(player), n DESC, player LIMIT ?", [t, t, limit],
        ).fetchall()
    return [r[0] for r in rows]


def player_days(db: str | Path, player: str) -> pl.DataFrame:
    """The player's HUD counts per site and day of the latest detector run (empty without one)."""
    with connect(db) as con:
        if not available(con, "dash_player_days"):
            return pl.DataFrame()
        return _frame(con, f"SELECT * EXCLUDE (pkey) FROM {source(con, 'dash_player_days')} WHERE {BY_PLAYER}"
                           " ORDER BY site, hand_date", [player, player])


def player_hands(db: str | Path, player: str) -> pl.DataFrame:
    """One row per hand the player sat in: table, time, currency, big blind and net result (units)."""
    with connect(db) as con:
        return _frame(con, f"SELECT hr, table_name, started_at, currency, unit_scale, bb, net"
                           f" FROM {source(con, 'dash_seat')} WHERE {BY_PLAYER} ORDER BY started_at, hr",
                      [player, player])


def opponents(db: str | Path, player: str, limit: int = 25) -> pl.DataFrame:
    """The players this one shared most hands with (the detectors' pair statistics, latest run)."""
    with connect(db) as con:
        if not available(con, "dash_opponents"):
            return pl.DataFrame()
        return _frame(con, f"SELECT opponent, hands_together, confrontations, heads_up"
                           f" FROM {source(con, 'dash_opponents')} WHERE {BY_PLAYER}"
                           " ORDER BY hands_together DESC, opponent LIMIT ?", [player, player, limit])


# -- aggregates computed in the snapshot (no per-hand rows sent to Python) -------------------------
# Why: a pair of regulars can share a hundred thousand hands and a regular play two hundred
# thousand; reading those rows out (hand id strings, polars frames, the page cache's pickling) cost
# seconds per view at 1M hands. DuckDB computes the same figures over the pruned summary rows.

def _mine_sql(src: str, n: int) -> str:
    return " UNION ALL ".join(
        f"SELECT hr, table_name, started_at, player, net FROM {src} WHERE {BY_PLAYER}" for _ in range(n))


def group_hands(db: str | Path, players: Sequence[str]) -> pl.DataFrame:
    """The rows of ``players`` in the hands where at least two of them sat, narrow (hand row number
    ``hr``, table, time, the player's index in the sorted names ``p``, net), read once for the
    page's chip flow and sessions."""
    ps = sorted(set(players))
    with connect(db) as con:
        src = source(con, "dash_seat")
        whens = " ".join(f"WHEN ? THEN {i}" for i in range(len(ps)))
        return _frame(
            con,
            f"""
            WITH mine AS ({_mine_sql(src, len(ps))})
            SELECT hr, table_name, started_at, CAST(CASE player {whens} END AS INTEGER) AS p, net FROM mine
            WHERE hr IN (SELECT hr FROM mine GROUP BY hr HAVING count(*) >= 2)
            """,
            [*(x for p in ps for x in (p, p)), *ps],
        )


def group_flow(db: str | Path, players: Sequence[str],
               rows: pl.DataFrame | None = None) -> dict[tuple[str, str], int]:
    """``chip_flow`` of ``players`` over their shared hands from the narrow rows of ``group_hands``
    (same rule and result)."""
    ps = sorted(set(players))
    if len(ps) < 2:
        return {}
    g = rows if rows is not None else group_hands(db, ps)
    if g.is_empty():
        return {}
    return _flow(g.select(pl.col("hr").alias("hand_id"), pl.col("p").alias("player"), pl.col("net").cast(pl.Int64)),
                 ps)


def group_sessions(db: str | Path, players: Sequence[str], gap_minutes: int = 30,
                   rows: pl.DataFrame | None = None) -> pl.DataFrame:
    """``sessions`` of ``players`` (hands where at least two of them sat) from ``group_hands``."""
    ps = sorted(set(players))
    empty = pl.DataFrame(schema={"table_name": pl.String, "start": pl.Datetime("us"), "end": pl.Datetime("us"),
                                 "hands": pl.UInt32, "players": pl.List(pl.String)})
    if len(ps) < 2:
        return empty
    g = rows if rows is not None else group_hands(db, ps)
    if g.is_empty():
        return empty
    per_hand = (g.group_by("hr").agg(pl.col("table_name").first(), pl.col("started_at").first(),
                                     pl.col("p").unique().alias("ps"))
                .sort(["table_name", "started_at", "hr"]))
    per_hand = per_hand.with_columns(
        ((pl.col("started_at").diff().over("table_name") > pl.duration(minutes=gap_minutes))
         .fill_null(True).cum_sum().over("table_name")).alias("session"))
    out = (per_hand.group_by(["table_name", "session"])
           .agg(pl.col("started_at").min().alias("start"), pl.col("started_at").max().alias("end"),
                pl.len().alias("hands"), pl.col("ps").explode().unique().sort().alias("ps"))
           .sort(["start", "table_name"]))
    return out.select("table_name", "start", "end", "hands",
                      pl.col("ps").list.eval(pl.element().replace_strict(dict(enumerate(ps)),
                                                                         return_dtype=pl.String)).alias("players"))


def player_line(db: str | Path, player: str, points: int = 2000) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The player's results graph data, computed in the snapshot: (cumulative net won in currency
    units after every k-th hand and the last, per currency; each day's last hand with the cumulative
    net then and the day's median big blind in units). See ``hud.results_series``."""
    with connect(db) as con:
        if materialised(con, "dash_player_line"):
            both = _frame(con, "SELECT part, currency, hand, net_won, hand_date, bb_units FROM dash_player_line"
                               f" WHERE {BY_PLAYER}", [player, player])
            return _line_parts(both)
        src = source(con, "dash_seat")
        both = _frame(
            con,
            f"""
            WITH c AS MATERIALIZED (
                SELECT currency, CAST(started_at AS DATE) AS hand_date, bb::DOUBLE / unit_scale AS bb_units,
                       row_number() OVER w AS hand, sum(net::DOUBLE / unit_scale) OVER w AS net_won,
                       count(*) OVER (PARTITION BY currency) AS n
                FROM {src} WHERE {BY_PLAYER}
                WINDOW w AS (PARTITION BY currency ORDER BY started_at, hr ROWS UNBOUNDED PRECEDING))
            SELECT 'line' AS part, currency, hand, net_won, NULL::DATE AS hand_date, NULL::DOUBLE AS bb_units
            FROM c WHERE (hand - 1) % greatest(1, CAST(ceil(n / ?) AS BIGINT)) = 0 OR hand = n
            UNION ALL
            SELECT 'end', currency, max(hand), arg_max(net_won, hand), hand_date, median(bb_units)
            FROM c GROUP BY currency, hand_date
            """,
            [player, player, points],
        )
    return _line_parts(both)


def _line_parts(both: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    line = both.filter(pl.col("part") == "line").select("currency", "hand", "net_won").sort(["currency", "hand"])
    ends = (both.filter(pl.col("part") == "end").select("currency", "hand_date", "hand", "net_won", "bb_units")
            .sort(["currency", "hand"]))
    return line, ends


def player_sessions(db: str | Path, player: str, gap_minutes: int = 30) -> pl.DataFrame:
    """The player's sessions (``hud.player_sessions``), computed in the snapshot (read from the
    nightly ``dash_player_sessions`` when the gap is its 30 minutes)."""
    with connect(db) as con:
        if gap_minutes == 30 and materialised(con, "dash_player_sessions"):
            return _frame(con, 'SELECT table_name, start, "end", hands, currency, net FROM dash_player_sessions'
                               f" WHERE {BY_PLAYER} ORDER BY start, table_name", [player, player])
        src = source(con, "dash_seat")
        return _frame(
            con,
            f"""
            WITH h AS (SELECT hr, table_name, started_at, currency, unit_scale, net FROM {src} WHERE {BY_PLAYER}),
            g AS (SELECT *, CASE WHEN started_at - lag(started_at)
                                          OVER (PARTITION BY table_name ORDER BY started_at, hr)
                                      <= INTERVAL (?) MINUTE THEN 0 ELSE 1 END AS new FROM h),
            s AS (SELECT *, sum(new) OVER (PARTITION BY table_name ORDER BY started_at, hr
                                           ROWS UNBOUNDED PRECEDING) AS session FROM g)
            SELECT table_name, min(started_at) AS start, max(started_at) AS "end", count(*) AS hands, currency,
                   sum(net)::DOUBLE / any_value(unit_scale) AS net
            FROM s GROUP BY table_name, session, currency ORDER BY start, table_name
            """,
            [player, player, gap_minutes],
        )


def pair_overview(db: str | Path, a: str, b: str) -> pl.DataFrame:
    """Per player of the pair, over the hands both sat in: hands, net (units), currency, unit scale."""
    ps = sorted({a, b})
    with connect(db) as con:
        if materialised(con, "dash_group_nets") and con.execute(
                "SELECT 1 FROM dash_groups WHERE grp = ?::VARCHAR[]", [ps]).fetchone() is not None:
            return _frame(con, "SELECT player, currency, unit_scale, hands, net FROM dash_group_nets"
                               " WHERE grp = ?::VARCHAR[] ORDER BY currency, player", [ps])
        src = source(con, "dash_seat")
        return _frame(
            con,
            f"""
            WITH mine AS (SELECT hr, player, net, currency, unit_scale FROM {src} WHERE {BY_PLAYER}
                          UNION ALL SELECT hr, player, net, currency, unit_scale FROM {src} WHERE {BY_PLAYER}),
            m AS (SELECT * FROM mine WHERE hr IN (SELECT hr FROM mine GROUP BY hr HAVING count(DISTINCT player) = 2))
            SELECT player, currency, any_value(unit_scale) AS unit_scale, count(*) AS hands,
                   CAST(sum(net) AS BIGINT) AS net
            FROM m GROUP BY player, currency ORDER BY currency, player
            """,
            [ps[0], ps[0], ps[1], ps[1]],
        )


def shared_page(db: str | Path, a: str, b: str, offset: int, limit: int) -> pl.DataFrame:
    """One page of the pair's shared hands in time order: hand id, table, time, each one's net in
    currency units (only this page's hand ids are read)."""
    ps = sorted({a, b})
    with connect(db) as con:
        src = source(con, "dash_seat")
        page = _frame(
            con,
            f"""
            WITH x AS (SELECT hr, table_name, started_at, net::DOUBLE / unit_scale AS net FROM {src} WHERE {BY_PLAYER}),
            y AS (SELECT hr, net::DOUBLE / unit_scale AS net FROM {src} WHERE {BY_PLAYER}),
            p AS (SELECT x.hr, x.table_name, x.started_at, x.net AS a, y.net AS b FROM x JOIN y USING (hr)
                  ORDER BY x.started_at, x.hr LIMIT ? OFFSET ?)
            SELECT h.hand_id, p.table_name, p.started_at, p.a, p.b
            FROM p JOIN hands h ON h.rowid = p.hr ORDER BY p.started_at, p.hr
            """,
            [ps[0], ps[0], ps[1], ps[1], limit, offset],
        )
    return page.rename({"a": ps[0], "b": ps[1]})


def group_figures(db: str | Path, players: Sequence[str]) -> tuple[dict[tuple[str, str], int], pl.DataFrame]:
    """(chip flow, sessions) of a group: read from the nightly ``dash_group_*`` summaries when the
    group is a flag's (every case's players and pairs are), else computed from ``group_hands``."""
    ps = sorted(set(players))
    if len(ps) < 2:
        return {}, group_sessions(db, ps)
    with connect(db) as con:
        known = materialised(con, "dash_groups") and con.execute(
            "SELECT 1 FROM dash_groups WHERE grp = ?::VARCHAR[]", [ps]).fetchone() is not None
        if known:
            rows = con.execute("SELECT loser, winner, chips FROM dash_group_flow WHERE grp = ?::VARCHAR[]",
                               [ps]).fetchall()
            sess = _frame(con, 'SELECT table_name, start, "end", CAST(hands AS UINTEGER) AS hands, players'
                               " FROM dash_group_sessions WHERE grp = ?::VARCHAR[] ORDER BY start, table_name", [ps])
    if not known:
        g = group_hands(db, ps)
        return group_flow(db, ps, g), group_sessions(db, ps, rows=g)
    flow = {(str(a), str(b)): int(v) for a, b, v in rows}
    net: dict[tuple[str, str], int] = {}
    for (a, b), v in flow.items():
        back = flow.get((b, a), 0)
        if v > back:
            net[(a, b)] = v - back
    return dict(sorted(net.items())), (sess if not sess.is_empty() else group_sessions(db, []))
