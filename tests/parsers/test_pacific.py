"""888poker / Pacific / Cassava parser on real hand histories (fpdb, HHSmithy, hhp, pokerregion)."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from datetime import datetime
from pathlib import Path

import pytest

from parsers.formats.pacific import FORMAT, card
from parsers.model import Hand, Kind, Provenance, Quarantined
from parsers.registry import sniff_format
from tests.conftest import real_data
from tests.parsers._site_helpers import FPDB, SMITHY, balance, cut_copy, files_of, hand_from, parse_all

FLOP = (*FPDB, "PacificPoker", "Flop")


def _pp(name: str) -> Path:
    return real_data(*FLOP, name)


@pytest.fixture(scope="module")
def corpus() -> tuple[list[Hand], list[Quarantined]]:
    paths = files_of(FORMAT, FPDB, SMITHY, ("hhp",), ("pokerregion_poker",))
    assert len(paths) >= 70
    return parse_all(FORMAT, paths)


def test_every_888_hand_parses_or_has_a_named_reason(corpus):
    hands, bad = corpus
    assert len(hands) >= 320
    reasons = sorted(re.sub(r"^line \d+: ", "", q.reason)[:40] for q in bad)
    # two hands whose seats all have blank names (actions cannot be attributed) and one hand the
    # HHSmithy suite keeps as invalid: cut off after a two-card flop, no summary
    assert reasons == [
        "duplicate or blank player name '': actio",
        "duplicate or blank player name '': actio",
        "truncated hand: no summary / no winner",
    ]


def test_every_parsed_888_hand_balances(corpus):
    """888 writes no rake: tournaments must balance exactly, cash hands with an implied rake
    of at most 10% (+1 unit). The one exception is a named site anomaly (below)."""
    hands, _ = corpus
    anomalies = []
    for h in hands:
        b = balance(h)
        assert b.overdrawn == [], h.hand_id
        rake = -b.diff_awards
        limit = 0 if h.game_type == "tournament" else b.contributed // 10 + 1
        if not 0 <= rake <= limit:
            anomalies.append((h.hand_id, b.contributed, b.awarded))
    assert anomalies == [("888:172275663", 52, 24)]


def test_split_pot_with_missing_collect_line_is_a_mismatch():
    """Board 4s Ac 7h 4h 4c: K7 and 75 both play fours full of sevens and split, but 888 wrote
    only campdog14's half ($0.24 of $0.52). Kept as written: a 28-cent difference."""
    h = hand_from(FORMAT, _pp("888-NLHE-USD-0.01-0.02.rake.greater.than.25.pct.txt"), "172275663")
    assert [(a.player, a.amount) for a in h.awards] == [("campdog14", 24)]
    assert balance(h).diff_awards == -28
    assert h.boards[0].cards == "4sAc7h4h4c"


def test_uncalled_raise_paid_through_collected_gets_no_return():
    """Cassava 2012: the $284.48 shove is unmatched, and 'collected [299,48$]' = 5 + 10 + 284.48
    shows the site paid the excess back inside the collected amount."""
    h = hand_from(FORMAT, _pp("888-NLHE-USD-5-10-201205.uncalled.non.blind.txt"), "171407432")
    assert (h.currency, h.unit_scale, h.sb, h.bb) == ("USD", 100, 500, 1000)
    assert not any(a.kind is Kind.UNCALLED_RETURN for a in h.actions)
    shove = next(a for a in h.actions if a.kind is Kind.RAISE)
    assert (shove.player, shove.amount, shove.raise_to, shove.all_in) == ("Player2", 28448, 28448, True)
    assert [(a.player, a.amount) for a in h.awards] == [("Player2", 29948)]
    assert balance(h).diff_awards == 0


def test_uncalled_bet_left_out_of_collected_is_returned():
    """888 2016: Hero raises $2.50 on his $0.50 blind (to $3), called; Player0 bets $3 on the flop,
    Hero folds; collected $5.70 < $6 pot, so the $3 came back separately: a return is derived."""
    h = hand_from(FORMAT, _pp("NLHE-10max-USD-0.50-1.00-201607.jackpot.table.txt"), "548154959")
    raise_ = next(a for a in h.actions if a.kind is Kind.RAISE)
    assert (raise_.amount, raise_.raise_to, raise_.contribution) == (250, 300, 250)
    ret = [a for a in h.actions if a.kind is Kind.UNCALLED_RETURN]
    assert [(a.player, a.amount, a.contribution) for a in ret] == [("Player0", 300, -300)]
    b = balance(h)
    assert (b.contributed, b.awarded) == (600, 570)
    assert [a.seq for a in h.actions] == list(range(len(h.actions)))


def test_dead_blind_is_live_big_blind_plus_dead_small_blind():
    path = real_data(*SMITHY, "Pacific", "CashGame", "HandActionTests", "PostingDead.txt")
    h = hand_from(FORMAT, path, "359567819")
    posts = [(a.kind, a.amount) for a in h.actions if a.player == "GYAMEPRO" and a.contribution]
    assert posts == [(Kind.POST_BB, 200), (Kind.POST_DEAD, 100)]
    assert (balance(h).contributed, balance(h).awarded) == (600, 570)


