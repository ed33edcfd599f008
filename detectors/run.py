"""One detector run: features → player/pair statistics → scores → flags with evidence, stored.

Why one function: the CLI, the nightly Dagster asset and the tests call the same ``detect``; a
run writes its statistics, its flags and a ``detector_runs`` row (versions and parameters) so
a flag can be traced to exactly what produced it.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import polars.selectors as cs

from detectors import (
    allin,
    attribution,
    evrank,
    evsupport,
    features,
    graph,
    learn,
    pairfx,
    pairs,
    partial,
    queue,
    spill,
    stats,
    teams,
)
from detectors.calibrate import tail_probability
from detectors.families import (
    FAMILIES,
    MECHANISM_SPOTS,
    TEXT,
    UNSEEN_MECHANISM,
    VERSION,
    evidence,
    mechanism_spots,
    rule_scores,
)
from warehouse.db import open_duckdb

DETECTOR_VERSIONS = {f: VERSION for f in (*FAMILIES, "collusion_ring", "anomaly")} | {
    "features": "1.1.0", "pair_model": learn.MODEL_VERSION, "evidence_ranker": evrank.RANKER_VERSION,
    "family_model": attribution.FAMILY_MODEL_VERSION,
}


@dataclass
class Params:
    """Everything that changes which flags come out, and the resources of the run (the run record
    keeps both; each flag keeps the deciding ones, ``deciding``)."""

    mode: str = "operator"
    since: str | None = None
    until: str | None = None
    min_hands: int = pairs.MIN_HANDS
    budget_share: float = 0.01  # the queue: this share of the scored pairs (the top of the ranking) ...
    budget_per_1000_players: float | None = None  # ... or this many per 1,000 active players, if more
    budget_min: int = 10  # ... and never fewer than this
    budget_cap_per_1000_players: float | None = queue.DEFAULT_CAP_PER_1000_PLAYERS  # ... but at most this
    # many per 1,000 active players (None or 0: no cap)
    ranking: str = "model_z_team"  # model_z_team | model_z | model | calibrated | blend (ranking_score)
    evidence_weight: float = evsupport.WEIGHT  # queue log-odds per unit of evidence support (detectors.evsupport;
    # model_z orders only; 0: off)
    family_share_min: float = 0.1  # a flagged pair also gets a flag for each family with this share
    high_min_hu: int = 10  # a high-severity flag needs at least this many heads-up spots or squeezes
    high_min_rule: float = 2.0  # ... and its family's own behavioural contrast (rule score, z units)
    ring_edge: float = 0.0  # rings are cliques of flagged pairs (inside the budget) scoring at least this
    team_edge: float = 0.0  # flagged pairs of one family at least this strong join into a team flag
    anomaly_pct: float = 0.9995  # isolation-forest percentile that becomes an anomaly flag
    rule_scale: float = 4.0  # without a model: score = 1 - exp(-max(rule, 0) / rule_scale)
    model: str | None = None  # pair model file(s), comma-separated (default: every shipped model of the mode)
    evidence_model: str | None = None  # evidence ranker file (default: detectors/models, per mode; SQL order without)
    family_model: str | None = None  # family model file (default: detectors/models, per mode); without one,
    # the pair model's family probabilities, and without that a softmax of the families' robust z
    memory_limit: str = "4GB"  # DuckDB's own cap (the machine budget is 8 GB for the whole process)
    threads: int | None = None

    def deciding(self) -> dict[str, Any]:
        """The parameters that decide the flags, without the resources the run was given (``RESOURCES``)."""
        return {k: v for k, v in asdict(self).items() if k not in RESOURCES}


#: Params fields that say how a run was resourced, not what it found: the run's record
#: (``detector_runs``) keeps them; a flag's ``params`` leaves them out, so the same night gives the
#: same flags on a worker bounded to 6 GB and on a laptop (``make cluster-test`` compares them)
RESOURCES = frozenset({"memory_limit", "threads"})


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
    model: str | None = None  # pair model file(s), comma-separated (default: every shipped model of the mode)


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


#: temp tables a stage leaves behind that no later stage of a run reads (scoring, evidence, the
#: run's own inserts read k_hand, k_player, k_hp, k_dec, k_pdec, k_pflow, k_psq, k_pcs and the t_ tables)
RELEASED_AFTER = {
    "player_stats": ("k_spot", "k_act", "k_cards"),
    "pair_stats": ("k_strength", "k_tog", "k_keep", "k_fl", "k_sq", "k_cs"),
}


def release(con: duckdb.DuckDBPyConnection, stage: str) -> None:
    """Drop what ``stage`` no longer needs. Why: at 1,000,000 hands the temp tables outgrow
    DuckDB's memory limit and spill to disk (1.3 GB of temporary files under the 4 GB default),
    which made the later stages slower than their share of the hands; what is freed early is
    memory the pair statistics and the evidence queries get instead. (Views over a dropped table,
    such as ``cards`` and ``strength``, are not read in a run; ``detectors.snapshot`` runs the
    stages without releasing.)"""
    for table in RELEASED_AFTER.get(stage, ()):
        con.execute(f"DROP TABLE IF EXISTS {table}")


def compute(con: duckdb.DuckDBPyConnection, params: Params, partials: Sequence[tuple[Path, str]] = ()
            ) -> pl.DataFrame:
    """Build features and statistics (temp tables) and return the scored unordered pairs.
    ``partials``: each partition's detector file and the token of the partition file combined
    (``pipelines.steps.combined_detector_tables``); their per-hand tables are loaded
    instead of built when they stand for exactly this warehouse's hands (``detectors.partial``)."""
    whole = params.since is None and params.until is None
    loaded = whole and bool(partials) and partial.load(con, partials, params.mode)
    if not loaded:
        features.build(con, params.mode, params.since, params.until)
        allin.build_allin_ev(con, params.mode)
        stats.player_stats(con)
    release(con, "player_stats")
    stats.pair_stats(con, loaded=loaded)
    release(con, "pair_stats")
    summed = pairs.summed_pair_stats(con)
    return frame_from_summed(summed, params.min_hands)


