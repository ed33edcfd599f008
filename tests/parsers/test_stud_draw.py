"""Stud, razz, draw and badugi hands and mixed-game rotations (issue 12, build item 2) on real files.

Expected amounts come from the files' own lines (quoted beside each assertion); the per-game counts
are the hands of every real PokerStars and Merge file of ``hands/`` and ``tournaments/``, each
reconciled against the site's totals by the real reconciler. Acting order is checked against the
game's rules: in stud the lowest up-card brings in (razz: the highest) and from fourth street the
best board showing acts first (razz: the lowest), which only holds when the up-cards per street
were read right.
"""

from __future__ import annotations

from collections import Counter

from parsers.base import HandFormat
from parsers.formats import (
    bossmedia,
    bovada,
    everleaf,
    fulltilt,
    ipoker,
    kingsclub,
    merge,
    ongame,
    partypoker,
    pokerstars,
    winamax,
    winning,
)
from parsers.model import Hand, Kind, Provenance, Street, StreetCards, game_family
from parsers.registry import sniff_format
from tests.conftest import SHARED, real_data

from ._site_helpers import (
    EXPECTED_SUFFIXES,
    FPDB,
    awards,
    claims,
    hand_from,
    kinds,
    not_ok,
    parse_all,
    parse_one,
    put_in,
    unique,
)
from .test_tournaments import tour

STARS = (*FPDB, "Stars")
ACTING_IPOKER = (89, 200)  # iPoker: the same, over the sit & go and cash stud games
ACTING_BOVADA = (37, 116)  # Bovada, marked (2014) and unmarked streets
ACTING_EVERLEAF = (6, 18)  # Everleaf 2011-08 (the earlier exports write no cards)
ACTING_FT = (39, 69)  # Full Tilt third streets and later streets judged (ties by position are not)
MERGE = (*FPDB, "Merge")


cash = real_data


def _games(fmt: HandFormat) -> tuple[list[Hand], Counter[tuple[str, str | None]]]:
    """Every stud/draw hand and every hand of a rotation the format reads in ``hands/`` and
    ``tournaments/``, distinct, by (variant, mix)."""
    files = claims(fmt)
    root = SHARED / "data" / "tournaments"
    files += [p for p in sorted(root.rglob("*")) if p.is_file() and p.suffix not in EXPECTED_SUFFIXES
              and sniff_format(p) is fmt]
    hands, _ = parse_all(fmt, files)
    chosen = unique([h for h in hands if game_family(h.variant) != "flop" or h.mix])
    return chosen, Counter((h.variant, h.mix) for h in chosen)


def test_pokerstars_stud_and_draw_hands_per_game_all_reconcile() -> None:
    tour("Stars")  # skips without the tournament folder
    hands, games = _games(pokerstars.FORMAT)
    assert games == {
        ("badugi", None): 108, ("draw5", None): 37, ("draw27_triple", None): 20, ("draw27_single", None): 4,
        ("stud", None): 13, ("stud_hilo", None): 8, ("razz", None): 9,
        # the 8-Game home-game shoot-out and the $400/$800 cash hand; Triple Stud; mixed hold'em / omaha
        ("holdem", "8-Game"): 48, ("omaha_hilo", "8-Game"): 17, ("omaha", "8-Game"): 1,
        ("razz", "8-Game"): 19, ("stud", "8-Game"): 16, ("stud_hilo", "8-Game"): 19, ("draw27_triple", "8-Game"): 18,
        ("stud", "Triple Stud"): 1, ("holdem", "Mixed Hold'em"): 2, ("omaha", "Mixed Omaha"): 1,
        ("omaha5", "Mixed Omaha"): 1, ("holdem", "Mixed NLH/PLO"): 1,
    }
    # every one reconciles against "Total pot X | Rake Y" and the collected lines; one triple-draw
    # hand is "Hand cancelled"
    bad = not_ok(hands)
    assert {k: r["status"] for k, r in bad.items()} == {"pokerstars:20349633663": "cancelled"}


def test_merge_stud_and_draw_hands_per_game_all_reconcile() -> None:
    tour("Merge")
    hands, games = _games(merge.FORMAT)
    assert games == {
        ("draw27_triple", None): 18, ("drawa5_triple", None): 1, ("draw5", None): 1, ("badugi", None): 1,
        ("stud", None): 1, ("stud_hilo", None): 3, ("razz", None): 1,
        ("holdem", "HORSE"): 10, ("omaha_hilo", "HORSE"): 4, ("razz", "HORSE"): 4, ("stud_hilo", "HORSE"): 9,
        ("stud", "HORSE"): 4,
    }
    # Merge writes no rake: the implied rake is plausible on every hand; one PL triple draw is cancelled
    bad = not_ok(hands)
    assert {k: r["status"] for k, r in bad.items()} == {"merge:31691047-143": "cancelled"}


