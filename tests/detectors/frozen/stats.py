"""Player and pair statistics as additive integer counts (a period is the sum of its days).

Player statistics follow the HUD conventions (opportunity denominators): VPIP and PFR over hands
dealt, 3-bet over spots facing exactly one preflop raise, fold-to-3-bet over the opener's spots
facing a re-raise, c-bet over the preflop aggressor's first flop decision with no bet before,
aggression = postflop (bets + raises) / postflop decisions (AFq style, so it stays defined when a
player never calls), WTSD over hands that saw a flop, W$SD over showdowns. Winnings are stored
in hundredths of a big blind so bb/100 = net_cbb / hands.

Pair statistics are ordered (A, B): how A acts against B. The decision contrasts compare A's
decisions heads-up with B (``hu``) or facing B's bet or raise (``face``) with A's own decisions
in the same spot (street, facing a bet, own strength bucket, preflop position group) against
everyone else (shrunk towards A's overall rate in that spot, so a player seen only against B
gets no contrast rather than a contrast with the population); ``obs`` is what A did, ``exp``
what A's own baseline predicts, ``var`` its binomial variance. Counts and obs/exp/var sum over
days within one run (the baseline is the run's window).
"""

from __future__ import annotations

import duckdb

#: pseudo-count pulling a player's context rate towards the population's
SHRINK = 5.0
GROUPS = ("hu_pre", "hu_post", "face_pre", "face_post")


def player_stats(con: duckdb.DuckDBPyConnection) -> None:
    """Create temp table t_player_stats (per hand_date, player) from hp and dec."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE opener AS
        SELECT hand_id, arg_min(player, seq) AS opener, arg_max(player, seq) AS pfa
        FROM dec WHERE street = 'preflop' AND aggr GROUP BY hand_id"""
    )
    con.execute(
        """CREATE OR REPLACE TEMP TABLE t_player_stats AS
        WITH d AS (
            SELECT d.hand_id, d.player,
                count(*) FILTER (WHERE d.street = 'preflop' AND d.raises_before = 1) AS threebet_opp,
                count(*) FILTER (WHERE d.street = 'preflop' AND d.raises_before = 1 AND d.aggr) AS threebet,
                count(*) FILTER (WHERE d.street = 'preflop' AND d.raises_before = 2 AND o.opener = d.player)
                    AS f3b_opp,
                count(*) FILTER (WHERE d.street = 'preflop' AND d.raises_before = 2 AND o.opener = d.player
                                 AND d.fold) AS f3b,
                count(*) FILTER (WHERE d.street = 'flop' AND d.raises_before = 0 AND o.pfa = d.player)
                    AS cbet_opp,
                count(*) FILTER (WHERE d.street = 'flop' AND d.raises_before = 0 AND o.pfa = d.player
                                 AND d.aggr) AS cbet,
                count(*) FILTER (WHERE d.street <> 'preflop') AS post_decisions,
                count(*) FILTER (WHERE d.street <> 'preflop' AND d.aggr) AS post_aggr,
                count(*) FILTER (WHERE d.street <> 'preflop' AND d.calls) AS post_calls
            FROM dec d LEFT JOIN opener o USING (hand_id) GROUP BY ALL
        )
        SELECT hp.hand_date, hp.player,
            count(*) AS hands,
            count(*) FILTER (WHERE hp.vpip) AS vpip,
            count(*) FILTER (WHERE hp.pfr) AS pfr,
            coalesce(sum(d.threebet_opp), 0) AS threebet_opp, coalesce(sum(d.threebet), 0) AS threebet,
            coalesce(sum(d.f3b_opp), 0) AS fold_to_3bet_opp, coalesce(sum(d.f3b), 0) AS fold_to_3bet,
            coalesce(sum(d.cbet_opp), 0) AS cbet_opp, coalesce(sum(d.cbet), 0) AS cbet,
            coalesce(sum(d.post_decisions), 0) AS post_decisions, coalesce(sum(d.post_aggr), 0) AS post_aggr,
            coalesce(sum(d.post_calls), 0) AS post_calls,
            count(*) FILTER (WHERE hp.saw_flop) AS saw_flop,
            count(*) FILTER (WHERE hp.wtsd) AS wtsd,
            count(*) FILTER (WHERE hp.wtsd AND hp.won > 0) AS wsd,
            CAST(sum(round(hp.net * 100.0 / hp.bb)) AS BIGINT) AS net_cbb,
            CAST(sum(round(coalesce(ai.ev_net, hp.net) * 100.0 / hp.bb)) AS BIGINT) AS allin_adj_net_cbb,
            count(ai.ev_net) AS allin_hands_adjusted
        FROM hp LEFT JOIN d USING (hand_id, player) LEFT JOIN allin_ev ai USING (hand_id, player)
        GROUP BY ALL"""
    )


