"""A pair's flags name only mechanisms that had a chance between the two players.

The row is what the queue hands ``_pair_flag_rows``: a ranked pair with its family shares and the
spot counts of each mechanism (heads-up pots, pots both played, squeezes each way, card-known
decisions each way)."""

from __future__ import annotations

import json
from typing import Any

from detectors.families import FAMILIES
from detectors.run import Params, _pair_flag_rows

SPOT_COLUMNS = ("hu_confrontations", "confrontations", "squeezes_ab", "squeezes_ba",
                "cs_b_stronger_n", "cs_b_stronger_n_ba")


def _row(shares: dict[str, float], spots: dict[str, int], lead: str) -> dict[str, Any]:
    r: dict[str, Any] = {"player_a": "site:ann", "player_b": "site:bob", "score": 0.8, "family": lead,
                         "p_pair": 0.5, "rank": 1, "hands_together": 300}
    for f in FAMILIES:
        r |= {f"f_{f}": shares[f], f"t_{f}": 1.0, f"r_{f}": 1.0, f"p_{f}": 0.1}
    for c in SPOT_COLUMNS:
        r |= {c: spots.get(c, 0), f"pct_{c}": 0.5}
    return r


def _flags(r: dict[str, Any]) -> dict[str, dict[str, Any]]:
    medians = dict.fromkeys(SPOT_COLUMNS, 0.0)
    return {f["family"]: f for f in _pair_flag_rows(r, Params(), medians, 400, learned=True)}


def test_a_second_family_without_a_spot_gets_no_flag() -> None:
    shares = {"soft_play": 0.5, "chip_dumping": 0.3, "squeeze": 0.2, "card_sharing": 0.0}
    flags = _flags(_row(shares, {"hu_confrontations": 4, "confrontations": 9}, "soft_play"))
    assert set(flags) == {"soft_play", "chip_dumping"}  # squeeze holds 20% but no squeeze ever happened
    spots = json.loads(flags["soft_play"]["observed"])["mechanism_spots"]
    assert spots == {"soft_play": 4, "chip_dumping": 9, "squeeze": 0, "card_sharing": 0}
    assert "no heads-up pot between" not in flags["soft_play"]["explanation"]


def test_card_sharing_spots_count_both_players_decisions() -> None:
    shares = {"soft_play": 0.6, "chip_dumping": 0.0, "squeeze": 0.0, "card_sharing": 0.4}
    only_b_side = {"hu_confrontations": 2, "confrontations": 3, "cs_b_stronger_n_ba": 1}
    flags = _flags(_row(shares, only_b_side, "soft_play"))
    assert set(flags) == {"soft_play", "card_sharing"}
    assert json.loads(flags["card_sharing"]["observed"])["mechanism_spots"]["card_sharing"] == 1


def test_a_leading_family_without_a_spot_keeps_its_flag_and_says_so() -> None:
    shares = {"soft_play": 0.1, "chip_dumping": 0.2, "squeeze": 0.6, "card_sharing": 0.1}
    flags = _flags(_row(shares, {"hu_confrontations": 1, "confrontations": 5}, "squeeze"))
    assert set(flags) == {"squeeze", "soft_play", "chip_dumping"}
    text = flags["squeeze"]["explanation"]
    assert text.startswith("Squeeze is the family model's call")
    assert "no re-raise sandwiching a third player who then folded between ann and bob" in text
    assert flags["squeeze"]["score"] == 0.8  # the pair's score: it is the pair's leading flag


def test_a_pair_with_no_pot_against_anyone_else_is_told_the_comparison_is_with_the_population() -> None:
    shares = {"soft_play": 0.1, "chip_dumping": 0.8, "squeeze": 0.0, "card_sharing": 0.1}
    row = _row(shares, {"hu_confrontations": 900, "confrontations": 1600}, "chip_dumping")
    alone = _flags(row | {"field_conf_ab": 0, "field_conf_ba": 0})["chip_dumping"]
    assert "ann and bob contested no pot with anyone but each other" in alone["explanation"]
    assert json.loads(alone["observed"])["pots_with_others"] == {"ann": 0, "bob": 0}
    one = _flags(row | {"field_conf_ab": 40, "field_conf_ba": 0})["chip_dumping"]["explanation"]
    assert "bob contested no pot with anyone but ann" in one
    assert "anyone but" not in _flags(row | {"field_conf_ab": 40, "field_conf_ba": 7})["chip_dumping"]["explanation"]
