"""Open Hand History JSON: the real Ten-Four hand, checked against the exporter's own profits."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from parsers.formats.ohh import FORMAT
from parsers.model import Hand, Provenance, Quarantined
from tests.conftest import real_data
from tests.parsers._site_helpers import net_of, sniffs
from warehouse.reconcile import reconcile_hands

SAMPLE = ("pokernow_ohh_whywaita", "sample", "input", "sample_ohh_tenfour.json")


def _only_hand(path: Path) -> Hand:
    (hand,) = FORMAT.parse(path)
    assert isinstance(hand, Hand), hand
    return hand


def test_sample_reconciles_and_matches_the_exporters_profits():
    path = real_data(*SAMPLE)
    assert sniffs(FORMAT, path)
    hand = _only_hand(path)
    rec = reconcile_hands([hand]).row(0, named=True)
    assert rec["status"] == "ok", rec
    assert (rec["contributed"], rec["awarded"], rec["rake"]) == (15000, 14600, 400)  # pot 150, rake 4
    doc = json.loads(path.read_text(), parse_float=Decimal)
    uid_to_name = {p["_uid"]: p["name"] for p in doc["ohh"]["players"]}
    net = net_of(hand)
    for uid, profit in doc["_profits"].items():  # the exporter's own per-player result
        assert Decimal(net[uid_to_name[uid]]) / hand.unit_scale == profit
    assert hand.unit_scale == 100 and hand.hand_id == "ohh:ten-four:ynkZ4QLFbmdc02Ox9tD4"
    assert {h.provenance for h in hand.hole_cards} == {Provenance.OPERATOR}


def test_spec_amounts_and_street_total_amounts_give_the_same_hand(tmp_path):
    """Rewrite the sample in the spec's reading (a raise/call amount is what it adds): the SB's
    raise to 2.5 adds 2, the BB's raise to 10 adds 9, the SB's call to 10 adds 7.5."""
    path = real_data(*SAMPLE)
    doc = json.loads(path.read_text(), parse_float=Decimal)
    added = {5: Decimal("2"), 6: Decimal("9"), 7: Decimal("7.5")}
    for rnd in doc["ohh"]["rounds"]:
        for act in rnd["actions"]:
            if act["action_number"] in added:
                act["amount"] = added[act["action_number"]]
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(doc, default=float))  # halves are exact in binary
    original, spec = _only_hand(path), _only_hand(spec_path)
    assert [(a.player, a.kind, a.contribution) for a in spec.actions] == \
        [(a.player, a.kind, a.contribution) for a in original.actions]
    assert reconcile_hands([spec])["status"].to_list() == ["ok"]


def test_several_hands_stream_and_a_truncated_one_is_quarantined(tmp_path):
    text = real_data(*SAMPLE).read_text()
    second = text.replace("ynkZ4QLFbmdc02Ox9tD4", "second-hand-id")
    broken = text.replace('"amount": 15', '"amount": fifteen', 1)
    path = tmp_path / "many.json"
    body = text + "\n" + broken + "\n" + second + "\n" + text[: len(text) // 2]
    path.write_text(body)
    rows = list(FORMAT.parse(path))
    assert [type(r).__name__ for r in rows] == ["Hand", "Quarantined", "Hand", "Quarantined"]
    assert [r.hand_id for r in rows if isinstance(r, Hand)] == [
        "ohh:ten-four:ynkZ4QLFbmdc02Ox9tD4", "ohh:ten-four:second-hand-id"]
    q = [r for r in rows if isinstance(r, Quarantined)]
    assert q[0].reason.startswith("JSON error") and q[1].reason.startswith("truncated JSON")
    raw = path.read_bytes()
    assert all(raw[r.byte_offset:].startswith(r.raw_text.encode()) for r in q)


def test_sniffing_is_by_content():
    csv_log = real_data("pokernow_ohh_whywaita", "sample", "input",
                        "poker_now_log_pglhniqprRDmWFv9sLLZZA-ru.csv")
    assert not sniffs(FORMAT, csv_log)
    assert FORMAT.sniff('{"ohh": {"spec_version": "1.4.6"') is True
    assert FORMAT.sniff('{"hands": []}') is False


def test_add_to_pot_is_money_the_site_added(tmp_path):
    """The spec's "Add to Pot" (no real export holds one): the sample with 20 added by the host
    before the flop, so its pot is 150 + 20 = 170 and the winner collects 146 + 20 = 166."""
    path = real_data(*SAMPLE)
    doc = json.loads(path.read_text(), parse_float=Decimal)
    flop = next(r for r in doc["ohh"]["rounds"] if r["street"] == "Flop")
    flop["actions"].insert(0, {"action_number": 99, "action": "Add to Pot", "amount": 20})
    pot = doc["ohh"]["pots"][0]
    pot["amount"] += 20
    pot["player_wins"][0]["win_amount"] += 20
    added_path = tmp_path / "added.json"
    added_path.write_text(json.dumps(doc, default=float))
    original, added = _only_hand(path), _only_hand(added_path)
    assert added.site_added == 2000 and original.site_added is None
    assert [(a.player, a.kind, a.contribution) for a in added.actions] == \
        [(a.player, a.kind, a.contribution) for a in original.actions]
    rec = reconcile_hands([added]).row(0, named=True)
    assert rec["status"] == "ok", rec