def frame_from_summed(summed: pl.DataFrame, min_hands: int = pairs.MIN_HANDS) -> pl.DataFrame:
    """Unordered scored pairs from the summed ordered pair statistics (pure polars: training
    caches the summed statistics and rebuilds the pair frame without the warehouse)."""
    u = pairs.unordered(pairs.directional(summed), min_hands)
    return stable_order(rule_scores(pairfx.add(u, summed)))


def stable_order(u: pl.DataFrame) -> pl.DataFrame:
    """Rows sorted by pair and floats rounded to 9 decimals: DuckDB's parallel sums and group-bys
    come back in any order and differ in the last bits, and the isolation forest (and any tie)
    must see the same input for the same warehouse, so a reviewer gets the same queue every run."""
    return u.with_columns(cs.float().round(9)).sort("player_a", "player_b")


Model = learn.PairModel | learn.PairEnsemble


def score(u: pl.DataFrame, params: Params) -> tuple[pl.DataFrame, Model | None]:
    """Add p_pair and p_<family> (model, else scaled rule scores) and the anomaly percentile."""
    paths = [Path(x) for x in params.model.split(",")] if params.model else learn.model_paths(params.mode)
    model = learn.load_many(paths, params.mode)
    if model is not None and u.height:
        u = model.predict(u)
    else:
        u = u.with_columns(
            [(1 - (-(pl.col(f"r_{f}").clip(lower_bound=0) / params.rule_scale)).exp()).alias(f"p_{f}")
             for f in FAMILIES]
        ).with_columns(pl.max_horizontal([f"p_{f}" for f in FAMILIES]).alias("p_pair"))
    family_model = attribution.load(Path(params.family_model) if params.family_model
                                    else attribution.model_path(params.mode))
    if family_model is not None:
        u = family_model.predict(u)
    u = queue.family_distribution(queue.family_statistics(learn.anomaly_scores(u)), learned=model is not None)
    ranking = params.ranking if model is not None else "calibrated"
    if ranking == "model_z_team":
        u = u.with_columns(teams.support(u, u.select(_model_z_logit())["score"]))
    return u.with_columns(ranking_score(u, ranking)), model


#: log-odds per unit of robust z that ``model_z`` adds to the model's (0.2 until 1.8.0, a flat optimum
#: on the first generator alone; 0.5 with the third author's rooms beside them, see ``ranking_score``)
Z_WEIGHT = 0.5
#: the robust z counts up to this in the queue order (twice ``queue.HIGH_Z``, where severity says
#: "beyond honest play"): a pair whose own behaviour is far out in the room is not outranked by a
#: pair the model merely likes, yet two bots heads-up for 3,000 hands (chip-flow z 40) gain no more
RANK_Z_CAP = 12.0


