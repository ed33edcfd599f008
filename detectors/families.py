"""Detector families: a transparent rule score per family, its evidence hands, and its words.

Why rule scores beside the learned model: they are readable contrasts an integrity analyst can
check by hand ("A raised B 3.9 standard deviations less often than A's own baseline"), they work
without training data, and they are features of the learned model. Each family's evidence
query ranks the shared hands where the family's behaviour actually happened.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import duckdb
import polars as pl

if TYPE_CHECKING:
    from detectors.evrank import EvidenceRanker

FAMILIES = ("soft_play", "chip_dumping", "squeeze", "card_sharing")
# 1.9.1: evidence on the run's integer-keyed tables; a tie of chip-dumping totals names the first player;
# 1.13.1: a pair one of whose players contested no pot with anyone else is told its comparisons are
# with the population's norms (observed.pots_with_others); scores as 1.13.0;
# 1.13.0: a flagged pair's second family gets a flag only where its mechanism had a spot (arm L);
# 1.12.1: flags carry each mechanism's spot count (mechanism_spots) and say when their family's
# mechanism never occurred between the pair (scores, ranks, labels and evidence as 1.12.0);
# 1.12: the pair model is a seed bag, three fits averaged (detectors.learn.PairEnsemble);
# 1.11: a pair's leading flag lists evidence pooled over every family, weighed by its attribution
# (detectors.evsupport.pooled_evidence);
# 1.10: the queue's top re-ordered by each pair's evidence support (detectors.evsupport);
# 1.9: pair, family and evidence models fitted on two generators' worlds (scripts/train_pair_models.py);
# 1.8: the room's z weighs 0.5 per unit up to 12 in the queue order (detectors.run.ranking_score);
# 1.7: team support in the queue order (detectors.teams); 1.6: the family model
VERSION = "1.13.1"
SQRT2 = math.sqrt(2.0)


def rule_scores(u: pl.DataFrame) -> pl.DataFrame:
    """Add r_<family> columns: bigger means more like that family (roughly z units)."""
    c = pl.col
    return u.with_columns(
        ((-c("z_hu_post_aggr_ab") - c("z_hu_post_aggr_ba") + c("z_checkdown")) / math.sqrt(3)).alias("r_soft_play"),
        pl.max_horizontal((c("x_beaten_ab") + c("x_fold_ab")) / SQRT2, (c("x_beaten_ba") + c("x_fold_ba")) / SQRT2)
        .alias("r_chip_dumping"),
        ((c("z_face_pre_aggr_ab") + c("z_face_pre_aggr_ba") + c("x_squeeze_ab") + c("x_squeeze_ba")) / 2.0)
        .alias("r_squeeze"),
        pl.max_horizontal(c("z_cs_ab"), c("z_cs_ba")).alias("r_card_sharing"),
    )


@dataclass(frozen=True)
class FamilyText:
    explanation: str
    benign: str
    overturn: str


TEXT: dict[str, FamilyText] = {
    "soft_play": FamilyText(
        "{a} and {b} bet and raise each other far less than each bets or raises everyone else "
        "in the same spots (street, facing action, own hand strength), and check pots down together.",
        "Mutual respect between two strong regulars, or one player's tilt-free caution against a "
        "known aggressive opponent; friends who sit together may avoid each other without colluding.",
        "Aggression against each other back within the population range over new shared hands, or "
        "the passive hands turn out to be marginal holdings where checking is standard.",
    ),
    "chip_dumping": FamilyText(
        "{a} loses chips to {b} in pots {a} should not lose given the cards: folding the better hand "
        "after building the pot, or calling off with air, far more than against anyone else.",
        "A loose, losing player who loses to everyone (a whale) also loses most to whoever sits "
        "with them most; bad beats and variance in a few big pots.",
        "The same loss pattern against the rest of the table, or the transfers reverse over further "
        "hands, or the evidence pots were lost with genuinely worse cards at showdown.",
    ),
    "squeeze": FamilyText(
        "{a} and {b} raise and re-raise around third players who called in between, who then fold; "
        "when only the two are left they do not contest the pot.",
        "Two aggressive players (LAG/maniac styles) 3-bet a lot against everyone, and caller "
        "squeezes are a standard play.",
        "Their re-raise rate over each other equals their re-raise rate over everyone else, or they "
        "contest pots against each other normally once the third player folds.",
    ),
    "card_sharing": FamilyText(
        "{a} folds to bets, even with strong hands, exactly when {b} (still in the hand) holds the "
        "stronger hand, and not when {b} holds the weaker one.",
        "Coincidence over few spots; a tight player folds often whatever the cards of others.",
        "Fold rate with a strong hand independent of {b}'s hidden cards over more hands, or the "
        "pattern disappears in player mode where it should not be visible anyway.",
    ),
    "collusion_ring": FamilyText(
        "{players} form a group of three or more whose every pair is suspicious on its own "
        "(the pair-suspicion graph closes into a ring).",
        "Regulars of one small stake who all sit together all day; a shared style.",
        "Any member pair clears its own review; the group dissolves when weak edges are removed.",
    ),
    "anomaly": FamilyText(
        "The pair {a} / {b} is an outlier on the joint distribution of all pair contrasts "
        "(isolation forest), with no single family explaining it.",
        "Rare but honest combinations of styles; small samples.",
        "More shared hands bring the pair back into the population's bulk.",
    ),
}


#: the spots between two players in which each mechanism can show at all (pair-frame columns,
#: summed), and what one is called in a flag's text
MECHANISM_SPOTS: dict[str, tuple[tuple[str, ...], str]] = {
    "soft_play": (("hu_confrontations",), "heads-up pot"),
    "chip_dumping": (("confrontations",), "pot both played"),
    "squeeze": (("squeezes_ab", "squeezes_ba"), "re-raise sandwiching a third player who then folded"),
    # both directions: A's decisions while B held the stronger hand, and B's while A did
    "card_sharing": (("cs_b_stronger_n", "cs_b_stronger_n_ba"),
                     "decision facing a bet while the other held the stronger known hand"),
}

#: a flag's explanation when its family's spot never occurred between the pair ({pattern}: the
#: family's own explanation, which would otherwise assert what nobody saw)
UNSEEN_MECHANISM = ("{family} is the family model's call from the pair's other statistics (and from the families "
                    "of their flagged partners, where they have any), not something seen between these two: "
                    "no {spot} between {a} and {b} in the data yet. "
                    "The pattern this family means: {pattern} The evidence hands show what the pair did do.")


def mechanism_spots(row: dict[str, Any]) -> dict[str, int]:
    """Each family's spot count for one scored pair (families whose columns the row lacks: left out).

    Why a reviewer needs it: the family model and the team context (``attribution``) may name a
    family whose mechanism never had a chance between the two players; measured on fresh rooms
    (session 40), relabelling such pairs by their seen mechanisms lost FamilyMAP (the team is
    usually right), so the label stays and the flag says what was not seen."""
    return {fam: int(sum(row[c] or 0 for c in cols)) for fam, (cols, _) in MECHANISM_SPOTS.items()
            if all(c in row for c in cols)}


#: each family's evidence query over the tables named {pdec}, {pflow}, {psq}, {pcs}, {dec} (``EVIDENCE_SQL``
#: and ``KEYED_EVIDENCE_SQL`` fill them in)
_EVIDENCE_TEMPLATES: dict[str, str] = {
    # hands where either player passed up the aggression their own baseline expected against the other,
    # weighted by hand strength (checking or folding a strong hand is the act) and doubled for a fold
    # (giving up the pot instead of raising it)
    "soft_play": """
        SELECT f.flag_key, p.hand_id,
               sum(greatest(p.p_aggr - p.aggr::INT, 0) * (1 + p.bucket) * (1 + p.fold::INT)) + 0.01 * count(*) AS s
        FROM _fp f JOIN {pdec} p ON least(p.a, p.b) = f.a AND greatest(p.a, p.b) = f.b
        GROUP BY ALL HAVING sum(greatest(p.p_aggr - p.aggr::INT, 0)) > 0""",
    # pots the pair's net loser (the dumper) lost to the other, biggest first; a fold after putting
    # chips in (folding a big bet to the partner) weighs 5x, losing with the better hand 2x
    "chip_dumping": """
        WITH x AS (
            SELECT f.flag_key, p.hand_id, p.a AS loser, p.flow_cbb,
                   p.flow_cbb * (1 + coalesce(p.a_better::INT, 0)) * (1 + 4 * p.a_folded::INT) AS v
            FROM _fp f JOIN {pflow} p ON least(p.a, p.b) = f.a AND greatest(p.a, p.b) = f.b
        ), d AS (
            -- ties (each lost as much to the other: a sum's last bits depend on the threads' order)
            -- go to the first name, so the same warehouse always names the same dumper
            SELECT flag_key, first(loser ORDER BY tot DESC, loser) AS dumper
            FROM (SELECT flag_key, loser, round(sum(flow_cbb), 6) AS tot FROM x GROUP BY ALL) GROUP BY flag_key
        )
        SELECT x.flag_key, x.hand_id, max(x.v * CASE WHEN x.loser = d.dumper THEN 4 ELSE 1 END) AS s
        FROM x JOIN d USING (flag_key) GROUP BY ALL""",
    # re-raise sequences over a caller in between (the squeeze itself) first, then the heads-up folds
    # to the partner that the player's own baseline did not predict (p_fold < 0.6: not contesting),
    # then re-raise sequences without a caller, then any other heads-up fold to the partner
    "squeeze": """
        SELECT flag_key, hand_id, max(s) AS s FROM (
            SELECT f.flag_key, q.hand_id,
                   CASE WHEN q.callers_squeezed >= 1 THEN 30 + q.callers_squeezed ELSE 10 - 0.1 * q.third_folds END
                   AS s
            FROM _fp f JOIN {psq} q ON least(q.a, q.b) = f.a AND greatest(q.a, q.b) = f.b
            UNION ALL
            SELECT f.flag_key, p.hand_id, CASE WHEN p.p_fold < 0.6 THEN 20 ELSE 5 END + 1 - p.p_fold AS s
            FROM _fp f JOIN {pdec} p ON (least(p.a, p.b) = f.a AND greatest(p.a, p.b) = f.b)
            WHERE p.grp LIKE 'hu_%' AND p.fold
        ) GROUP BY ALL""",
    # folds facing a bet while the other (live) held a stronger hand: the less the folder's own
    # baseline in that spot folds (7x), the stronger the other's hand is known to be (+1.3), the
    # stronger the folder's own hand (+0.5 a bucket: folding air is what honest players do too), and
    # the cheaper the price of calling (-4x the share of the pot), the less an honest fold explains it.
    # Second part: in a team of three a member folds to protect whichever partner holds the best
    # hand, and the act names every live partner, so a pair's evidence includes folds by a third
    # player x (both of the pair live) when x is flagged with both (a card-sharing triangle); they
    # rank 2 below the pair's own folds
    "card_sharing": """
        WITH own AS (
            SELECT f.flag_key, c.hand_id,
                max(7 * (1 - c.p_fold) + 1.3 * c.b_stronger::INT + 0.5 * greatest(c.bucket, 0)
                    - 4 * coalesce(d.to_call / (d.pot_before + d.to_call + 1.0), 0.5)) AS s
            FROM _fp f JOIN {pcs} c ON least(c.a, c.b) = f.a AND greatest(c.a, c.b) = f.b
            LEFT JOIN {dec} d ON d.hand_id = c.hand_id AND d.player = c.a AND d.fold
            WHERE c.fold AND c.facing GROUP BY ALL
        ), g AS (SELECT a AS p, b AS x FROM _fp UNION ALL SELECT b, a FROM _fp),
        tri AS (SELECT DISTINCT f.flag_key, f.a, f.b, g1.x FROM _fp f
                JOIN g g1 ON g1.p = f.a JOIN g g2 ON g2.p = f.b AND g2.x = g1.x),
        third AS (
            SELECT t.flag_key, c1.hand_id,
                max(7 * (1 - least(c1.p_fold, c2.p_fold)) + 1.3 * (c1.b_stronger OR c2.b_stronger)::INT - 2) AS s
            FROM tri t JOIN {pcs} c1 ON c1.a = t.x AND c1.b = t.a AND c1.fold AND c1.facing
            JOIN {pcs} c2 ON c2.hand_id = c1.hand_id AND c2.a = t.x AND c2.b = t.b AND c2.fold AND c2.facing
            GROUP BY ALL
        )
        SELECT flag_key, hand_id, max(s) AS s FROM (SELECT * FROM own UNION ALL SELECT * FROM third) GROUP BY ALL""",
}


#: the string-keyed views (cached training tables, hand-built test tables)
STRING_TABLES = {t: t for t in ("pdec", "pflow", "psq", "pcs", "dec")}
#: in a detector run, the integer-keyed tables under the views' column names (hand_id is the hand
#: number hk, players are pk): the joins run on integers and no string id is attached to the millions
#: of rows the flagged pairs never touch (at 1,000,000 hands that cut the evidence stage by half)
KEYED_TABLES = {
    "pdec": "(SELECT hk AS hand_id, a, b, aggr, fold, bucket, grp, p_aggr, p_fold FROM k_pdec)",
    "pflow": "(SELECT hk AS hand_id, a, b, flow_cbb, a_folded, a_better FROM k_pflow)",
    "psq": "(SELECT hk AS hand_id, a, b, callers_squeezed, third_folds FROM k_psq)",
    "pcs": "(SELECT hk AS hand_id, a, b, fold, facing, bucket, p_fold, b_stronger FROM k_pcs)",
    "dec": "(SELECT hk AS hand_id, pk AS player, fold, to_call, pot_before FROM k_dec)",
}
EVIDENCE_SQL = {family: sql.format(**STRING_TABLES) for family, sql in _EVIDENCE_TEMPLATES.items()}
KEYED_EVIDENCE_SQL = {family: sql.format(**KEYED_TABLES) for family, sql in _EVIDENCE_TEMPLATES.items()}


def is_keyed(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether a detector run's integer-keyed tables are on ``con`` (else: string-keyed views only)."""
    row = con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary AND table_name IN ('k_hand', "
                      "'k_player', 'k_hp', 'k_dec', 'k_pdec', 'k_psq', 'k_pflow', 'k_pcs')").fetchone()
    return bool(row and row[0] == 8)


