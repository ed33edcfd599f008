"""Every real hand under online-standard: no error-level finding that is not named and explained here.

Why a closed list: the goal (issue 3) is zero errors on real hands except genuine anomalies in the
sites' own files. Each remaining error is listed with its exact expected/actual text and a cause:

* ``SITE_*``: the site's (or a third-party re-exporter's) file is wrong by its own numbers; the
  checker must keep finding it, so a listed site anomaly that disappears fails too.
* ``PARSER_*``: a parser bug, reported for routing; listed until fixed (a fix may drop the entry).
* ``UNREVIEWED``: not yet triaged (time box); listed so that any *new* error still fails this test.

Formats whose parsers were not committed when this list was made are reported, not asserted.
Parses every file once (about 10 s) and checks the ~16k hands in memory (no warehouse).
"""

from __future__ import annotations

from collections import Counter

import pytest

from parsers.model import Hand
from parsers.registry import sniff_format
from rules.check import check_hand
from rules.findings import ERROR
from rules.profiles import load_profile
from tests.conftest import real_data
from warehouse.ingest import iter_input_files

#: the file writes a constant 0.25 jackpot drop it never names: "Pot: 69.75. Rake 2" while the
#: players' own "Bets:" total 72 (Winning Poker "(JP)" and "( Beast )" tables)
SITE_JACKPOT = "site: unwritten 25-unit jackpot drop"
#: HM1/PT2/converted re-exports drop the "Uncalled bet" line; the file's own "Total pot" shows it
SITE_NO_UNCALLED = "site: re-export omits the uncalled-bet return"
#: "converted.walk": the whole big blind written as uncalled and the small blind as the pot
SITE_WALK = "site: converted walk returns the whole big blind"
#: hhp Ignition fixtures: "Seat N" numbers contradict the position names and "Set dealer [8]"
SITE_SEATS = "site: seat numbers contradict positions"
#: fixed-limit hands whose sb/bb hold the limit bet sizes instead of the posted blinds
PARSER_FL_STAKES = "parser: FL stakes written as blinds"
UNREVIEWED = "not yet triaged"

FORMATS = (
    "acpc",
    "bovada",
    "ggpoker",
    "ipoker",
    "ohh",
    "pacific",
    "partypoker",
    "phh",
    "pokernow",
    "pokerstars",
    "winamax",
    "winning",
)