def _model_z_logit() -> pl.Expr:
    p = pl.col("p_pair").cast(pl.Float64).clip(1e-12, 1 - 1e-12)
    return ((p / (1 - p)).log() + Z_WEIGHT * pl.col("t_max").clip(0.0, RANK_Z_CAP)).alias("score")


def _flat_logistic(logit: pl.Expr) -> pl.Expr:
    return (1 / (1 + (-logit / 10.0).exp())).alias("score")  # /10: 6 decimals still tell pairs apart


def ranking_score(u: pl.DataFrame, ranking: str) -> pl.Expr:
    """The queue's order, 0..1. ``calibrated``: the strongest family's robust z in this room,
    squashed (z 4 -> 0.63, 8 -> 0.86); ``model``: p_pair; ``blend``: the mean of the two ranks
    as a share (a pair must look wrong to both the room's null and the model to lead);
    ``model_z`` (the default): the model's log-odds plus ``Z_WEIGHT`` times the strongest family's
    robust z, back through a logistic ten times flatter (an order, not a probability). Why: the
    model saturates (p_pair above 0.99 for every pair that sits together a lot, friends included)
    and among those its order is noise; the room's own behavioural z breaks the tie while a
    confident model still leads. The z counts up to ``RANK_Z_CAP``: past it, more z says nothing
    more about collusion (two bots heads-up for 3,000 hands, one losing all along, reach z 40 on
    chip flow) and would lift a pair the model doubts. Why 0.5 per z up to 12 (1.8.0; was 0.2 up
    to 6): on a third author's rooms (``simulator.indie``, seeds 21-22 x 0.2/0.5/1.0) the model
    saturated on honest pairs that sit and leave together (p_pair above 0.99) while the colluders'
    own contrasts stood at z 10-70; queue-emulated PairAP there rose 0.168 -> 0.365 (operator) and
    0.181 -> 0.425 (player), for 0.834 -> 0.816 and 0.836 -> 0.806 on the first generator's rooms
    (seeds 31-35 x 3 intensities, what the models were fitted on). ``model_z_team`` (the default) adds
    ``teams.TEAM_BONUS`` log-odds times the pair's ``team_support`` column (``detectors.teams``:
    both players linked at the top of the room's ``model_z`` order to one third player)."""
    cal = 1 - (-(pl.col("t_max").clip(lower_bound=0) / 4.0)).exp()
    if ranking == "calibrated":
        return cal.alias("score")
    if ranking == "model":
        return pl.col("p_pair").alias("score")
    if ranking == "model_z":
        return _flat_logistic(_model_z_logit())
    if ranking == "model_z_team":
        return _flat_logistic(_model_z_logit() + teams.TEAM_BONUS * pl.col("team_support"))
    if ranking != "blend":
        raise ValueError(f"ranking must be model, model_z, model_z_team, calibrated or blend, not {ranking!r}")
    n = max(u.height, 1)
    mean_rank = (pl.col("p_pair").rank("average") + cal.rank("average")) / (2.0 * n)
    return mean_rank.alias("score")


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