def pair_decisions(con: duckdb.DuckDBPyConnection) -> None:
    """pdec: A's decisions heads-up with B or facing B's aggression, with A's baseline rate."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE pdec AS
        WITH x AS (
            SELECT d.hand_id, d.seq, d.street, d.player AS a, o.player AS b, d.aggr, d.fold, d.bucket,
                   CASE WHEN d.street = 'preflop' THEN 'hu_pre' ELSE 'hu_post' END AS grp,
                   d.street || '|' || d.facing || '|' || d.bucket || '|'
                     || CASE WHEN d.street = 'preflop' THEN d.pos_group ELSE '' END AS ctx
            FROM dec d JOIN hp o ON o.hand_id = d.hand_id AND o.player <> d.player
                 AND (o.fold_seq IS NULL OR o.fold_seq > d.seq)
            WHERE d.n_live = 2
            UNION ALL
            SELECT d.hand_id, d.seq, d.street, d.player, d.last_aggr, d.aggr, d.fold, d.bucket,
                   CASE WHEN d.street = 'preflop' THEN 'face_pre' ELSE 'face_post' END,
                   d.street || '|' || d.bucket || '|' || d.raises_before || '|'
                     || CASE WHEN d.street = 'preflop' THEN d.pos_group ELSE '' END
            FROM dec d WHERE d.facing AND d.last_aggr IS NOT NULL AND d.last_aggr <> d.player AND d.n_live > 2
        ), base AS (
            SELECT a, grp, ctx, count(*) AS n, sum(aggr::INT) AS k_aggr, sum(fold::INT) AS k_fold
            FROM x GROUP BY ALL
        ), pop AS (
            SELECT grp, ctx, avg(aggr::INT) AS p_aggr, avg(fold::INT) AS p_fold FROM x GROUP BY ALL
        ), pair AS (
            SELECT a, b, grp, ctx, count(*) AS n, sum(aggr::INT) AS k_aggr, sum(fold::INT) AS k_fold
            FROM x GROUP BY ALL
        ), self AS (
            SELECT base.a, base.grp, base.ctx, base.n, base.k_aggr, base.k_fold,
                (base.k_aggr + $s * pop.p_aggr) / (base.n + $s) AS q_aggr,
                (base.k_fold + $s * pop.p_fold) / (base.n + $s) AS q_fold
            FROM base JOIN pop USING (grp, ctx)
        ), rate AS (
            SELECT pair.a, pair.b, pair.grp, pair.ctx,
                (self.k_aggr - pair.k_aggr + $s * self.q_aggr) / (self.n - pair.n + $s) AS p_aggr,
                (self.k_fold - pair.k_fold + $s * self.q_fold) / (self.n - pair.n + $s) AS p_fold
            FROM pair JOIN self USING (a, grp, ctx)
        )
        SELECT x.*, r.p_aggr, r.p_fold FROM x JOIN rate r USING (a, b, grp, ctx)""",
        {"s": SHRINK},
    )


def _contrast_columns() -> str:
    cols = []
    for g in GROUPS:
        for m in ("aggr", "fold"):
            cols.append(f"sum({m}::INT) FILTER (WHERE grp = '{g}') AS {g}_{m}_obs")
            cols.append(f"sum(p_{m}) FILTER (WHERE grp = '{g}') AS {g}_{m}_exp")
            cols.append(f"sum(p_{m} * (1 - p_{m})) FILTER (WHERE grp = '{g}') AS {g}_{m}_var")
        cols.append(f"count(*) FILTER (WHERE grp = '{g}') AS {g}_n")
        cols.append(f"sum((bucket >= 3)::INT) FILTER (WHERE grp = '{g}') AS {g}_strong_n")
        cols.append(f"sum((bucket >= 3 AND aggr)::INT) FILTER (WHERE grp = '{g}') AS {g}_strong_aggr")
    return ",\n            ".join(cols)