@pytest.mark.parametrize(
    ("token", "expected"),
    [("Knh", "Jh"), ("Dd", "Qd"), ("Ec", "Ac"), ("Bh", "Jh"), ("Vs", "Qs"), ("Hh", "Kh"),
     ("8Pik", "8s"), ("\u00c2h", "Jh"), ("10c", "Tc"), ("Ts", "Ts")],
)
def test_localised_card_ranks(token, expected):
    assert card(token) == expected


def test_swedish_and_russian_clients_read_as_standard_cards():
    h = hand_from(FORMAT, _pp("PLO-6max-USD-25-50-201604.Swedish.txt"), "873818904")
    assert h.boards[0].cards == "3s9dTsQd3c"
    cards = {c.player: (c.cards, c.provenance) for c in h.hole_cards}
    assert cards == {"Hero": ("TcJh9h9c", Provenance.DEALT), "Player0": ("AcJd4cKh", Provenance.SHOWN)}
    assert h.seats[0].stack == 500000  # "5 000 $"
    ru = hand_from(FORMAT, _pp("888-NLHE-USD-0.02-0.04-201107.russian.cards.txt"), "103581731")
    # cp1251 bytes read as cp1252: 'В' (valet) is the jack, 'Д' (dama) the queen, 'Т' (tuz) the ace
    assert ru.boards[0].cards == "9sJh2s5hQc"
    shown = {c.player: c.cards for c in ru.hole_cards}
    assert shown == {"Hero": "7h8s", "Player0": "2dAd", "Player1": "8cAc"}


def test_dutch_thousands_separator():
    h = hand_from(FORMAT, _pp("888-PLO-USD-10.00-20.00-201405.dutch.txt"), "305277727")
    assert h.seats[0].stack == 324300  # "$ 3.243"


def test_start_time_and_profits_match_fpdb_oracle():
    """fpdb's .hands/.hp files beside the data: start time (ET read as UTC+4 in March 2011) and
    each player's profit = awards − contributions, in cents of play money."""
    path = _pp("888-FLH-PM-0.50-1.00-HeroLoses18.txt")
    h = hand_from(FORMAT, path, "441790927")
    assert h.started_at == datetime(2011, 3, 21, 23, 41, 31)
    assert (h.currency, h.betting, h.variant) == ("PLAY", "FL", "holdem")
    text = re.sub(r"datetime\.datetime\([^)]*\)", "None", Path(f"{path}.hp").read_text())
    oracle = {p: v["totalProfit"] for p, v in ast.literal_eval(text).items()}
    net: dict[str, int] = defaultdict(int)
    for a in h.actions:
        net[a.player] -= a.contribution
    for w in h.awards:
        net[w.player] += w.amount
    assert {s.player: net[s.player] for s in h.seats} == oracle


def test_tournament_hand_is_chips_and_balances_exactly():
    root = real_data("pokerregion_poker", "tests", "handhistory", "data", "888poker")
    path = next(p for p in root.glob("*78669312) No Limit Holdem.txt"))
    h = hand_from(FORMAT, path, "775395630")
    assert (h.game_type, h.currency, h.unit_scale, h.tournament_id) == ("tournament", "CHIPS", 1, "78669312")
    assert (h.sb, h.bb, h.max_seats) == (10, 20, 9)
    assert [(a.player, a.amount) for a in h.awards] == [("joeballoons", 2940), ("ketaminol44n", 60)]
    b = balance(h)
    assert (b.contributed, b.diff_awards) == (3000, 0)
    last_call = [a for a in h.actions if a.player == "joeballoons" and a.kind is Kind.CALL][-1]
    assert (last_call.kind, last_call.amount, last_call.all_in) == (Kind.CALL, 730, True)


def test_truncated_hand_is_quarantined_and_the_rest_loads(tmp_path):
    raw = _pp("888-NLH-USD-0.01-0.02.txt").read_bytes()
    starts = [m.start() for m in re.finditer(rb"#Game No", raw)]
    assert len(starts) >= 4
    path = cut_copy(raw, starts, 1, 2, tmp_path / "cut.txt")
    recs = list(FORMAT.parse(path))
    bad = [r for r in recs if isinstance(r, Quarantined)]
    assert len(bad) == 1 and bad[0].byte_offset == starts[1]
    assert len(recs) == len(starts)


def test_sniffing_is_tight():
    assert sniff_format(_pp("888-NLH-USD-0.01-0.02.txt")) is FORMAT
    party = real_data(*FPDB, "PartyPoker", "Flop", "NLHE-USD-0.01-0.02-201008.Sample.txt")
    assert not FORMAT.sniff(party.read_text(errors="replace")[:8192])


def test_lucky_ace_poker_is_read_as_the_888_network():
    """'***** LuckyAcePoker.com Hand History for Game 5512058461 *****' (a skin on 888's software; the
    file was unrecognised): Player4 "raises [$14]", both blinds fold, "collected [ $10 ]" = 2 + 4 + the
    4 that matched the big blind, the other 10 back to the raiser."""
    path = real_data(*SMITHY, "Pacific", "CashGame", "GeneralHands", "HeroName.txt")
    assert sniff_format(path) is FORMAT
    h = hand_from(FORMAT, path, "5512058461")
    assert (h.hero, h.sb, h.bb) == ("PAC_Hero", 200, 400)
    assert [(a.player, a.amount) for a in h.awards] == [("Player4", 1000)]
    assert balance(h).diff_awards == 0