@contextlib.contextmanager
def registered_pairs(con: duckdb.DuckDBPyConnection, part: pl.DataFrame, keyed: bool) -> Iterator[None]:
    """``_fp`` (flag_key, a, b with a < b) for the family queries while the block runs: the rows
    of ``part`` as they are, or, keyed, with the players' numbers from k_player."""
    if not keyed:
        con.register("_fp", part.to_arrow())
        try:
            yield
        finally:
            con.unregister("_fp")
        return
    con.register("_fps", part.to_arrow())
    try:
        con.execute("""CREATE OR REPLACE TEMP TABLE _fp AS
            SELECT f.flag_key, least(pa.pk, pb.pk) AS a, greatest(pa.pk, pb.pk) AS b
            FROM _fps f JOIN k_player pa ON pa.player = f.a JOIN k_player pb ON pb.player = f.b""")
    finally:
        con.unregister("_fps")
    try:
        yield
    finally:
        con.execute("DROP TABLE IF EXISTS _fp")


def string_hand_ids(sql: str, keyed: bool) -> str:
    """``sql`` (flag_key, hand_id, ...) with the hand ids as strings: keyed rows carry hk, whose order
    is the hand ids' order (features.build numbers the hands by hand_id), so ties break the same."""
    if not keyed:
        return sql
    return (f"SELECT x.flag_key, h.hand_id, x.* EXCLUDE (flag_key, hand_id) FROM ({sql}) x "
            "JOIN k_hand h ON h.hk = x.hand_id")