def build_flags(con: duckdb.DuckDBPyConnection, u: pl.DataFrame, params: Params, run_id: str,
                model: Model | None, players: int = 0) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Flag rows in the ``flags`` table shape for the pairs inside the budget (and rare anomalies),
    and the ranked pair frame (``rank``, ``flagged``) that ``pair_scores`` stores."""
    all_obs = sorted({c for cols in OBSERVED.values() for c in cols if c in u.columns})
    ranker = evrank.load(Path(params.evidence_model) if params.evidence_model else evrank.model_path(params.mode))
    budget = queue_budget(params)
    weight = params.evidence_weight if model is not None and params.ranking in ("model_z", "model_z_team") else 0.0
    u, probs = evsupport.add_support(con, u, ranker, budget.size(u.height, players), weight)
    u = attribution.with_team_context(queue.rank_and_select(_percentiles(u, all_obs), budget, players))
    now = datetime.now(UTC).replace(tzinfo=None)
    family_model = attribution.FAMILY_MODEL_VERSION if "q_soft_play" in u.columns else None
    params_json = json.dumps(params.deciding() | {"model_version": model.version if model else None,
                                               "family_model_version": family_model,
                                               "evidence_ranker": ranker.version if ranker else None}, sort_keys=True)
    medians: dict[str, float] = {
        c: float(u.select(pl.col(c).cast(pl.Float64).median()).item() or 0.0) for c in all_obs
    }
    flagged = u.filter(pl.col("flagged"))
    floor = float(flagged.select(pl.col("score").min()).item()) if flagged.height else 1.0
    rows: list[dict[str, Any]] = []
    for r in flagged.iter_rows(named=True):
        rows += _pair_flag_rows(r, params, medians, u.height, model is not None)
    anomalies = u.filter(~pl.col("flagged") & (pl.col("anomaly") >= params.anomaly_pct))
    for r in anomalies.iter_rows(named=True):
        rows += _pair_flag_rows(r, params, medians, u.height, model is not None,
                                anomaly_score=0.5 * floor * float(r["anomaly"]))
    flags = pl.DataFrame(rows) if rows else pl.DataFrame(
        schema={"flag_key": pl.String, "family": pl.String, "a": pl.String, "b": pl.String,
                "players": pl.List(pl.String), "keys": pl.List(pl.String), "score": pl.Float64, "share": pl.Float64,
                "severity": pl.String,
                "explanation": pl.String, "observed": pl.String, "benign_explanation": pl.String,
                "overturn": pl.String})
    ranked_families = [f for f in FAMILIES if ranker is not None and ranker.models.get(f) is not None]
    pooled = evsupport.pooled_evidence(probs, _leading_flags(flagged, ranked_families))
    rest = flags.select("flag_key", "family", "a", "b").filter(~pl.col("flag_key").is_in(list(pooled)))
    ev = _flag_evidence(con, rest, ranker, probs) if rest.height else {}
    tagged = {k: [(h, k.split("|", 1)[0]) for h in hands] for k, hands in ev.items()}
    tagged = _hedged_evidence(rows, tagged, skip=set(pooled)) | pooled
    flags = flags.with_columns(*_evidence_columns([tagged.get(k, []) for k in flags["flag_key"]]))
    flags = pl.concat([flags, _group_flags(u.filter(pl.col("flagged")), flags, params)], how="diagonal_relaxed")
    return _finish(con, flags, params, run_id, now=now, params_json=params_json), u


def _flag_evidence(con: duckdb.DuckDBPyConnection, flags: pl.DataFrame, ranker: evrank.EvidenceRanker | None,
                   probs: pl.DataFrame) -> dict[str, list[str]]:
    """Evidence lists: from the hands the evidence support already scored (``probs``) where they
    cover the flag's pair and family, from the family queries for the rest."""
    scored = probs.select(pl.col("family").unique()).to_series().to_list()
    pair = [pl.min_horizontal("a", "b").alias("player_a"), pl.max_horizontal("a", "b").alias("player_b")]
    seen = probs.select("player_a", "player_b").unique()
    covered = flags.with_columns(pair).join(seen, on=["player_a", "player_b"], how="semi").filter(
        pl.col("family").is_in(scored))
    rest = flags.join(covered.select("flag_key"), on="flag_key", how="anti")
    ev = evsupport.ranked_evidence(probs, covered)
    return ev | (evidence(con, rest, ranker=ranker) if rest.height else {})


def _leading_flags(flagged: pl.DataFrame, ranked: Sequence[str]) -> pl.DataFrame:
    """(flag_key, player_a, player_b, f_<family>...) of each flagged pair's leading flag, for the
    pairs led by a family the evidence ranker scores. In player mode it has no card-sharing model:
    a pooled list would hold none of a card-sharing lead's own hands, so such a pair keeps the
    per-family lists (``_hedged_evidence``); a card-sharing flag beside a pooled lead keeps its own."""
    led = flagged.filter(pl.col("family").is_in(list(ranked)))
    keys = [pair_flag_key(f, a, b) for f, a, b in led.select("family", "player_a", "player_b").iter_rows()]
    return led.select(pl.Series("flag_key", keys, dtype=pl.String), "player_a", "player_b",
                      *[f"f_{f}" for f in FAMILIES])


def pair_flag_key(family: str, a: str, b: str) -> str:
    """A pair flag's key within one run: its family and the pair's keys in the scored frame's order."""
    return f"{family}|{a}|{b}"


#: an evidence hand and the family it was picked for (the mechanism its "why this hand" line explains)
Tagged = tuple[str, str]


def _evidence_columns(lists: list[list[Tagged]]) -> list[pl.Series]:
    """``evidence_hands`` and, in step, ``evidence_families``."""
    return [pl.Series("evidence_hands", [[h for h, _ in t] for t in lists], dtype=pl.List(pl.String)),
            pl.Series("evidence_families", [[f for _, f in t] for t in lists], dtype=pl.List(pl.String))]


