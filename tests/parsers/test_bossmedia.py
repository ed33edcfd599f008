"""Boss Media XML on fpdb's Boss folder and HHSmithy's BossMedia samples.

Expected amounts come from the files' own pots (every HAND_BOARD and SHOWDOWN writes POT + RAKE =
everything put in so far), fpdb's expected-output ``.hp`` files, and hand arithmetic in comments.
"""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from datetime import datetime
from pathlib import Path

from parsers.formats.bossmedia import FORMAT, card
from parsers.model import Hand, Kind, Provenance
from parsers.money import to_units
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, kinds, not_ok, parse_all, put_in, unique

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "Boss", "Flop")
_ORDER = ["preflop", "flop", "turn", "river", "showdown"]
SMITHY = ("hhsmithy_sample_hh", "HandHistories.Parser.UnitTests", "SampleHandHistories", "BossMedia", "CashGame")


def _one(*parts: str) -> Hand:
    hands, quarantined = parse_all(FORMAT, [real_data(*parts)])
    assert not quarantined, [q.reason for q in quarantined]
    (hand,) = hands
    return hand


def test_every_hand_parses_or_has_a_named_reason() -> None:
    files = claims(FORMAT)
    assert len(files) == 39
    hands, quarantined = parse_all(FORMAT, files)
    # 40 distinct hold'em and omaha hands (HHSmithy copies hands into several sample files) and fpdb's
    # Draw folder: 14 five card draw hands of 5CD-FL...Opoker.sample.xml and one of 5CD-PL...201307.txt
    assert len(hands) == 64 and quarantined == []
    assert sum(h.variant == "draw5" for h in hands) == 15
    assert not_ok(unique(hands)) == {}


def test_every_street_pot_the_site_writes_matches_what_was_put_in() -> None:
    """HAND_BOARD POT + RAKE is the money in before that street: the calls, all-ins, dead blinds
    and derived uncalled returns must add up to it at every street, not only at the end."""
    checked = 0
    for path in claims(FORMAT):
        text = path.read_text(encoding="utf-8-sig")
        for raw in re.findall(r"<HISTORY .*?</HISTORY>", text, flags=re.S):
            root = ET.fromstring(raw)
            if root.get("GAME") == "GAME_FCD":
                continue
            hand = next(h for h in parse_all(FORMAT, [path])[0] if h.site_hand_no == root.get("ID"))
            for board in root.iter("ACTION"):
                if board.get("TYPE") != "HAND_BOARD" or not board.get("RAKE"):
                    continue
                street = _ORDER.index(board.get("VALUE", "").removeprefix("BOARD_").lower())
                before = sum(a.contribution for a in hand.actions if _ORDER.index(a.street) < street)
                written = to_units(board.get("POT", ""), 100) + to_units(board.get("RAKE", ""), 100)
                assert before == written, (hand.hand_id, street)
                checked += 1
    assert checked == 51  # every board row with a RAKE in the hold'em and Omaha hands


def test_cards_are_numbered_ad_to_ks_as_fpdb_reads_them() -> None:
    # fpdb's .hands stores Hero's cards as 42 and 38 in its own encoding (1-13 hearts, 14-26
    # diamonds, 27-39 clubs, 40-52 spades, deuce first): 4s and Kc; the file writes 42 and 25
    hand = _one(*FLOP, "NLHE-GBP-0.05-0.10-Date-unknown.Sample.txt")
    assert hand.hole_cards[0] == ("Hero", "4sKc", Provenance.DEALT)
    assert (card("42"), card("25"), card("0"), card("51"), card("b")) == ("4s", "Kc", "Ad", "Ks", "??")
    # Player2 shows fpdb's 24 and 13 (Qd, Ah) and wins 13.21 of 13.90 (0.69 rake)
    assert ("Player2", "QdAh", Provenance.SHOWN) in hand.hole_cards
    assert hand.site_total_pot == 1390 and hand.site_rake == 69 and awards(hand) == [("Player2", 1321, 0, 1)]
    assert hand.started_at == datetime(2010, 8, 6, 13, 39, 34)  # DATE 1281101974, Unix time (UTC)


def test_2010_calls_are_the_street_total_and_fpdb_misreads_them() -> None:
    """fpdb's .hp takes every CALL as chips added; the file's own flop pot says otherwise.

    Blinds 0.10 (Player3), 0.05 (Player2), 0.10 (Hero, new player); Player1 raises to 0.55 and
    Player2, Player3 and Player6 each "CALL 0.55": the flop POT is 2.30 = 4 x 0.55 + Hero's 0.10,
    so each call brought the caller *to* 0.55 (fpdb's -0.65 for Player3 would make it 2.55).
    """
    hand = _one(*FLOP, "NLHE-GBP-0.05-0.10-Date-unknown.Sample.txt")
    assert put_in(hand) == {"Player3": 55, "Player2": 635, "Player6": 635, "Player1": 55, "Hero": 10}
    fpdb = _fpdb_profit(real_data(*FLOP, "NLHE-GBP-0.05-0.10-Date-unknown.Sample.txt.hp"))
    ours = _profit(hand)
    assert {p for p in ours if ours[p] != fpdb[p]} == {"Player1", "Player2", "Player3", "Player6"}
    assert fpdb["Player3"] - ours["Player3"] == -10  # fpdb charges the 0.10 blind twice


def test_net_results_match_fpdb_where_no_call_is_ambiguous() -> None:
    hand = _one(*FLOP, "NLHE-USD-0.05-0.10-Date-unknown.Sample.txt")
    assert _profit(hand) == _fpdb_profit(real_data(*FLOP, "NLHE-USD-0.05-0.10-Date-unknown.Sample.txt.hp"))


