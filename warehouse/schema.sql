-- Floorman warehouse schema (DuckDB). One row per canonical record; every amount is an
-- integer in the hand's smallest unit (hands.unit_scale units = one hands.currency unit).
-- Keys: hand_id is "<site>:<site hand number>" and unique; child tables key on hand_id.

CREATE TABLE IF NOT EXISTS raw_files (
    sha256        VARCHAR PRIMARY KEY,   -- content hash: re-ingesting the same bytes adds nothing
    path          VARCHAR NOT NULL,      -- where it was read from (first time seen)
    size_bytes    BIGINT NOT NULL,
    format        VARCHAR,               -- sniffed parser name, NULL when unrecognised
    encoding      VARCHAR,
    hands         INTEGER NOT NULL,      -- hands parsed from this file (including duplicates)
    new_hands     INTEGER NOT NULL,      -- hands stored for the first time from this file
    quarantined   INTEGER NOT NULL,
    ingested_at   TIMESTAMP NOT NULL,
    partition_key VARCHAR                -- e.g. '2026-11-29' (day of the file's first hand, UTC)
);

CREATE TABLE IF NOT EXISTS hands (
    hand_id          VARCHAR PRIMARY KEY,
    site             VARCHAR NOT NULL,
    site_hand_no     VARCHAR NOT NULL,
    format           VARCHAR NOT NULL,
    variant          VARCHAR NOT NULL,   -- holdem, omaha, omaha_hilo, omaha5, ...
    betting          VARCHAR NOT NULL,   -- NL, PL, FL, CAP
    game_type        VARCHAR NOT NULL,   -- cash, tournament
    tournament_id    VARCHAR,
    tournament_level VARCHAR,
    table_name       VARCHAR NOT NULL,
    max_seats        INTEGER,
    button_seat      INTEGER,
    sb               BIGINT NOT NULL,
    bb               BIGINT NOT NULL,
    ante             BIGINT NOT NULL,
    bb_ante          BIGINT NOT NULL,
    straddle         BIGINT NOT NULL,
    currency         VARCHAR NOT NULL,
    unit_scale       INTEGER NOT NULL,
    started_at       TIMESTAMP,          -- UTC
    hand_date        DATE,               -- partition key: UTC date of started_at
    hero             VARCHAR,
    hole_cards_mode  VARCHAR NOT NULL,   -- operator (all cards known) or player
    site_total_pot   BIGINT,
    site_rake        BIGINT,
    site_fees        BIGINT,
    site_added       BIGINT,             -- money the site put into the pot (promotions)
    cancelled        BOOLEAN NOT NULL,
    n_players        INTEGER NOT NULL,
    source_file      VARCHAR NOT NULL,
    file_sha256      VARCHAR NOT NULL,
    byte_offset      BIGINT NOT NULL,
    byte_length      BIGINT NOT NULL,
    mix              VARCHAR,            -- mixed-game rotation ("8-Game", "HORSE"); NULL outside one
    bring_in         BIGINT,             -- stud bring-in; NULL for flop games
    small_bet        BIGINT,             -- stud/draw fixed-limit bet sizes; NULL for flop games (FL: bb)
    big_bet          BIGINT,
    rabbit_cards     VARCHAR,            -- board cards shown after the hand ended (a live log); else NULL
    cancel_reason    VARCHAR,            -- why a cancelled hand was voided ("missing_card"...); else NULL
    redeal_of        VARCHAR,            -- hand_id of the cancelled hand (misdeal) this hand redeals; else NULL
    rit_declined     VARCHAR[]           -- players who declined to run it more than once (a live log); else NULL
);
-- warehouses created before stud/draw games (issue 12) get the columns (NULL) here
ALTER TABLE hands ADD COLUMN IF NOT EXISTS mix VARCHAR;
ALTER TABLE hands ADD COLUMN IF NOT EXISTS bring_in BIGINT;
ALTER TABLE hands ADD COLUMN IF NOT EXISTS small_bet BIGINT;
ALTER TABLE hands ADD COLUMN IF NOT EXISTS big_bet BIGINT;
-- and before the records no export writes (issue 13): NULL, not written
ALTER TABLE hands ADD COLUMN IF NOT EXISTS rabbit_cards VARCHAR;
ALTER TABLE hands ADD COLUMN IF NOT EXISTS cancel_reason VARCHAR;
ALTER TABLE hands ADD COLUMN IF NOT EXISTS redeal_of VARCHAR;
ALTER TABLE hands ADD COLUMN IF NOT EXISTS rit_declined VARCHAR[];

CREATE TABLE IF NOT EXISTS seats (
    hand_id     VARCHAR NOT NULL,
    seat_no     INTEGER NOT NULL,
    player      VARCHAR NOT NULL,
    stack       BIGINT NOT NULL,
    sitting_out BOOLEAN NOT NULL,
    final_stack BIGINT                   -- as the site wrote it, when it did
);

CREATE TABLE IF NOT EXISTS actions (
    hand_id      VARCHAR NOT NULL,
    seq          INTEGER NOT NULL,       -- order within the hand, from 0
    street       VARCHAR NOT NULL,       -- preflop, flop, turn, river, showdown; stud third..seventh; draw predraw, draw1..3
    player       VARCHAR NOT NULL,
    kind         VARCHAR NOT NULL,       -- see parsers.model.Kind
    amount       BIGINT,                 -- as written
    raise_to     BIGINT,
    all_in       BOOLEAN NOT NULL,
    contribution BIGINT NOT NULL,        -- chips moved into the pot (negative: returned)
    cards        VARCHAR,
    acted_at     TIMESTAMP,              -- UTC when the site logged the action (PokerNow, Merge); else NULL
    left_table   BOOLEAN DEFAULT false   -- a fold the site made as the player left the table (BetOnline)
);
-- warehouses created before per-action times get the column (NULL) here: the script runs on every connect
ALTER TABLE actions ADD COLUMN IF NOT EXISTS acted_at TIMESTAMP;
-- and before leave markers (issue 13): every stored action is no leave
ALTER TABLE actions ADD COLUMN IF NOT EXISTS left_table BOOLEAN DEFAULT false;

CREATE TABLE IF NOT EXISTS hole_cards (
    hand_id    VARCHAR NOT NULL,
    player     VARCHAR NOT NULL,
    cards      VARCHAR NOT NULL,
    provenance VARCHAR NOT NULL          -- dealt, shown, operator
);

CREATE TABLE IF NOT EXISTS boards (
    hand_id  VARCHAR NOT NULL,
    board_no INTEGER NOT NULL,
    cards    VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS pots (
    hand_id VARCHAR NOT NULL,
    pot_no  INTEGER NOT NULL,
    amount  BIGINT NOT NULL,
    rake    BIGINT                      -- the rake taken from this pot, where the record writes it; else NULL
);
-- warehouses created before per-pot rake (issue 13) get the column (NULL: no per-pot rake written)
ALTER TABLE pots ADD COLUMN IF NOT EXISTS rake BIGINT;

CREATE TABLE IF NOT EXISTS awards (
    hand_id  VARCHAR NOT NULL,
    player   VARCHAR NOT NULL,
    amount   BIGINT NOT NULL,
    pot_no   INTEGER NOT NULL,
    board_no INTEGER NOT NULL
);

-- stud and draw hands only: the cards each player was seen to receive on each street
CREATE TABLE IF NOT EXISTS street_cards (
    hand_id  VARCHAR NOT NULL,
    player   VARCHAR NOT NULL,
    street   VARCHAR NOT NULL,           -- third..seventh (stud); predraw (the deal), draw1..draw3 (draws)
    cards    VARCHAR NOT NULL,           -- as dealt; ?? for a card dealt face down and never shown
    face_up  BOOLEAN NOT NULL            -- a stud up-card
);

CREATE TABLE IF NOT EXISTS reconciliation (
    hand_id          VARCHAR PRIMARY KEY,
    status           VARCHAR NOT NULL,   -- ok, mismatch, cancelled
    contributed      BIGINT NOT NULL,    -- sum of contributions
    awarded          BIGINT NOT NULL,
    rake             BIGINT NOT NULL,
    rake_implied     BOOLEAN NOT NULL,   -- the site wrote no rake: rake = contributed - awarded
    fees             BIGINT NOT NULL,
    diff_awards      BIGINT NOT NULL,    -- awarded + rake + fees - contributed
    diff_total_pot   BIGINT,             -- contributed - site_total_pot (NULL: not written)
    diff_pots        BIGINT,             -- sum(pots) - contributed (NULL: not written)
    diff_final_stack BIGINT,             -- sum |computed - written| final stacks (NULL: not written)
    overdrawn        INTEGER NOT NULL,   -- players who put in more than their starting stack
    detail           VARCHAR
);

-- Files whose rows are being loaded. A big file is committed in batches (so memory stays flat);
-- if the ingest dies, the next run deletes that file's rows before reading it again.
CREATE TABLE IF NOT EXISTS ingest_in_progress (
    sha256     VARCHAR PRIMARY KEY,
    path       VARCHAR NOT NULL,
    started_at TIMESTAMP NOT NULL
);

CREATE TABLE IF NOT EXISTS quarantine (
    file_sha256 VARCHAR NOT NULL,
    source_file VARCHAR NOT NULL,
    byte_offset BIGINT NOT NULL,
    format      VARCHAR,
    reason      VARCHAR NOT NULL,
    category    VARCHAR NOT NULL,        -- unsupported (a game/format we do not read) or unreadable
    raw_text    VARCHAR NOT NULL,
    quarantined_at TIMESTAMP NOT NULL
);
