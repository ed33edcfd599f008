"""rules.runner.check_warehouse: the one rule-check runner (CLI, Dagster step and benchmarks call it)."""

from __future__ import annotations

import json

import pytest

from rules.codes import BAIL_NAMES
from rules.runner import check_warehouse
from tests.conftest import real_data


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory):
    from warehouse.ingest import ingest_paths

    path = tmp_path_factory.mktemp("runner") / "w.duckdb"
    ingest_paths([real_data("phh_pokerkit_history", "data", "pluribus", "32")], path, progress=False)
    return path


def test_path_and_connection_give_the_same_rows(warehouse):
    from warehouse import db

    by_path = check_warehouse(warehouse)
    con = db.connect(warehouse)
    try:
        by_con = check_warehouse(con, engine="python")
        assert con.execute("SELECT count(*) FROM action_states").fetchone()[0] == by_con["action_states"]
    finally:
        con.close()
    assert by_path["hands"] == by_con["hands"] > 0
    assert by_path["action_states"] == by_con["action_states"] > 0
    assert by_path["findings"] == by_con["findings"]
    assert "bail_reasons" not in by_con  # the Python engine checks every hand itself
    assert sum(by_path["bail_reasons"].values()) == by_path["python_fallback_hands"]
    assert set(by_path["bail_reasons"]) <= set(BAIL_NAMES.values())


def test_unknown_engine(warehouse):
    with pytest.raises(ValueError, match="engine"):
        check_warehouse(warehouse, engine="nope")


def test_cli_check_json(warehouse, capsys):
    from pipelines.cli_rules import main

    assert main(["check", "--db", str(warehouse), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["hands"] > 0 and isinstance(summary["bail_reasons"], dict)
