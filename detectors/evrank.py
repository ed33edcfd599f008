"""Learned evidence ranking: which of a flagged pair's candidate hands are the collusive acts.

Why a model after the SQL: each family's evidence query (``families.EVIDENCE_SQL``) selects the
candidate hands and gives a hand-written score ``s``; its errors are honest-looking hands (a
check-down with air, a cheap fold with a weak hand) ranked above the acts the simulator logged.
A small gradient-boosted classifier per family, trained on simulator truth of the training seeds
only, reads ``s`` beside the hand's own facts (what each of the two put in, who folded where and
with what strength at what price, who won, heads-up or not) and orders the same candidates by
P(logged act). The SQL still decides which hands are candidates, so every evidence hand is a
shared hand the family's query found; without a model file for the mode the SQL order is kept.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import polars as pl
from sklearn.ensemble import HistGradientBoostingClassifier

from detectors import learn, treepredict
from detectors.families import (
    EVIDENCE_SQL,
    KEYED_EVIDENCE_SQL,
    evidence,
    is_keyed,
    registered_pairs,
    string_hand_ids,
)

RANKER_VERSION = "evrank-1.2"  # 1.1: fitted on the random worlds; 1.2: on two generators' worlds (1.9.0)
MODEL_DIR = Path(__file__).resolve().parent / "models"

#: per-candidate features (all numeric); the SQL below produces exactly these columns
FEATURES = [
    "s", "s_rank", "s_rel", "n_cand",
    "n_dealt", "n_live_end", "in_bb", "in_max_bb", "net_bb", "both_live", "one_folded", "fold_street",
    "both_flop", "post_aggr", "post_call", "post_passive", "any_all_in", "pfr", "pair_won",
    "n_dec", "n_aggr", "n_check", "n_call", "max_bucket", "min_bucket", "fold_bucket", "fold_price",
    "fold_facing", "fold_raises",
    "pd_n", "pd_gap", "pd_hu", "pd_fold", "pd_min_pfold",
    "sq_callers", "sq_third", "fl_cbb", "fl_folded", "fl_better",
]

_FEATURE_SQL = """
WITH c AS (SELECT * FROM _evc),
k AS (
    SELECT c.flag_key, c.hand_id, c.s::DOUBLE AS s, f.a, f.b,
           row_number() OVER (PARTITION BY c.flag_key ORDER BY c.s DESC, c.hand_id) AS s_rank,
           c.s / nullif(max(abs(c.s)) OVER (PARTITION BY c.flag_key), 0) AS s_rel,
           count(*) OVER (PARTITION BY c.flag_key) AS n_cand
    FROM c JOIN _fp f USING (flag_key)
),
kp AS (SELECT flag_key, hand_id, a AS player FROM k UNION ALL SELECT flag_key, hand_id, b FROM k),
h AS (
    SELECT kp.flag_key, kp.hand_id, any_value(hp.n_dealt) AS n_dealt, any_value(hp.n_live_end) AS n_live_end,
        sum(hp.put_in / hp.bb) AS in_bb, max(hp.put_in / hp.bb) AS in_max_bb, max(abs(hp.net) / hp.bb) AS net_bb,
        bool_and(hp.fold_seq IS NULL)::INT AS both_live, (count(hp.fold_seq) = 1)::INT AS one_folded,
        max(coalesce(list_position(['preflop', 'flop', 'turn', 'river'], hp.fold_street), 0)) AS fold_street,
        bool_and(hp.saw_flop)::INT AS both_flop, sum(hp.post_aggr) AS post_aggr, sum(hp.post_call) AS post_call,
        sum(hp.post_passive) AS post_passive, bool_or(hp.all_in)::INT AS any_all_in, sum(hp.pfr::INT) AS pfr,
        (max(hp.won) > 0)::INT AS pair_won
    FROM kp JOIN {hp} hp ON hp.hand_id = kp.hand_id AND hp.player = kp.player GROUP BY ALL
),
d AS (
    SELECT kp.flag_key, kp.hand_id, count(*) AS n_dec, sum(d.aggr::INT) AS n_aggr,
        count(*) FILTER (WHERE d.kind = 'check') AS n_check, sum(d.calls::INT) AS n_call,
        max(d.bucket) AS max_bucket, min(d.bucket) AS min_bucket,
        max(d.bucket) FILTER (WHERE d.fold) AS fold_bucket,
        max(d.to_call / (d.pot_before + d.to_call + 1.0)) FILTER (WHERE d.fold) AS fold_price,
        bool_or(d.fold AND d.facing)::INT AS fold_facing,
        max(d.raises_before) FILTER (WHERE d.fold) AS fold_raises
    FROM kp JOIN {dec} d ON d.hand_id = kp.hand_id AND d.player = kp.player GROUP BY ALL
),
pd AS (
    SELECT k.flag_key, k.hand_id, count(*) AS pd_n, sum(greatest(p.p_aggr - p.aggr::INT, 0)) AS pd_gap,
        count(*) FILTER (WHERE p.grp LIKE 'hu_%') AS pd_hu, sum(p.fold::INT) AS pd_fold,
        min(p.p_fold) FILTER (WHERE p.fold) AS pd_min_pfold
    FROM k JOIN {pdec} p ON p.hand_id = k.hand_id AND least(p.a, p.b) = k.a AND greatest(p.a, p.b) = k.b
    GROUP BY ALL
),
sq AS (
    SELECT k.flag_key, k.hand_id, max(q.callers_squeezed) AS sq_callers, max(q.third_folds) AS sq_third
    FROM k JOIN {psq} q ON q.hand_id = k.hand_id AND least(q.a, q.b) = k.a AND greatest(q.a, q.b) = k.b
    GROUP BY ALL
),
fl AS (
    SELECT k.flag_key, k.hand_id, max(f.flow_cbb) AS fl_cbb, bool_or(f.a_folded)::INT AS fl_folded,
        bool_or(f.a_better)::INT AS fl_better
    FROM k JOIN {pflow} f ON f.hand_id = k.hand_id AND least(f.a, f.b) = k.a AND greatest(f.a, f.b) = k.b
    GROUP BY ALL
)
SELECT k.flag_key, k.hand_id, k.s, k.s_rank, k.s_rel, k.n_cand,
    h.* EXCLUDE (flag_key, hand_id), d.* EXCLUDE (flag_key, hand_id), pd.* EXCLUDE (flag_key, hand_id),
    sq.* EXCLUDE (flag_key, hand_id), fl.* EXCLUDE (flag_key, hand_id)