KNOWN: tuple[tuple[str, str, int | None, str, str, str], ...] = (
    (
        "bovada:2596795140",
        "BET.LIMIT_SIZE",
        18,
        "raise to at most 2,450 (the fixed bet size)",
        "raise to 3,200",
        UNREVIEWED,
    ),
    ("bovada:2596795140", "BET.LIMIT_SIZE", 19, "raise to 5,550", "raise to 4,800", UNREVIEWED),
    ("bovada:2601409566", "BLIND.POSTING", 2, "big blind 1,000", "posted 500", UNREVIEWED),
    (
        "bovada:2601409940",
        "SHOWDOWN.CARDS_SPEAK",
        None,
        "UTG+1 about 500 before rake",
        "UTG+1 awarded nothing",
        UNREVIEWED,
    ),
    ("bovada:2902238171", "BLIND.POSTING", 2, "big blind 5", "posted 2", UNREVIEWED),
    ("ignition:3548320503", "ACTION.ORDER", 3, "UTG+2 to act", "UTG+1 acted", SITE_SEATS),
    ("ignition:3548320503", "ACTION.ORDER", 4, "Dealer to act", "UTG+2 acted", SITE_SEATS),
    ("ignition:3548320503", "ACTION.ORDER", 5, "Dealer to act", "UTG+3 acted", SITE_SEATS),
    ("ignition:3548320503", "ACTION.ORDER", 6, "Hero to act", "UTG+4 acted", SITE_SEATS),
    ("ignition:3548320503", "ACTION.ORDER", 8, "Small Blind to act", "Dealer acted", SITE_SEATS),
    ("ignition:3548320503", "ACTION.ORDER", 13, "Dealer to act", "UTG+5 acted", SITE_SEATS),
    ("ignition:3548320503", "ACTION.ORDER", 17, "Dealer to act", "UTG+5 acted", SITE_SEATS),
    ("ignition:3548320503", "ACTION.ORDER", 21, "Dealer to act", "UTG+5 acted", SITE_SEATS),
    ("ignition:3548320503", "ACTION.ORDER", 23, "UTG+5 to act", "Hero acted", SITE_SEATS),
    ("ignition:3548320887", "ACTION.ORDER", 3, "UTG+5 to act", "UTG+1 acted", SITE_SEATS),
    ("ignition:3548320887", "ACTION.ORDER", 4, "Big Blind to act", "UTG+2 acted", SITE_SEATS),
    ("ignition:3548320887", "ACTION.ORDER", 5, "Hero to act", "UTG+3 acted", SITE_SEATS),
    ("ignition:3548320887", "ACTION.ORDER", 7, "Dealer to act", "UTG+5 acted", SITE_SEATS),
    ("ignition:3548320887", "ACTION.ORDER", 9, "UTG+2 to act", "Hero acted", SITE_SEATS),
    ("ignition:3548320887", "ACTION.ORDER", 14, "UTG+4 to act", "UTG+2 acted", SITE_SEATS),
    ("ignition:3548320887", "ACTION.ORDER", 16, "UTG+2 to act", "UTG acted", SITE_SEATS),
    ("ignition:3549213216", "ACTION.ORDER", 8, "Small Blind to act", "Dealer acted", SITE_SEATS),
    ("ignition:3549213216", "ACTION.ORDER", 9, "Big Blind to act", "Small Blind acted", SITE_SEATS),
    ("ignition:3549213216", "ACTION.ORDER", 12, "Dealer to act", "Big Blind acted", SITE_SEATS),
    ("ignition:3549213216", "ACTION.ORDER", 15, "Dealer to act", "Big Blind acted", SITE_SEATS),
    ("ignition:3549213216", "ACTION.ORDER", 18, "Dealer to act", "Big Blind acted", SITE_SEATS),
    ("ignition:3549249421", "ACTION.ORDER", 3, "Dealer to act", "UTG+1 acted", SITE_SEATS),
    ("ignition:3549249421", "ACTION.ORDER", 4, "Hero to act", "UTG+2 acted", SITE_SEATS),
    ("ignition:3549249421", "ACTION.ORDER", 7, "Big Blind to act", "UTG+5 acted", SITE_SEATS),
    ("ignition:3549249421", "ACTION.ORDER", 8, "Big Blind to act", "Dealer acted", SITE_SEATS),
    ("ignition:3549249421", "ACTION.ORDER", 11, "Dealer to act", "UTG+1 acted", SITE_SEATS),
    ("ignition:3549325520", "ACTION.ORDER", 13, "UTG+4 to act", "UTG+3 acted", SITE_SEATS),
    ("ignition:3549325520", "ACTION.ORDER", 14, "Hero to act", "UTG+4 acted", SITE_SEATS),
    (
        "ggpoker:OM1171256",
        "STRADDLE.POSITION",
        5,
        "straddle only from UTG (2a287edc)",
        "ce67ea41 straddled",
        UNREVIEWED,
    ),
    (
        "ggpoker:OM1410171",
        "STRADDLE.DOUBLE",
        3,
        "double straddle from the seat left of the straddler",
        "9e7f64d4 posted it",
        UNREVIEWED,
    ),
    ("ggpoker:RC58843003", "BET.POT_LIMIT_MAX", 4, "raise to at most 21 (B + pot + call)", "raise to 41", UNREVIEWED),
    ("ggpoker:RC58843003", "BET.POT_LIMIT_MAX", 10, "raise to at most 85 (B + pot + call)", "bet to 88", UNREVIEWED),
    (
        "ggpoker:SD27208824",
        "STRADDLE.POSITION",
        5,
        "straddle only from UTG (f1da9c5a)",
        "27925b27 straddled",
        UNREVIEWED,
    ),
    (
        "ggpoker:SD27208832",
        "STRADDLE.DOUBLE",
        6,
        "double straddle from the seat left of the straddler",
        "27925b27 posted it",
        UNREVIEWED,
    ),
    ("ggpoker:SD27208848", "ACTION.ORDER", 6, "11294517 to act", "Hero acted", UNREVIEWED),
    (
        "ggpoker:SD27208848",
        "STRADDLE.POSITION",
        5,
        "straddle only from UTG (11294517)",
        "27925b27 straddled",
        UNREVIEWED,
    ),
    ("ipoker:2855472319", "ACTION.ORDER", 12, "Player7 to act", "Player4 acted", UNREVIEWED),
    ("ipoker:2855472319", "ACTION.ORDER", 12, "Player7 to act on preflop", "preflop closed, flop began", UNREVIEWED),
    ("ipoker:2855472319", "ACTION.ORDER", 14, "Player7 to act", "Player4 acted", UNREVIEWED),
    ("ipoker:2855472319", "ACTION.ORDER", 14, "Player7 to act on flop", "flop closed, turn began", UNREVIEWED),
    ("ipoker:2855472319", "UNDERCALL.FULL_CALL", 11, "full call 10", "call 0 stood", UNREVIEWED),
    ("ipoker:2855501026", "ALLIN.SHORT_NO_REOPEN", 25, "call 13 or fold", "raise to 40", UNREVIEWED),
    ("ipoker:2855501026", "BET.LIMIT_SIZE", 25, "raise to at most 33 (the fixed bet size)", "raise to 40", UNREVIEWED),
    (
        "ipoker:3056022611",
        "SHOWDOWN.CARDS_SPEAK",
        None,
        "Player8 about 10 before rake",
        "Player8 awarded nothing",
        UNREVIEWED,
    ),
    ("ipoker:5338624766", "ACTION.ORDER", 8, "Player3 to act", "Hero acted", UNREVIEWED),
    ("ipoker:5338624766", "ACTION.ORDER", 9, "Player3 to act", "Hero acted", UNREVIEWED),
    ("ipoker:5338624766", "ACTION.ORDER", 9, "Player3 to act on preflop", "preflop closed, flop began", UNREVIEWED),
    ("ipoker:5338624766", "ACTION.ORDER", 11, "Player3 to act", "Hero acted", UNREVIEWED),
    ("ipoker:5338624766", "ACTION.ORDER", 11, "Player3 to act on flop", "flop closed, turn began", UNREVIEWED),
    ("ipoker:5338624766", "ACTION.ORDER", 13, "Player3 to act", "Hero acted", UNREVIEWED),
    ("ipoker:5338624766", "ACTION.ORDER", 13, "Player3 to act on turn", "turn closed, river began", UNREVIEWED),
    (
        "888:172275663",
        "POT.CHIP_CONSERVATION",
        None,
        "implied rake between 0 and 6",
        "implied rake 28 (52 put in, 24 awarded)",
        UNREVIEWED,
    ),
    ("888:503663069", "BET.LIMIT_SIZE", 8, "raise to at most 24 (the fixed bet size)", "bet to 25", UNREVIEWED),
    ("888:503663104", "BET.LIMIT_SIZE", 7, "raise to at most 24 (the fixed bet size)", "bet to 25", UNREVIEWED),
    ("888:539478640", "SHOWDOWN.CARDS_SPEAK", None, "Jack3bet wins nothing", "Jack3bet awarded 428", UNREVIEWED),
    (
        "888:539478640",
        "SHOWDOWN.CARDS_SPEAK",
        None,
        "MomWasRight about 450 before rake",
        "MomWasRight awarded nothing",
        UNREVIEWED,
    ),
    ("888:6551093", "BLIND.POSTING", 0, "small blind 12", "posted 10", UNREVIEWED),
    ("888:778807232", "BET.MIN_BET", 23, "bet at least 400 (one big blind)", "bet 300", UNREVIEWED),
    ("888:778807232", "BET.MIN_BET", 26, "bet at least 400 (one big blind)", "bet 300", UNREVIEWED),
    ("888:778807232", "BLIND.POSTING", 9, "small blind 200", "posted 150", UNREVIEWED),
    ("888:778807232", "BLIND.POSTING", 10, "big blind 400", "posted 300", UNREVIEWED),
    ("888:778807232", "UNDERCALL.FULL_CALL", 12, "full call 400", "call 300 stood", UNREVIEWED),
    ("888:778807232", "UNDERCALL.FULL_CALL", 13, "full call 400", "call 300 stood", UNREVIEWED),
    ("partypoker:10398176832", "BLIND.POSTING", 0, "small blind 1,500", "posted 1,000", PARSER_FL_STAKES),
    ("partypoker:10398176832", "BLIND.POSTING", 2, "small blind 1,500", "posted 1,000", PARSER_FL_STAKES),
    ("partypoker:10398176832", "UNDERCALL.FULL_CALL", 3, "full call 2,000", "call 500 stood", PARSER_FL_STAKES),
    ("partypoker:11354414824", "ALLIN.SHORT_NO_REOPEN", 4, "call 2,000 or fold", "raise to 8,000", PARSER_FL_STAKES),
    ("partypoker:11354414824", "BET.LIMIT_SIZE", 3, "raise to 8,000", "raise to 6,000", PARSER_FL_STAKES),
    ("partypoker:11354414824", "BLIND.POSTING", 0, "small blind 2,000", "posted 1,000", PARSER_FL_STAKES),
    ("partypoker:11615195926", "BLIND.POSTING", 0, "small blind 3,000", "posted 1,500", PARSER_FL_STAKES),
    (
        "partypoker:11960068174",
        "POT.CHIP_CONSERVATION",
        None,
        "implied rake between 0 and 0",
        "implied rake -60 (6,040 put in, 6,100 awarded)",
        UNREVIEWED,
    ),
    ("partypoker:11960068174", "POT.SIDE_POTS", None, "0Player0 6,040", "0Player0 6,100", UNREVIEWED),
    ("partypoker:12827330772", "ACTION.ORDER", 3, "Player4 to act", "Hero acted", UNREVIEWED),
    ("partypoker:12827330772", "ACTION.ORDER", 4, "Player2 to act", "Player4 acted", UNREVIEWED),
    ("partypoker:12827330772", "ACTION.ORDER", 7, "Player2 to act", "Hero acted", UNREVIEWED),
    (
        "partypoker:13165152578",
        "POT.CHIP_CONSERVATION",
        None,
        "implied rake between 0 and 0",
        "implied rake -3,750 (7,000 put in, 10,750 awarded)",
        UNREVIEWED,
    ),
    ("partypoker:13165152578", "POT.SIDE_POTS", None, "Player5 7,000", "Player5 10,750", UNREVIEWED),
    ("partypoker:13549886429", "BLIND.POSTING", 0, "small blind 5", "posted 2", PARSER_FL_STAKES),
    ("partypoker:13549886429", "UNDERCALL.FULL_CALL", 2, "full call 10", "call 5 stood", PARSER_FL_STAKES),
    ("partypoker:13549916413", "BLIND.POSTING", 0, "small blind 50", "posted 25", PARSER_FL_STAKES),
    ("partypoker:13549974403", "ACTION.ILLEGAL_CHECK", 7, "call 5 or fold", "check", PARSER_FL_STAKES),
    (
        "partypoker:13549974403",
        "ACTION.ORDER",
        8,
        "aisberg_2013 to act on preflop",
        "preflop closed, flop began",
        PARSER_FL_STAKES,
    ),
    ("partypoker:13549974403", "BLIND.POSTING", 0, "small blind 5", "posted 2", PARSER_FL_STAKES),
    ("partypoker:13549974403", "UNDERCALL.FULL_CALL", 2, "full call 10", "call 5 stood", PARSER_FL_STAKES),
    ("partypoker:13550323824", "BLIND.POSTING", 0, "small blind 500", "posted 200", PARSER_FL_STAKES),
    ("partypoker:14067958", "ACTION.ILLEGAL_CHECK", 4, "call 10 or fold", "check", UNREVIEWED),
    ("partypoker:14067958", "ACTION.ORDER", 8, "Player2 to act on preflop", "preflop closed, flop began", UNREVIEWED),
    (
        "partypoker:14067958",
        "POT.CHIP_CONSERVATION",
        None,
        "implied rake between 0 and 5",
        "implied rake -13 (45 put in, 58 awarded)",
        UNREVIEWED,
    ),
    ("partypoker:14067958", "POT.SIDE_POTS", None, "Player4 45", "Player4 58", UNREVIEWED),
    ("partypoker:9507514114", "ACTION.ORDER", 8, "Player4 to act", "Player8 acted", UNREVIEWED),
    ("partypoker:9507514114", "ACTION.ORDER", 17, "Player2 to act", "Player8 acted", UNREVIEWED),
    ("partypoker:9507514114", "POT.CHIP_CONSERVATION", None, "at most 0 (starting stack)", "put in 2", UNREVIEWED),
    (
        "phh:2023 World Series of Poker Event #43: $50,000 Poker Players Championship | Day 5:30",
        "POT.SIDE_POTS",
        None,
        "Talal Shakerchi 1,150,000",
        "Talal Shakerchi 1,250,000",
        UNREVIEWED,
    ),
    (
        "phh:2023 World Series of Poker Event #43: $50,000 Poker Players Championship | Day 5:30",
        "SHOWDOWN.CARDS_SPEAK",
        None,
        "Matthew Ashton 100,000",
        "Matthew Ashton 0",
        UNREVIEWED,
    ),
    (
        "phh:2023 World Series of Poker Event #43: $50,000 Poker Players Championship | Day 5:31",
        "POT.SIDE_POTS",
        None,
        "Kristopher Tong 200,000",
        "Kristopher Tong 150,000",
        UNREVIEWED,
    ),
    (
        "phh:2023 World Series of Poker Event #43: $50,000 Poker Players Championship | Day 5:31",
        "POT.SIDE_POTS",
        None,
        "Matthew Ashton 100,000",
        "Matthew Ashton 150,000",
        UNREVIEWED,
    ),
    (
        "phh:2023 World Series of Poker Event #43: $50,000 Poker Players Championship | Day 5:68",
        "POT.SIDE_POTS",
        None,
        "Brian Rast 6,775,000",
        "Brian Rast 7,000,000",
        UNREVIEWED,
    ),
    (
        "phh:2023 World Series of Poker Event #43: $50,000 Poker Players Championship | Day 5:68",
        "SHOWDOWN.CARDS_SPEAK",
        None,
        "Kristopher Tong 225,000",
        "Kristopher Tong 0",
        UNREVIEWED,
    ),
    (
        "phh:2023 World Series of Poker Event #43: $50,000 Poker Players Championship | Day 5:76",
        "BET.LIMIT_SIZE",
        1,
        "raise to at most 250,000 (the fixed bet size)",
        "raise to 500,000",
        UNREVIEWED,
    ),
    (
        "phh:2023 World Series of Poker Event #43: $50,000 Poker Players Championship | Day 5:76",
        "BET.LIMIT_SIZE",
        7,
        "raise to at most 0 (the fixed bet size)",
        "bet to 250,000",
        UNREVIEWED,
    ),
    (
        "phh:2023 World Series of Poker Event #43: $50,000 Poker Players Championship | Day 5:76",
        "BET.LIMIT_SIZE",
        10,
        "raise to at most 0 (the fixed bet size)",
        "bet to 500,000",
        UNREVIEWED,
    ),
    ("phh:3bfa3899a206ae4274c4", "POT.UNCALLED_RETURN", 13, "return 0", "returned 18,152,650", UNREVIEWED),
    ("phh:569a49c05f60c6f78f8b", "POT.UNCALLED_RETURN", 17, "return 0", "returned 572,100", UNREVIEWED),
    (
        "pokerstars:1002775011",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 15,900 put in",
        "10,000 + 300 + 0",
        SITE_NO_UNCALLED,
    ),
    (
        "pokerstars:1003659126",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 2,050 put in",
        "1,235 + 65 + 0",
        SITE_NO_UNCALLED,
    ),
    (
        "pokerstars:109687480274",
        "DECK.DUPLICATE_CARD",
        None,
        "hand void, all chips returned",
        "pot awarded",
        UNREVIEWED,
    ),
    (
        "pokerstars:109715173634",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 90 put in",
        "50 + 0 + 0",
        SITE_NO_UNCALLED,
    ),
    ("pokerstars:109715173634", "POT.SIDE_POTS", None, "Captain2323 90", "Captain2323 50", SITE_NO_UNCALLED),
    (
        "pokerstars:13177128246",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 5,600 put in",
        "3,040 + 160 + 0",
        SITE_NO_UNCALLED,
    ),
    ("pokerstars:133974380110", "RUN_TWICE.TIMING", None, "someone all-in and called", "no player all-in", UNREVIEWED),
    ("pokerstars:184487904738", "RUN_TWICE.TIMING", None, "someone all-in and called", "no player all-in", UNREVIEWED),
    (
        "pokerstars:2344646393",
        "BLIND.HEADSUP_BUTTON",
        None,
        "Hero (button) posts SB",
        "fblm2002 posted SB",
        SITE_NO_UNCALLED,
    ),
    (
        "pokerstars:2344646393",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 150 put in",
        "100 + 0 + 0",
        SITE_NO_UNCALLED,
    ),
    ("pokerstars:2344646393", "POT.SIDE_POTS", None, "Hero 150", "Hero 100", SITE_NO_UNCALLED),
    (
        "pokerstars:2428142447",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 350 put in",
        "250 + 0 + 0",
        SITE_NO_UNCALLED,
    ),
    ("pokerstars:2428142447", "POT.SIDE_POTS", None, "BigNards84 350", "BigNards84 250", SITE_NO_UNCALLED),
    (
        "pokerstars:2467687491",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 150 put in",
        "100 + 0 + 0",
        SITE_NO_UNCALLED,
    ),
    ("pokerstars:2467687491", "POT.SIDE_POTS", None, "Hero 150", "Hero 100", SITE_NO_UNCALLED),
    ("pokerstars:3405956177", "POT.UNCALLED_RETURN", 7, "return 1,000", "returned 2,000", SITE_WALK),
    ("pokerstars:3405956177", "SHOWDOWN.CARDS_SPEAK", None, "brian 0", "brian 1,000", SITE_WALK),
    ("pokerstars:3406008447", "SHOWDOWN.CARDS_SPEAK", None, "Big Blind 0", "Big Blind 1,000", SITE_WALK),
    ("pokerstars:3406117852", "POT.UNCALLED_RETURN", 8, "return 1,000", "returned 2,000", SITE_WALK),
    ("pokerstars:3406117852", "SHOWDOWN.CARDS_SPEAK", None, "Big Blind 0", "Big Blind 1,000", SITE_WALK),
    (
        "pokerstars:61777648755",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 500 put in",
        "250 + 0 + 0",
        SITE_NO_UNCALLED,
    ),
    ("pokerstars:61777648755", "POT.SIDE_POTS", None, "Mohamedali13 500", "Mohamedali13 250", SITE_NO_UNCALLED),
    (
        "pokerstars:61910233643",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 4,500 put in",
        "900 + 0 + 0",
        SITE_NO_UNCALLED,
    ),
    ("pokerstars:61910233643", "POT.SIDE_POTS", None, "DarkEvilus 4,500", "DarkEvilus 900", SITE_NO_UNCALLED),
    ("winamax:2769259-665-1335035306", "ACTION.ILLEGAL_CHECK", 3, "call 5 or fold", "check", PARSER_FL_STAKES),
    (
        "winamax:2769259-665-1335035306",
        "ACTION.ORDER",
        4,
        "Player0 to act on preflop",
        "preflop closed, flop began",
        PARSER_FL_STAKES,
    ),
    ("winamax:2769259-665-1335035306", "BLIND.POSTING", 0, "small blind 5", "posted 2", PARSER_FL_STAKES),
    ("winamax:2769259-665-1335035306", "UNDERCALL.FULL_CALL", 2, "full call 8", "call 3 stood", PARSER_FL_STAKES),
    ("winamax:6417287-1303-1406683540", "ACTION.ILLEGAL_CHECK", 7, "call 200 or fold", "check", UNREVIEWED),
    ("winamax:6417287-1303-1406683540", "ACTION.ORDER", 4, "Player0 to act", "Player3 acted", UNREVIEWED),
    (
        "winamax:6417287-1303-1406683540",
        "ACTION.ORDER",
        8,
        "Player2 to act on preflop",
        "preflop closed, flop began",
        UNREVIEWED,
    ),
    (
        "winamax:6417287-1303-1406683540",
        "BET.POT_LIMIT_MAX",
        0,
        "raise to at most 0 (B + pot + call)",
        "raise to 300",
        UNREVIEWED,
    ),
    ("winamax:6417287-1303-1406683540", "UNDERCALL.FULL_CALL", 3, "full call 400", "call 200 stood", UNREVIEWED),
    ("winamax:6417287-1303-1406683540", "UNDERCALL.FULL_CALL", 5, "full call 400", "call 200 stood", UNREVIEWED),
    ("winamax:6417287-1322-1406684365", "ACTION.ORDER", 4, "Player0 to act", "Player3 acted", UNREVIEWED),
    (
        "winamax:6417287-1322-1406684365",
        "BET.POT_LIMIT_MAX",
        0,
        "raise to at most 0 (B + pot + call)",
        "raise to 300",
        UNREVIEWED,
    ),
    (
        "winamax:6468352-1737-1408024646",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 900 put in",
        "1,000 + 0 + 0",
        UNREVIEWED,
    ),
    ("winamax:6468352-1737-1408024646", "POT.SIDE_POTS", None, "Player1 900", "Player1 1,000", UNREVIEWED),
    ("winning:10005881", "BLIND.HEADSUP_BUTTON", None, "Player1 (button) posts SB", "Player0 posted SB", UNREVIEWED),
    (
        "winning:258591918",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 7,200 put in",
        "6,975 + 200 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:258592151",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 1,600 put in",
        "1,495 + 80 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:258671202",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 4,200 put in",
        "3,975 + 200 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:261441841",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 4,000 put in",
        "3,775 + 200 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:261442219",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 1,800 put in",
        "1,685 + 90 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:261442490",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 2,800 put in",
        "2,635 + 140 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:261442843",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 1,800 put in",
        "1,685 + 90 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:261443389",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 1,600 put in",
        "1,495 + 80 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:261454571",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 5,200 put in",
        "4,975 + 200 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:261477404",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 51,400 put in",
        "51,075 + 300 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:261641541",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 839 put in",
        "773 + 41 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:261679750",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 4,800 put in",
        "4,575 + 200 + 0",
        SITE_JACKPOT,
    ),
    ("winning:261686404", "BLIND.POSTING", 2, "big blind 400", "posted 200", UNREVIEWED),
    (
        "winning:266888759",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 135 put in",
        "104 + 6 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:266899075",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 110 put in",
        "80 + 5 + 0",
        SITE_JACKPOT,
    ),
    (
        "winning:665307190",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 1,122 put in",
        "2,037 + 83 + 24",
        SITE_JACKPOT,
    ),
    ("winning:665307190", "POT.SIDE_POTS", None, "awards only to players in the hand", " awarded", UNREVIEWED),
    (
        "winning:665312038",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 3,700 put in",
        "3,705 + 171 + 24",
        SITE_JACKPOT,
    ),
    ("winning:698322413", "BLIND.POSTING", 2, "big blind 1,000", "posted 500", UNREVIEWED),
    ("winning:741631166", "ACTION.ORDER", 16, "Player0 to act on flop", "flop closed, turn began", UNREVIEWED),
    ("winning:741631166", "ACTION.ORDER", 17, "Player0 to act", "Player1 acted", UNREVIEWED),
    ("winning:741631166", "ACTION.ORDER", 18, "Player0 to act on turn", "turn closed, river began", UNREVIEWED),
    ("winning:741631166", "ACTION.ORDER", 19, "Player0 to act", "Player1 acted", UNREVIEWED),
    ("winning:78708209", "BLIND.POSTING", 0, "small blind 2,000", "posted 1,000", PARSER_FL_STAKES),
    (
        "winning:820605052",
        "BET.POT_LIMIT_MAX",
        4,
        "raise to at most 5,400 (B + pot + call)",
        "raise to 40,540",
        UNREVIEWED,
    ),
)


