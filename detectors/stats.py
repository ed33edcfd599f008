"""Player and pair statistics as additive integer counts (a period is the sum of its days).

Player statistics follow PokerTracker 4: each is a count and its opportunity count, so a period's
figure is one ratio of two sums. VPIP over hands less walks (everyone folded to the big blind);
PFR over hands with a preflop decision where a raise was possible; 3-bet (4-bet) over preflop
decisions facing exactly one (two) raises with a raise possible, so a shove the player cannot
re-raise (stack behind no more than the call, or no opponent left with chips) is no chance;
fold to 3-bet (4-bet) over the 2-bettor's (3-bettor's) decisions facing the next raise; steal
over first-in spots in the cutoff, button or small blind, fold to steal over a blind's decision
facing only that raise; c-bet over the preflop aggressor's first flop decision with no bet
before, fold to c-bet over the others' decisions facing only that bet; flop check-raise over the
first bet faced after checking the flop. Aggression postflop: AF = (bets + raises) / calls and
AFq = (bets + raises) / (bets + raises + calls + folds); WTSD and WWSF over hands that saw a flop,
W$SD over showdowns. Winnings are stored in hundredths of a big blind so bb/100 = net_cbb / hands.
Not PokerTracker's: positions come from the seat order after the button (no button: no steal
seat but the small blind), and an all-in raise too small to reopen the betting still counts as a
raise.

Pair statistics are ordered (A, B): how A acts against B. The decision contrasts compare A's
decisions heads-up with B (``hu``) or facing B's bet or raise (``face``) with A's own decisions
in the same spot (street, facing a bet, own strength bucket, preflop position group) against
everyone else (shrunk towards A's overall rate in that spot, so a player seen only against B
gets no contrast rather than a contrast with the population); ``obs`` is what A did, ``exp``
what A's own baseline predicts, ``var`` its binomial variance. Counts and obs/exp/var sum over
days within one run (the baseline is the run's window).

Like the features, everything is computed on integer-keyed internal tables (k_pdec, k_pflow,
k_psq, k_pcs: hand ``hk``, players ``a`` / ``b`` as ``pk``); pdec, pflow, psq and pcs are views
with the string ids for the evidence queries, and the spot (``ctx``) is kept as its parts
(street, facing or raises before, bucket, preflop position) and only spelled out in the view.
"""

from __future__ import annotations

import duckdb
import polars as pl

from detectors.features import replace_view

#: pseudo-count pulling a player's context rate towards the population's
SHRINK = 5.0
#: pairs that shared fewer hands in the window are not scored, so their per-decision rows and
#: pair_stats rows are not kept either (their sums still count in each player's totals: t_pair_rest)
MIN_HANDS = 20
GROUPS = ("hu_pre", "hu_post", "face_pre", "face_post")


#: a walk: everyone folded to this player's blind, who never acted (no call, bet or raise
#: preflop, not folded, alone at the end before any flop)
WALK = "NOT hp.vpip AND hp.fold_seq IS NULL AND hp.n_live_end = 1 AND NOT hp.saw_flop"


def _before(x: pl.Expr, start: pl.Expr) -> pl.Expr:
    """Running sum of ``x`` over the earlier rows of a segment (rows sorted; ``start`` marks a
    segment's first row), as the features' betting scan does it: one vectorised pass."""
    before = x.cum_sum() - x
    return before - pl.when(start).then(before).forward_fill()


def _action_context(con: duckdb.DuckDBPyConnection) -> None:
    """_ctx_w (registered): per action, the running sums PokerTracker 4's opportunities need.

    Preflop: the actor's chips already in (antes and blinds included: stack behind = stack less
    this), players all-in and calls (limps, cold calls) before the action, and whether it is the
    actor's first decision. Flop: whether the actor's previous flop decision was a check (a bet
    faced next is a check-raise chance). Why polars: these are sums over the earlier actions of a
    hand or seat, which DuckDB computes as framed windows (a sort each, several times the cost of
    the rest of the statistics) and polars as cumulative sums over rows sorted once."""
    c = pl.col
    a = con.execute(
        """SELECT hk, seq, pk, street = 'preflop' AS pre, coalesce(contribution, 0) AS contribution,
               coalesce(all_in, FALSE)::INT AS all_in, (kind = 'call')::INT AS calls, kind = 'check' AS checks,
               kind IN ('fold', 'check', 'call', 'bet', 'raise')::INT AS decision
        FROM k_act WHERE street IN ('preflop', 'flop')"""
    ).pl()
    a = a.sort("hk", "pre", "seq")
    new_part = ((c("hk") != c("hk").shift(1)) | (c("pre") != c("pre").shift(1))).fill_null(True)
    a = a.with_columns(allin_before=_before(c("all_in"), new_part), calls_before=_before(c("calls"), new_part))
    a = a.sort("hk", "pk", "pre", "seq")
    new_seat = ((c("hk") != c("hk").shift(1)) | (c("pk") != c("pk").shift(1))
                | (c("pre") != c("pre").shift(1))).fill_null(True)
    prev_check = pl.when(c("decision") == 1).then(c("checks")).otherwise(None).forward_fill().shift(1)
    a = a.with_columns(
        own_in_before=_before(c("contribution"), new_seat),
        first_decision=(c("decision") == 1) & (_before(c("decision"), new_seat) == 0),
        after_check=pl.when(new_seat).then(False).otherwise(prev_check).fill_null(False),
    ).filter(c("decision") == 1)
    con.register("_ctx_w", a.select("hk", "seq", "own_in_before", "allin_before", "calls_before",
                                    "first_decision", "after_check").to_arrow())


