-- Rule checker output (DuckDB). Rebuilt per run of `floorman check`: rows for the checked hands are
-- replaced, so re-running is idempotent. Amounts are integers in the hand's smallest unit.

CREATE TABLE IF NOT EXISTS action_states (
    hand_id          VARCHAR NOT NULL,
    seq              INTEGER NOT NULL,   -- actions.seq of the decision
    player           VARCHAR NOT NULL,
    street           VARCHAR NOT NULL,
    position         VARCHAR NOT NULL,   -- SB, BB, UTG, UTG+1, HJ, CO, BTN (heads-up: BB, BTN)
    kind             VARCHAR NOT NULL,   -- fold, check, call, bet, raise
    contribution     BIGINT NOT NULL,
    raise_to         BIGINT,             -- street total after a bet/raise
    to_call          BIGINT NOT NULL,    -- capped at the player's stack
    current_bet      BIGINT NOT NULL,    -- B: amount to match on this street
    min_raise_to     BIGINT,             -- NULL: the player could not raise
    max_raise_to     BIGINT,
    last_full_raise  BIGINT NOT NULL,    -- F: largest full bet/raise increment of the street
    reopened         BOOLEAN NOT NULL,   -- betting open for this player (not closed by a short all-in)
    pot_before       BIGINT NOT NULL,    -- everything in, street bets included
    players_to_act   INTEGER NOT NULL,   -- others still owing an action this street
    stack_before     BIGINT NOT NULL,
    committed_before BIGINT NOT NULL,    -- the player's street total before acting
    facing_aggressor VARCHAR,            -- last bettor/raiser of the street
    all_in           BOOLEAN NOT NULL,
    rulebook         VARCHAR NOT NULL,
    run_id           VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS violations (
    hand_id          VARCHAR NOT NULL,
    action_seq       INTEGER,            -- NULL: about the whole hand
    rule_id          VARCHAR NOT NULL,   -- rules_matrix.md ids, e.g. RAISE.MIN
    rulebook         VARCHAR NOT NULL,   -- profile name, e.g. CEP-2023
    severity         VARCHAR NOT NULL,   -- error, warning, review, info, data (rules.findings)
    house_decision   BOOLEAN NOT NULL,   -- true exactly when severity is review (the floor rules)
    allowed_outcomes VARCHAR,            -- '|'-separated legal rulings for house decisions
    expected         VARCHAR NOT NULL,
    actual           VARCHAR NOT NULL,
    message          VARCHAR NOT NULL,   -- plain English with the seed passage quoted
    run_id           VARCHAR NOT NULL,
    rule_version     VARCHAR NOT NULL,
    checked_at       TIMESTAMP NOT NULL
);