def _hedged_evidence(rows: list[dict[str, Any]], ev: dict[str, list[Tagged]], top: int = 10,
                     skip: set[str] | frozenset[str] = frozenset()) -> dict[str, list[Tagged]]:
    """A pair's leading flag lists evidence from every family it is attributed to, in proportion
    to the attribution (the leading family first): when the label is uncertain, the hands a
    reviewer opens first still show whichever mechanism is at work. Secondary family flags keep
    their own family's hands. Pairs whose leading flag is in ``skip`` (a pooled list,
    ``evsupport.pooled_evidence``, replaces it) are left alone."""
    by_pair: dict[tuple[str, str], list[tuple[float, int, str]]] = {}
    for r in rows:
        if r["family"] != "anomaly":
            by_pair.setdefault((r["a"], r["b"]), []).append(
                (float(r["share"]), FAMILIES.index(r["family"]), r["flag_key"]))
    out = dict(ev)
    for fams in by_pair.values():
        # the lead as ``queue.with_leading_family`` names it: the largest share, ties to FAMILIES order
        fams.sort(key=lambda x: (-x[0], x[1]))
        if len(fams) < 2 or fams[0][2] in skip:
            continue
        lists = [list(ev.get(k, [])) for _, _, k in fams]
        taken = [0] * len(fams)
        merged: list[Tagged] = []
        while len(merged) < top and any(taken[i] < len(lists[i]) for i in range(len(fams))):
            # D'Hondt: the next slot goes to the family with the most share per slot already given
            i = max((i for i in range(len(fams)) if taken[i] < len(lists[i])),
                    key=lambda i: fams[i][0] / (1 + taken[i]))
            hand = lists[i][taken[i]]
            taken[i] += 1
            if all(hand[0] != h for h, _ in merged):
                merged.append(hand)
        out[fams[0][2]] = merged
    return out


def queue_budget(params: Params) -> queue.Budget:
    return queue.Budget(params.budget_share, params.budget_per_1000_players, params.budget_min,
                        params.budget_cap_per_1000_players)


def _pair_flag_rows(r: dict[str, Any], params: Params, medians: dict[str, float], population: int,
                    learned: bool, anomaly_score: float | None = None) -> list[dict[str, Any]]:
    """The flags of one ranked pair: its leading family, and every other family holding at least
    ``family_share_min`` of the attribution whose mechanism had a spot between the pair (scored in
    proportion, so the pair's best stays its score); an anomaly (outside the budget) gets one low
    flag of its own.

    Why a secondary family needs a spot: a second flag naming a mechanism the two never had a
    chance to use is a case nobody can review; dropping those cut the flags per room by about a
    tenth on fresh rooms of four generators at no cost in PairAP or EvidenceMAP (session 40,
    arm L). The leading flag keeps its label either way (relabelling it lost FamilyMAP)."""
    shares = {f: float(r[f"f_{f}"]) for f in FAMILIES}
    lead = max(shares.values()) or 1.0
    spots = mechanism_spots(r)
    if anomaly_score is not None:
        fams = [("anomaly", anomaly_score)]
    else:
        fams = [(f, float(r["score"]) * shares[f] / lead) for f in FAMILIES
                if f == r["family"] or (shares[f] >= params.family_share_min and spots.get(f, 1) > 0)]
    a, b = r["player_a"], r["player_b"]
    na, nb = plain_name(a), plain_name(b)
    exposure = float(r["hu_confrontations"] + r.get("squeezes_ab", 0) + r.get("squeezes_ba", 0))
    out = []
    for fam, s in fams:
        obs: dict[str, Any] = {c: {"value": round(float(r[c]), 3), "population_median": round(medians[c], 3),
                                   "percentile": round(float(r[f"pct_{c}"]) * 100, 2)}
                               for c in OBSERVED[fam] if c in r}
        obs |= {"pair_score": round(float(r["score"]), 4), "model_score": round(float(r["p_pair"]), 4),
                "rank": int(r["rank"]), "hands_together": int(r["hands_together"]), "player_keys": [a, b],
                "family_distribution": {f: round(v, 3) for f, v in shares.items()}, "mechanism_spots": spots}
        if "field_conf_ab" in r:
            obs["pots_with_others"] = {na: int(r["field_conf_ab"] or 0), nb: int(r["field_conf_ba"] or 0)}
        for extra in ("team_support", "evidence_support"):
            if extra in r:
                obs[extra] = round(float(r[extra]), 3)
        if fam != "anomaly":
            z = float(r[f"t_{fam}"])
            obs |= {"evidence_z": round(z, 2), "honest_tail_probability": float(f"{tail_probability(z):.3g}")}
        text = TEXT[fam]
        out.append({
            "flag_key": pair_flag_key(fam, a, b), "family": fam, "a": a, "b": b, "players": [na, nb], "keys": [a, b],
            "score": round(s, 6), "share": shares.get(fam, 0.0),
            "severity": "low" if fam == "anomaly" else queue.severity(
                queue.Evidence(float(r[f"t_{fam}"]), exposure, float(r[f"r_{fam}"]),
                               sum(float(r[f"p_{f}"]) for f in FAMILIES) if learned else None, population),
                high_min_exposure=params.high_min_hu, high_min_rule=params.high_min_rule),
            "explanation": _explanation(text.explanation, fam, spots, na, nb) + _no_field(r, na, nb),
            "observed": json.dumps(obs, sort_keys=True),
            "benign_explanation": text.benign.format(a=na, b=nb), "overturn": text.overturn.format(a=na, b=nb),
        })
    return out