def pair_stats(con: duckdb.DuckDBPyConnection) -> None:
    """Create temp table t_pair_stats (per hand_date, player_a, player_b), ordered pairs."""
    pair_decisions(con)
    con.execute(
        """CREATE OR REPLACE TEMP TABLE pflow AS
        WITH tot AS (SELECT hand_id, sum(won) AS total_won FROM hp WHERE won > 0 GROUP BY hand_id),
        fin AS (SELECT hand_id, player, rank FROM strength WHERE street = 'final'),
        pre AS (SELECT hand_id, player, chen FROM strength WHERE street = 'preflop')
        SELECT l.hand_id, l.hand_date, l.player AS a, w.player AS b,
            -l.net * 100.0 * w.won / t.total_won / l.bb AS flow_cbb,
            l.fold_seq IS NOT NULL AS a_folded, l.saw_flop AND w.saw_flop AND l.vpip AS both_flop,
            CASE WHEN fa.rank IS NOT NULL AND fb.rank IS NOT NULL THEN fa.rank <= fb.rank
                 WHEN fa.rank IS NULL AND fb.rank IS NULL AND pa.chen IS NOT NULL AND pb.chen IS NOT NULL
                 THEN pa.chen >= pb.chen END AS a_better
        FROM hp l JOIN hp w ON w.hand_id = l.hand_id AND w.player <> l.player AND w.won > 0
        JOIN tot t ON t.hand_id = l.hand_id
        LEFT JOIN fin fa ON fa.hand_id = l.hand_id AND fa.player = l.player
        LEFT JOIN fin fb ON fb.hand_id = l.hand_id AND fb.player = w.player
        LEFT JOIN pre pa ON pa.hand_id = l.hand_id AND pa.player = l.player
        LEFT JOIN pre pb ON pb.hand_id = l.hand_id AND pb.player = w.player
        WHERE l.net < 0 AND l.vpip"""
    )
    con.execute(
        """CREATE OR REPLACE TEMP TABLE psq AS
        WITH r AS (
            SELECT hand_id, seq, player, row_number() OVER (PARTITION BY hand_id ORDER BY seq) AS rn
            FROM dec WHERE street = 'preflop' AND aggr
        ), s AS (
            SELECT r1.hand_id, r1.player AS a, r2.player AS b, r1.seq AS s1, r2.seq AS s2
            FROM r r1 JOIN r r2 ON r2.hand_id = r1.hand_id AND r2.rn = r1.rn + 1 AND r2.player <> r1.player
        )
        SELECT s.hand_id, s.a, s.b,
            count(DISTINCT t.player) FILTER (WHERE t.fold_seq > s.s2 AND t.vpip) AS callers_squeezed,
            count(DISTINCT t.player) FILTER (WHERE t.fold_seq > s.s2) AS third_folds,
            any_value(pa.fold_seq > s.s2) AS a_folds_after
        FROM s JOIN hp t ON t.hand_id = s.hand_id AND t.player NOT IN (s.a, s.b)
        JOIN hp pa ON pa.hand_id = s.hand_id AND pa.player = s.a
        GROUP BY ALL"""
    )
    con.execute(
        """CREATE OR REPLACE TEMP TABLE pcs AS
        WITH d AS (
            SELECT *, street || '|' || facing || '|' || bucket || '|'
                      || CASE WHEN street = 'preflop' THEN pos_group ELSE '' END AS ctx
            FROM dec WHERE bucket >= 0
        ), pop AS (
            SELECT ctx, avg(fold::INT) AS pf, avg(aggr::INT) AS pa FROM d GROUP BY ctx
        ), own AS (
            SELECT d.player, d.ctx, (sum(d.fold::INT) + $s * any_value(pop.pf)) / (count(*) + $s) AS p_fold,
                   (sum(d.aggr::INT) + $s * any_value(pop.pa)) / (count(*) + $s) AS p_aggr
            FROM d JOIN pop USING (ctx) GROUP BY ALL
        )
        SELECT d.hand_id, d.player AS a, o.player AS b, d.fold, d.aggr, d.facing, d.bucket,
            own.p_fold, own.p_aggr,
            CASE WHEN d.street = 'preflop' THEN so.chen > d.chen ELSE so.rank < d.rank END AS b_stronger
        FROM d JOIN own ON own.player = d.player AND own.ctx = d.ctx
        JOIN hp o ON o.hand_id = d.hand_id AND o.player <> d.player
             AND (o.fold_seq IS NULL OR o.fold_seq > d.seq)
        JOIN strength so ON so.hand_id = d.hand_id AND so.player = o.player AND so.street = d.street""",
        {"s": SHRINK},
    )
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE t_pair_stats AS
        WITH tog AS (
            SELECT a.hand_date, a.player AS player_a, b.player AS player_b,
                count(*) AS hands_together,
                count(DISTINCT a.table_name) AS sessions_together,
                count(*) FILTER (WHERE a.vpip AND b.vpip) AS confrontations,
                count(*) FILTER (WHERE a.saw_flop AND b.saw_flop AND nf.n_flop = 2) AS hu_confrontations,
                count(*) FILTER (WHERE a.saw_flop AND b.saw_flop AND nf.n_flop = 2 AND nf.post_aggr = 0
                                 AND a.wtsd AND b.wtsd) AS hu_checkdowns
            FROM hp a JOIN hp b ON b.hand_id = a.hand_id AND b.player <> a.player
            JOIN (SELECT hand_id, count(*) FILTER (WHERE saw_flop) AS n_flop, sum(post_aggr) AS post_aggr
                  FROM hp GROUP BY hand_id) nf ON nf.hand_id = a.hand_id
            GROUP BY ALL
        ), sess AS (
            SELECT hand_date, player, table_name, min(started_at) AS t0, max(started_at) AS t1
            FROM hp WHERE started_at IS NOT NULL GROUP BY ALL
        ), jl AS (
            SELECT a.hand_date, a.player AS player_a, b.player AS player_b,
                count(*) FILTER (WHERE abs(epoch(a.t0) - epoch(b.t0)) <= 300) AS joined_together,
                count(*) FILTER (WHERE abs(epoch(a.t1) - epoch(b.t1)) <= 300) AS left_together
            FROM sess a JOIN sess b ON b.hand_date = a.hand_date AND b.table_name = a.table_name
                 AND b.player <> a.player
            GROUP BY ALL
        ), con AS (
            SELECT hp.hand_date, p.a AS player_a, p.b AS player_b,
            {_contrast_columns()}
            FROM pdec p JOIN hp ON hp.hand_id = p.hand_id AND hp.player = p.a GROUP BY ALL
        ), fl AS (
            SELECT hand_date, a AS player_a, b AS player_b,
                CAST(round(sum(flow_cbb)) AS BIGINT) AS flow_cbb,
                CAST(round(coalesce(sum(flow_cbb) FILTER (WHERE both_flop), 0)) AS BIGINT) AS flow_flop_cbb,
                CAST(round(coalesce(sum(flow_cbb) FILTER (WHERE a_folded), 0)) AS BIGINT) AS flow_fold_cbb,
                CAST(round(coalesce(sum(flow_cbb) FILTER (WHERE a_better), 0)) AS BIGINT) AS flow_beaten_cbb,
                count(*) FILTER (WHERE a_better) AS lost_with_better
            FROM pflow GROUP BY ALL
        ), sq AS (
            SELECT hp.hand_date, s.a AS player_a, s.b AS player_b, count(*) AS reraised_by_b,
                count(*) FILTER (WHERE s.third_folds >= 1) AS squeezes,
                sum(s.third_folds) AS squeeze_third_folds, sum(s.callers_squeezed) AS callers_squeezed,
                count(*) FILTER (WHERE s.third_folds >= 1 AND s.a_folds_after) AS whipsaw_folds
            FROM psq s JOIN hp ON hp.hand_id = s.hand_id AND hp.player = s.a GROUP BY ALL
        ), cs AS (
            SELECT hp.hand_date, c.a AS player_a, c.b AS player_b,
                count(*) FILTER (WHERE c.facing AND c.b_stronger) AS cs_b_stronger_n,
                count(*) FILTER (WHERE c.facing AND c.b_stronger AND c.fold) AS cs_b_stronger_fold,
                coalesce(sum(c.p_fold) FILTER (WHERE c.facing AND c.b_stronger), 0) AS cs_b_stronger_exp,
                coalesce(sum(c.p_fold * (1 - c.p_fold)) FILTER (WHERE c.facing AND c.b_stronger), 0)
                    AS cs_b_stronger_var,
                count(*) FILTER (WHERE c.facing AND NOT c.b_stronger) AS cs_b_weaker_n,
                count(*) FILTER (WHERE c.facing AND NOT c.b_stronger AND c.fold) AS cs_b_weaker_fold,
                coalesce(sum(c.p_fold) FILTER (WHERE c.facing AND NOT c.b_stronger), 0) AS cs_b_weaker_exp,
                count(*) FILTER (WHERE NOT c.facing AND c.b_stronger) AS csn_b_stronger_n,
                count(*) FILTER (WHERE NOT c.facing AND c.b_stronger AND c.aggr) AS csn_b_stronger_aggr,
                coalesce(sum(c.p_aggr) FILTER (WHERE NOT c.facing AND c.b_stronger), 0) AS csn_b_stronger_exp,
                coalesce(sum(c.p_aggr * (1 - c.p_aggr)) FILTER (WHERE NOT c.facing AND c.b_stronger), 0)
                    AS csn_b_stronger_var,
                count(*) FILTER (WHERE NOT c.facing AND NOT c.b_stronger) AS csn_b_weaker_n,
                count(*) FILTER (WHERE NOT c.facing AND NOT c.b_stronger AND c.aggr) AS csn_b_weaker_aggr,
                coalesce(sum(c.p_aggr) FILTER (WHERE NOT c.facing AND NOT c.b_stronger), 0) AS csn_b_weaker_exp
            FROM pcs c JOIN hp ON hp.hand_id = c.hand_id AND hp.player = c.a GROUP BY ALL
        )
        SELECT * FROM tog
        LEFT JOIN jl USING (hand_date, player_a, player_b)
        LEFT JOIN con USING (hand_date, player_a, player_b)
        LEFT JOIN fl USING (hand_date, player_a, player_b)
        LEFT JOIN sq USING (hand_date, player_a, player_b)
        LEFT JOIN cs USING (hand_date, player_a, player_b)"""
    )