FROM k LEFT JOIN h USING (flag_key, hand_id) LEFT JOIN d USING (flag_key, hand_id)
LEFT JOIN pd USING (flag_key, hand_id) LEFT JOIN sq USING (flag_key, hand_id) LEFT JOIN fl USING (flag_key, hand_id)
"""


#: in a detector run the feature query reads the integer-keyed tables under the views' column names
#: (hand_id is hk, players are pk), cut to the candidate hands first (``_evk``)
_KEYED = {
    "hp": "(SELECT hk AS hand_id, pk AS player, * EXCLUDE (hk, pk) FROM k_hp WHERE hk IN (SELECT hk FROM _evk))",
    "dec": "(SELECT hk AS hand_id, pk AS player, * EXCLUDE (hk, pk) FROM k_dec WHERE hk IN (SELECT hk FROM _evk))",
    "pdec": "(SELECT hk AS hand_id, * EXCLUDE (hk) FROM k_pdec WHERE hk IN (SELECT hk FROM _evk))",
    "psq": "(SELECT hk AS hand_id, * EXCLUDE (hk) FROM k_psq WHERE hk IN (SELECT hk FROM _evk))",
    "pflow": "(SELECT hk AS hand_id, * EXCLUDE (hk) FROM k_pflow WHERE hk IN (SELECT hk FROM _evk))",
}


def candidates(con: duckdb.DuckDBPyConnection, sql: str, keyed: bool = False) -> pl.DataFrame:
    """Every candidate (flag_key, hand_id) of one family's evidence query with the features;
    ``_fp`` must be registered on ``con`` (``families.registered_pairs``). ``keyed``: ``sql`` is the
    family's keyed query (``families.KEYED_EVIDENCE_SQL``) over a detector run's k_ tables; else
    it reads the string-keyed views (cached training tables)."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE _evc AS {sql}")
    try:
        if keyed:
            con.execute("CREATE OR REPLACE TEMP TABLE _evk AS SELECT DISTINCT hand_id AS hk FROM _evc")
            query = string_hand_ids(_FEATURE_SQL.format(**_KEYED), keyed=True)
        else:
            query = _FEATURE_SQL.format(**{name: name for name in _KEYED})
        out = con.execute(query).pl()
    finally:
        con.execute("DROP TABLE IF EXISTS _evc")
        con.execute("DROP TABLE IF EXISTS _evk")
    return out.with_columns([pl.col(f).cast(pl.Float64) for f in FEATURES])


