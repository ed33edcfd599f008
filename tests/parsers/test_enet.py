"""Enet text (fpdb's cash/Enet: 6 one-hand files, four of them named for the site's own faults).

Amounts are cents, read off the files (arithmetic in the comments). The two sound hands reconcile
with the summary's collects and rake; the others are quarantined with the fault named.
"""

from __future__ import annotations

from parsers.formats.enet import FORMAT
from tests.conftest import real_data

from ._site_helpers import awards, claims, foreign_claims, hand_from, not_ok, parse_all, put_in

FLOP = ("fpdb3_regression", "regression-test-files", "cash", "Enet", "Flop")


def test_sound_hands_reconcile_and_the_sites_faults_are_named() -> None:
    hands, quarantined = parse_all(FORMAT, claims(FORMAT))
    assert sorted(h.hand_id for h in hands) == ["enet:12056513", "enet:7732310"]
    assert not_ok(hands) == {}
    by_file = {q.source_file.rsplit("/", 1)[1]: q.reason for q in quarantined}
    assert by_file == {
        # Player0's 5 all-in makes a 9.15 side pot nobody is paid: 8.40 main pot - 0.52 rake = 7.88
        "PLO-9max-EUR-0.10-0.25-201207.bad.collected.txt":
            "site anomaly: the summary pays 1254 (collects + rake 27) of the 2221 put in (an unawarded side pot;"
            " in cents)",
        # the 80.28 side pot is never awarded
        "PLO-6max-USD-0.25-0.50-201207.side.pot.failure.txt":
            "site anomaly: the summary pays 5803 (collects + rake 139) of the 14053 put in (an unawarded side pot;"
            " in cents)",
        # Player6 "checks" the big blind without putting it in; 1.04 collected from 0.75
        "PLO-9max-USD-0.10-0.25-201208.accounting.issue.txt":
            "site anomaly: the summary pays 110 (collects + rake 6) of the 75 put in (a collect larger than the pot;"
            " in cents)",
        "NLHE-6max-EUR-0.05-0.10-201210.post.dead.txt":
            "line 11: Player4 posts big blind with no amount (the chips it moved are not written)",
    }


def test_amounts_are_chips_added_and_the_rake_is_the_summarys() -> None:
    hand = hand_from(FORMAT, real_data(*FLOP, "PLO-9max-USD-0.10-0.25-201208.txt"), "12056513")
    # Player4: 0.10 + "raises €0,65" + "calls €1,50" = 2.25, then 3.37 and 7.93; Player5 0.25 + 2 likewise
    assert put_in(hand) == {"Player4": 1355, "Player5": 1355}
    # "Rake: €0,27" / "€0,40" / "€0,95" per street; the summary's "Rake €1,62" is their sum
    assert (hand.site_rake, awards(hand)) == (162, [("Player4", 1274, 0, 1), ("Player5", 1274, 0, 1)])
    assert (hand.betting, hand.currency, hand.max_seats, hand.button_seat) == ("PL", "EUR", 9, 4)
    assert [b.cards for b in hand.boards] == ["4s2d3h5hQc"]


def test_sniffing_is_tight() -> None:
    assert foreign_claims(FORMAT) == {}
    assert all("Enet" in str(p) for p in claims(FORMAT))
