"""One detector run: features → player/pair statistics → scores → flags with evidence, stored.

Why one function: the CLI, the nightly Dagster asset and the tests call the same ``detect``; a
run writes its statistics, its flags and a ``detector_runs`` row (versions and parameters) so
a flag can be traced to exactly what produced it.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from detectors import allin, evrank, features, graph, learn, pairfx, pairs, stats
from detectors.families import FAMILIES, TEXT, VERSION, evidence, rule_scores

DETECTOR_VERSIONS = {f: VERSION for f in (*FAMILIES, "collusion_ring", "anomaly")} | {
    "features": "1.1.0", "pair_model": learn.MODEL_VERSION, "evidence_ranker": evrank.RANKER_VERSION,
}


@dataclass
class Params:
    """Everything that changes which flags come out (stored with each run and flag)."""

    mode: str = "operator"
    since: str | None = None
    until: str | None = None
    min_hands: int = pairs.MIN_HANDS
    min_score: float = 0.05  # lowest score that becomes a flag
    medium: float = 0.5
    high: float = 0.9
    high_min_hu: int = 10  # a high-severity flag needs at least this many heads-up spots or squeezes
    high_min_rule: float = 2.0  # ... and its family's own behavioural contrast (rule score, z units)
    ring_edge: float = 0.5
    team_edge: float = 0.2  # pair flags of one family at least this strong join into a team flag
    anomaly_pct: float = 0.9995  # isolation-forest percentile that becomes an anomaly flag
    rule_scale: float = 4.0  # without a model: score = 1 - exp(-max(rule, 0) / rule_scale)
    model: str | None = None
    evidence_model: str | None = None  # evidence ranker file (default: detectors/models, per mode; SQL order without)
    memory_limit: str = "4GB"  # DuckDB's own cap (the machine budget is 8 GB for the whole process)
    threads: int | None = None


@dataclass
class RunSummary:
    run_id: str
    mode: str
    hands: int
    players: int
    pairs_scored: int
    flags: int
    by_family: dict[str, int] = field(default_factory=dict)
    by_severity: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    model: str | None = None


def apply_schema(con: duckdb.DuckDBPyConnection) -> None:
    _migrate_flags_key(con)
    con.execute(resources.files("detectors").joinpath("schema.sql").read_text(encoding="utf-8"))


def _migrate_flags_key(con: duckdb.DuckDBPyConnection) -> None:
    """Warehouses made before stable flag ids keyed flags on flag_id alone; a stable id repeats in
    every run, so the key becomes (run_id, flag_id). Rebuild the table once, rows kept."""
    row = con.execute(
        """SELECT constraint_column_names FROM duckdb_constraints()
        WHERE table_name = 'flags' AND constraint_type = 'PRIMARY KEY' AND schema_name = current_schema()"""
    ).fetchone()
    if row is None or list(row[0]) != ["flag_id"]:
        return
    con.execute("BEGIN")
    con.execute("ALTER TABLE flags RENAME TO flags_before_stable_ids")
    con.execute(resources.files("detectors").joinpath("schema.sql").read_text(encoding="utf-8"))
    con.execute("INSERT INTO flags BY NAME SELECT * FROM flags_before_stable_ids")
    con.execute("DROP TABLE flags_before_stable_ids")
    con.execute("COMMIT")


def compute(con: duckdb.DuckDBPyConnection, params: Params) -> pl.DataFrame:
    """Build features and statistics (temp tables) and return the scored unordered pairs."""
    features.build(con, params.mode, params.since, params.until)
    allin.build_allin_ev(con)
    stats.player_stats(con)
    stats.pair_stats(con)
    summed = pairs.summed_pair_stats(con)
    return frame_from_summed(summed, params.min_hands)


def frame_from_summed(summed: pl.DataFrame, min_hands: int = pairs.MIN_HANDS) -> pl.DataFrame:
    """Unordered scored pairs from the summed ordered pair statistics (pure polars: training
    caches the summed statistics and rebuilds the pair frame without the warehouse)."""
    u = pairs.unordered(pairs.directional(summed), min_hands)
    return rule_scores(pairfx.add(u, summed))


def score(u: pl.DataFrame, params: Params) -> tuple[pl.DataFrame, learn.PairModel | None]:
    """Add p_pair and p_<family> (model, else scaled rule scores) and the anomaly percentile."""
    path = Path(params.model) if params.model else learn.model_path(params.mode)
    model = learn.load(path)
    if model is not None and u.height:
        u = model.predict(u)
    else:
        u = u.with_columns(
            [(1 - (-(pl.col(f"r_{f}").clip(lower_bound=0) / params.rule_scale)).exp()).alias(f"p_{f}")
             for f in FAMILIES]
        ).with_columns(pl.max_horizontal([f"p_{f}" for f in FAMILIES]).alias("p_pair"))
    return learn.anomaly_scores(u), model


def _percentiles(u: pl.DataFrame, cols: list[str]) -> pl.DataFrame:
    return u.with_columns([(pl.col(c).rank("average") / max(u.height, 1)).alias(f"pct_{c}") for c in cols])


OBSERVED = {
    "soft_play": ["z_hu_post_aggr_ab", "z_hu_post_aggr_ba", "z_checkdown", "hu_confrontations", "hu_checkdowns"],
    "chip_dumping": ["x_beaten_ab", "x_beaten_ba", "x_fold_ab", "x_fold_ba", "net_flow_cbb", "confrontations"],
    "squeeze": ["z_face_pre_aggr_ab", "z_face_pre_aggr_ba", "x_squeeze_ab", "x_squeeze_ba", "squeezes_ab",
                "squeezes_ba"],
    "card_sharing": ["z_cs_ab", "z_cs_ba", "cs_b_stronger_n", "cs_b_stronger_fold"],
    "anomaly": ["anomaly_raw"],
}


def plain_name(key: str) -> str:
    """The screen name of a ``site:name`` player key (what an analyst sees in the hands)."""
    return key.split(":", 1)[1] if ":" in key else key


def stable_flag_id(mode: str, family: str, keys: list[str]) -> str:
    """Same (mode, family, site-scoped players) -> same id every night, so the review queue keeps
    one case per pair or group and the run report can tell new cases from updated ones."""
    return hashlib.sha256("|".join([mode, family, *sorted(keys)]).encode()).hexdigest()[:20]


def _severity(s: float, exposure: float, p: Params) -> str:
    if s >= p.high and exposure >= p.high_min_hu:
        return "high"
    return "medium" if s >= p.medium else "low"


def build_flags(con: duckdb.DuckDBPyConnection, u: pl.DataFrame, params: Params, run_id: str,
                model: learn.PairModel | None) -> pl.DataFrame:
    """Flag rows in the ``flags`` table shape."""
    all_obs = sorted({c for cols in OBSERVED.values() for c in cols if c in u.columns})
    u = _percentiles(u, all_obs)
    now = datetime.now(UTC).replace(tzinfo=None)
    ranker = evrank.load(Path(params.evidence_model) if params.evidence_model else evrank.model_path(params.mode))
    params_json = json.dumps(asdict(params) | {"model_version": model.version if model else None,
                                               "evidence_ranker": ranker.version if ranker else None}, sort_keys=True)
    rows: list[dict[str, Any]] = []
    medians: dict[str, float] = {
        c: float(u.select(pl.col(c).cast(pl.Float64).median()).item() or 0.0) for c in all_obs
    }
    for r in u.iter_rows(named=True):
        a, b = r["player_a"], r["player_b"]
        na, nb = plain_name(a), plain_name(b)
        exposure = float(r["hu_confrontations"] + r.get("squeezes_ab", 0) + r.get("squeezes_ba", 0))
        cands = [(f, float(r[f"p_{f}"])) for f in FAMILIES]
        if r["anomaly"] >= params.anomaly_pct and r["p_pair"] < params.min_score:
            cands.append(("anomaly", 0.5 * params.min_score + 0.5 * params.min_score * r["anomaly"]))
        for fam, s in cands:
            if s < params.min_score:
                continue
            obs: dict[str, Any] = {c: {"value": round(float(r[c]), 3), "population_median": round(medians[c], 3),
                       "percentile": round(float(r[f"pct_{c}"]) * 100, 2)}
                   for c in OBSERVED[fam] if c in r}
            obs["pair_score"] = round(float(r["p_pair"]), 4)
            obs["hands_together"] = int(r["hands_together"])
            obs["player_keys"] = [a, b]
            text = TEXT[fam]
            rows.append({
                "flag_key": f"{fam}|{a}|{b}", "family": fam, "a": a, "b": b, "players": [na, nb], "keys": [a, b],
                "score": round(s, 6),
                "severity": "low" if fam == "anomaly" else _severity(
                    s, exposure if float(r[f"r_{fam}"]) >= params.high_min_rule else 0.0, params),
                "explanation": text.explanation.format(a=na, b=nb), "observed": json.dumps(obs, sort_keys=True),
                "benign_explanation": text.benign.format(a=na, b=nb), "overturn": text.overturn.format(a=na, b=nb),
            })
    flags = pl.DataFrame(rows) if rows else pl.DataFrame(
        schema={"flag_key": pl.String, "family": pl.String, "a": pl.String, "b": pl.String,
                "players": pl.List(pl.String), "keys": pl.List(pl.String), "score": pl.Float64, "severity": pl.String,
                "explanation": pl.String, "observed": pl.String, "benign_explanation": pl.String,
                "overturn": pl.String})
    ev = evidence(con, flags.select("flag_key", "family", "a", "b"), ranker=ranker) if rows else {}
    flags = flags.with_columns(
        pl.Series("evidence_hands", [ev.get(k, []) for k in flags["flag_key"]], dtype=pl.List(pl.String))
    )
    flags = pl.concat([flags, _group_flags(u, flags, params)], how="diagonal_relaxed")
    return _finish(con, flags, params, run_id, now=now, params_json=params_json)


def _group_flags(u: pl.DataFrame, flags: pl.DataFrame, params: Params) -> pl.DataFrame:
    """Rings (3+ players, every pair suspicious) and dumping funnels from the graph stage."""
    rows: list[dict[str, Any]] = []
    best = u.select(pl.col("player_a").alias("a"), pl.col("player_b").alias("b"), pl.col("p_pair").alias("score"))
    ev_by_pair = {(r["a"], r["b"]): r["evidence_hands"] for r in flags.sort("score").iter_rows(named=True)}
    groups: list[tuple[str, list[str], float]] = [
        ("collusion_ring", m, s) for m, s in graph.rings(best, params.ring_edge)
    ]
    for fam in FAMILIES:
        edges = flags.filter(pl.col("family") == fam).select("a", "b", "score")
        groups += [(fam, m, s) for m, s in graph.family_teams(edges, params.team_edge)]
    for fam, members, s in groups:
        pair_lists = [ev_by_pair.get((x, y), []) for i, x in enumerate(members) for y in members[i + 1 :]]
        merged: list[str] = []
        for k in range(max((len(p) for p in pair_lists), default=0)):
            merged += [p[k] for p in pair_lists if k < len(p) and p[k] not in merged]
        text = TEXT["collusion_ring" if fam == "collusion_ring" else fam]
        shown = [plain_name(m) for m in members]
        first, rest = shown[0], ", ".join(shown[1:])
        rows.append({
            "flag_key": f"{fam}|{'|'.join(members)}", "family": fam, "players": shown, "keys": members,
            "score": round(s, 6),
            "severity": _severity(s, params.high_min_hu, params), "evidence_hands": merged[:10],
            "explanation": text.explanation.format(players=", ".join(shown), a=first, b=rest),
            "observed": json.dumps({"members": shown, "player_keys": members, "weakest_pair_score": round(s, 4)}),
            "benign_explanation": text.benign.format(a=first, b=rest),
            "overturn": text.overturn.format(a=first, b=rest),
        })
    return pl.DataFrame(rows) if rows else pl.DataFrame()


def _finish(con: duckdb.DuckDBPyConnection, flags: pl.DataFrame, params: Params, run_id: str, *,
            now: datetime, params_json: str) -> pl.DataFrame:
    if flags.is_empty():
        return flags
    flags = flags.with_columns(
        pl.Series("flag_id", [stable_flag_id(params.mode, f, list(k))
                              for f, k in zip(flags["family"], flags["keys"], strict=True)], dtype=pl.String),
        pl.lit(run_id).alias("run_id"), pl.lit(params.mode).alias("mode"),
        pl.col("family").replace_strict(DETECTOR_VERSIONS, default=VERSION).alias("detector_version"),
        pl.lit(params_json).alias("params"), pl.lit(now).alias("created_at"),
    )
    # first / last shared hand of the flagged players (all of them seated)
    con.register("_fl", flags.select("flag_id", pl.col("keys").alias("players")).to_arrow())
    span = con.execute(
        """WITH x AS (SELECT flag_id, unnest(players) AS player, len(players) AS k FROM _fl),
        h AS (SELECT x.flag_id, hp.hand_id, any_value(hp.started_at) AS t, count(*) AS n, any_value(x.k) AS k
              FROM x JOIN hp ON hp.player = x.player GROUP BY ALL)
        SELECT flag_id, min(t) AS first_hand_at, max(t) AS last_hand_at FROM h WHERE n = k GROUP BY flag_id"""
    ).pl()
    con.unregister("_fl")
    return flags.join(span, on="flag_id", how="left").sort("score", descending=True)


FLAG_COLUMNS = ["flag_id", "run_id", "family", "players", "score", "severity", "mode", "explanation",
                "evidence_hands", "observed", "benign_explanation", "overturn", "detector_version", "params",
                "created_at", "first_hand_at", "last_hand_at"]


def detect(db: str | Path, params: Params | None = None, con: duckdb.DuckDBPyConnection | None = None
           ) -> RunSummary:
    """Run every detector on the warehouse at ``db`` and store statistics, flags and the run."""
    params = params or Params()
    t0 = time.perf_counter()
    started = datetime.now(UTC).replace(tzinfo=None)
    own = con is None
    con = con or duckdb.connect(str(db))
    try:
        con.execute(f"SET memory_limit = '{params.memory_limit}'")
        if params.threads:
            con.execute(f"SET threads = {int(params.threads)}")
        apply_schema(con)
        run_id = f"{params.mode}-{started:%Y%m%dT%H%M%S%f}"
        u = compute(con, params)
        u, model = score(u, params)
        flags = build_flags(con, u, params, run_id, model)
        con.execute("BEGIN")
        con.execute("INSERT INTO player_stats BY NAME SELECT $r AS run_id, * FROM t_player_stats", {"r": run_id})
        con.execute("INSERT INTO pair_stats BY NAME SELECT $r AS run_id, * FROM t_pair_stats", {"r": run_id})
        if not flags.is_empty():
            con.register("_flags", flags.select(FLAG_COLUMNS).to_arrow())
            con.execute("INSERT INTO flags BY NAME SELECT * FROM _flags")
            con.unregister("_flags")
        counts = con.execute("SELECT count(DISTINCT hand_id), count(DISTINCT player) FROM hp").fetchone()
        hands, players = counts or (0, 0)
        seconds = time.perf_counter() - t0
        con.execute(
            "INSERT INTO detector_runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [run_id, started, datetime.now(UTC).replace(tzinfo=None), params.mode, params.since, params.until,
             hands, players, u.height, flags.height, json.dumps(DETECTOR_VERSIONS),
             json.dumps(asdict(params) | {"model_version": model.version if model else None,
                                          "model_trained_on": model.trained_on if model else None},
                        sort_keys=True, default=str), seconds],
        )
        con.execute("COMMIT")
        fam = flags["family"].value_counts() if not flags.is_empty() else pl.DataFrame({"family": [], "count": []})
        sev = flags["severity"].value_counts() if not flags.is_empty() else pl.DataFrame({"severity": [], "count": []})
        return RunSummary(run_id, params.mode, int(hands), int(players), u.height, flags.height,
                          dict(fam.iter_rows()), dict(sev.iter_rows()), round(seconds, 2),
                          model.version if model else None)
    finally:
        if own:
            con.close()