def _matrix(frame: pl.DataFrame, features: list[str]) -> np.ndarray:
    return frame.select(features).fill_null(-1.0).fill_nan(-1.0).to_numpy()


@dataclass
class EvidenceRanker:
    """One classifier per family plus what is needed to use and cite them."""

    models: dict[str, Any]
    features: list[str]
    version: str = RANKER_VERSION
    mode: str = "operator"
    trained_on: dict[str, Any] = field(default_factory=dict)

    def rank(self, con: duckdb.DuckDBPyConnection, family: str, sql: str, top: int, keyed: bool = False
             ) -> list[tuple[str, list[str]]] | None:
        """(flag_key, hand ids best first) for the registered ``_fp`` flags, or None without a model
        for this family (the caller keeps the SQL order); ``keyed`` as for ``candidates``."""
        if self.models.get(family) is None:
            return None
        cand = candidates(con, sql, keyed)
        if cand.is_empty():
            return []
        return best_hands(cand.select("flag_key", "hand_id", "s").with_columns(
            pl.Series("m", self.probabilities(family, cand))), top)

    def probabilities(self, family: str, cand: pl.DataFrame) -> np.ndarray:
        """Each candidate row's probability of being a logged act of ``family`` (its model must exist)."""
        est = self.models[family]
        return np.asarray(treepredict.predict_proba(est, _matrix(cand, self.features))[:, list(est.classes_).index(1)],
                          dtype=np.float64)


def best_hands(scored: pl.DataFrame, top: int) -> list[tuple[str, list[str]]]:
    """(flag_key, the ``top`` hand ids) from rows (flag_key, hand_id, s, m): the ranker's
    probability ``m`` first, then the family query's own score ``s``, then the hand id."""
    ranked = scored.sort(["flag_key", "m", "s", "hand_id"], descending=[False, True, True, False]).group_by(
        "flag_key", maintain_order=True).agg(pl.col("hand_id").head(top))
    return [(k, list(h)) for k, h in ranked.iter_rows()]


def fit(frames: dict[str, pl.DataFrame], mode: str, trained_on: dict[str, Any], seed: int = 0) -> EvidenceRanker:
    """Fit a classifier per family on candidate frames carrying a 0/1 ``y`` column (logged act)."""
    models: dict[str, Any] = {}
    counts: dict[str, dict[str, int]] = {}
    for family, frame in frames.items():
        y = frame["y"].to_numpy()
        if y.sum() == 0 or y.sum() == len(y):
            continue
        est = HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, max_leaf_nodes=15,
                                             min_samples_leaf=20, l2_regularization=1.0, random_state=seed)
        est.fit(_matrix(frame, FEATURES), y)
        models[family] = est
        counts[family] = {"candidates": len(y), "acts": int(y.sum())}
    return EvidenceRanker(models, list(FEATURES), RANKER_VERSION, mode, {**trained_on, "counts": counts})


def model_path(mode: str) -> Path:
    return MODEL_DIR / f"evidence_ranker_{mode}.pkl"


def save(ranker: EvidenceRanker, path: Path) -> None:
    """The pickle plus a JSON sidecar saying what it is and what it saw."""
    learn.save_artefact(ranker, path)
    path.with_suffix(".json").write_text(
        json.dumps({"version": ranker.version, "mode": ranker.mode, "features": ranker.features,
                    "families": sorted(ranker.models), "trained_on": ranker.trained_on},
                   indent=1, sort_keys=True, default=str),
        encoding="utf-8",
    )


def load(path: Path) -> EvidenceRanker | None:
    """The persisted ranker, or None when there is none (the SQL order is used instead)."""
    return learn.load_artefact(path, EvidenceRanker)


# --- training from cached evidence tables (var/quality/dump_tables.py ... keep) -----------------

TABLES = ("pdec", "pflow", "psq", "pcs", "hp", "dec")


def cached_connection(tmp_dir: str | Path) -> duckdb.DuckDBPyConnection:
    """An in-memory connection whose evidence tables are views over a directory of parquet files."""
    con = duckdb.connect()
    for t in TABLES:
        con.execute(f"CREATE VIEW {t} AS SELECT * FROM read_parquet('{Path(tmp_dir) / (t + '.parquet')}')")
    return con