@pytest.fixture(scope="module")
def real_errors() -> tuple[set[tuple[str, str, int | None, str, str]], Counter[str], dict[str, str]]:
    """Error findings as (hand, rule, action, expected, actual), hands per format, each hand's format."""
    root = real_data()
    prof = load_profile("online-standard")
    seen: dict[str, str] = {}
    errors: set[tuple[str, str, int | None, str, str]] = set()
    per_format: Counter[str] = Counter()
    for path in iter_input_files([root]):
        fmt = sniff_format(path)
        if fmt is None:
            continue
        for h in fmt.parse(path):
            if not isinstance(h, Hand) or h.hand_id in seen:
                continue
            seen[h.hand_id] = h.format
            per_format[h.format] += 1
            for f in check_hand(h, prof).findings:
                if f.severity == ERROR:
                    errors.add((f.hand_id, f.rule_id, f.action_seq, f.expected, f.actual))
    return errors, per_format, seen


def test_no_unexplained_error_on_real_hands(real_errors):
    errors, per_format, fmt_of = real_errors
    assert per_format["pokerstars"] > 100 and per_format["phh"] > 1000, per_format
    known = {k[:5] for k in KNOWN}
    new = {k for k in errors if fmt_of.get(k[0]) in FORMATS and k not in known}
    assert not new, f"{len(new)} unexplained error findings, e.g. {sorted(new, key=str)[:5]}"


