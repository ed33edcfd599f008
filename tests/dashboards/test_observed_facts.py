"""A flag's facts read as words: the family attribution as shares, not a raw dictionary dump."""

from __future__ import annotations

import json

from dashboards.observed import observed_facts, observed_metrics


def test_family_distribution_is_a_fact_not_a_metric() -> None:
    observed = json.dumps({
        "family_distribution": {"soft_play": 0.72, "squeeze": 0.2, "chip_dumping": 0.08, "card_sharing": 0.001},
        "rank": 3, "evidence_z": 7.5,
        "z_cs_ab": {"value": 1.2, "population_median": 0.0, "percentile": 91.0},
    })
    facts = observed_facts(observed)
    assert facts["family attribution"] == "soft_play 72%, squeeze 20%, chip_dumping 8%"
    assert facts["rank among the scored pairs"] == 3
    assert facts["family evidence, robust z in this room"] == 7.5
    assert [m["name"] for m in observed_metrics(observed, ["A", "B"])] == ["z_cs_ab"]


def test_mechanism_spots_read_as_counts() -> None:
    observed = json.dumps({"mechanism_spots": {"soft_play": 12, "chip_dumping": 1450, "squeeze": 0, "card_sharing": 3}})
    assert observed_facts(observed)["spots between them where each family's mechanism could show"] == (
        "soft_play 12, chip_dumping 1,450, squeeze 0, card_sharing 3")