def test_stud_antes_bring_in_and_up_and_down_cards_per_street() -> None:
    path = cash(*STARS, "Stud", "7-StudHL-USD-0.04-0.08-200911.txt")
    hand = hand_from(pokerstars.FORMAT, path, "35874487284")
    # "7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD)", "Table 'Dawn II' 8-max" (no button in stud)
    assert (hand.variant, hand.betting, hand.small_bet, hand.big_bet) == ("stud_hilo", "FL", 4, 8)
    assert (hand.bb, hand.sb) == (4, 0)  # bb is the small bet, as in the flop games' fixed limit; no blinds
    assert hand.button_seat is None and hand.mix is None
    # four "posts the ante $0.01", "Hero: brings in for $0.02" (live: the callers put in 0.02 each)
    assert hand.ante == 1 and hand.bring_in == 2
    assert kinds(hand, Kind.BRING_IN) == [("Hero", 2, 2)]
    assert put_in(hand) == {"gashpor": 3, "denny501": 3, "Hero": 3, "rdiezchang": 3}
    assert [s.value for s in dict.fromkeys(a.street for a in hand.actions)] == ["third", "fourth", "fifth", "sixth"]
    # "Dealt to Hero [5d Ks 2h]": two down, one up; "Dealt to gashpor [Kc 4d] [Qd]" on 5th: Qd up
    assert [c for c in hand.street_cards if c.player == "Hero"] == [
        StreetCards("Hero", Street.THIRD, "5dKs", False), StreetCards("Hero", Street.THIRD, "2h", True),
        StreetCards("Hero", Street.FOURTH, "9h", True), StreetCards("Hero", Street.FIFTH, "Js", True),
        StreetCards("Hero", Street.SIXTH, "4c", True),
    ]
    assert StreetCards("gashpor", Street.FIFTH, "Qd", True) in hand.street_cards
    # only the hero's cards are hole cards: the others' up-cards are not (they are street cards)
    assert [(h.player, h.cards, h.provenance) for h in hand.hole_cards] == [("Hero", "5dKs2h9hJs4c", Provenance.DEALT)]
    # "rdiezchang: bets $0.08", "Uncalled bet ($0.08) returned", "collected $0.12 from pot"
    assert awards(hand) == [("rdiezchang", 12, 0, 1)] and (hand.site_total_pot, hand.site_rake) == (12, 0)


def test_stud_completion_of_the_bring_in() -> None:
    path = cash(*STARS, "Stud", "7-StudHL-USD-400-800-201701.3bet.fix.txt")
    hand = hand_from(pokerstars.FORMAT, path, "164954571644")
    # "8-Game (7 Card Stud Hi/Lo Limit, $400/$800 USD)": the rotation is named, the bets are 400/800
    assert (hand.mix, hand.variant, hand.small_bet, hand.big_bet) == ("8-Game", "stud_hilo", 40000, 80000)
    third = [(a.player, a.kind, a.amount, a.raise_to, a.contribution) for a in hand.actions
             if a.street is Street.THIRD and a.kind is not Kind.POST_ANTE]
    # "brings in for $120", "Hero: raises $280 to $400" (the completion), then two raises and a call
    assert third == [
        ("Player0", Kind.BRING_IN, 12000, None, 12000),
        ("Hero", Kind.COMPLETE, 28000, 40000, 40000),
        ("Player0", Kind.RAISE, 40000, 80000, 68000),
        ("Hero", Kind.RAISE, 40000, 120000, 80000),
        ("Player0", Kind.CALL, 40000, None, 40000),
    ]
    assert (hand.site_total_pot, hand.site_rake) == (332000, 200)
    assert not_ok([hand]) == {}


#: the low stud games (the highest up-card brings in, the lowest board acts first); 2-7 razz counts aces high
_LOW_STUD = {"razz": "A23456789TJQK", "razz27": "23456789TJQKA"}


def _board_key(cards: list[str], order: str) -> tuple[tuple[int, int], ...]:
    """Up-cards ranked for acting order: pairs and trips first, then high cards in the game's ``order``
    (razz: aces low; the lowest key acts first in the low games, the highest in stud)."""
    ranks = Counter(order.index(c[0]) for c in cards)
    return tuple(sorted(((n, r) for r, n in ranks.items()), reverse=True))


def _acting_order_checked(hands: list[Hand]) -> tuple[int, int]:
    """(third streets, later streets) whose first actor the rules of the game predict, asserting each."""
    thirds = later = 0
    for hand in hands:
        if game_family(hand.variant) != "stud" or hand.cancelled or any(a.all_in for a in hand.actions):
            continue
        razz = hand.variant in _LOW_STUD
        order = _LOW_STUD.get(hand.variant, "23456789TJQKA")
        ups: dict[str, list[str]] = {}
        folded: set[str] = set()
        for street in (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH):
            for c in hand.street_cards:
                if c.street is street and c.face_up:
                    ups.setdefault(c.player, []).append(c.cards)
            acts = [a for a in hand.actions if a.street is street and a.kind is not Kind.POST_ANTE]
            live = {p: u for p, u in ups.items() if p not in folded}
            if acts and len(live) > 1:
                first = acts[0].player
                if street is Street.THIRD:  # the bring-in: lowest up-card (razz: highest), ties by suit
                    card = {p: u[0] for p, u in live.items()}
                    rank = {p: order.index(c[0]) for p, c in card.items()}
                    want = max(rank.values()) if razz else min(rank.values())
                    if sum(1 for r in rank.values() if r == want) == 1:
                        assert rank[first] == want, (hand.hand_id, first, card)
                        assert acts[0].kind in (Kind.BRING_IN, Kind.COMPLETE), hand.hand_id
                        thirds += 1
                else:
                    keys = {p: _board_key(u, order) for p, u in live.items()}
                    best = min(keys.values()) if razz else max(keys.values())
                    if sum(1 for k in keys.values() if k == best) == 1:  # ties go by position: not judged
                        assert keys[first] == best, (hand.hand_id, street, first, live)
                        later += 1
            folded |= {a.player for a in acts if a.kind is Kind.FOLD}
    return thirds, later