def test_2014_calls_are_chips_added_and_the_unmatched_raise_comes_back() -> None:
    # Junglized (SB 100) re-raises to 1925 over ItalyToast's 575; ItalyToast "CALL 1350" (added);
    # flop bet 3037.50 raised to 8100 and folded: 5062.50 back; POT 10110 + RAKE 15 = 10125
    hand = _one(*SMITHY, "GeneralHands", "GeneralHand.txt")
    assert put_in(hand) == {"Junglized": 496250, "FishHater": 20000, "ItalyToast": 496250}
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("ItalyToast", 506250, -506250)]
    assert hand.site_total_pot == 1012500 and awards(hand) == [("ItalyToast", 1011000, 0, 1)]
    assert hand.currency == "SEK" and hand.button_seat == 5 and hand.max_seats == 5
    assert [s.player for s in hand.seats if s.sitting_out] == ["SMUMUSRN"]


def test_all_in_puts_in_what_is_left_and_the_excess_goes_back() -> None:
    # Player3 (4.46) raised to 1.15 preflop, bets 2.40, then "ALLIN 3.31" (his street total:
    # 0.91 left) against Player1's 4.80: 1.49 returned; POT 8.57 + RAKE 0.45 = 9.02
    hand = _one(*FLOP, "PLO-EUR-0.05-0.10-201207.all.in.call.txt")
    assert put_in(hand) == {"Player3": 446, "Player1": 446, "Hero": 10}
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Player1", 149, -149)]
    allin = [a for a in hand.actions if a.all_in]
    assert [(a.player, a.kind, a.amount, a.contribution) for a in allin] == [("Player3", Kind.CALL, 331, 91)]


def test_second_small_blind_is_dead_and_both_blinds_split() -> None:
    # SD's second "HAND_SB 5.00" then raise to 32.50, both fold: POT 30.00 only if the 5 is dead
    hand = _one(*FLOP, "NLHE-SEK-5.00-10.00-201207.secondsb.txt")
    assert kinds(hand, Kind.POST_DEAD) == [("SD", 500, 500)]
    assert put_in(hand) == {"Slickepot": 500, "LEPSTIKS": 1000, "SD": 1500}
    # HAND_AB 15.00 at 10/20 limit: 10 live + 5 dead; the file stops after its last </RESULT>,
    # complete because Hero's 87.00 is the whole showdown POT
    hand = _one(*FLOP, "LHE-10-20-USD-201105.post.both.txt")
    assert kinds(hand, Kind.POST_BB)[-1] == ("Player3", 1000, 1000)
    assert kinds(hand, Kind.POST_DEAD) == [("Player3", 500, 500)]
    assert (hand.betting, hand.sb, hand.bb) == ("FL", 500, 1000)
    assert put_in(hand)["Player3"] == 3500 and awards(hand) == [("Hero", 8700, 0, 1)]


def test_hhsmithy_street_fixtures_are_edited_copies() -> None:
    """StreetTests/River.txt is hand 2076619909 of 10MultipleHands.txt with other board cards:
    the rule checker's duplicate-card finding on it comes from the edited fixture."""
    multi = parse_all(FORMAT, [real_data(*SMITHY, "MultipleHandsTests", "10MultipleHands.txt")])[0]
    river = _one(*SMITHY, "StreetTests", "River.txt")
    same = next(h for h in multi if h.hand_id == river.hand_id)
    assert same.boards != river.boards and put_in(same) == put_in(river)


def test_truncated_hand_is_quarantined_rest_loads(tmp_path: Path) -> None:
    text = real_data(*SMITHY, "MultipleHandsTests", "10MultipleHands.txt").read_text(encoding="utf-8-sig")
    starts = [m.start() for m in re.finditer(r"^<HISTORY ", text, flags=re.M)]
    cut = text[: starts[1]] + text[starts[1] : starts[1] + (starts[2] - starts[1]) // 2] + "\n" + text[starts[2] :]
    dst = tmp_path / "cut.xml"
    dst.write_text(cut, encoding="utf-8")
    hands, quarantined = parse_all(FORMAT, [dst])
    assert len(hands) == len(starts) - 1
    assert [q.reason for q in quarantined] == ["truncated hand: no </HISTORY>"]


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}


def _profit(hand: Hand) -> dict[str, int]:
    out = {s.player: 0 for s in hand.seats}
    for a in hand.actions:
        out[a.player] -= a.contribution
    for w in hand.awards:
        out[w.player] += w.amount
    return out


def _fpdb_profit(hp: Path) -> dict[str, int]:
    text = re.sub(r"datetime\.datetime\([^)]*\)", "None", hp.read_text())
    return {k: v["totalProfit"] for k, v in ast.literal_eval(text).items()}


def test_button_from_the_deal_order_when_no_dealer_is_marked(tmp_path: Path) -> None:
    # 2010 export without DEALER: the deal starts at gasmandean (seat 5) and so does the flop
    # betting (5, 6, 8, 10, 1), so the button is seat 3 although seat 6 posts the small blind
    hand = _one(*SMITHY, "GameTypeTests", "NoLimitHoldem.txt")
    assert hand.button_seat == 3
    assert [a.player for a in hand.actions if a.street.value == "flop"][:2] == ["gasmandean", "fatima1975"]
    # a marked hand with its marker removed gives the marked seat back (AllinAnna, seat 3)
    marked = real_data(*SMITHY, "StreetTests", "Turn.txt")
    assert _one(*SMITHY, "StreetTests", "Turn.txt").button_seat == 3
    unmarked = tmp_path / "Turn.txt"
    unmarked.write_text(marked.read_text(encoding="utf-8-sig").replace('DEALER="Y"', 'DEALER="N"'))
    (hand,) = parse_all(FORMAT, [unmarked])[0]
    assert hand.button_seat == 3
