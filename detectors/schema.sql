-- Detector outputs (DuckDB). player_stats and pair_stats are additive integer counts per day:
-- a period's statistics are the sum of its days (obs/exp/var of the decision contrasts are
-- additive within one run, whose baseline is the run's window).

CREATE TABLE IF NOT EXISTS detector_runs (
    run_id           VARCHAR PRIMARY KEY,
    started_at       TIMESTAMP NOT NULL,
    finished_at      TIMESTAMP,
    mode             VARCHAR NOT NULL,      -- operator | player
    since            DATE,
    until            DATE,
    hands            BIGINT,
    players          BIGINT,
    pairs_scored     BIGINT,
    flags            BIGINT,
    detector_versions JSON,                 -- {"soft_play": "1.0.0", ...}
    params           JSON,                  -- thresholds, shrinkage, model file and its version
    seconds          DOUBLE
);

-- PokerTracker 4 definitions, each HUD figure one ratio (detectors/stats.py): VPIP = vpip / vpip_opp
-- (hands less walks), PFR = pfr / pfr_opp, x / x_opp for 3-bet, 4-bet, fold to 3-bet / 4-bet, steal,
-- fold to steal, c-bet, fold to c-bet, flop check-raise; AF = post_aggr / post_calls,
-- AFq = post_aggr / (post_aggr + post_calls + post_folds); WWSF = wwsf / saw_flop
CREATE TABLE IF NOT EXISTS player_stats (
    run_id VARCHAR NOT NULL, hand_date DATE, player VARCHAR NOT NULL,
    hands BIGINT, vpip BIGINT, pfr BIGINT, threebet_opp BIGINT, threebet BIGINT,
    fold_to_3bet_opp BIGINT, fold_to_3bet BIGINT, cbet_opp BIGINT, cbet BIGINT,
    post_decisions BIGINT, post_aggr BIGINT, post_calls BIGINT,
    saw_flop BIGINT, wtsd BIGINT, wsd BIGINT,
    net_cbb BIGINT,                -- winnings in hundredths of a big blind (bb/100 = net_cbb / hands)
    allin_adj_net_cbb BIGINT,      -- the same with all-in showdowns credited at equity
    allin_hands_adjusted BIGINT
);
-- added with the PokerTracker 4 opportunities (also on warehouses made before them; earlier runs' rows NULL)
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS walks BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS vpip_opp BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS pfr_opp BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS fourbet_opp BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS fourbet BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS fold_to_4bet_opp BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS fold_to_4bet BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS steal_opp BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS steal BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS fold_to_steal_opp BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS fold_to_steal BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS fold_to_cbet_opp BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS fold_to_cbet BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS flop_check_raise_opp BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS flop_check_raise BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS post_folds BIGINT;
ALTER TABLE player_stats ADD COLUMN IF NOT EXISTS wwsf BIGINT;

CREATE TABLE IF NOT EXISTS pair_stats (
    run_id VARCHAR NOT NULL, hand_date DATE, player_a VARCHAR NOT NULL, player_b VARCHAR NOT NULL,
    hands_together BIGINT, sessions_together BIGINT, confrontations BIGINT, hu_confrontations BIGINT,
    hu_checkdowns BIGINT, joined_together BIGINT, left_together BIGINT,
    hu_pre_aggr_obs BIGINT, hu_pre_aggr_exp DOUBLE, hu_pre_aggr_var DOUBLE,
    hu_pre_fold_obs BIGINT, hu_pre_fold_exp DOUBLE, hu_pre_fold_var DOUBLE,
    hu_pre_n BIGINT, hu_pre_strong_n BIGINT, hu_pre_strong_aggr BIGINT,
    hu_post_aggr_obs BIGINT, hu_post_aggr_exp DOUBLE, hu_post_aggr_var DOUBLE,
    hu_post_fold_obs BIGINT, hu_post_fold_exp DOUBLE, hu_post_fold_var DOUBLE,
    hu_post_n BIGINT, hu_post_strong_n BIGINT, hu_post_strong_aggr BIGINT,
    face_pre_aggr_obs BIGINT, face_pre_aggr_exp DOUBLE, face_pre_aggr_var DOUBLE,
    face_pre_fold_obs BIGINT, face_pre_fold_exp DOUBLE, face_pre_fold_var DOUBLE,
    face_pre_n BIGINT, face_pre_strong_n BIGINT, face_pre_strong_aggr BIGINT,
    face_post_aggr_obs BIGINT, face_post_aggr_exp DOUBLE, face_post_aggr_var DOUBLE,
    face_post_fold_obs BIGINT, face_post_fold_exp DOUBLE, face_post_fold_var DOUBLE,
    face_post_n BIGINT, face_post_strong_n BIGINT, face_post_strong_aggr BIGINT,
    flow_cbb BIGINT, flow_flop_cbb BIGINT, flow_fold_cbb BIGINT, flow_beaten_cbb BIGINT,
    lost_with_better BIGINT,
    reraised_by_b BIGINT, squeezes BIGINT, squeeze_third_folds BIGINT, callers_squeezed BIGINT,
    whipsaw_folds BIGINT,
    -- card sharing: A's folds facing a bet (cs) and bets/raises when not facing one (csn) while B is
    -- live with the stronger / weaker hand; exp/var from A's own rate in the same spot
    cs_b_stronger_n BIGINT, cs_b_stronger_fold BIGINT, cs_b_stronger_exp DOUBLE, cs_b_stronger_var DOUBLE,
    cs_b_weaker_n BIGINT, cs_b_weaker_fold BIGINT, cs_b_weaker_exp DOUBLE,
    csn_b_stronger_n BIGINT, csn_b_stronger_aggr BIGINT, csn_b_stronger_exp DOUBLE, csn_b_stronger_var DOUBLE,
    csn_b_weaker_n BIGINT, csn_b_weaker_aggr BIGINT, csn_b_weaker_exp DOUBLE
);

-- flag_id is stable across runs: a hash of (mode, family, sorted site-scoped player keys), so the
-- same case keeps its id night after night; one run holds each case once.
CREATE TABLE IF NOT EXISTS flags (
    flag_id            VARCHAR NOT NULL,
    run_id             VARCHAR NOT NULL,
    family             VARCHAR NOT NULL,    -- soft_play | chip_dumping | squeeze | card_sharing | collusion_ring | anomaly
    players            VARCHAR[] NOT NULL,
    score              DOUBLE NOT NULL,     -- calibrated probability (model) or scaled rule score, 0..1
    severity           VARCHAR NOT NULL,    -- low | medium | high
    mode               VARCHAR NOT NULL,    -- operator | player
    explanation        VARCHAR NOT NULL,
    evidence_hands     VARCHAR[] NOT NULL,  -- ranked, most telling first
    observed           JSON,                -- what was seen vs the population baseline, with percentiles
    benign_explanation VARCHAR,
    overturn           VARCHAR,
    detector_version   VARCHAR NOT NULL,
    params             JSON,
    created_at         TIMESTAMP NOT NULL,
    first_hand_at      TIMESTAMP,
    last_hand_at       TIMESTAMP,
    evidence_families  VARCHAR[],           -- in step with evidence_hands: the family each was picked for (NULL before 1.11)
    PRIMARY KEY (run_id, flag_id)
);

-- every scored pair of a run, ranked: the queue is its top (flagged = inside the alert budget);
-- f_ = family attribution (sums to 1), t_ = the family statistic's robust z in this room,
-- r_ = the family's rule score, p_ = the model's class probability (or the scaled rule score);
-- p_pair is the model's pair score: with an ensemble, the members' mean rank percentile in the room
CREATE TABLE IF NOT EXISTS pair_scores (
    run_id VARCHAR NOT NULL, player_a VARCHAR NOT NULL, player_b VARCHAR NOT NULL,
    rank BIGINT NOT NULL, flagged BOOLEAN NOT NULL, score DOUBLE NOT NULL, family VARCHAR NOT NULL,
    p_pair DOUBLE, t_max DOUBLE,
    f_soft_play DOUBLE, t_soft_play DOUBLE, r_soft_play DOUBLE, p_soft_play DOUBLE,
    f_chip_dumping DOUBLE, t_chip_dumping DOUBLE, r_chip_dumping DOUBLE, p_chip_dumping DOUBLE,
    f_squeeze DOUBLE, t_squeeze DOUBLE, r_squeeze DOUBLE, p_squeeze DOUBLE,
    f_card_sharing DOUBLE, t_card_sharing DOUBLE, r_card_sharing DOUBLE, p_card_sharing DOUBLE,
    anomaly DOUBLE, hands_together BIGINT, hu_confrontations BIGINT, confrontations BIGINT,
    team_support DOUBLE,  -- 0..1, detectors/teams.py (NULL: a run whose order did not use it)
    evidence_support DOUBLE,  -- 0..1, detectors/evsupport.py (0 outside the re-ordered top; NULL: before 1.10)
    PRIMARY KEY (run_id, player_a, player_b)
);
-- warehouses made before team support (detector 1.7.0)
ALTER TABLE pair_scores ADD COLUMN IF NOT EXISTS team_support DOUBLE;
-- ... and before evidence support (detector 1.10.0)
ALTER TABLE pair_scores ADD COLUMN IF NOT EXISTS evidence_support DOUBLE;
-- flags made before each evidence hand named its family (detector 1.11.0)
ALTER TABLE flags ADD COLUMN IF NOT EXISTS evidence_families VARCHAR[];