def test_stud_streets_are_opened_by_the_board_the_game_names() -> None:
    tour("Stars")
    stars, _ = _games(pokerstars.FORMAT)
    merged, _ = _games(merge.FORMAT)
    # PokerStars: every stud hand's bring-in and later first actors; Merge's too ("null" down cards)
    assert _acting_order_checked(stars) == (74, 229)
    assert _acting_order_checked(merged) == (16, 58)


def test_five_card_draw_without_a_draw_marker_and_its_discards() -> None:
    hand = hand_from(pokerstars.FORMAT, cash(*STARS, "Draw", "5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt"),
                     "64146221551")
    # 2011 5 Card Draw writes no "*** FIRST DRAW ***": the discards after the betting start the draw
    assert (hand.variant, hand.betting, hand.sb, hand.bb) == ("draw5", "FL", 5, 10)
    assert (hand.small_bet, hand.big_bet) == (10, 20)
    draws = [(a.street, a.player, a.kind, a.amount, a.cards) for a in hand.actions if a.kind is Kind.DISCARD]
    # "Player3: discards 2 cards", "Player4: discards 2 cards", "Hero: discards 2 cards [7h Th]"
    assert draws == [
        (Street.DRAW1, "Player3", Kind.DISCARD, 2, None), (Street.DRAW1, "Player4", Kind.DISCARD, 2, None),
        (Street.DRAW1, "Hero", Kind.DISCARD, 2, "7hTh"),
    ]
    # "Dealt to Hero [Qd 7h 6c 6h Th]", then "Dealt to Hero [Qd 6c 6h] [4h Td]": the hand after the draw
    assert hand.street_cards == [StreetCards("Hero", Street.PREDRAW, "Qd7h6c6hTh", False),
                                 StreetCards("Hero", Street.DRAW1, "4hTd", False)]
    assert (hand.hole_cards[0].player, hand.hole_cards[0].cards) == ("Hero", "Qd6c6h4hTd")
    # "Player3 collected $0.10 from side pot", "... $0.43 from main pot"; "Total pot $0.55 ... | Rake $0.02"
    assert awards(hand) == [("Player3", 10, 1, 1), ("Player3", 43, 0, 1)]
    assert not_ok([hand]) == {}


def test_triple_draw_rounds_discards_and_stands_pat() -> None:
    hands, _ = parse_all(pokerstars.FORMAT, [cash(*STARS, "Draw", "3-Draw-Limit-USD-0.10-0.20-200911.txt")])
    hand = next(h for h in hands if h.site_hand_no == "35839001292")
    assert hand.variant == "draw27_triple" and hand.button_seat == 5
    by_street = [(a.street.value, a.player, a.kind.value, a.amount) for a in hand.actions
                 if a.kind in (Kind.DISCARD, Kind.STAND_PAT)]
    assert by_street == [
        ("draw1", "rumble1111", "discard", 2), ("draw1", "cypis28", "discard", 2), ("draw1", "bakter9", "discard", 1),
        ("draw2", "cypis28", "discard", 1), ("draw2", "bakter9", "stand_pat", 0),
        ("draw3", "cypis28", "stand_pat", 0), ("draw3", "bakter9", "stand_pat", 0),
    ]
    # "bakter9: calls $0.18 and is all-in", "Uncalled bet ($0.02) returned to cypis28"
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("cypis28", 2, -2)]
    assert awards(hand) == [("bakter9", 201, 0, 1)] and hand.site_rake == 10


def test_badugi_tournament() -> None:
    hands, quarantined = parse_all(pokerstars.FORMAT, [tour("Stars", "Draw", "LBad-USD-SNG8-201011.txt")])
    # "Tournament #330855877, $1.00+$0.20 USD Badugi Limit - Level VII (300/600)"
    assert quarantined == [] and len(hands) == 104 and {h.variant for h in hands} == {"badugi"}
    assert {(h.game_type, h.tournament_id, h.currency) for h in hands} == {("tournament", "330855877", "CHIPS")}
    assert not_ok(hands) == {}
    last = hands[-1]
    assert (last.small_bet, last.big_bet) == (300, 600)


def test_merge_stud_null_down_cards_and_bring_in() -> None:
    hand = hand_from(merge.FORMAT, cash(*MERGE, "Stud", "7-Stud-USD-0.50-1.00-201102.Sample.txt"), "31423297-107")
    # 'type="7-Stud" stakes="Limit $0.50/$1"', seven ANTE 0.05, 'BRING_IN ... amount="0.10"'
    assert (hand.variant, hand.small_bet, hand.big_bet, hand.ante, hand.bring_in, hand.button_seat) == (
        "stud", 50, 100, 5, 10, None)
    # 'DRAW_DRAWN_CARDS cards="null,null,7s" player="0"': two cards face down, unseen, then the up-card
    assert [c for c in hand.street_cards if c.player == "Player1"][:3] == [
        StreetCards("Player1", Street.THIRD, "??", False), StreetCards("Player1", Street.THIRD, "??", False),
        StreetCards("Player1", Street.THIRD, "7s", True),
    ]
    # the hero's 'HOLE cards="4d,3d,Qh"' are the hero's dealt cards
    assert next(h for h in hand.hole_cards if h.player == "Hero").cards == "4d3dQh"
    assert not_ok([hand]) == {}


