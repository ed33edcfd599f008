"""MicroGaming (MPN) XML (fpdb's cash/Microgaming, HHSmithy's MicroGaming samples, tour/Microgaming).

Every seat writes its ``balance`` and ``endbalance``, so reconciliation checks each player's result
against the site; the two hands that do not reconcile are named below with the site's own numbers.
"""

from __future__ import annotations

from parsers.formats.microgaming import FORMAT
from parsers.model import Kind
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, hand_from, kinds, not_ok, parse_all, put_in, unique
from .test_tournaments import tour

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "Microgaming", "Flop")


def test_every_hand_parses_and_reconciles_but_two_named_site_anomalies() -> None:
    hands, quarantined = parse_all(FORMAT, claims(FORMAT))
    # 49 files (15 fpdb, 34 HHSmithy incl. one under its Winamax folder; HHSmithy repeats some hands in several files)
    assert (len(hands), len(unique(hands)), quarantined) == (58, 51, [])
    bad = not_ok(unique(hands))
    assert sorted(bad) == ["microgaming:3063530490", "microgaming:4160087729"]
    # "PostedToPlay 0.10" writes only the live big blind: player1's endbalance (10.00 -> 9.85)
    # and the pot (0.39 won + 0.01 rake) show a dead 0.05 small blind taken as well
    assert bad["microgaming:4160087729"]["diff_awards"] == 5
    # rake="78", but every final stack agrees with 1.28 taken (1,578 in, 1,450 won)
    assert bad["microgaming:3063530490"]["diff_awards"] == -50
    assert bad["microgaming:3063530490"]["diff_final_stack"] == 0


def test_silent_uncalled_return_and_rake_in_hundredths() -> None:
    hand = hand_from(FORMAT, real_data(*FLOP, "NLHE-EUR-1.00-2.00-200911.2allins.txt"), "2979859578")
    # Player0's all-in (43.60 in all) is called for 17.65: the 25.95 excess comes back unwritten
    # (endbalance 61.39 = 43.60 - 43.60 + 35.44 + 25.95); rake="186" is 1.86
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Player0", 2595, -2595)]
    assert (hand.site_rake, hand.currency) == (186, "USD")
    assert awards(hand) == [("Player0", 3544, 0, 1)]


def test_first_export_writes_calls_and_raises_as_totals() -> None:
    hand = hand_from(FORMAT, real_data(*FLOP, "NLHE-EUR-0.05-0.10-2011011.multi.allin.txt"), "4152594215")
    # big blind "Call 0.20" of a 0.20 raise adds 0.10; "Raise 4.80" over 1.60 reaches 4.80
    assert put_in(hand)["Hero"] == 1076  # his whole stack, as endbalance 20.50 = 0 + 20.50 won
    assert [a.raise_to for a in hand.actions if a.player == "Hero" and a.kind is Kind.RAISE] == [480]
    assert not_ok([hand]) == {}


def test_bad_beat_drop_is_a_fee() -> None:
    root = ("hhsmithy_sample_hh", "HandHistories.Parser.UnitTests", "SampleHandHistories", "MicroGaming")
    hand = hand_from(FORMAT, real_data(*root, "CashGame", "HandActionTests", "Disconnected.txt"), "5541791811")
    # "BadBeatContribution 0.02" from tuffgong's stack: 200 - 0.02 - 74 + 99 = 224.98
    assert kinds(hand, Kind.POST_DEAD) == [("tuffgong", 2, 2)] and hand.site_fees == 2
    assert not_ok([hand]) == {}


def test_tournament_in_chips() -> None:
    hands, quarantined = parse_all(FORMAT, [tour("Microgaming", "Flop", "NLHE-Freeroll-MTT-201112.txt")])
    (hand,) = hands
    assert quarantined == [] and not_ok(hands) == {}
    assert (hand.game_type, hand.tournament_id, hand.currency, hand.sb, hand.bb) == (
        "tournament", "4685921", "CHIPS", 50, 100,
    )
    # Player2's 5,825 all-in is called for 2,755: 3,070 comes back, 5,710 won
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Player2", 3070, -3070)]


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}
    # HHSmithy's Winamax/.../OmahaHiLo.txt is a MicroGaming game filed under the wrong site
    odd = [p.name for p in claims(FORMAT) if "icro" not in str(p)]
    assert odd == ["OmahaHiLo.txt"]