def _explanation(template: str, family: str, spots: dict[str, int], a: str, b: str) -> str:
    """The family's explanation; when its mechanism had no spot between the pair, the same text as
    what the family means, after saying the label is the models' call and not something seen."""
    text = template.format(a=a, b=b)
    if spots.get(family, 1) != 0:
        return text
    name = family.replace("_", " ").capitalize()
    return UNSEEN_MECHANISM.format(family=name, spot=MECHANISM_SPOTS[family][1], a=a, b=b, pattern=text)


def _no_field(r: dict[str, Any], a: str, b: str) -> str:
    """A sentence for a pair one of whose players contested no pot with anyone else (a heads-up
    match, two accounts alone at a table): every "than against everyone else" in the family's text
    then compares with the population's norms, not with the player's own play."""
    alone = [x for x, c in ((a, "field_conf_ab"), (b, "field_conf_ba")) if c in r and not r[c]]
    if not alone:
        return ""
    who = f"{a} and {b} contested" if len(alone) == 2 else f"{alone[0]} contested"
    other = "each other" if len(alone) == 2 else (b if alone[0] == a else a)
    return (f" {who} no pot with anyone but {other} in this data, so each comparison with play against "
            "everyone else rests on the population's norms, not on their own.")


def _group_flags(u: pl.DataFrame, flags: pl.DataFrame, params: Params) -> pl.DataFrame:
    """Rings (3+ players, every pair suspicious) and dumping funnels from the graph stage."""
    rows: list[dict[str, Any]] = []
    best = u.select(pl.col("player_a").alias("a"), pl.col("player_b").alias("b"), "score")
    ev_by_pair = {(r["a"], r["b"]): list(zip(r["evidence_hands"], r["evidence_families"], strict=True))
                  for r in flags.sort("score").iter_rows(named=True)}
    sev_by_pair: dict[tuple[str, str], int] = {}
    for r in flags.iter_rows(named=True):
        key = (min(r["a"], r["b"]), max(r["a"], r["b"]))
        sev_by_pair[key] = max(sev_by_pair.get(key, 0), _SEVERITY_ORDER[r["severity"]])
    groups: list[tuple[str, list[str], float]] = [
        ("collusion_ring", m, s) for m, s in graph.rings(best, params.ring_edge)
    ]
    for fam in FAMILIES:
        edges = flags.filter(pl.col("family") == fam).select("a", "b", "score")
        groups += [(fam, m, s) for m, s in graph.family_teams(edges, params.team_edge)]
    for fam, members, s in groups:
        pair_lists = [ev_by_pair.get((x, y), []) for i, x in enumerate(members) for y in members[i + 1 :]]
        merged: list[Tagged] = []
        for k in range(max((len(p) for p in pair_lists), default=0)):
            for p in pair_lists:
                if k < len(p) and all(p[k][0] != h for h, _ in merged):
                    merged.append(p[k])
        text = TEXT["collusion_ring" if fam == "collusion_ring" else fam]
        shown = [plain_name(m) for m in members]
        first, rest = shown[0], ", ".join(shown[1:])
        rows.append({
            "flag_key": f"{fam}|{'|'.join(members)}", "family": fam, "players": shown, "keys": members,
            "score": round(s, 6),
            "severity": _group_severity(members, sev_by_pair),
            "evidence_hands": [h for h, _ in merged[:10]], "evidence_families": [f for _, f in merged[:10]],
            "explanation": text.explanation.format(players=", ".join(shown), a=first, b=rest),
            "observed": json.dumps({"members": shown, "player_keys": members, "weakest_pair_score": round(s, 4)}),
            "benign_explanation": text.benign.format(a=first, b=rest),
            "overturn": text.overturn.format(a=first, b=rest),
        })
    return pl.DataFrame(rows) if rows else pl.DataFrame()