def _spots(con: duckdb.DuckDBPyConnection) -> None:
    """k_spot: every preflop and flop decision with the flags its opportunities are read from:
    ``can_raise`` (chips behind beyond the call and an opponent live with chips: not facing an
    unraisable all-in), ``blind`` (posted a blind), ``steal_seat`` (cutoff, button or small
    blind), ``folded_to`` (no raise or call before), ``after_check`` (flop, checked before)."""
    _action_context(con)
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_spot AS
        WITH blinds AS (
            SELECT hk, pk, bool_or(kind = 'post_sb') AS sb, bool_or(kind = 'post_bb') AS bb
            FROM k_act WHERE kind IN ('post_sb', 'post_bb') GROUP BY ALL
        )
        SELECT d.hk, d.pk, d.hand_date, d.street, d.aggr, d.fold, d.facing, d.raises_before, d.last_aggr,
            w.first_decision, w.after_check,
            d.raises_before = 0 AND w.calls_before = 0 AS folded_to,
            w.calls_before = 0 AS no_call_before,
            coalesce(hp.stack - w.own_in_before > d.to_call, TRUE) AND d.n_live - 1 - w.allin_before > 0
                AS can_raise,
            coalesce(b.sb, FALSE) OR coalesce(b.bb, FALSE) AS blind,
            coalesce(b.sb, FALSE) OR (hp.pos_group <> 'unk' AND NOT coalesce(b.bb, FALSE)
                AND (hp.pos = hp.n_dealt - 1 OR (hp.pos = hp.n_dealt - 2 AND hp.pos >= 2))) AS steal_seat
        FROM k_dec d JOIN _ctx_w w USING (hk, seq) JOIN k_hp hp ON hp.hk = d.hk AND hp.pk = d.pk
        LEFT JOIN blinds b ON b.hk = d.hk AND b.pk = d.pk"""
    )
    con.unregister("_ctx_w")


def player_stats(con: duckdb.DuckDBPyConnection) -> None:
    """Create temp table t_player_stats (per hand_date, player) from k_hp, k_act and k_dec.

    Counts with PokerTracker 4's opportunities, so each HUD figure is one ratio of two columns:
    VPIP = vpip / vpip_opp (hands less walks), PFR = pfr / pfr_opp, and x / x_opp for 3-bet, 4-bet,
    fold to 3-bet, fold to 4-bet, steal, fold to steal, c-bet, fold to c-bet, flop check-raise;
    AF = post_aggr / post_calls, AFq = post_aggr / (post_aggr + post_calls + post_folds);
    WTSD = wtsd / saw_flop, W$SD = wsd / wtsd, WWSF = wwsf / saw_flop. See the module docstring.
    Decisions are summed per (day, player) directly: no per-hand grouping of millions of rows."""
    _spots(con)
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_opener AS
        SELECT hk, arg_min(pk, seq) AS opener, arg_max(pk, seq) AS pfa,
               arg_min(pk, seq) FILTER (WHERE raises_before = 1) AS threebettor
        FROM k_dec WHERE street = 'preflop' AND aggr GROUP BY hk"""
    )
    replace_view(con, "opener", "SELECT h.hand_id, o.player AS opener, f.player AS pfa FROM k_opener k "
                                "JOIN k_hand h USING (hk) JOIN k_player o ON o.pk = k.opener "
                                "JOIN k_player f ON f.pk = k.pfa")
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_allin AS
        SELECT h.hk, p.pk, a.ev_net FROM allin_ev a JOIN k_hand h USING (hand_id) JOIN k_player p USING (player)"""
    )
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE t_player_stats AS
        WITH steals AS (
            -- a steal attempt: a raise from the cutoff, button or small blind when folded to
            SELECT hk, pk AS stealer FROM k_spot WHERE street = 'preflop' AND steal_seat AND folded_to AND aggr
        ), pre AS (
            SELECT p.hand_date, p.pk,
                count(*) FILTER (WHERE p.first_decision AND p.can_raise) AS pfr_opp,
                count(*) FILTER (WHERE p.raises_before = 1 AND p.can_raise) AS threebet_opp,
                count(*) FILTER (WHERE p.raises_before = 1 AND p.can_raise AND p.aggr) AS threebet,
                count(*) FILTER (WHERE p.raises_before = 2 AND p.can_raise) AS fourbet_opp,
                count(*) FILTER (WHERE p.raises_before = 2 AND p.can_raise AND p.aggr) AS fourbet,
                count(*) FILTER (WHERE p.raises_before = 2 AND o.opener = p.pk) AS fold_to_3bet_opp,
                count(*) FILTER (WHERE p.raises_before = 2 AND o.opener = p.pk AND p.fold) AS fold_to_3bet,
                count(*) FILTER (WHERE p.raises_before = 3 AND o.threebettor = p.pk) AS fold_to_4bet_opp,
                count(*) FILTER (WHERE p.raises_before = 3 AND o.threebettor = p.pk AND p.fold) AS fold_to_4bet,
                count(*) FILTER (WHERE p.steal_seat AND p.folded_to) AS steal_opp,
                count(*) FILTER (WHERE p.steal_seat AND p.folded_to AND p.aggr) AS steal,
                count(*) FILTER (WHERE p.blind AND p.raises_before = 1 AND p.no_call_before
                                 AND p.last_aggr = st.stealer) AS fold_to_steal_opp,
                count(*) FILTER (WHERE p.blind AND p.raises_before = 1 AND p.no_call_before
                                 AND p.last_aggr = st.stealer AND p.fold) AS fold_to_steal
            FROM k_spot p LEFT JOIN k_opener o USING (hk) LEFT JOIN steals st USING (hk)
            WHERE p.street = 'preflop' GROUP BY ALL
        ), flop AS (
            SELECT p.hand_date, p.pk,
                count(*) FILTER (WHERE p.raises_before = 0 AND o.pfa = p.pk) AS cbet_opp,
                count(*) FILTER (WHERE p.raises_before = 0 AND o.pfa = p.pk AND p.aggr) AS cbet,
                count(*) FILTER (WHERE p.raises_before = 1 AND p.last_aggr = o.pfa AND p.pk <> o.pfa)
                    AS fold_to_cbet_opp,
                count(*) FILTER (WHERE p.raises_before = 1 AND p.last_aggr = o.pfa AND p.pk <> o.pfa AND p.fold)
                    AS fold_to_cbet,
                count(*) FILTER (WHERE p.after_check AND p.facing) AS flop_check_raise_opp,
                count(*) FILTER (WHERE p.after_check AND p.facing AND p.aggr) AS flop_check_raise
            FROM k_spot p LEFT JOIN k_opener o USING (hk) WHERE p.street = 'flop' GROUP BY ALL
        ), post AS (
            SELECT hand_date, pk, count(*) AS post_decisions, count(*) FILTER (WHERE aggr) AS post_aggr,
                count(*) FILTER (WHERE calls) AS post_calls, count(*) FILTER (WHERE fold) AS post_folds
            FROM k_dec WHERE street <> 'preflop' GROUP BY ALL
        ), hands AS (
            SELECT hp.hand_date, hp.pk,
                count(*) AS hands,
                count(*) FILTER (WHERE {WALK}) AS walks, count(*) FILTER (WHERE NOT ({WALK})) AS vpip_opp,
                count(*) FILTER (WHERE hp.vpip) AS vpip,
                count(*) FILTER (WHERE hp.pfr) AS pfr,
                count(*) FILTER (WHERE hp.saw_flop) AS saw_flop,
                count(*) FILTER (WHERE hp.saw_flop AND hp.won > 0) AS wwsf,
                count(*) FILTER (WHERE hp.wtsd) AS wtsd,
                count(*) FILTER (WHERE hp.wtsd AND hp.won > 0) AS wsd,
                CAST(sum(round(hp.net * 100.0 / hp.bb)) AS BIGINT) AS net_cbb,
                CAST(sum(round(coalesce(ai.ev_net, hp.net) * 100.0 / hp.bb)) AS BIGINT) AS allin_adj_net_cbb,
                count(ai.ev_net) AS allin_hands_adjusted
            FROM k_hp hp LEFT JOIN k_allin ai USING (hk, pk)
            GROUP BY ALL
        ), s AS (
            SELECT h.hand_date, h.pk, h.hands, h.walks, h.vpip_opp, h.vpip, h.pfr,
                coalesce(pre.pfr_opp, 0) AS pfr_opp,
                {", ".join(f"coalesce(pre.{c}, 0) AS {c}" for c in PRE_COLUMNS)},
                {", ".join(f"coalesce(flop.{c}, 0) AS {c}" for c in FLOP_COLUMNS)},
                {", ".join(f"coalesce(post.{c}, 0) AS {c}" for c in POST_COLUMNS)},
                h.saw_flop, h.wwsf, h.wtsd, h.wsd, h.net_cbb, h.allin_adj_net_cbb, h.allin_hands_adjusted
            FROM hands h LEFT JOIN pre USING (hand_date, pk) LEFT JOIN flop USING (hand_date, pk)
            LEFT JOIN post USING (hand_date, pk)
        )
        SELECT s.hand_date, p.player, s.* EXCLUDE (hand_date, pk) FROM s JOIN k_player p USING (pk)"""
    )


