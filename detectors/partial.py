"""Detector work per partition: each partition's per-hand features, player statistics and pair
rows, built where the partition is built and only combined at night.

Why: everything here is a function of one hand (features, decisions, strength, all-in equity,
chip flows, squeezes, co-presence per table) or a plain sum over hands (player statistics per day),
so it can be computed by the partition workers in parallel; the night's single writer then only
renumbers and sums these tables and runs what needs the whole population (pair baselines,
contrasts against them, the model, evidence).

Why renumber: the features key hands, players and tables by integers (``hk``, ``pk``, ``tk``),
numbered within what one run sees. A partition numbers its own; the night gives every player and
table the number a single run over the combined warehouse would give it (``pk`` by (site, name),
``tk`` by table name) and shifts each partition's hand numbers past the previous one's (no result
depends on the hand numbers' order, only on which rows share one).

Why a separate file per partition (``<work>/detect_parts/<partition>.duckdb``) and not tables
inside the partition file: the combined warehouse starts as a byte copy of the first partition,
and the published snapshot must not carry these. Each file records the size and modification time
of the partition file it was built from and the mode; the night uses the partitions' files only
when every published partition has one that matches and their hands are exactly the warehouse's
detected hands, otherwise it computes everything in one go (same results, slower).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import duckdb

from detectors import allin, features, stats
from warehouse.db import open_duckdb

#: bump when a table's columns or meaning change: older partition files are then not used
VERSION = "1"

#: hand-keyed tables (hk) and which of their columns are player (pk) or table (tk) numbers
KEYED: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "k_hp": (("pk",), ("tk",)),
    "k_dec": (("pk", "last_aggr"), ()),
    "k_strength": (("pk",), ()),
    "k_cards": (("pk",), ()),
    "k_pflow": (("a", "b"), ()),
    "k_psq": (("a", "b"), ()),
}
#: string-keyed sums (t_player_stats: per day and player) and the rest as is (allin_ev)
STORED = ("k_hand", "k_player", *KEYED, "k_tog_t", "allin_ev", "t_player_stats")
#: what a detector run reads after the per-partition stages (k_cards only for snapshots)
NIGHT = tuple(t for t in STORED if t != "k_cards")


def token(part: Path) -> str:
    """What ties a detector file to the exact partition file it was built from."""
    st = part.stat()
    return f"{st.st_size}:{st.st_mtime_ns}"


def build(part: Path, out: Path, mode: str = "operator", part_token: str | None = None) -> int:
    """Compute one partition's detector tables from ``part`` (read-only) into a new file ``out``;
    returns the hands. ``part_token``: the token of the file ``part`` becomes (default: its own)."""
    if out.exists():
        out.unlink()
    con = open_duckdb(part, read_only=True)  # the deployment's threads and memory limit
    try:
        con.execute("SET preserve_insertion_order = false")
        features.build(con, mode)
        allin.build_allin_ev(con, mode)
        stats.player_stats(con)
        stats.per_hand_pair_rows(con)
        con.execute(f"ATTACH '{out}' AS dp (READ_WRITE)")  # the partition itself stays read-only
        for table in STORED:
            con.execute(f"CREATE TABLE dp.{table} AS SELECT * FROM {table}")
        hands = _count(con, "SELECT count(*) FROM k_hand")
        con.execute("CREATE TABLE dp.meta (version VARCHAR, mode VARCHAR, part_token VARCHAR, hands BIGINT)")
        con.execute("INSERT INTO dp.meta VALUES (?, ?, ?, ?)", [VERSION, mode, part_token or token(part), hands])
        con.execute("DETACH dp")
    finally:
        con.close()
    return hands


def _count(con: duckdb.DuckDBPyConnection, sql: str, params: list[object] | None = None) -> int:
    row = con.execute(sql, params or []).fetchone()
    return int(row[0]) if row else 0


def usable(pairs: Sequence[tuple[Path, str]], mode: str) -> bool:
    """Every (detector file, token of the partition file combined) present once, of this version
    and mode, and built from exactly that partition file."""
    files = [f.resolve() for f, _ in pairs]
    if not files or len(set(files)) < len(files):
        return False
    for partial, part_token in pairs:
        if not partial.exists():
            return False
        con = open_duckdb(partial, read_only=True)
        try:
            row = con.execute("SELECT version, mode, part_token FROM meta").fetchone()
        except duckdb.Error:
            return False
        finally:
            con.close()
        if row != (VERSION, mode, part_token):
            return False
    return True


def load(con: duckdb.DuckDBPyConnection, pairs: Sequence[tuple[Path, str]], mode: str,
         tables: Sequence[str] = NIGHT) -> bool:
    """Create the run's k_ tables, allin_ev and t_player_stats from the partitions' detector files
    (with the views a built run has) on ``con``, the combined warehouse; False (and nothing
    created) when they do not stand for exactly the warehouse's detected hands."""
    if not usable(pairs, mode):
        return False
    aliases = [f"_dp{i}" for i in range(len(pairs))]
    for alias, (partial, _) in zip(aliases, pairs, strict=True):
        con.execute(f"ATTACH '{partial}' AS {alias} (READ_ONLY)")
    try:
        offsets = _hands(con, aliases)
        if not _same_hands(con):
            for t in ("k_hand", "_tmap"):
                con.execute(f"DROP TABLE IF EXISTS {t}")
            return False
        _players(con, aliases)
        for table in tables:
            if table in KEYED:
                _keyed(con, aliases, offsets, table)
        _summed(con, aliases, tables)
        for t in ("_pmap", "_tmap"):
            con.execute(f"DROP TABLE IF EXISTS {t}")
    finally:
        for alias in aliases:
            con.execute(f"DETACH {alias}")
    features.create_views(con, [v for v in features.VIEWS if v != "cards" or "k_cards" in tables])
    stats.pair_views(con)
    return True