def test_merge_draw_events_are_discards_and_stands() -> None:
    hand = hand_from(merge.FORMAT, cash(*MERGE, "Draw", "3-Draw-Limit-USD-1-2-201104.Sample.with.showdown.txt"),
                     "33423082-14")
    # 'DRAW player="3" text="2"', 'DRAW player="1" text="1"', ... 'text="0"' (stands pat)
    draws = [(a.street.value, a.player, a.kind.value, a.amount) for a in hand.actions
             if a.kind in (Kind.DISCARD, Kind.STAND_PAT)]
    assert draws == [
        ("draw1", "Hero", "discard", 2), ("draw1", "Villain", "discard", 1),
        ("draw2", "Hero", "discard", 1), ("draw2", "Villain", "stand_pat", 0),
        ("draw3", "Hero", "stand_pat", 0), ("draw3", "Villain", "stand_pat", 0),
    ]
    # 'HOLE cards="Qh,Tc,4s,6h,7h"', then 'DRAW_DRAWN_CARDS cards="9d,9c,4s,6h,7h"': 9d 9c drawn
    assert [(c.street.value, c.cards) for c in hand.street_cards] == [
        ("predraw", "QhTc4s6h7h"), ("draw1", "9d9c"), ("draw2", "3c")]
    # RAISE 2.00 / CALL 1.00 ... 13.50 won of 14.00 put in: 0.50 implied rake
    assert put_in(hand) == {"Villain": 700, "Hero": 700} and awards(hand) == [("Villain", 1350, 0, 1)]


def test_full_tilt_stud_and_draw_hands_per_game_all_reconcile() -> None:
    tour("FTP")
    hands, games = _games(fulltilt.FORMAT)
    assert games == {
        ("draw27_triple", None): 70, ("draw27_single", None): 12, ("draw5", None): 3, ("drawa5_triple", None): 1,
        ("badugi", None): 12, ("stud", None): 27, ("stud_hilo", None): 11, ("razz", None): 12, ("stud5", None): 1,
    }
    assert not_ok(hands) == {}  # "Total pot $x | Rake $y" and every "wins the pot ($x)" agree
    # the bring-in and the first actor of every later street follow the boards FT dealt
    assert _acting_order_checked(hands) == ACTING_FT


def test_full_tilt_stud_cards_and_completion() -> None:
    path = cash(*FPDB, "FTP", "Stud", "7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt")
    hand = hand_from(fulltilt.FORMAT, path, "21536266313")
    # "$3/$6 Ante $0.50 - Limit Stud Hi": bets 3/6, seven "antes $0.50"
    assert (hand.variant, hand.small_bet, hand.big_bet, hand.bb, hand.sb, hand.ante) == ("stud", 300, 600, 300, 0, 50)
    # "Dealt to Hero [5h 3c] [Td]": down, then up; "goulartarm brings in for $1", "kwuiyhw completes it to $3"
    assert [c for c in hand.street_cards if c.player == "Hero"] == [
        StreetCards("Hero", Street.THIRD, "5h3c", False), StreetCards("Hero", Street.THIRD, "Td", True)]
    assert kinds(hand, Kind.BRING_IN) == [("goulartarm", 100, 100)] and hand.bring_in == 100
    assert [(a.player, a.raise_to, a.contribution) for a in hand.actions if a.kind is Kind.COMPLETE] == [
        ("kwuiyhw", 300, 300)]
    # "Uncalled bet of $2 returned to kwuiyhw", "kwuiyhw wins the pot ($5.50)": 7 x 0.50 + 1 + 1 (3 - 2)
    assert awards(hand) == [("kwuiyhw", 550, 0, 1)] and not_ok([hand]) == {}


def test_ipoker_seven_card_stud_all_reconcile() -> None:
    tour("iPoker")
    hands, games = _games(ipoker.FORMAT)
    # 117 games of a 2011 sit & go, 2 cash stud and 5 stud hi-lo games, one 5 Card Stud
    assert games == {("stud", None): 119, ("stud_hilo", None): 5, ("stud5", None): 1}
    # no rake or total is written: every tournament game's wins are exactly what was put in
    assert not_ok(hands) == {}
    assert _acting_order_checked(hands) == ACTING_IPOKER