#: player_stats count columns by where they are counted (opportunity before action)
PRE_COLUMNS = ("threebet_opp", "threebet", "fourbet_opp", "fourbet", "fold_to_3bet_opp", "fold_to_3bet",
               "fold_to_4bet_opp", "fold_to_4bet", "steal_opp", "steal", "fold_to_steal_opp", "fold_to_steal")
FLOP_COLUMNS = ("cbet_opp", "cbet", "fold_to_cbet_opp", "fold_to_cbet", "flop_check_raise_opp", "flop_check_raise")
POST_COLUMNS = ("post_decisions", "post_aggr", "post_calls", "post_folds")


def _ctx(street: str, first: str, second: str, pos: str) -> str:
    """The spot as the string the pair tables have always shown (street|x|y|preflop position)."""
    return (f"{street} || '|' || {first} || '|' || {second} || '|' || "
            f"CASE WHEN {street} = 'preflop' THEN {pos} ELSE '' END")


def pair_decisions(con: duckdb.DuckDBPyConnection) -> None:
    """k_pdec / pdec: A's decisions heads-up with B or facing B's aggression, with A's baseline rate,
    for the kept pairs (k_keep); the baselines count every decision.

    The spot is (grp, street, fac, rb, bucket, pos): fac (facing) for heads-up spots, rb (raises
    before) for facing spots (the other one constant, never NULL: the joins are on equality),
    pos the position group preflop ('' after the flop)."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_pdec AS
        WITH x AS (
            SELECT d.hk, d.seq, d.street, d.pk AS a, o.pk AS b, d.aggr, d.fold, d.bucket, d.hand_date,
                   CASE WHEN d.street = 'preflop' THEN 'hu_pre' ELSE 'hu_post' END AS grp,
                   d.facing AS fac, -1 AS rb,
                   CASE WHEN d.street = 'preflop' THEN d.pos_group ELSE '' END AS pos
            FROM k_dec d JOIN k_hp o ON o.hk = d.hk AND o.pk <> d.pk
                 AND (o.fold_seq IS NULL OR o.fold_seq > d.seq)
            WHERE d.n_live = 2
            UNION ALL
            SELECT d.hk, d.seq, d.street, d.pk, d.last_aggr, d.aggr, d.fold, d.bucket, d.hand_date,
                   CASE WHEN d.street = 'preflop' THEN 'face_pre' ELSE 'face_post' END,
                   FALSE, d.raises_before,
                   CASE WHEN d.street = 'preflop' THEN d.pos_group ELSE '' END
            FROM k_dec d WHERE d.facing AND d.last_aggr IS NOT NULL AND d.last_aggr <> d.pk AND d.n_live > 2
        ), base AS (
            SELECT a, grp, street, fac, rb, bucket, pos, count(*) AS n, sum(aggr::INT) AS k_aggr,
                   sum(fold::INT) AS k_fold
            FROM x GROUP BY ALL
        ), pop AS (
            SELECT grp, street, fac, rb, bucket, pos, avg(aggr::INT) AS p_aggr, avg(fold::INT) AS p_fold
            FROM x GROUP BY ALL
        ), pair AS (
            SELECT a, b, grp, street, fac, rb, bucket, pos, count(*) AS n, sum(aggr::INT) AS k_aggr,
                   sum(fold::INT) AS k_fold
            FROM x SEMI JOIN k_keep USING (a, b) GROUP BY ALL
        ), self AS (
            SELECT base.a, base.grp, base.street, base.fac, base.rb, base.bucket, base.pos, base.n, base.k_aggr,
                base.k_fold,
                (base.k_aggr + $s * pop.p_aggr) / (base.n + $s) AS q_aggr,
                (base.k_fold + $s * pop.p_fold) / (base.n + $s) AS q_fold
            FROM base JOIN pop USING (grp, street, fac, rb, bucket, pos)
        ), rate AS (
            SELECT pair.a, pair.b, pair.grp, pair.street, pair.fac, pair.rb, pair.bucket, pair.pos,
                (self.k_aggr - pair.k_aggr + $s * self.q_aggr) / (self.n - pair.n + $s) AS p_aggr,
                (self.k_fold - pair.k_fold + $s * self.q_fold) / (self.n - pair.n + $s) AS p_fold
            FROM pair JOIN self USING (a, grp, street, fac, rb, bucket, pos)
        )
        SELECT x.*, r.p_aggr, r.p_fold FROM x JOIN rate r USING (a, b, grp, street, fac, rb, bucket, pos)""",
        {"s": SHRINK},
    )
    hu = _ctx("p.street", "p.fac", "p.bucket", "p.pos")
    face = _ctx("p.street", "p.bucket", "p.rb", "p.pos")
    replace_view(
        con, "pdec",
        f"""SELECT h.hand_id, p.seq, p.street, pa.player AS a, pb.player AS b, p.aggr, p.fold, p.bucket, p.grp,
               CASE WHEN p.grp LIKE 'hu_%' THEN {hu} ELSE {face} END AS ctx, p.p_aggr, p.p_fold
        FROM k_pdec p JOIN k_hand h USING (hk) JOIN k_player pa ON pa.pk = p.a JOIN k_player pb ON pb.pk = p.b""",
    )