def _union(aliases: Sequence[str], select: str, table: str) -> str:
    """``select`` over each partition's ``table`` ({a}: the alias, {i}: its number), stacked."""
    return " UNION ALL ".join(select.format(a=a, i=i) + f" FROM {a}.{table} t" for i, a in enumerate(aliases))


def _hands(con: duckdb.DuckDBPyConnection, aliases: Sequence[str]) -> list[int]:
    """k_hand with each partition's hand numbers shifted past the previous partitions' (returns
    the shifts) and tables numbered over all partitions, as one run's dense_rank by name does
    (_tmap: each partition's table numbers)."""
    offsets, total = [], 0
    for a in aliases:
        offsets.append(total)
        total += _count(con, f"SELECT coalesce(max(hk), 0) FROM {a}.k_hand")
    union = " UNION ALL ".join(
        f"SELECT {i} AS _i, t.tk AS _ltk, t.* REPLACE (CAST(t.hk + {off} AS INTEGER) AS hk) FROM {a}.k_hand t"
        for i, (a, off) in enumerate(zip(aliases, offsets, strict=True)))
    con.execute(f"""CREATE OR REPLACE TEMP TABLE k_hand AS
        SELECT * REPLACE (CAST(dense_rank() OVER (ORDER BY table_name) AS INTEGER) AS tk) FROM ({union})""")
    con.execute("CREATE OR REPLACE TEMP TABLE _tmap AS SELECT DISTINCT _i AS i, _ltk AS ltk, tk FROM k_hand")
    con.execute("ALTER TABLE k_hand DROP COLUMN _i")
    con.execute("ALTER TABLE k_hand DROP COLUMN _ltk")
    return offsets


def _same_hands(con: duckdb.DuckDBPyConnection) -> bool:
    """The partitions' hands are the warehouse's detected hands, each once (a hand in two
    partitions is stored once in the warehouse: its rows would count twice here)."""
    where = features.detected_hands()
    n_build = _count(con, f"SELECT count(*) FROM hands h WHERE {where}")
    n_parts = _count(con, "SELECT count(*) FROM k_hand")
    if n_build != n_parts:
        return False
    inside = _count(con, f"SELECT count(*) FROM k_hand k SEMI JOIN (SELECT hand_id FROM hands h WHERE {where}) "
                         "USING (hand_id)")
    covered = _count(con, f"SELECT count(*) FROM hands h SEMI JOIN k_hand k USING (hand_id) WHERE {where}")
    return inside == n_parts and covered == n_build