def test_ipoker_stud_bring_in_completion_and_the_ante_counted_twice() -> None:
    path = tour("iPoker", "Stud", "7-StudHi-USD-STT-5-201103.txt")
    hands = [h for h in ipoker.FORMAT.parse(path) if isinstance(h, Hand)]
    hand = next(h for h in hands if any(a.player == "Player20" and a.raise_to == 120 and a.street is Street.THIRD
                                        for a in h.actions) and h.bring_in == 15)
    # ante 8 each; "type=16 sum=15" brings in, "type=5 sum=60" completes, "type=23 sum=120" raises to 120
    third = [(a.player, a.kind.value, a.raise_to, a.contribution) for a in hand.actions
             if a.street is Street.THIRD and a.kind in (Kind.BRING_IN, Kind.COMPLETE, Kind.RAISE)]
    assert third == [("Player13", "bring_in", None, 15), ("Player2", "complete", 60, 60),
                     ("Player20", "raise", 120, 120)]
    # the export's bet="376" for Player20 is 8 more than the 8 + 120 + 120 + 120 put in (the raise-to
    # counts the ante again); Player5's win="1,398" is exactly everyone's chips as read
    assert put_in(hand)["Player20"] == 368 and awards(hand) == [("Player5", 1398, 0, 1)]
    assert (hand.bb, hand.bring_in) == (60, 15)  # "7 Card Stud L" writes no bets: bb is the completion


def test_bovada_seven_card_stud_all_reconcile() -> None:
    tour("Bovada")
    hands, games = _games(bovada.FORMAT)
    # "7CARD Fixed Limit" / "7CARD HiLo Fixed Limit" cash and a 2012 "7CARD Tournament"
    assert games == {("stud", None): 44, ("stud_hilo", None): 2}
    assert not_ok(hands) == {}  # against "Total Pot($x) | Rake ($y)" and every "Hand result"
    # streets with no marker (before 2014) start at the deal after the betting: the acting order
    # by board holds on each of them, as with the marked 2014 hands
    assert _acting_order_checked(hands) == ACTING_BOVADA


def test_bovada_stud_without_street_markers() -> None:
    path = cash(*FPDB, "Bovada", "Stud", "7-Stud-USD-2.00-4.00-201205.txt")
    hand = hand_from(bovada.FORMAT, path, "2604291510")
    # "Seat+5 : Bring_in chip $0.02", two calls, "Card dealt to a spot [9c]" (4th street), checks,
    # "[4d]" (5th street), "Seat+3 [ME] : Bets $0.10", two folds, the return, "Hand result $0.09"
    assert [s.value for s in dict.fromkeys(a.street for a in hand.actions)] == ["third", "fourth", "fifth"]
    assert kinds(hand, Kind.BRING_IN) == [("Seat+5", 2, 2)] and hand.ante == 1
    assert [c for c in hand.street_cards if c.player == "Hero"] == [
        StreetCards("Hero", Street.THIRD, "JhQh", False), StreetCards("Hero", Street.THIRD, "Th", True),
        StreetCards("Hero", Street.FOURTH, "4c", True), StreetCards("Hero", Street.FIFTH, "Kh", True)]
    assert kinds(hand, Kind.UNCALLED_RETURN) == [("Hero", 10, -10)] and awards(hand) == [("Hero", 9, 0, 1)]


def test_everleaf_seven_card_stud_all_reconcile() -> None:
    hands, games = _games(everleaf.FORMAT)
    assert games == {("stud", None): 25}
    # no rake and no total written: the implied rake of every hand is plausible (0..10% + 1 unit)
    assert not_ok(hands) == {}
    # "Dealt to X [ Ah ]." only in the 2011-08 exports: their up-cards give the acting order by board
    assert _acting_order_checked(hands) == ACTING_EVERLEAF
    first = next(h for h in hands if h.site_hand_no == "295679510")
    # "EricBlade posts bring-in €0.02.", "MOURINHO_ completes to €0.05.", "EricBlade calls [€ 0.03 EURO]"
    assert [(a.player, a.kind.value, a.contribution) for a in first.actions if a.street is Street.THIRD
            and a.kind is not Kind.POST_ANTE] == [("EricBlade", "bring_in", 2), ("MOURINHO_", "complete", 5),
                                                 ("EricBlade", "call", 3)]
    # "Dealt to EricBlade [ 5d, Qs, 7s ].": the hero's two down cards and his up-card
    assert [c for c in first.street_cards if c.player == "EricBlade"][:2] == [
        StreetCards("EricBlade", Street.THIRD, "5dQs", False), StreetCards("EricBlade", Street.THIRD, "7s", True)]
    assert (first.hero, first.small_bet, first.big_bet, first.bb, first.sb) == ("EricBlade", 5, 10, 5, 0)


ONGAME = (*FPDB, "OnGame")


def test_ongame_stud_and_draw_hands_all_reconcile_and_act_in_the_games_order() -> None:
    hands, games = _games(ongame.FORMAT)
    # "(LIMIT FIVE_CARD_DRAW $0.05/$0.10, Real money)", "(LIMIT SEVEN_CARD_STUD $1/$2, ante: $0.10, ...)"
    assert games == {("draw5", None): 15, ("stud", None): 5, ("stud_hilo", None): 1}
    # pots, rake and every closing stack ("Seat 6: Player0 ($79), net: +$4.60") agree
    assert not_ok(hands) == {}
    assert _acting_order_checked(hands) == (6, 24)