def _contrast_columns() -> str:
    """The per-group contrast columns, read off ``con_g`` (one row per pair, day and group)."""
    cols = []
    for g in GROUPS:
        pick = f"FILTER (WHERE grp = '{g}')"
        for m in ("aggr", "fold"):
            cols.append(f"any_value({m}_obs) {pick} AS {g}_{m}_obs")
            cols.append(f"any_value({m}_exp) {pick} AS {g}_{m}_exp")
            cols.append(f"any_value({m}_var) {pick} AS {g}_{m}_var")
        cols.append(f"coalesce(any_value(n) {pick}, 0) AS {g}_n")
        cols.append(f"any_value(strong_n) {pick} AS {g}_strong_n")
        cols.append(f"any_value(strong_aggr) {pick} AS {g}_strong_aggr")
    return ",\n            ".join(cols)


def _card_columns() -> str:
    """The card-sharing columns, read off ``cs_g`` (one row per pair, day, facing, B stronger)."""
    cols = []
    for prefix, facing, act in (("cs", "facing", "fold"), ("csn", "NOT facing", "aggr")):
        for side, cond in (("b_stronger", "b_stronger"), ("b_weaker", "NOT b_stronger")):
            pick = f"FILTER (WHERE {facing} AND {cond})"
            cols.append(f"coalesce(any_value(n) {pick}, 0) AS {prefix}_{side}_n")
            cols.append(f"coalesce(any_value(k_{act}) {pick}, 0) AS {prefix}_{side}_{act}")
            cols.append(f"coalesce(any_value(e_{act}) {pick}, 0) AS {prefix}_{side}_exp")
            if side == "b_stronger":
                cols.append(f"coalesce(any_value(v_{act}) {pick}, 0) AS {prefix}_{side}_var")
    return ",\n            ".join(cols)


