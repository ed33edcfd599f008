"""Run It Once / PokerMaster / PokerBros (PokerStars-like app exports) on fpdb's Stars/Flop samples.

Expected amounts come from each file's "Total pot | Rake" line, its collected lines and hand
arithmetic on the written actions (in the comments). No fpdb expected output exists for them.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from parsers.formats.pokerstars import FORMAT as STARS
from parsers.formats.stars_apps import FORMAT
from parsers.model import Hand, Kind, Provenance
from parsers.reading import read_head
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, kinds, not_ok, parse_all, parse_one, put_in

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "Stars", "Flop")


def app(name: str) -> Path:
    return real_data(*FLOP, name)


def one(name: str) -> Hand:
    (hand,) = parse_one(FORMAT, app(name))
    return hand


def test_every_hand_parses_and_only_splash_hands_disagree() -> None:
    files = claims(FORMAT)
    assert len(files) == 14 and {p.parent.name for p in files} == {"Flop"}
    hands, quarantined = parse_all(FORMAT, files)
    assert len(hands) == 14 and quarantined == []
    bad = {k: (v["diff_awards"], v["diff_total_pot"]) for k, v in not_ok(hands).items()}
    assert bad == {
        # Galen U bets 0.21, everyone folds; the site writes "Uncalled bet (€0.71) returned":
        # the 0.21 bet plus the €0.50 splash it also credits as "collected €0.71 from pot"
        "runitonce:30266126": (50, -50),
        # "collected €26.82 from side pot 1" = side pot 21.82 + the €5 splash, and "collected
        # €122.02 from pot" = main 119.52 + 5.00 − 2.50 rake: the splash is credited twice (the
        # summary's "won €143.84" = total 146.34 − rake 2.50 is right)
        "runitonce:36197946": (500, 0),
    }


def test_early_run_it_once_raise_to_is_chips_added() -> None:
    hand = one("PLO-6max-EUR-1.00-2.00-201902.RIO.raiseTo.bug.txt")
    # "PaulOpenfold: raises €44.00 to €68" with 7 already in, then "Randy O: calls €51" from 24:
    # only 7 + 68 = 75 = 24 + 51 agrees; 75 x 2 + 1 + 2 + 114.88 x 2 = 382.76 = "Total pot"
    assert put_in(hand) == {"PaulOpenfold": 18988, "Randy O": 18988, "Elijah X": 100, "Robert P": 200}
    assert hand.site_total_pot == 38276 and awards(hand) == [("PaulOpenfold", 37926, 0, 1)]
    raise_ = [a for a in hand.actions if a.kind is Kind.RAISE][-1]
    assert (raise_.amount, raise_.raise_to, raise_.contribution) == (4400, 7500, 6800)
    # the June 2019 exports write the street total: "Rusty I: raises €7.34 to €39.09 and is
    # all-in" is his whole 39.09 stack
    later = one("PLO-6max-EUR-0.25-0.50-201908.RIO.STP.side.pot.txt")
    assert put_in(later)["Rusty I"] == 3909


def test_side_pots_uncalled_and_the_splash() -> None:
    hand = one("PLO-6max-EUR-0.10-0.20-201904.RIO.Side.Pots.txt")
    # Shaun J all in (re-raise written as chips added), 8.43 returned: 2.40 + 28.89 = Hero's all
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Shaun J", 843, -843)]
    assert awards(hand) == [("Hero", 2098, 1, 1), ("Hero", 6060, 0, 1)]
    assert [p.amount for p in hand.pots] == [6260, 2098] and hand.site_rake == 200
    walk = one("NLHE-6max-EUR-0.05-0.10-201906.RIO.STP.walk.txt")
    # blinds 0.15 + "STP added: €0.50" = "Total pot €0.65", all to the big blind
    assert (walk.site_added, walk.site_total_pot, awards(walk)) == (50, 65, [("Dawson D", 65, 0, 1)])


def test_run_it_once_deals_every_seat() -> None:
    hand = one("NLHE-6max-EUR-0.05-0.10-201906.RIO.walk.txt")
    assert hand.hero is None and hand.hole_cards_mode == "operator"
    assert len(hand.hole_cards) == 5
    hero = one("PLO-6max-EUR-0.25-0.50-201908.RIO.STP.side.pot.txt")
    cards = {h.player: h for h in hero.hole_cards}
    assert hero.hero == "Hero" and cards["Hero"].provenance is Provenance.DEALT
    assert cards["Ricky N"].provenance is Provenance.OPERATOR and cards["Ricky N"].cards == "AcJd5h4d"
    assert hero.started_at == datetime(2019, 8, 14, 17, 55)


def test_pokermaster_straddle_ante_and_five_card_omaha() -> None:
    hand = one("NLHE-9-max-USD-2.00-4.00-201901.PokerMaster.w.Straddle.txt")
    # the third blind "posts big blind $8" is a straddle; antes 8 x 2 + 2 + 4 + 8 + 81 x 2 +
    # 150 x 2 = 492 = "Total pot $492"
    assert kinds(hand, Kind.POST_STRADDLE) == [("上战场女武神", 800, 800)]
    assert (hand.ante, hand.straddle, sum(put_in(hand).values())) == (200, 800, 49200)
    five = one("5-Card-PLO-6max-USD-15-30-201905.PokerMaster.txt")
    assert (five.variant, five.betting, five.hero) == ("omaha5", "PL", "pp1844675")
    assert (five.site_total_pot, five.site_rake, awards(five)) == (42000, 1100, [("pp1863696", 40900, 0, 1)])
    cny = one("NLHE-8max-CNY-2.00-4.00-201903.elitehud.txt")  # cp1252 file, yuan amounts
    assert (cny.site, cny.currency, cny.sb, cny.bb, cny.ante) == ("pokermaster", "CNY", 200, 400, 100)


def test_pokerbros() -> None:
    hand = one("NLHE-6max-USD-0.50-1.00-202103.PokerBros.txt")
    # 2.5 + 4 + 36.32 + 79.58 = 122.40 each (1087383's whole stack), + big blind 1 = 245.80
    assert put_in(hand) == {"1087383": 12240, "1081005": 12240, "1236927": 100}
    assert (hand.site_total_pot, hand.site_rake) == (24580, 425)


def test_truncated_hand_is_quarantined_rest_loads(tmp_path: Path) -> None:
    texts = [app(n).read_text(encoding="utf-8") for n in (
        "PLO-6max-EUR-0.25-0.50-201908.RIO.STP.side.pot.txt", "NLHE-6max-USD-0.50-1.00-202103.PokerBros.txt",
        "5-Card-PLO-6max-USD-15-30-201905.PokerMaster.txt")]
    cut = texts[1][: len(texts[1]) // 2]
    dst = tmp_path / "cut.txt"
    dst.write_text(texts[0] + "\n\n" + cut + "\n\n" + texts[2], encoding="utf-8")
    hands, quarantined = parse_all(FORMAT, [dst])
    assert [h.site for h in hands] == ["runitonce", "pokermaster"]
    assert len(quarantined) == 1 and quarantined[0].raw_text.startswith("PokerBros Hand #")


def test_sniffing_is_tight_both_ways() -> None:
    assert foreign_claims(FORMAT) == {}
    # the PokerStars parser's own files are never ours, and ours never its
    stars_files = claims(STARS)
    assert stars_files and not any(FORMAT.sniff(read_head(p)[1]) for p in stars_files)


def test_full_tilt_2016_on_the_pokerstars_software_in_play_money() -> None:
    # "Full Tilt Hand #153580143072:  Hold'em No Limit (5/10) - 2016/05/20 8:19:23 ET" (unrecognised
    # before): no currency sign, "Table 'Isonoe II' 6-max (Play Money)"; Hero posts a second big blind
    (hand,) = parse_one(FORMAT, app("NLHE-6max-play-5-10-201605.FullTilt.txt"))
    assert (hand.hand_id, hand.currency, hand.sb, hand.bb) == ("fulltilt:153580143072", "PLAY", 500, 1000)
    assert hand.started_at == datetime(2016, 5, 20, 12, 19, 23)  # 8:19:23 ET = EDT, UTC-4
    assert kinds(hand, Kind.POST_BB) == [("Player2", 1000, 1000), ("Hero", 1000, 1000)]
    # "Total pot 100 | Rake 5", "Player2 collected 95 from pot"; "Player4: mucks hand" and the
    # summary's "mucked [5s 2c]" gives the cards
    assert (hand.site_total_pot, hand.site_rake, awards(hand)) == (10000, 500, [("Player2", 9500, 0, 1)])
    assert {h.player: h.cards for h in hand.hole_cards}["Player4"] == "5s2c"
    # the Rush table writes no "(Play Money)" at all, "doesn't show hand" after an uncalled 119
    (rush,) = parse_one(FORMAT, app("NLHE-6max-play-25-50-201605.FullTilt.Rush.txt"))
    assert (rush.currency, rush.table_name, rush.hero) == ("PLAY", "NLHE 25/50 6 max", "Hero")
    assert kinds(rush, Kind.UNCALLED_RETURN) == [("Player3", 11900, -11900)]
    assert not_ok([hand, rush]) == {}