def test_site_anomalies_are_still_found(real_errors):
    errors, _, fmt_of = real_errors
    for hid, rule, seq, exp, act, cause in KNOWN:
        if cause.startswith("site:") and hid in fmt_of:
            assert (hid, rule, seq, exp, act) in errors, (hid, rule, seq, cause)


def test_named_site_anomalies_match_the_files_own_totals(real_errors):
    errors, _, _ = real_errors
    # Winning Poker River.txt: "Pot: 69.75. Rake 2", the players' "Bets:" lines total 2+4+33+33 = 72
    assert (
        "winning:258591918",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 7,200 put in",
        "6,975 + 200 + 0",
    ) in errors
    # PokerStars DateIssue2.txt: raise to $40 never called ($4 was), "Total pot $9", no uncalled line
    assert (
        "pokerstars:61910233643",
        "POT.CHIP_CONSERVATION",
        None,
        "awards + rake + fees = 4,500 put in",
        "900 + 0 + 0",
    ) in errors
    # converted walk: SB $10 folds to the $20 BB, so $10 is uncalled, but the file returns $20
    assert ("pokerstars:3405956177", "POT.UNCALLED_RETURN", 7, "return 1,000", "returned 2,000") in errors


def test_untriaged_formats_are_reported(real_errors):
    errors, _, fmt_of = real_errors
    other = Counter(fmt_of[k[0]] for k in errors if fmt_of.get(k[0]) not in FORMATS)
    if other:
        pytest.skip(f"error findings in formats not yet triaged (parsers newer than this list): {dict(other)}")