#: string-keyed views over the per-hand pair tables that need no baseline (``pair_views``)
PAIR_VIEWS = {
    "pflow": """SELECT h.hand_id, f.hand_date, pa.player AS a, pb.player AS b, f.flow_cbb, f.a_folded, f.both_flop,
               f.a_better
        FROM k_pflow f JOIN k_hand h USING (hk) JOIN k_player pa ON pa.pk = f.a JOIN k_player pb ON pb.pk = f.b""",
    "psq": """SELECT h.hand_id, pa.player AS a, pb.player AS b, q.callers_squeezed, q.third_folds, q.a_folds_after
        FROM k_psq q JOIN k_hand h USING (hk) JOIN k_player pa ON pa.pk = q.a JOIN k_player pb ON pb.pk = q.b""",
}


def pair_views(con: duckdb.DuckDBPyConnection) -> None:
    """The pflow and psq views over k_pflow and k_psq loaded from the partitions."""
    for name, sql in PAIR_VIEWS.items():
        replace_view(con, name, sql)


def _flows(con: duckdb.DuckDBPyConnection) -> None:
    """k_pflow / pflow: each losing voluntary player's loss shared out over the pot's winners."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_pflow AS
        WITH tot AS (SELECT hk, sum(won) AS total_won FROM k_hp WHERE won > 0 GROUP BY hk),
        fin AS (SELECT hk, pk, rank FROM k_strength WHERE street = 'final'),
        pre AS (SELECT hk, pk, chen FROM k_strength WHERE street = 'preflop')
        SELECT l.hk, l.hand_date, l.pk AS a, w.pk AS b,
            -l.net * 100.0 * w.won / t.total_won / l.bb AS flow_cbb,
            l.fold_seq IS NOT NULL AS a_folded, l.saw_flop AND w.saw_flop AND l.vpip AS both_flop,
            CASE WHEN fa.rank IS NOT NULL AND fb.rank IS NOT NULL THEN fa.rank <= fb.rank
                 WHEN fa.rank IS NULL AND fb.rank IS NULL AND pa.chen IS NOT NULL AND pb.chen IS NOT NULL
                 THEN pa.chen >= pb.chen END AS a_better
        FROM k_hp l JOIN k_hp w ON w.hk = l.hk AND w.pk <> l.pk AND w.won > 0
        JOIN tot t ON t.hk = l.hk
        LEFT JOIN fin fa ON fa.hk = l.hk AND fa.pk = l.pk
        LEFT JOIN fin fb ON fb.hk = l.hk AND fb.pk = w.pk
        LEFT JOIN pre pa ON pa.hk = l.hk AND pa.pk = l.pk
        LEFT JOIN pre pb ON pb.hk = l.hk AND pb.pk = w.pk
        WHERE l.net < 0 AND l.vpip"""
    )
    replace_view(con, "pflow", PAIR_VIEWS["pflow"])