def test_ongame_stud_bring_ins_and_a_raise_written_as_the_whole_hands_total() -> None:
    path = cash(*ONGAME, "Stud", "7-StudHL-USD-0.25-0.50-201008.All.streets.txt")
    hand = hand_from(ongame.FORMAT, path, "R5-78227816-62")
    assert (hand.variant, hand.sb, hand.bb, hand.small_bet, hand.big_bet) == ("stud_hilo", 0, 25, 25, 50)
    # "Hero small bring in $0.12"; "Dealing to boneos56: [-, -, Kd]" two down, one up
    assert (hand.ante, hand.bring_in) == (5, 12) and kinds(hand, Kind.BRING_IN) == [("Hero", 12, 12)]
    assert StreetCards("boneos56", Street.THIRD, "????", False) in hand.street_cards
    assert StreetCards("boneos56", Street.THIRD, "Kd", True) in hand.street_cards
    # "mylonas77 bets $0.50", "Hero raises $1 to $1.37": $1.37 is Hero's whole hand (0.12 + 0.25 + 1),
    # the raise adds $1 ("Main pot: $5.14")
    fifth = [(a.player, a.kind, a.contribution) for a in hand.actions if a.street is Street.FIFTH]
    assert fifth == [("mylonas77", Kind.BET, 50), ("Hero", Kind.RAISE, 100), ("mylonas77", Kind.CALL, 50)]
    assert [h.cards for h in hand.hole_cards if h.player == "Hero"] == ["8d8s4d3h8c4c5h"]
    # "Hero big bring in $1" at $1/$2: the bring-in player completes it himself
    big = hand_from(ongame.FORMAT, cash(*ONGAME, "Stud", "7-Stud-USD-1.00-2.00-201212.big.bring.txt"),
                    "R5-292493407-77")
    assert [(a.player, a.kind, a.raise_to) for a in big.actions if a.street is Street.THIRD][2:4] == [
        ("Hero", Kind.COMPLETE, 100), ("Player0", Kind.RAISE, 200)]


def test_ongame_five_card_draw_with_and_without_its_changed_lines() -> None:
    path = cash(*ONGAME, "Draw", "5-Carddraw-USD-0.05-0.10-201009.Sample.txt")
    hand = hand_from(ongame.FORMAT, path, "R5-81962116-232")
    assert (hand.variant, hand.betting, hand.sb, hand.bb, hand.small_bet, hand.big_bet) == ("draw5", "FL", 2, 5, 5, 10)
    # "Hero changed 2 cards", "New hand for Hero: [8h, 9h, 6s, Ah, Jh]" (was Tc, 9h, 7c, Ah, Jh)
    assert [(a.player, a.amount, a.cards) for a in hand.actions if a.kind is Kind.DISCARD] == [
        ("Hero", 2, "Tc7c"), ("x Diabolo666", 3, None)]
    assert StreetCards("Hero", Street.DRAW1, "8h6s", False) in hand.street_cards
    # no "---" between the betting and the draw: "velabianca checks", "velabianca changed 3 cards"
    joined = hand_from(ongame.FORMAT, path, "R5-81962116-234")
    assert [a.street for a in joined.actions if a.player == "velabianca"] == [
        Street.PREDRAW, Street.PREDRAW, Street.DRAW1, Street.DRAW1, Street.DRAW1]
    # "New hand for Hero: [As, 7c, Jh, Ac, Jd]" with no "Hero changed" line: one card thrown (5h)
    silent = hand_from(ongame.FORMAT, cash(*ONGAME, "Draw", "5-Carddraw-USD-1-2-201109.Goalwin.Sample.txt"),
                       "R5-174428515-250")
    assert [(a.player, a.amount, a.cards) for a in silent.actions if a.kind is Kind.DISCARD] == [
        ("Player4", 1, None), ("Hero", 1, "5h")]


def test_bossmedia_five_card_draw_discards_and_the_cards_drawn() -> None:
    hands, games = _games(bossmedia.FORMAT)
    assert games == {("draw5", None): 15} and not_ok(hands) == {}
    hand = hand_from(bossmedia.FORMAT, cash(*FPDB, "Boss", "Draw", "5CD-PL-EUR-0.50-1.00-201307.txt"), "3042344309")
    assert (hand.variant, hand.betting, hand.sb, hand.bb) == ("draw5", "PL", 50, 100)
    # the HAND_BOARD with no card ends the betting before the draw (POT="4.00"); then
    # '<ACTION TYPE="CHANGECARD" PLAYER="Hero" COUNT="3">' holding 26 45 25 12 50 (was 26 32 9 42 50)
    assert sum(a.contribution for a in hand.actions if a.street is Street.PREDRAW) == 400
    assert [(a.player, a.kind, a.amount, a.cards) for a in hand.actions if a.street is Street.DRAW1][:2] == [
        ("Player0", Kind.DISCARD, 2, None), ("Hero", Kind.DISCARD, 3, "7hTd4s")]
    assert StreetCards("Hero", Street.DRAW1, "7sKcKd", False) in hand.street_cards
    assert [h.cards for h in hand.hole_cards if h.player == "Hero"] == ["Ah7sKcKdQs"]
    # SHOWDOWN POT="7.60" RAKE="0.40": Hero wins 7.60
    assert (hand.site_total_pot, hand.site_rake) == (800, 40) and awards(hand) == [("Hero", 760, 0, 1)]


WINNING = (*FPDB, "Winning")


def test_winning_stud_in_both_dialects_reconciles_and_acts_in_the_games_order() -> None:
    hands, games = _games(winning.FORMAT)
    # "(Seven Cards Stud)" / "(Seven Cards Stud HiLow)" (2016, UTF-16) and "7Stud(Fixed Limit)" (2019)
    assert games == {("stud", None): 5, ("stud_hilo", None): 1}
    assert not_ok(hands) == {} and _acting_order_checked(hands) == (6, 17)