_SEVERITY_ORDER = {"low": 0, "medium": 1, "high": 2}


def _group_severity(members: list[str], by_pair: dict[tuple[str, str], int]) -> str:
    """A group is as alarming as its weakest member pair (a member pair without a flag: low)."""
    levels = [by_pair.get((x, y), 0) for i, x in enumerate(members) for y in members[i + 1 :]]
    names = {v: k for k, v in _SEVERITY_ORDER.items()}
    return names[min(levels, default=0)]


def _finish(con: duckdb.DuckDBPyConnection, flags: pl.DataFrame, params: Params, run_id: str, *,
            now: datetime, params_json: str) -> pl.DataFrame:
    if flags.is_empty():
        return flags
    flags = flags.with_columns(
        pl.Series("flag_id", [stable_flag_id(params.mode, f, list(k))
                              for f, k in zip(flags["family"], flags["keys"], strict=True)], dtype=pl.String),
        pl.lit(run_id).alias("run_id"),
        pl.col("family").replace_strict(DETECTOR_VERSIONS, default=VERSION).alias("detector_version"),
        pl.lit(params_json).alias("params"), pl.lit(now).alias("created_at"),
    )
    span = _shared_hand_span(con, flags)
    flags = flags.join(span, on="flag_id", how="left")
    flags = flags.with_columns(flag_mode(params.mode, pl.col("operator_hand_share")).alias("mode"))
    flags = flags.with_columns(pl.struct("observed", "operator_hand_share").map_elements(
        _with_card_coverage, return_dtype=pl.String).alias("observed"))
    return flags.drop("operator_hand_share").sort("score", descending=True)


#: a flag is in operator mode only when most of the shared hands carry every dealt player's cards
OPERATOR_HAND_SHARE_MIN = 0.5


def flag_mode(run_mode: str, operator_hand_share: pl.Expr) -> pl.Expr:
    """The hole-card mode a flag was decided in, from its hands' data, not the run's option: an
    operator-mode run over public exports (hero's and shown cards only) is a player-mode flag."""
    operator = (pl.lit(run_mode) == "operator") & (operator_hand_share.fill_null(0.0) >= OPERATOR_HAND_SHARE_MIN)
    return pl.when(operator).then(pl.lit("operator")).otherwise(pl.lit("player"))


def _shared_hand_span(con: duckdb.DuckDBPyConnection, flags: pl.DataFrame) -> pl.DataFrame:
    """First / last hand every flagged player was dealt into, and the share of those hands whose
    export shows every dealt player's cards (hands.hole_cards_mode = 'operator').

    Why this shape: a pair flagged for three families is three flags with one set of players, so
    each distinct set is looked up once; and the lookup joins the run's integer keys (k_player,
    k_hp, k_hand), not the string-keyed ``hp`` view over every hand of the night."""
    groups = flags.select("flag_id", pl.col("keys").list.sort().alias("players"))
    sets = groups.select("players").unique().with_row_index("g")
    con.register("_fl", sets.to_arrow())
    span = con.execute(
        """WITH x AS (
            SELECT f.g, p.pk, f.k
            FROM (SELECT g, unnest(players) AS player, len(players) AS k FROM _fl) f
            JOIN k_player p ON p.player = f.player
        ), h AS (
            SELECT x.g, hp.hk, count(*) AS n, any_value(x.k) AS k
            FROM x JOIN k_hp hp ON hp.pk = x.pk GROUP BY ALL
        )
        SELECT h.g, min(kh.started_at) AS first_hand_at, max(kh.started_at) AS last_hand_at,
               avg(CASE WHEN hd.hole_cards_mode = 'operator' THEN 1.0 ELSE 0.0 END) AS operator_hand_share
        FROM h JOIN k_hand kh USING (hk) JOIN hands hd ON hd.hand_id = kh.hand_id
        WHERE h.n = h.k GROUP BY h.g"""
    ).pl()
    con.unregister("_fl")
    by_set = sets.join(span.with_columns(pl.col("g").cast(sets["g"].dtype)), on="g").drop("g")
    return groups.join(by_set, on="players").drop("players")