def _squeezes(con: duckdb.DuckDBPyConnection) -> None:
    """k_psq / psq: consecutive preflop raises by A then B, and the third players caught between."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_psq AS
        WITH r AS (
            SELECT hk, seq, pk, hand_date, row_number() OVER (PARTITION BY hk ORDER BY seq) AS rn
            FROM k_dec WHERE street = 'preflop' AND aggr
        ), s AS (
            SELECT r1.hk, r1.hand_date, r1.pk AS a, r2.pk AS b, r1.seq AS s1, r2.seq AS s2
            FROM r r1 JOIN r r2 ON r2.hk = r1.hk AND r2.rn = r1.rn + 1 AND r2.pk <> r1.pk
        )
        SELECT s.hk, s.hand_date, s.a, s.b,
            count(DISTINCT t.pk) FILTER (WHERE t.fold_seq > s.s2 AND t.vpip) AS callers_squeezed,
            count(DISTINCT t.pk) FILTER (WHERE t.fold_seq > s.s2) AS third_folds,
            any_value(pa.fold_seq > s.s2) AS a_folds_after
        FROM s JOIN k_hp t ON t.hk = s.hk AND t.pk NOT IN (s.a, s.b)
        JOIN k_hp pa ON pa.hk = s.hk AND pa.pk = s.a
        GROUP BY ALL"""
    )
    replace_view(con, "psq", PAIR_VIEWS["psq"])


def _card_spots(con: duckdb.DuckDBPyConnection) -> None:
    """k_pcs / pcs: A's decisions with known strength against each live B with known strength."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_pcs AS
        WITH d AS (
            SELECT *, CASE WHEN street = 'preflop' THEN pos_group ELSE '' END AS pos FROM k_dec WHERE bucket >= 0
        ), pop AS (
            SELECT street, facing, bucket, pos, avg(fold::INT) AS pf, avg(aggr::INT) AS pa FROM d GROUP BY ALL
        ), own AS (
            SELECT d.pk, d.street, d.facing, d.bucket, d.pos,
                   (sum(d.fold::INT) + $s * any_value(pop.pf)) / (count(*) + $s) AS p_fold,
                   (sum(d.aggr::INT) + $s * any_value(pop.pa)) / (count(*) + $s) AS p_aggr
            FROM d JOIN pop USING (street, facing, bucket, pos) GROUP BY ALL
        ), opp AS (
            -- every player's strength per street with when they folded: one join on (hand, street)
            -- instead of all dealt players first and their strength after
            SELECT s.hk, s.pk, s.street, s.rank, s.chen, hp.fold_seq
            FROM k_strength s JOIN k_hp hp USING (hk, pk) WHERE s.street <> 'final'
        )
        SELECT d.hk, d.hand_date, d.pk AS a, o.pk AS b, d.fold, d.aggr, d.facing, d.bucket,
            own.p_fold, own.p_aggr,
            CASE WHEN d.street = 'preflop' THEN o.chen > d.chen ELSE o.rank < d.rank END AS b_stronger
        FROM d JOIN own USING (pk, street, facing, bucket, pos)
        JOIN opp o ON o.hk = d.hk AND o.street = d.street AND o.pk <> d.pk
             AND (o.fold_seq IS NULL OR o.fold_seq > d.seq)""",
        {"s": SHRINK},
    )
    replace_view(
        con, "pcs",
        """SELECT h.hand_id, pa.player AS a, pb.player AS b, c.fold, c.aggr, c.facing, c.bucket, c.p_fold,
               c.p_aggr, c.b_stronger
        FROM k_pcs c JOIN k_hand h USING (hk) JOIN k_player pa ON pa.pk = c.a JOIN k_player pb ON pb.pk = c.b""",
    )