def evidence(con: duckdb.DuckDBPyConnection, flagged: pl.DataFrame, top: int = 10,
             ranker: EvidenceRanker | None = None, keyed: bool | None = None) -> dict[str, list[str]]:
    """Ranked evidence hand ids per flag_key for rows (flag_key, family, a, b): the SQL selects the
    candidates; a learned ranker (``evrank``), when given and fitted for the family, orders them.
    ``keyed``: read the run's integer-keyed tables (default: when they are there) or the string views."""
    out: dict[str, list[str]] = {}
    keyed = is_keyed(con) if keyed is None else keyed
    queries = KEYED_EVIDENCE_SQL if keyed else EVIDENCE_SQL
    for family, sql in queries.items():
        # the joins match (least, greatest) of a directed pair: one hash join, not an OR loop
        part = flagged.filter(pl.col("family") == family).select(
            "flag_key", pl.min_horizontal("a", "b").alias("a"), pl.max_horizontal("a", "b").alias("b")
        )
        if part.is_empty():
            continue
        with registered_pairs(con, part, keyed):
            learned = ranker.rank(con, family, sql, top, keyed) if ranker is not None else None
            if learned is None:
                learned = _sql_order(con, string_hand_ids(sql, keyed), top)
        out.update(learned)
    return out


def _sql_order(con: duckdb.DuckDBPyConnection, sql: str, top: int) -> list[tuple[str, list[str]]]:
    """(flag_key, the ``top`` hand ids by the query's own score ``s``) per flag."""
    rows = con.execute(
        f"""SELECT flag_key, list(hand_id ORDER BY s DESC, hand_id) FILTER (WHERE rk <= {top})
        FROM (SELECT *, row_number() OVER (PARTITION BY flag_key ORDER BY s DESC, hand_id) AS rk FROM ({sql}))
        GROUP BY flag_key"""
    ).fetchall()
    return [(key, list(hands or [])) for key, hands in rows]
