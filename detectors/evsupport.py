"""Evidence support: the top of the queue re-ordered by what its pairs' own hands show.

Why: a pair's statistics average over every hand it shared, so a team that colludes in one hand
in five looks like the field; the evidence ranker (``detectors.evrank``) instead scores each
candidate hand of a pair for "this is a collusive act of that family". For the pairs at the top of
the queue (the flag budget, and at least ``RERANK_MIN``), ``support`` is the best family's mean of
those per-hand probabilities, shrunk towards 0 by ``SHRINK`` pseudo-hands (a pair with three
candidates proves less than one with thirty), and the queue order gains ``WEIGHT`` log-odds per
unit. Pairs outside that top keep their order below it (the support only adds), so the flags still
come from the model's order first, and the same per-hand probabilities then give the flags' evidence
lists (``ranked_evidence``: what ``EvidenceRanker.rank`` returns, without scoring the hands twice;
a pair's leading flag pools every family's hands, ``pooled_evidence``).

Chosen on dev rooms (every scored pair ranked, PairAP, operator / player): the first generator's
seeds 31-33 and indie's seeds 21-22 (both fitted on) 0.867 / 0.849 -> 0.881 / 0.856 and
0.784 / 0.758 -> 0.820 / 0.805; rival's dev seeds 41-42 (never fitted on, looked at while choosing)
0.772 / 0.711 -> 0.814 / 0.756. Tried beside it: the mean of the three best hands, the count of hands
above 0.5, the log of the sum; weights 2-20; re-ordering the top 100, 200 or 400 pairs of those
rooms (their budget is about 100) changed AP by at most 0.007.
"""

from __future__ import annotations

import duckdb
import polars as pl

from detectors.evrank import EvidenceRanker, best_hands, candidates
from detectors.families import EVIDENCE_SQL, FAMILIES, KEYED_EVIDENCE_SQL, is_keyed, registered_pairs

#: the queue's top this many pairs at least is re-ordered (and the whole flag budget when larger)
RERANK_MIN = 200
#: queue log-odds per unit of support (support is 0..1)
WEIGHT = 10.0
#: pseudo-hands of probability 0 in each family's mean
SHRINK = 5.0
#: how much the attribution weighs in a pair's leading evidence list: a hand counts its probability
#: of a collusive act of a family times the pair's share of that family to this power
SHARE_POWER = 0.5
#: families whose victim is a third player at the table: a hand dealt to two players only (a heads-up
#: match) is no support for them (two bots playing only each other showed "card sharing" support 0.74)
NEEDS_A_THIRD = ("soft_play", "squeeze", "card_sharing")

_EMPTY = {"player_a": pl.String, "player_b": pl.String, "family": pl.String, "hand_id": pl.String,
          "s": pl.Float64, "p": pl.Float64, "n_dealt": pl.Int64}


def hand_probabilities(con: duckdb.DuckDBPyConnection, pairs: pl.DataFrame, ranker: EvidenceRanker,
                       keyed: bool | None = None) -> pl.DataFrame:
    """(player_a, player_b, family, hand_id, s, p, n_dealt): every candidate hand of each row of
    ``pairs`` (player_a < player_b) in each family the ranker has a model for, with the family query's
    own score ``s``, the ranker's probability ``p`` that it is a collusive act of that family and the
    players dealt in."""
    keyed = is_keyed(con) if keyed is None else keyed
    queries = KEYED_EVIDENCE_SQL if keyed else EVIDENCE_SQL
    part = pairs.select(pl.concat_str("player_a", pl.lit("|"), "player_b").alias("flag_key"),
                        pl.col("player_a").alias("a"), pl.col("player_b").alias("b"))
    out: list[pl.DataFrame] = [pl.DataFrame(schema=_EMPTY)]
    for family in FAMILIES:
        if ranker.models.get(family) is None:
            continue
        with registered_pairs(con, part, keyed):
            cand = candidates(con, queries[family], keyed)
        if cand.is_empty():
            continue
        out.append(cand.select("flag_key", "hand_id", pl.col("s").cast(pl.Float64),
                               pl.col("n_dealt").cast(pl.Int64)).with_columns(
            pl.lit(family).alias("family"), pl.Series("p", ranker.probabilities(family, cand)),
        ).join(part, on="flag_key").select(pl.col("a").alias("player_a"), pl.col("b").alias("player_b"),
                                           "family", "hand_id", "s", "p", "n_dealt"))
    return pl.concat(out)


def support(probs: pl.DataFrame) -> pl.DataFrame:
    """(player_a, player_b, evidence_support): the best family's shrunk mean probability (hands dealt
    to two players only count for chip dumping alone)."""
    counted = probs.filter(~pl.col("family").is_in(NEEDS_A_THIRD) | (pl.col("n_dealt") >= 3))
    by_family = counted.group_by("player_a", "player_b", "family").agg(
        (pl.col("p").sum() / (pl.len() + SHRINK)).round(9).alias("evidence_support"))
    return by_family.group_by("player_a", "player_b").agg(pl.col("evidence_support").max())