def truth_flags(truth: dict[str, Any], site: str = "pokerstars") -> tuple[pl.DataFrame, dict[str, set[str]]]:
    """Every truth pair with logged evidence as a flag of its own family, and its act hands."""
    from detectors.evaluate import truth_pairs

    fam, ev = truth_pairs(truth)
    rows, acts = [], {}
    for (a, b), f in fam.items():
        if ev[(a, b)]:
            key = f"{f}|{site}:{a}|{site}:{b}"
            rows.append((key, f, f"{site}:{a}", f"{site}:{b}"))
            acts[key] = set(ev[(a, b)])
    return pl.DataFrame(rows, schema=["flag_key", "family", "a", "b"], orient="row"), acts


def labelled(con: duckdb.DuckDBPyConnection, truth: dict[str, Any]) -> dict[str, pl.DataFrame]:
    """Candidate frames per family for the truth pairs, with y = 1 on the logged act hands."""
    flags, acts = truth_flags(truth)
    keyed = is_keyed(con)
    out: dict[str, pl.DataFrame] = {}
    for family, sql in (KEYED_EVIDENCE_SQL if keyed else EVIDENCE_SQL).items():
        part = flags.filter(pl.col("family") == family).select(
            "flag_key", pl.min_horizontal("a", "b").alias("a"), pl.max_horizontal("a", "b").alias("b"))
        if part.is_empty():
            continue
        with registered_pairs(con, part, keyed):
            cand = candidates(con, sql, keyed)
        y = [int(h in acts[k]) for k, h in zip(cand["flag_key"], cand["hand_id"], strict=True)]
        out[family] = cand.with_columns(pl.Series("y", y, dtype=pl.Int8))
    return out


def ap_by_family(con: duckdb.DuckDBPyConnection, truth: dict[str, Any], ranker: EvidenceRanker | None
                 ) -> dict[str, float]:
    """Mean AP@5 per family over the truth pairs (own family), SQL order when ranker is None."""
    from detectors.evaluate import ap_at_k

    flags, acts = truth_flags(truth)
    got = evidence(con, flags, top=5, ranker=ranker)
    per: dict[str, list[float]] = {}
    for key, fam in zip(flags["flag_key"], flags["family"], strict=True):
        per.setdefault(fam, []).append(ap_at_k(got.get(key, []), acts[key]))
    res = {f: round(float(np.mean(v)), 4) for f, v in sorted(per.items())}
    res["all"] = round(float(np.mean([x for v in per.values() for x in v])), 4)
    return res


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m detectors.evrank MODE OUT|- TRAIN_SPEC... [--validate VAL_SPEC]`` where a spec is
    SEED:TMP_DIR:TRUTH (cached evidence tables of a simulated warehouse). OUT '-' writes nothing."""
    from detectors.evaluate import load_truth

    args = list(sys.argv[1:] if argv is None else argv)
    val = None
    if "--validate" in args:
        i = args.index("--validate")
        val, args = args[i + 1], args[:i] + args[i + 2:]
    mode, out, specs = args[0], args[1], [a.split(":", 2) for a in args[2:]]
    frames: dict[str, list[pl.DataFrame]] = {}
    for _, tmp, truth in specs:
        con = cached_connection(tmp)
        for fam, frame in labelled(con, load_truth(truth)).items():
            frames.setdefault(fam, []).append(frame)
        con.close()
    ranker = fit({f: pl.concat(v) for f, v in frames.items()}, mode, {
        "seeds": [int(s) for s, _, _ in specs], "tables": [t for _, t, _ in specs],
        "trained_at": datetime.now(UTC).isoformat(timespec="seconds")})
    print("trained", ranker.trained_on["counts"], flush=True)
    if val:
        _, tmp, truth = val.split(":", 2)
        con = cached_connection(tmp)
        t = load_truth(truth)
        print("sql   ", ap_by_family(con, t, None), flush=True)
        print("ranker", ap_by_family(con, t, ranker), flush=True)
        con.close()
    if out != "-":
        save(ranker, Path(out) if out != "default" else model_path(mode))
        print("saved", out)
    return 0


if __name__ == "__main__":
    # run main from the importable module, so the pickle names detectors.evrank.EvidenceRanker, not __main__
    from detectors.evrank import main as _main

    raise SystemExit(_main())