def together_rows(con: duckdb.DuckDBPyConnection) -> None:
    """k_tog_t: hands and confrontations per (day, A, B, table), every pair. Additive over hands
    (a partition builds its own; the night sums them per day, pair and table, then counts tables)."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_tog_t AS
        WITH nf AS (
            SELECT hk, count(*) FILTER (WHERE saw_flop) AS n_flop, sum(post_aggr) AS post_aggr
            FROM k_hp GROUP BY hk
        )
        SELECT a.hand_date, a.pk AS a, b.pk AS b, a.tk,
            count(*) AS n,
            count(*) FILTER (WHERE a.vpip AND b.vpip) AS c1,
            count(*) FILTER (WHERE a.saw_flop AND b.saw_flop AND nf.n_flop = 2) AS c2,
            count(*) FILTER (WHERE a.saw_flop AND b.saw_flop AND nf.n_flop = 2 AND nf.post_aggr = 0
                             AND a.wtsd AND b.wtsd) AS c3
        FROM k_hp a JOIN k_hp b ON b.hk = a.hk AND b.pk <> a.pk
        JOIN nf ON nf.hk = a.hk
        GROUP BY ALL"""
    )


def _together(con: duckdb.DuckDBPyConnection, min_hands: int) -> None:
    """k_tog: hands, sessions and confrontations per (day, A, B), every pair, from k_tog_t (one row
    per day, pair and table); k_keep: the pairs that shared at least ``min_hands`` hands in the
    window (the only ones scored)."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_tog AS
        -- per table first, then per pair: counting the tables is a plain count, not a DISTINCT
        SELECT hand_date, a, b, CAST(sum(n) AS BIGINT) AS hands_together, count(tk) AS sessions_together,
            CAST(sum(c1) AS BIGINT) AS confrontations, CAST(sum(c2) AS BIGINT) AS hu_confrontations,
            CAST(sum(c3) AS BIGINT) AS hu_checkdowns
        FROM k_tog_t
        GROUP BY ALL"""
    )
    con.execute("DROP TABLE k_tog_t")
    # seat labels and placeholders ("Big Blind", "Hero", "Player5") are seats, not people: never a pair
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_keep AS
        SELECT t.a, t.b FROM k_tog t
        JOIN k_player pa ON pa.pk = t.a AND NOT pa.anon JOIN k_player pb ON pb.pk = t.b AND NOT pb.anon
        GROUP BY t.a, t.b HAVING sum(t.hands_together) >= $m""",
        {"m": min_hands},
    )


def _pair_sums(con: duckdb.DuckDBPyConnection) -> None:
    """k_fl, k_sq, k_cs: chip flows, squeezes and card-conditioned spots per (day, A, B), every
    pair (the kept pairs' rows go to t_pair_stats, the others' into the players' totals)."""
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_fl AS
        SELECT hand_date, a, b,
            CAST(round(sum(flow_cbb)) AS BIGINT) AS flow_cbb,
            CAST(round(coalesce(sum(flow_cbb) FILTER (WHERE both_flop), 0)) AS BIGINT) AS flow_flop_cbb,
            CAST(round(coalesce(sum(flow_cbb) FILTER (WHERE a_folded), 0)) AS BIGINT) AS flow_fold_cbb,
            CAST(round(coalesce(sum(flow_cbb) FILTER (WHERE a_better), 0)) AS BIGINT) AS flow_beaten_cbb,
            count(*) FILTER (WHERE a_better) AS lost_with_better
        FROM k_pflow GROUP BY ALL"""
    )
    con.execute(
        """CREATE OR REPLACE TEMP TABLE k_sq AS
        SELECT hand_date, a, b, count(*) AS reraised_by_b,
            count(*) FILTER (WHERE third_folds >= 1) AS squeezes,
            sum(third_folds) AS squeeze_third_folds, sum(callers_squeezed) AS callers_squeezed,
            count(*) FILTER (WHERE third_folds >= 1 AND a_folds_after) AS whipsaw_folds
        FROM k_psq GROUP BY ALL"""
    )
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE k_cs AS
        WITH cs_g AS (
            SELECT hand_date, a, b, facing, b_stronger, count(*) AS n,
                count(*) FILTER (WHERE fold) AS k_fold, sum(p_fold) AS e_fold,
                sum(p_fold * (1 - p_fold)) AS v_fold, count(*) FILTER (WHERE aggr) AS k_aggr,
                sum(p_aggr) AS e_aggr, sum(p_aggr * (1 - p_aggr)) AS v_aggr
            FROM k_pcs GROUP BY ALL
        )
        SELECT hand_date, a, b,
            {_card_columns()}
        FROM cs_g GROUP BY ALL"""
    )


