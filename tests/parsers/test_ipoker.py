"""iPoker XML parser on real hand histories (fpdb, HHSmithy, hhp-xml).

Independent oracles: each player's ``bet``/``win``/``chips`` attributes the site wrote, fpdb's
expected ``.hp`` output beside the Spanish sample, and hands worked out by hand below.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path

import polars as pl
import pytest

from parsers.formats.ipoker import FORMAT
from parsers.model import Hand, Kind, Provenance, Quarantined, Street
from parsers.registry import sniff_format
from tests.conftest import real_data
from tests.parsers._site_helpers import FPDB, SMITHY, files_of, hand_from, net_of, not_ok, parse_all
from warehouse.reconcile import reconcile_hands

FLOP = (*FPDB, "iPoker", "Flop")
HHP = ("hhp-xml", "test", "fixtures", "ipoker")
SMITHY_IPOKER = (*SMITHY, "IPoker", "CashGame")


def _fpdb(name: str) -> Path:
    return real_data(*FLOP, name)


def _put_in(h: Hand) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for a in h.actions:
        if a.kind is not Kind.UNCALLED_RETURN:
            out[a.player] += a.contribution
    return dict(out)


@pytest.fixture(scope="module")
def corpus() -> tuple[list[Hand], list[Quarantined]]:
    paths = files_of(FORMAT, FPDB, SMITHY, ("hhp-xml",))
    assert len(paths) >= 80
    return parse_all(FORMAT, paths)


def test_every_ipoker_game_parses_or_has_a_named_reason(corpus):
    hands, bad = corpus
    # 913 <game> elements in the data: hhp-xml's 671, HHSmithy's 74 and fpdb's
    assert len(hands) + len(bad) == sum(
        p.read_bytes().count(b"<game gamecode=") for p in files_of(FORMAT, FPDB, SMITHY, ("hhp-xml",))
    )
    kinds = Counter(re.sub(r" \d+.*", "", q.reason.split(":")[0]) for q in bad)
    assert kinds == {
        "partial export": 31,  # fpdb's partial.format: blinds only, no win/bet totals written
        "actions put in": 1,  # HHSmithy's hand-made 10-seat sample: a seat copied without actions
        "1 player(s) listed": 1,  # HHSmithy's InValidHand sample
    }, kinds
    supported = len(hands) + kinds["actions put in"] + kinds["1 player(s) listed"]
    assert len(hands) / supported >= 0.995


def test_every_parsed_ipoker_hand_reconciles(corpus):
    hands, _ = corpus
    unique = list({h.hand_id: h for h in hands}.values())  # hhp-xml copies two fpdb files
    assert len(unique) >= 800
    rec = reconcile_hands(unique)
    assert rec.filter(pl.col("status") != "ok").height == 0
    # iPoker writes no rake: implied, and within what a 5%-capped rake allows
    assert rec["rake_implied"].all()
    assert (rec["rake"] * 100 <= rec["contributed"] * 7).all()


def test_old_export_pays_the_uncalled_bet_inside_win():
    h = hand_from(FORMAT, _fpdb("NLHE-GBP-0.05-0.10-201307.uncalled.2nd.winner.xml"), "4988874195")
    assert (h.currency, h.sb, h.bb, h.hero) == ("GBP", 5, 10, "gortaleva")
    # the site's own per-player bet="" totals
    assert _put_in(h) == {"Certusjr": 5, "SudenUniMC": 10, "gortaleva": 650, "P0k3rkIng2k": 604,
                          "TtheFish": 0}
    raises = [(a.amount, a.raise_to, a.contribution) for a in h.actions if a.player == "gortaleva"
              and a.kind is Kind.RAISE]
    assert raises == [(40, 40, 40), (650, 650, 610)]  # type 23 is the raise-to total
    # gortaleva lost (AcQh vs KdKs): his win="£0.46" is the unmatched 6.50 - 6.04, paid as a win
    assert sorted((a.player, a.amount) for a in h.awards) == [("P0k3rkIng2k", 1142), ("gortaleva", 46)]
    assert not any(a.kind is Kind.UNCALLED_RETURN for a in h.actions)
    assert ("gortaleva", "AcQh", Provenance.DEALT) in h.hole_cards
    assert ("P0k3rkIng2k", "KdKs", Provenance.SHOWN) in h.hole_cards
    assert h.boards[0].cards == "5d7c9dJdQd"
    assert h.started_at is None  # iPoker writes no time zone


def test_new_export_returns_the_uncalled_bet_silently():
    # 2020 client: the big blind's walk pays win="€1" on a €1.50 pot with nothing raked, so the
    # unmatched €0.50 went back outside win
    h = hand_from(FORMAT, _fpdb("PLO-EUR-0.50-1.00-202009.no.uncalled.xml"), "8806821988")
    ret = [(a.player, a.amount, a.contribution) for a in h.actions if a.kind is Kind.UNCALLED_RETURN]
    assert ret == [("Player0", 50, -50)]
    assert net_of(h) == {"Player4": -50, "Player0": 50, "Player1": 0, "Player2": 0, "Player3": 0}


def test_decimal_commas_and_silent_return_on_the_river():
    h = hand_from(FORMAT, _fpdb("5CPLO-EUR-0.50-1.00-202201.no.player.element.txt"), "3651461297")
    assert (h.variant, h.betting, h.currency, h.sb, h.bb) == ("omaha5", "PL", "EUR", 50, 100)
    assert h.seats[0].stack == 34149  # chips="€341,49"
    # Player0 bets €52,77 on the river, Player4 folds: returned; the €51,18 won is the
    # rest of the pot (0.50 + 2 + 1 + 3*4.87 + 2*15.83 = 52.77) less €1,59 rake
    assert [(a.player, a.amount) for a in h.actions if a.kind is Kind.UNCALLED_RETURN] == [("Player0", 5277)]
    assert sum(a.contribution for a in h.actions) == 5277
    assert [(a.player, a.amount) for a in h.awards] == [("Player0", 5118)]


def test_net_results_match_fpdb_expected_output():
    h = hand_from(FORMAT, _fpdb("NLHE-6max-USD-0.01-0.02-201111.Spanish.sample.xml"), "3013573623")
    assert (h.betting, h.currency) == ("NL", "USD")  # "Holdem SL" is Spanish no-limit
    # fpdb's .hp: startCash 88/112/100 and totalProfit 0/+2/-2 cents
    assert {s.player: s.stack for s in h.seats} == {"Player3": 88, "Player6": 112, "Hero": 100}
    assert net_of(h) == {"Player3": 0, "Player6": 2, "Hero": -2}


def test_newer_raise_is_a_raise_to_even_where_the_bet_total_adds_it_up():
    path = real_data(*HHP, "cash.hhsmithy.eur.NLHE.6max.2018.xml")
    h = hand_from(FORMAT, path, "7973132732")
    # SB 0.50, raise to 2, raise to 9, BB calls 8: a €20 pot split 9.50 / 9.50 (5% rake); the
    # site's bet="€9.50" for samsung77 is 0.50 + 9, the written sums added up
    r = next(a for a in h.actions if a.player == "samsung77" and a.kind is Kind.RAISE)
    assert (r.amount, r.raise_to, r.contribution) == (900, 900, 850)
    assert sum(a.contribution for a in h.actions) == 2000
    assert sorted(a.amount for a in h.awards) == [950, 950]


def test_post_both_antes_and_limit_blinds():
    h = hand_from(FORMAT, _fpdb("LHE-USD-5-10-201204.post.both.txt"), "3232378938")
    assert (h.betting, h.sb, h.bb) == ("FL", 250, 500)  # "Holdem L $5/$10" names the bets
    posts = [(a.kind, a.amount) for a in h.actions if a.player == "Player2" and a.kind.startswith("post")]
    assert posts == [(Kind.POST_BB, 500), (Kind.POST_DEAD, 250)]  # sum="$7.50", bet="$7.50"
    ante = hand_from(FORMAT, real_data(*SMITHY_IPOKER, "HandActionTests", "AnteAction.txt"), "5384038435")
    assert ante.ante == 2
    assert sum(a.kind is Kind.POST_ANTE for a in ante.actions) == 3


def test_ante_then_sits_out_is_a_sitting_out_seat():
    h = hand_from(FORMAT, _fpdb("NLHE-USD-0.05-0.10-201312.player.antes.then.sits.out.txt"), "5338624766")
    # Player3: ante type 15 "$0.02" (bet="$0.02"), then type 9 and no Pocket cards: never in the hand
    seats = {s.player: s.sitting_out for s in h.seats}
    assert seats["Player3"] is True and seats["Hero"] is False and seats["Player2"] is False
    assert [(a.kind, a.contribution) for a in h.actions if a.player == "Player3"] == [(Kind.POST_ANTE, 2)]
    # Player2 posts ante and small blind, then folds: dealt in, not sitting out
    assert sum(a.contribution for a in h.actions if a.player == "Player2") == 7  # bet="$0.07"


def test_disconnect_protection_all_in_adds_nothing():
    h = hand_from(FORMAT, _fpdb("LHE-10max-USD-0.10-0.20-201107.player.sitting.out.xml"), "2855472319")
    dp = [a for a in h.actions if a.player == "Player7" and a.all_in]
    assert [(a.kind, a.contribution) for a in dp] == [(Kind.CALL, 0)]
    assert _put_in(h)["Player7"] == 20  # bet="$0.20"


def test_tournament_chips():
    path = real_data(*HHP, "tourney.fpdb.NLHE-USD-MTT-Freeroll-201107.xml")
    hands = [r for r in FORMAT.parse(path) if isinstance(r, Hand)]
    assert len(hands) == 9
    h = hands[0]
    assert (h.game_type, h.currency, h.unit_scale, h.tournament_id) == ("tournament", "CHIPS", 1, "611669111")
    assert {s.stack for s in h.seats} == {1500}  # chips="1,500"


def test_seven_and_five_card_stud_are_read():
    recs = list(FORMAT.parse(real_data(*FPDB, "iPoker", "Stud", "7-StudHL-EUR-0.05-0.10-201405.txt")))
    hands = [r for r in recs if isinstance(r, Hand)]
    assert len(hands) == 5 and {h.variant for h in hands} == {"stud_hilo"} and len(recs) == 5
    assert {h.sb for h in hands} == {0}  # stud posts no blinds
    five_card = real_data(*FPDB, "iPoker", "Stud", "5-StudL-USD-0.05-0.10-201111.Sample.with.showdown.xml")
    (five,) = list(FORMAT.parse(five_card))
    assert isinstance(five, Hand) and not_ok([five]) == {}
    # "5 Card Stud L $0.05/$0.10": bring-in 0.02 (type 16), completion to 0.05, the big bet on fifth
    assert (five.variant, five.sb, five.bb, five.small_bet, five.big_bet, five.bring_in) == ("stud5", 0, 5, 5, 10, 2)
    # '<cards type="Second Street" player="Hero">SQ C3</cards>': one down, one up; "River" up; the four
    # betting rounds are third..sixth street
    assert [(c.street, c.cards, c.face_up) for c in five.street_cards if c.player == "Hero"] == [
        (Street.THIRD, "Qs", False), (Street.THIRD, "3c", True), (Street.FOURTH, "2c", True),
        (Street.FIFTH, "Kc", True), (Street.SIXTH, "5c", True)]
    assert [a.kind for a in five.actions if a.street is Street.THIRD][2:4] == [Kind.BRING_IN, Kind.COMPLETE]


def test_truncated_game_is_quarantined_and_the_rest_loads(tmp_path):
    raw = real_data(*SMITHY_IPOKER, "MultipleHandsTests", "10MultipleHands.txt").read_bytes()
    starts = [m.start() for m in re.finditer(rb"<game gamecode=", raw)]
    assert len(starts) == 10
    cut = raw[: starts[3] + (starts[4] - starts[3]) // 2] + raw[starts[4]:]
    path = tmp_path / "cut.xml"
    path.write_bytes(cut)
    recs = list(FORMAT.parse(path))
    bad = [r for r in recs if isinstance(r, Quarantined)]
    assert [(q.byte_offset, q.reason) for q in bad] == [(starts[3], "truncated game: no </game>")]
    good = [r for r in recs if isinstance(r, Hand)]
    assert len(good) == 9
    fifth = good[3]
    assert cut[fifth.byte_offset:].startswith(b"<game gamecode=")
    assert cut[fifth.byte_offset + fifth.byte_length - 7: fifth.byte_offset + fifth.byte_length] == b"</game>"


def test_file_ending_inside_a_game(tmp_path):
    # fpdb's sample ends after a whole </round> with no </game>: kept, its chips are proven by
    # the bet totals; the same game cut inside a round is quarantined
    raw = _fpdb("NLHE-USD-0.10-0.20.201112.post.both.txt").read_bytes()
    assert b"</game>" not in raw
    assert sum(isinstance(r, Hand) for r in FORMAT.parse(_fpdb("NLHE-USD-0.10-0.20.201112.post.both.txt"))) == 1
    path = tmp_path / "cut.xml"
    path.write_bytes(raw[: raw.rindex(b"<action")])
    recs = list(FORMAT.parse(path))
    assert len(recs) == 1
    assert isinstance(recs[0], Quarantined)
    assert recs[0].reason.startswith("truncated game")


def test_sniffing_is_tight():
    assert sniff_format(_fpdb("NLHE-USD-0.02-0.04-201111.txt")) is FORMAT
    for other in ("Merge", "MicroGaming", "BossMedia"):
        table = real_data(*SMITHY, other, "CashGame", "Tables", "Table1.txt")
        assert not FORMAT.sniff(table.read_text(encoding="utf-8-sig")[:8192])


def test_six_plus_holdem_posts_both_blinds() -> None:
    hands, quarantined = parse_all(FORMAT, [real_data(*FPDB, "iPoker", "Flop", "6+Holdem-EUR-0.25-0.50-201702.txt")])
    # "<gametype>Six Plus Holdem NL €0.25/€0.50</gametype>": 6+ hold'em, and the hand posts both blinds
    (hand,) = hands
    assert quarantined == [] and (hand.variant, hand.betting, hand.sb, hand.bb) == ("holdem_6plus", "NL", 25, 50)
    assert [a.kind for a in hand.actions[:2]] == [Kind.POST_SB, Kind.POST_BB] and not_ok(hands) == {}