def _players(con: duckdb.DuckDBPyConnection, aliases: Sequence[str]) -> None:
    """k_player numbered over all partitions by (site, name), and _pmap: each partition's numbers."""
    union = _union(aliases, "SELECT t.site, t.name, t.player, t.anon", "k_player")
    con.execute(f"""CREATE OR REPLACE TEMP TABLE k_player AS
        SELECT CAST(row_number() OVER (ORDER BY site, name) AS INTEGER) AS pk, site, name, player, anon
        FROM (SELECT DISTINCT * FROM ({union}))""")
    union = _union(aliases, "SELECT {i} AS i, t.pk AS lpk, t.site, t.name", "k_player")
    con.execute(f"""CREATE OR REPLACE TEMP TABLE _pmap AS
        SELECT u.i, u.lpk, g.pk FROM ({union}) u JOIN k_player g USING (site, name)""")


def _keyed(con: duckdb.DuckDBPyConnection, aliases: Sequence[str], offsets: Sequence[int], table: str) -> None:
    """One hand-keyed table of every partition, with the night's hand, player and table numbers."""
    players, tables = KEYED[table]
    parts = []
    for i, a in enumerate(aliases):
        joins = [f"LEFT JOIN _pmap m_{c} ON m_{c}.i = {i} AND m_{c}.lpk = t.{c}" for c in players]
        joins += [f"LEFT JOIN _tmap m_{c} ON m_{c}.i = {i} AND m_{c}.ltk = t.{c}" for c in tables]
        swaps = [f"CAST(t.hk + {offsets[i]} AS INTEGER) AS hk"]
        swaps += [f"m_{c}.pk AS {c}" for c in players] + [f"m_{c}.tk AS {c}" for c in tables]
        parts.append(f"SELECT t.* REPLACE ({', '.join(swaps)}) FROM {a}.{table} t {' '.join(joins)}")
    con.execute(f"CREATE OR REPLACE TEMP TABLE {table} AS {' UNION ALL '.join(parts)}")


def _summed(con: duckdb.DuckDBPyConnection, aliases: Sequence[str], tables: Sequence[str]) -> None:
    """Tables that are sums: a day, pair and table (k_tog_t) or a day and player (t_player_stats)
    seen by two partitions (a table's files in two shards) is one row, its counts added; allin_ev
    is per hand and player, stacked."""
    if "allin_ev" in tables:
        con.execute(f"CREATE OR REPLACE TEMP TABLE allin_ev AS {_union(aliases, 'SELECT t.*', 'allin_ev')}")
    if "k_tog_t" in tables:
        parts = [f"""SELECT t.hand_date, ma.pk AS a, mb.pk AS b, mt.tk, t.n, t.c1, t.c2, t.c3 FROM {a}.k_tog_t t
                 JOIN _pmap ma ON ma.i = {i} AND ma.lpk = t.a JOIN _pmap mb ON mb.i = {i} AND mb.lpk = t.b
                 JOIN _tmap mt ON mt.i = {i} AND mt.ltk = t.tk""" for i, a in enumerate(aliases)]
        con.execute(f"""CREATE OR REPLACE TEMP TABLE k_tog_t AS
            SELECT hand_date, a, b, tk, CAST(sum(n) AS BIGINT) AS n, CAST(sum(c1) AS BIGINT) AS c1,
                   CAST(sum(c2) AS BIGINT) AS c2, CAST(sum(c3) AS BIGINT) AS c3
            FROM ({' UNION ALL '.join(parts)}) GROUP BY ALL""")
    if "t_player_stats" in tables:
        cols = con.execute(f"DESCRIBE {aliases[0]}.t_player_stats").fetchall()
        sums = ", ".join(f"CAST(sum({c}) AS {t}) AS {c}" for c, t, *_ in cols if c not in ("hand_date", "player"))
        con.execute(f"""CREATE OR REPLACE TEMP TABLE t_player_stats AS
            SELECT hand_date, player, {sums} FROM ({_union(aliases, 'SELECT t.*', 't_player_stats')}) GROUP BY ALL""")