#: what ``pairs.directional`` sums per player over all opponents (leave-B-out baselines)
REST_COLUMNS = ("hands_together", "confrontations", "flow_cbb", "flow_fold_cbb", "flow_beaten_cbb", "squeezes",
                "cs_b_stronger_n", "cs_b_stronger_fold", "cs_b_stronger_exp",
                "csn_b_stronger_n", "csn_b_stronger_aggr", "csn_b_stronger_exp")


def per_hand_pair_rows(con: duckdb.DuckDBPyConnection) -> None:
    """k_tog_t, k_pflow, k_psq: the pair rows that need no population baseline (each hand's own
    rows), built per partition by ``detectors.partial`` and only summed at night."""
    together_rows(con)
    _flows(con)
    _squeezes(con)


def pair_stats(con: duckdb.DuckDBPyConnection, min_hands: int = MIN_HANDS, loaded: bool = False) -> None:
    """Create temp table t_pair_stats (per hand_date, player_a, player_b), ordered pairs that
    shared at least ``min_hands`` hands in the window, and t_pair_rest (per hand_date, player_a):
    the same sums over every other opponent, so a player's totals are those of all decisions.
    ``loaded``: k_tog_t, k_pflow and k_psq came from the partitions (``detectors.partial``)."""
    if not loaded:
        per_hand_pair_rows(con)
    else:
        pair_views(con)
    _together(con, min_hands)
    pair_decisions(con)
    _card_spots(con)
    _pair_sums(con)
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE t_pair_stats AS
        WITH tog AS (
            SELECT * FROM k_tog SEMI JOIN k_keep USING (a, b)
        ), sess AS (
            SELECT hp.hand_date, hp.pk, hp.tk, min(h.started_at) AS t0, max(h.started_at) AS t1
            FROM k_hp hp JOIN k_hand h USING (hk) WHERE h.started_at IS NOT NULL GROUP BY ALL
        ), jl AS (
            SELECT a.hand_date, a.pk AS a, b.pk AS b,
                count(*) FILTER (WHERE abs(epoch(a.t0) - epoch(b.t0)) <= 300) AS joined_together,
                count(*) FILTER (WHERE abs(epoch(a.t1) - epoch(b.t1)) <= 300) AS left_together
            FROM sess a JOIN sess b ON b.hand_date = a.hand_date AND b.tk = a.tk AND b.pk <> a.pk
            GROUP BY ALL
        ), con_g AS (
            -- plain sums per group first, then one row per pair and day: much cheaper than 36
            -- FILTER aggregates over every pair decision
            SELECT hand_date, a, b, grp, sum(aggr::INT) AS aggr_obs, sum(p_aggr) AS aggr_exp,
                sum(p_aggr * (1 - p_aggr)) AS aggr_var, sum(fold::INT) AS fold_obs, sum(p_fold) AS fold_exp,
                sum(p_fold * (1 - p_fold)) AS fold_var, count(*) AS n, sum((bucket >= 3)::INT) AS strong_n,
                sum((bucket >= 3 AND aggr)::INT) AS strong_aggr
            FROM k_pdec GROUP BY ALL
        ), con AS (
            SELECT hand_date, a, b,
            {_contrast_columns()}
            FROM con_g GROUP BY ALL
        ), j AS (
            SELECT * FROM tog
            LEFT JOIN jl USING (hand_date, a, b)
            LEFT JOIN con USING (hand_date, a, b)
            LEFT JOIN k_fl USING (hand_date, a, b)
            LEFT JOIN k_sq USING (hand_date, a, b)
            LEFT JOIN k_cs USING (hand_date, a, b)
        )
        SELECT j.hand_date, pa.player AS player_a, pb.player AS player_b, j.* EXCLUDE (hand_date, a, b)
        FROM j JOIN k_player pa ON pa.pk = j.a JOIN k_player pb ON pb.pk = j.b"""
    )
    parts = [
        ("k_tog", ["hands_together", "confrontations"]),
        ("k_fl", ["flow_cbb", "flow_fold_cbb", "flow_beaten_cbb"]),
        ("k_sq", ["squeezes"]),
        ("k_cs", [c for c in REST_COLUMNS if c.startswith("cs")]),
    ]
    dropped = " UNION ALL BY NAME ".join(
        f"SELECT hand_date, a, {', '.join(cols)} FROM {t} ANTI JOIN k_keep USING (a, b)" for t, cols in parts)
    sums = ", ".join(f"sum({c}) AS {c}" for c in REST_COLUMNS)
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE t_pair_rest AS
        SELECT r.hand_date, p.player AS player_a, r.* EXCLUDE (hand_date, a)
        FROM (SELECT hand_date, a, {sums} FROM ({dropped}) GROUP BY ALL) r JOIN k_player p ON p.pk = r.a"""
    )
