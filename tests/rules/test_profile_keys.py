"""Issue 13 item 2: every parameter in rules/profiles/*.yaml is read, and none is invented.

``rules.profiles.profile_reads`` loads a profile through a dict that records each key the loader
reads; the SQL passes' own reads are listed in ``READ_ELSEWHERE``. A key in a profile that nothing
reads fails here: remove it (its rule needs data no hand history has) or read it in the engine.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from rules.profiles import PROFILE_DIR, PROFILE_NAMES, READ_ELSEWHERE, _from_yaml, load_profile, profile_reads

RULES = Path(__file__).resolve().parents[2] / "rules"


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_every_profile_key_is_read(name: str) -> None:
    every, read = profile_reads(name)
    assert every, name
    assert sorted(every - read) == [], f"{name}: profile keys read nowhere"


def test_an_unread_key_fails_the_check(tmp_path: Path) -> None:
    """The check itself: a key added to a profile and read by nothing is reported."""
    doc = yaml.safe_load((PROFILE_DIR / "PKR-cash.yaml").read_text(encoding="utf-8"))
    doc["params"]["claim_window"] = {"until": "cards_gathered_for_next_shuffle"}
    seen: set[str] = set()
    _from_yaml(copy.deepcopy(doc), seen)
    assert "params.claim_window" not in seen and "params.claim_window.until" not in seen
    assert "params.straddle.live_option" in seen


def test_keys_read_elsewhere_are_read_there() -> None:
    for key, where in READ_ELSEWHERE.items():
        module, func = where.rsplit(".", 1)
        src = (RULES / f"{module.split('.')[-1]}.py").read_text(encoding="utf-8")
        assert f"def {func}(" in src and f'"{key.rsplit(".", 1)[-1]}"' in src, (key, where)


def test_a_value_the_engine_does_not_implement_is_refused() -> None:
    doc = yaml.safe_load((PROFILE_DIR / "PKR-cash.yaml").read_text(encoding="utf-8"))
    doc["params"]["odd_chip"]["order"] = "high_card_by_suit"
    with pytest.raises(ValueError, match="order"):
        _from_yaml(doc)


def test_values_the_seeds_do_not_state_are_unstated() -> None:
    """The cases issue 13 names: TDA 2009 art. 34 has no cap number, art. 31 does not say whether short
    all-ins add up, and its «anterior subida» reads two ways; R003's «apuesta previa» after an all-in under
    150%; only PKR voids a hand on a duplicate card; online a triple straddle is the site's."""
    cep, t09, pkr, r003, online = (load_profile(n) for n in PROFILE_NAMES)
    assert t09.limit_raise_cap is None and t09.limit_cap_source == "house_value"
    assert online.limit_raise_cap is None and online.limit_cap_source == "site"
    assert not t09.cumulative_stated and cep.cumulative_stated and pkr.cumulative_stated
    assert t09.min_raise_after_short == pkr.min_raise_after_short == "unstated"
    assert cep.min_raise_after_short == online.min_raise_after_short == "largest_full"
    assert r003.r003_prev_bet_after_non_raise_allin == "unstated"
    assert [p.duplicate_card_policy for p in (cep, t09, pkr, r003, online)] == [
        "defective_deck", "unstated", "void_all_action", "unstated", "export_anomaly"]
    assert online.triple_straddle and not pkr.triple_straddle
    assert pkr.straddle_live_stated and not r003.straddle_live_stated
    assert r003.straddle_order_stated and not pkr.straddle_order_stated
    assert online.odd_chip_unit == "one" and {p.odd_chip_unit for p in (cep, t09, pkr, r003)} == {"gcd"}