def _with_card_coverage(row: dict[str, Any]) -> str:
    """The flag's facts, plus the share of its hands with every dealt player's cards known."""
    observed = json.loads(row["observed"])
    share = row["operator_hand_share"]
    observed["operator_hand_share"] = None if share is None else round(float(share), 3)
    return json.dumps(observed, sort_keys=True)


def pair_score_rows(ranked: pl.DataFrame, run_id: str) -> pl.DataFrame:
    """Every scored pair with its rank, queue decision, family scores and statistics: what an
    analyst reads to ask "why was this pair not flagged?" (``floorman scores``)."""
    fam_cols = [f"{p}_{f}" for f in FAMILIES for p in ("f", "t", "r", "p")]
    return ranked.select(
        pl.lit(run_id).alias("run_id"), "player_a", "player_b", "rank", "flagged", "score", "family",
        "p_pair", "t_max", *fam_cols, "anomaly",
        pl.col("hands_together").cast(pl.Int64), pl.col("hu_confrontations").cast(pl.Int64),
        pl.col("confrontations").cast(pl.Int64),
        *[(pl.col(c) if c in ranked.columns else pl.lit(None, pl.Float64)).alias(c)
          for c in ("team_support", "evidence_support")],
    )


FLAG_COLUMNS = ["flag_id", "run_id", "family", "players", "score", "severity", "mode", "explanation",
                "evidence_hands", "evidence_families", "observed", "benign_explanation", "overturn",
                "detector_version", "params", "created_at", "first_hand_at", "last_hand_at"]


def _hands_in_window(con: duckdb.DuckDBPyConnection, params: Params) -> int:
    where, args = features.window(params.since, params.until)
    row = con.execute(f"SELECT count(*) FROM hands h WHERE {where}", args).fetchone()
    return int(row[0]) if row else 0


def detect(db: str | Path, params: Params | None = None, con: duckdb.DuckDBPyConnection | None = None,
           partials: Sequence[tuple[Path, str]] = ()) -> RunSummary:
    """Run every detector on the warehouse at ``db`` and store statistics, flags and the run
    (``partials``: see ``compute``)."""
    params = params or Params()
    t0 = time.perf_counter()
    started = datetime.now(UTC).replace(tzinfo=None)
    own = con is None
    con = con or open_duckdb(db)  # the deployment's threads and spill folder; memory_limit is set below
    try:
        con.execute(f"SET memory_limit = '{params.memory_limit}'")
        # every result whose order matters is sorted by key (stable_order, flags, evidence lists), so
        # DuckDB may reorder the rest: less memory held for order, fewer spills at a million hands
        con.execute("SET preserve_insertion_order = false")
        if params.threads:
            con.execute(f"SET threads = {int(params.threads)}")
        spill.check_room(con, _hands_in_window(con, params))  # before anything is written
        apply_schema(con)
        run_id = f"{params.mode}-{started:%Y%m%dT%H%M%S%f}"
        try:
            u = compute(con, params, partials)
            u, model = score(u, params)
            counts = con.execute("SELECT count(DISTINCT hk), count(DISTINCT pk) FROM k_hp").fetchone()
            hands, players = counts or (0, 0)
            flags, ranked = build_flags(con, u, params, run_id, model, int(players))
        except duckdb.Error as exc:
            space = spill.restated(exc, con)
            if space is None:
                raise
            raise space from exc
        con.execute("BEGIN")
        con.execute("INSERT INTO player_stats BY NAME SELECT $r AS run_id, * FROM t_player_stats", {"r": run_id})
        con.execute("INSERT INTO pair_stats BY NAME SELECT $r AS run_id, * FROM t_pair_stats", {"r": run_id})
        if not flags.is_empty():
            con.register("_flags", flags.select(FLAG_COLUMNS).to_arrow())
            con.execute("INSERT INTO flags BY NAME SELECT * FROM _flags")
            con.unregister("_flags")
        if ranked.height:
            con.register("_scores", pair_score_rows(ranked, run_id).to_arrow())
            con.execute("INSERT INTO pair_scores BY NAME SELECT * FROM _scores")
            con.unregister("_scores")
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