def test_winning_old_dialect_stud_names_its_rounds_one_street_early() -> None:
    path = cash(*WINNING, "7-Stud-8max-USD-1.00-2.00-201608.HH00000000 G0.txt")
    hand = hand_from(winning.FORMAT, path, "693978063")
    assert (hand.variant, hand.sb, hand.bb, hand.small_bet, hand.big_bet) == ("stud", 0, 100, 100, 200)
    # "Player Nee bring in (0.40)" on the first three cards, no header; "*** Fourth street ***" is fifth
    # street: "ChazDazzle bets (2)" (the big bet), "Nee raises (4)" (chips added), "calls (2)"
    assert (hand.ante, hand.bring_in) == (15, 40)
    fifth = [(a.player, a.kind, a.contribution) for a in hand.actions if a.street is Street.FIFTH]
    assert fifth == [("ChazDazzle", Kind.BET, 200), ("Nee", Kind.RAISE, 400), ("ChazDazzle", Kind.CALL, 200)]
    # "Player Nee received a card." twice, then "received card: [3c]" (up); the river down
    assert [c for c in hand.street_cards if c.player == "Nee"][:2] == [
        StreetCards("Nee", Street.THIRD, "????", False), StreetCards("Nee", Street.THIRD, "3c", True)]
    assert StreetCards("Nee", Street.SEVENTH, "??", False) in hand.street_cards
    assert hand.hero == "ChazDazzle" and [h.cards for h in hand.hole_cards] == ["QcTs7d9c6cQd7h"]
    # "Pot: 8.95. Rake 0.11. JP fee 0.04" after rake and fee; "Collects: 8.95"
    assert (hand.site_total_pot, hand.site_rake, hand.site_fees) == (910, 11, 4)
    new = hand_from(winning.FORMAT, cash(*WINNING, "7Stud-8max-USD-0.04-0.08-201907.CASHID-TN-Gorham GAMETYPE.txt"),
                    "85198832")
    # "Player1 brings in $0.02", "Hero raises $0.04 to $0.04": the completion
    assert [(a.player, a.kind, a.contribution) for a in new.actions if a.kind in (Kind.BRING_IN, Kind.COMPLETE)] == [
        ("Player1", Kind.BRING_IN, 2), ("Hero", Kind.COMPLETE, 4)]
    # "Dealt to Hero [As 2s Qs 3c 8c 5d] [Jc]" on 7th street: down
    assert StreetCards("Hero", Street.SEVENTH, "Jc", False) in new.street_cards


WINAMAX = (*FPDB, "Winamax")


def test_winamax_stud_razz_and_triple_draw_reconcile_and_act_in_the_games_order() -> None:
    hands, games = _games(winamax.FORMAT)
    # the 8-Game table 'Pampelune' and two play-money exports ("7stud", "Lowball27")
    assert games == {("stud", None): 3, ("stud_hilo", None): 1, ("razz", None): 1, ("draw27_triple", None): 2}
    assert not_ok(hands) == {} and _acting_order_checked(hands) == (3, 11)


def test_winamax_stud_stakes_completion_and_the_negative_raise() -> None:
    path = cash(*WINAMAX, "Stud", "7-Stud-6max-EUR-25-50-201611._8games_.negative.bet.txt")
    hand = hand_from(winamax.FORMAT, path, "9250793-1578-1479092164")
    # "7-Card Stud fixed limit (5€/25€/50€)": ante, small bet, big bet
    assert (hand.ante, hand.sb, hand.bb, hand.small_bet, hand.big_bet) == (500, 0, 2500, 2500, 5000)
    # "Player0 brings in 10€", "Player1 raises 25€ to 25€" (the completion), then Player0 (33.90€) all in
    # written "raises -6.10€ to 18.90€": 18.90 added to his 10, and "Player1 calls 3.90€" matches 28.90
    third = [(a.player, a.kind, a.contribution, a.all_in) for a in hand.actions
             if a.street is Street.THIRD and a.kind is not Kind.POST_ANTE]
    assert third == [("Player0", Kind.BRING_IN, 1000, False), ("Player1", Kind.COMPLETE, 2500, False),
                     ("Hero", Kind.FOLD, 0, False), ("Player0", Kind.RAISE, 1890, True),
                     ("Player1", Kind.CALL, 390, False)]
    # "Total pot 70.30€ | Rake 2.50€"; "Dealt to Player0 [X X 8h 5c Js Ad] [X]": the river down
    assert (hand.site_total_pot, hand.site_rake) == (7280, 250)
    assert StreetCards("Player0", Street.SEVENTH, "??", False) in hand.street_cards


