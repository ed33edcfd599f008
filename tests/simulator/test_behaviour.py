"""Each collusion family leaves a measurable trace in the written hands, confounders don't, and the
truth file agrees with the hands. Everything is measured from the parsed PokerStars text (what a
detector would see), not from the simulator's internals."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from statistics import median
from typing import Any

from parsers.model import DECISIONS, Action, Hand, Kind, Street
from simulator.cards import PREFLOP, RANKS, SUITS
from tests.simulator.conftest import Night

POSTFLOP = (Street.FLOP, Street.TURN, Street.RIVER)
AGGRESSIVE = (Kind.BET, Kind.RAISE)


def _teams(night: Night, family: str) -> list[dict[str, Any]]:
    return [t for t in night.truth["teams"] if t["family"] == family]


def _card(text: str) -> int:
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def _preflop_strength(cards: str) -> float:
    return PREFLOP[_card(cards[:2])][_card(cards[2:4])]


def _net(hand: Hand) -> dict[str, int]:
    net: Counter[str] = Counter()
    for a in hand.actions:
        net[a.player] -= a.contribution
    for w in hand.awards:
        net[w.player] += w.amount
    return net


def _streets_heads_up(hand: Hand) -> list[tuple[frozenset[str], list[Action]]]:
    """Postflop streets that started with exactly two live players: (players, decisions)."""
    live = {s.player for s in hand.seats}
    out = []
    for street in (Street.PREFLOP, *POSTFLOP):
        acts = [a for a in hand.actions if a.street is street and a.kind in DECISIONS]
        if street is not Street.PREFLOP and len(live) == 2 and acts:
            out.append((frozenset(live), acts))
        live -= {a.player for a in acts if a.kind is Kind.FOLD}
    return out


def _last_two(hand: Hand) -> frozenset[str]:
    """The two players who contested the end of the hand (the winner and the last to fold)."""
    live = [s.player for s in hand.seats]
    for a in hand.actions:
        if a.kind is Kind.FOLD and len(live) > 2:
            live.remove(a.player)
        elif a.kind is Kind.FOLD:
            return frozenset(live)
    return frozenset(live) if len(live) == 2 else frozenset()


def test_chip_dumping_moves_chips_one_way(night: Night) -> None:
    """In hands the dumper and the receiver contest heads-up, chips flow to the receiver; the
    same measure over every other pair of players is balanced."""
    roles = {p: (t["id"], r) for t in _teams(night, "chip_dumping") for p, r in t["roles"].items()}
    assert roles
    flow = [0, 0]  # chips [dumper -> receiver, receiver -> dumper]
    pots = [0, 0]  # pots [won by the receiver, won by the dumper]
    honest = [0, 0]  # chips [to the alphabetically first player, to the second], honest pairs
    colluders = {p for t in night.truth["teams"] for p in t["members"]}
    for hand in night.hands:
        pair = _last_two(hand)
        if len(pair) != 2:
            continue
        a, b = sorted(pair)
        voluntary = {x.player for x in hand.actions if x.kind in (Kind.CALL, Kind.BET, Kind.RAISE)}
        if not pair <= voluntary:
            continue  # a walk or a blind folded: nothing was contested
        net = _net(hand)
        if a in roles and b in roles and roles[a][0] == roles[b][0] and roles[a][1] != roles[b][1]:
            receiver = a if roles[a][1] == "receiver" else b
            flow[0 if net[receiver] > 0 else 1] += abs(net[receiver])
            pots[0 if net[receiver] > 0 else 1] += 1
        elif not pair & colluders:
            honest[0 if net[a] > 0 else 1] += abs(net[a])
    assert pots[0] > 3 * max(pots[1], 1), pots
    assert flow[0] > 2.5 * max(flow[1], 1), flow
    assert 0.5 < honest[0] / honest[1] < 2.0, honest


def test_soft_play_partners_never_bet_into_each_other_heads_up(night: Night) -> None:
    pairs = {frozenset(p) for t in _teams(night, "soft_play") for p in combinations(t["members"], 2)}
    colluding = {frozenset(p) for t in night.truth["teams"] for p in combinations(t["members"], 2)}
    team_streets = honest_streets = honest_aggressive = 0
    for hand in night.hands:
        for players, acts in _streets_heads_up(hand):
            aggressive = any(a.kind in AGGRESSIVE for a in acts)
            if players in pairs:
                team_streets += 1
                assert not aggressive, hand.hand_id
            elif players not in colluding:
                honest_streets += 1
                honest_aggressive += aggressive
    assert team_streets >= 5
    assert honest_aggressive / honest_streets > 0.25  # honest heads-up pots do see bets


def test_squeeze_third_player_folds_between_partners(night: Night) -> None:
    teams = _teams(night, "squeeze")
    seqs = folded = 0
    for team in teams:
        members = set(team["members"])
        for hand in night.hands:
            if len(members & {s.player for s in hand.seats}) < 2:
                continue
            for street in (Street.PREFLOP, *POSTFLOP):
                acts = [a for a in hand.actions if a.street is street and a.kind in DECISIONS]
                for k, a in enumerate(acts):
                    if a.player not in members or a.kind not in AGGRESSIVE:
                        continue
                    rest = acts[k + 1 :]
                    # partner raises after an outsider called the first partner's raise
                    callers = []
                    for j, b in enumerate(rest):
                        if b.player not in members and b.kind is Kind.CALL:
                            callers.append(b.player)
                        elif b.player in members - {a.player} and b.kind is Kind.RAISE and callers:
                            seqs += 1
                            later = rest[j + 1 :]
                            folded += any(c.player in callers and c.kind is Kind.FOLD for c in later)
                            break
                        elif b.player in members and b.kind in AGGRESSIVE:
                            break
                    break
    assert seqs >= 5, seqs
    assert folded / seqs >= 0.5, (folded, seqs)


def test_card_sharing_folds_strong_hands_when_partner_stronger(night: Night) -> None:
    members = {p: set(t["members"]) - {p} for t in _teams(night, "card_sharing") for p in t["members"]}
    colluders = {p for t in night.truth["teams"] for p in t["members"]}
    shared = [0, 0]  # [strong hands facing a stronger live partner, of which folded]
    honest = [0, 0]  # [strong hands facing a bet preflop, of which folded], honest players
    for hand in night.hands:
        holes = {h.player: h.cards for h in hand.hole_cards}
        folded: set[str] = set()
        for a in hand.actions:
            if a.street is not Street.PREFLOP or a.kind not in DECISIONS:
                continue
            s = _preflop_strength(holes[a.player])
            if s >= 0.75:
                partners = members.get(a.player, set()) & set(holes) - folded
                if partners and max(_preflop_strength(holes[p]) for p in partners) > s:
                    shared[0] += 1
                    shared[1] += a.kind is Kind.FOLD
                elif a.player not in colluders and a.kind is not Kind.CHECK:
                    honest[0] += 1
                    honest[1] += a.kind is Kind.FOLD
            if a.kind is Kind.FOLD:
                folded.add(a.player)
    assert shared[0] >= 10, shared
    assert shared[1] / shared[0] > 0.8
    assert shared[1] / shared[0] > 2 * honest[1] / honest[0], (shared, honest)


def test_friends_attack_each_other_like_anyone_else(night: Night) -> None:
    """A friend bets and raises after the flop as often with the other friend in the pot as
    without, compared like for like (same number of players still in)."""
    friend_of = {}
    for c in night.truth["confounders"]:
        if c["kind"] == "friends":
            a, b = c["players"]
            friend_of[a], friend_of[b] = b, a
    with_friend: Counter[int] = Counter()
    with_aggr = 0
    without: Counter[int] = Counter()
    without_aggr: Counter[int] = Counter()
    for hand in night.hands:
        live = {s.player for s in hand.seats}
        for a in hand.actions:
            if a.street in POSTFLOP and a.kind in DECISIONS and a.player in friend_of:
                size = min(len(live), 4)
                if friend_of[a.player] in live:
                    with_friend[size] += 1
                    with_aggr += a.kind in AGGRESSIVE
                else:
                    without[size] += 1
                    without_aggr[size] += a.kind in AGGRESSIVE
            if a.kind is Kind.FOLD:
                live.discard(a.player)
    assert sum(with_friend.values()) >= 40, with_friend
    expected = sum(n * without_aggr[k] / without[k] for k, n in with_friend.items() if without[k])
    assert 0.5 < with_aggr / expected < 2.0, (with_aggr, expected)


def test_colluders_and_friends_sit_together_more_than_chance(night: Night) -> None:
    together: Counter[frozenset[str]] = Counter()
    for hand in night.hands:
        for pair in combinations(sorted(s.player for s in hand.seats), 2):
            together[frozenset(pair)] += 1
    baseline = median(together.values())
    pair_counts = []
    for team in night.truth["teams"]:
        counts = [together[frozenset(pair)] for pair in combinations(team["members"], 2)]
        assert max(counts) > 3 * baseline, (team["id"], counts, baseline)
        pair_counts += counts
    assert median(pair_counts) > 3 * baseline
    for c in night.truth["confounders"]:
        if c["kind"] == "friends":
            assert together[frozenset(c["players"])] > 3 * baseline, c


def test_truth_evidence_hands_exist_and_involve_the_team(night: Night) -> None:
    by_id = {h.hand_id: h for h in night.hands}
    families_with_evidence = set()
    for team in night.truth["teams"]:
        for ev in team["evidence"]:
            hand = by_id[ev["hand_id"]]
            seated = {s.player for s in hand.seats}
            assert set(ev["players"]) <= seated & set(team["members"]), ev
            actor = ev["players"][0]
            kinds = {a.kind for a in hand.actions if a.player == actor}
            if "fold" in ev["act"]:
                assert Kind.FOLD in kinds, ev
            if "reraise" in ev["act"]:
                assert Kind.RAISE in kinds, ev
            if ev["act"] == "dump_call_allin":
                assert Kind.CALL in kinds, ev
            families_with_evidence.add(team["family"])
    assert families_with_evidence == {"chip_dumping", "soft_play", "squeeze", "card_sharing"}
    styles = {p["style"] for p in night.truth["players"].values()}
    assert {"nit", "whale", "shark"} <= styles and len(styles) >= 6
    kinds = {c["kind"] for c in night.truth["confounders"]}
    assert kinds == {"friends", "loose_loser", "nit", "strong_regular"}
    assert not {p for c in night.truth["confounders"] for p in c["players"]} & {
        p for t in night.truth["teams"] for p in t["members"]
    }


def test_styles_show_in_results_and_vpip(night: Night) -> None:
    """Loose big losers lose, the strong regular does not lose like them, nits play few hands."""
    style = {p: v["style"] for p, v in night.truth["players"].items()}
    net: Counter[str] = Counter()
    dealt: Counter[str] = Counter()
    voluntary: Counter[str] = Counter()
    for hand in night.hands:
        for p, v in _net(hand).items():
            net[style[p]] += v
        for s in hand.seats:
            dealt[style[s.player]] += 1
        for p in {a.player for a in hand.actions if a.street is Street.PREFLOP and a.kind in (Kind.CALL, Kind.RAISE)}:
            voluntary[style[p]] += 1
    vpip = {k: voluntary[k] / dealt[k] for k in dealt}
    assert vpip["whale"] > 2 * vpip["nit"], vpip
    assert net["whale"] + net["station"] + net["fish"] < 0, net