def ranked_evidence(probs: pl.DataFrame, flags: pl.DataFrame, top: int = 10) -> dict[str, list[str]]:
    """Evidence hand ids per flag_key for ``flags`` (flag_key, family, a, b) whose pair and family
    ``probs`` covers, in the evidence ranker's order (``evrank.best_hands``)."""
    keys = flags.select("flag_key", "family", pl.min_horizontal("a", "b").alias("player_a"),
                        pl.max_horizontal("a", "b").alias("player_b"))
    scored = probs.join(keys, on=["player_a", "player_b", "family"]).select(
        "flag_key", "hand_id", "s", pl.col("p").alias("m"))
    return dict(best_hands(scored, top))


def pooled_evidence(probs: pl.DataFrame, leads: pl.DataFrame, top: int = 10) -> dict[str, list[tuple[str, str]]]:
    """Evidence (hand id, family it was picked for) for each pair's leading flag, pooled over every
    family: a hand ranks by its best family's probability times the square root of the pair's share
    of that family, and is shown as that family's act.

    ``leads``: (flag_key, player_a, player_b, f_<family>...). Why pooled: the leading family is
    often wrong on rooms the models never saw, and a list drawn from one family then shows a reviewer
    the wrong mechanism's hands. Against lists split between the attributed families in proportion
    to their shares, this raised the true teams' EvidenceMAP@5 on every dev generator (README,
    "Evidence pooled over the families")."""
    shares = leads.select("flag_key", *_ordered("player_a", "player_b"), *[
        pl.col(f"f_{f}").cast(pl.Float64).clip(0.0, 1.0).alias(f) for f in FAMILIES]).unpivot(
        index=["flag_key", "player_a", "player_b"], variable_name="family", value_name="share")
    weighed = probs.join(shares.filter(pl.col("share") > 0), on=["player_a", "player_b", "family"]).select(
        "flag_key", "hand_id", "family", "s", (pl.col("p") * pl.col("share").pow(SHARE_POWER)).alias("m"))
    # a hand's weight, its family and that family's own score s (the families' s are on scales of
    # their own, so a tie on weight is broken by the weighing family's s, not the largest of any)
    def weighing(c: str) -> pl.Expr:
        return pl.col(c).sort_by(["m", "family"], descending=[True, False]).first()

    scored = weighed.group_by("flag_key", "hand_id").agg(pl.col("m").max(), weighing("s"), weighing("family"))
    ranked = best_hands(scored, top)
    listed = scored.join(pl.DataFrame([(k, h) for k, hands in ranked for h in hands], orient="row",
                                      schema={"flag_key": pl.String, "hand_id": pl.String}),
                         on=["flag_key", "hand_id"], how="semi")
    family = dict(zip(zip(listed["flag_key"], listed["hand_id"], strict=True), listed["family"], strict=True))
    return {k: [(h, family[(k, h)]) for h in hands] for k, hands in ranked}


def _ordered(first: str, second: str) -> list[pl.Expr]:
    """The pair's two players (player_a, player_b) in name order, under the names given."""
    a, b = pl.col("player_a"), pl.col("player_b")
    return [pl.min_horizontal(a, b).alias(first), pl.max_horizontal(a, b).alias(second)]


def rerank_size(budget: int) -> int:
    """How many pairs at the top of the queue are re-ordered."""
    return max(RERANK_MIN, budget)


def add_support(con: duckdb.DuckDBPyConnection, u: pl.DataFrame, ranker: EvidenceRanker | None, budget: int,
                weight: float = WEIGHT) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``u`` with ``evidence_support`` (0 outside the re-ordered top) and its ``score`` raised by
    ``weight`` log-odds per unit of support (the flat logistic of ``detectors.run.ranking_score``),
    and the per-hand probabilities behind it (``hand_probabilities``; empty when off)."""
    if ranker is None or u.is_empty() or weight <= 0:
        return u.with_columns(pl.lit(0.0).alias("evidence_support")), pl.DataFrame(schema=_EMPTY)
    top = u.sort(["score", "player_a", "player_b"], descending=[True, False, False]).head(rerank_size(budget))
    probs = hand_probabilities(con, top.select(_ordered("player_a", "player_b")), ranker)
    best = support(probs).rename({"player_a": "_a", "player_b": "_b"})
    u = u.with_columns(_ordered("_a", "_b")).join(best, on=["_a", "_b"], how="left", maintain_order="left").drop(
        "_a", "_b").with_columns(pl.col("evidence_support").fill_null(0.0))
    s = pl.col("score").cast(pl.Float64).clip(1e-15, 1 - 1e-15)
    raised = 1 / (1 + (-((s / (1 - s)).log() + weight / 10.0 * pl.col("evidence_support"))).exp())
    supported = pl.col("evidence_support") > 0
    return u.with_columns(pl.when(supported).then(raised).otherwise(pl.col("score")).alias("score")), probs