def test_winamax_triple_draw_rounds_and_stands() -> None:
    path = cash(*WINAMAX, "Draw", "Triple Draw 2-7-FL-6max-EUR-25-50-201611._8games_.txt")
    hand = hand_from(winamax.FORMAT, path, "9250793-388-1478989461")
    assert (hand.variant, hand.sb, hand.bb, hand.small_bet, hand.big_bet) == ("draw27_triple", 1250, 2500, 2500, 5000)
    # "*** FIRST-DRAW ***" then "*** SECOND-BET ***": the betting after the first draw
    assert [(a.street, a.kind, a.cards) for a in hand.actions if a.player == "Hero" and a.street is Street.DRAW1] == [
        (Street.DRAW1, Kind.STAND_PAT, "2hTd8c7c8s"), (Street.DRAW1, Kind.CHECK, None), (Street.DRAW1, Kind.CALL, None)]
    assert {a.street for a in hand.actions} == {Street.PREDRAW, Street.DRAW1, Street.DRAW2, Street.DRAW3}
    exported = cash(*WINAMAX, "Draw", "Triple Draw 2-7-FL-6max-play-0.50-1.00-201610.export.txt")
    export = hand_from(winamax.FORMAT, exported, "9160772-2-1476189756")
    # "Player4 discard 4 cards", "Player2 discard 0 card" (stands pat)
    assert ("Player4", Kind.DISCARD, 4) in [(a.player, a.kind, a.amount) for a in export.actions]
    assert ("Player2", Kind.STAND_PAT, 0) in [(a.player, a.kind, a.amount) for a in export.actions]


def test_partypoker_stud_bring_in_completion_and_double_bet() -> None:
    hands, games = _games(partypoker.FORMAT)
    # "$0.50/$1 USD 7 Card Stud", "$10/$20 USD FL 7 Card Stud Hi-Lo", "FL 7 Card Stud $6 USD Buy-in"
    assert games == {("stud", None): 2, ("stud_hilo", None): 2} and not_ok(hands) == {}
    hand = hand_from(partypoker.FORMAT, cash(*FPDB, "PartyPoker", "Stud", "7-Stud-USD-1-2-201104.txt"), "10399817763")
    assert (hand.sb, hand.bb, hand.small_bet, hand.big_bet, hand.ante, hand.bring_in) == (0, 50, 50, 100, 5, 25)
    # "Hero bring-ins [$0.25 USD]", "Player4 completes [$0.50 USD]", "Hero calls [$0.25 USD]"
    third = [(a.player, a.kind, a.contribution) for a in hand.actions
             if a.street is Street.THIRD and a.kind in (Kind.BRING_IN, Kind.COMPLETE, Kind.CALL)]
    assert third == [("Hero", Kind.BRING_IN, 25), ("Player4", Kind.COMPLETE, 50), ("Player8", Kind.CALL, 50),
                     ("Hero", Kind.CALL, 25)]
    # "Dealt to Hero [  3h 8c 7c ]" then "[  2c ]": the only cards the text deals; no button in stud
    assert [(c.street, c.cards, c.face_up) for c in hand.street_cards] == [
        (Street.THIRD, "3h8c", False), (Street.THIRD, "7c", True), (Street.FOURTH, "2c", True)]
    assert hand.button_seat is None and awards(hand) == [("Player8", 1320, 0, 1)]
    # the MTT: "Stakes-Antes(60/120-10)", "Player4 double bets [120]" on fourth street (a pair showing)
    (mtt,) = parse_one(partypoker.FORMAT, tour("PartyPoker", "Stud", "7-Stud-USD-MTT-6.00-201205.txt"))
    assert (mtt.game_type, mtt.small_bet, mtt.big_bet, mtt.ante, mtt.bring_in) == ("tournament", 60, 120, 10, 20)
    assert next((a.player, a.kind, a.contribution) for a in mtt.actions if a.street is Street.FOURTH) == (
        "Player4", Kind.BET, 120)


def test_full_tilt_five_card_stud_keeps_its_four_betting_rounds_apart() -> None:
    path = tour("FTP", "Stud", "5-Stud-USD-MTT-100-201303.txt")
    (hand,) = [h for h in fulltilt.FORMAT.parse(path) if isinstance(h, Hand)]
    # "*** 2ND STREET ***" .. "*** 5TH STREET ***" are third..sixth street (the bring-in round is third
    # street in every stud game); they were read as one round before: 2nd and 3rd street's bets together
    assert hand.variant == "stud5" and [s.value for s in dict.fromkeys(a.street for a in hand.actions)][:4] == [
        "third", "fourth", "fifth", "sixth"]
    # "Dealt to Player0 [Kc] [Tc]" on 3RD STREET: Tc up, on the second betting round
    assert StreetCards("Player0", Street.FOURTH, "Tc", True) in hand.street_cards and not_ok([hand]) == {}


def test_kingsclub_stud_and_two_seven_razz_acting_order() -> None:
    # KingsClub's stud, stud hi/lo, razz and 2-7 razz (deuce-to-seven low: aces high, so "[X X Tc]" against
    # 9c, 8h and 4s brings in; from the fourth card the lowest board acts first). Counted as stud or as
    # ace-to-five razz, the 2-7 razz hand's streets would contradict the game.
    folder = real_data(*FPDB, "KingsClub", "Stud")
    hands = [h for path in sorted(folder.iterdir()) for h in parse_all(kingsclub.FORMAT, [path])[0]]
    assert sorted(h.variant for h in hands) == ["razz", "razz", "razz27", "razz27", "stud", "stud_hilo"]
    assert _acting_order_checked(hands) == (4, 13)
    assert _acting_order_checked([h for h in hands if h.variant == "razz27"]) == (1, 4)
