"""`floorman violations --severity/--rule`: a floor manager asks for one kind of finding at a time.

On real Bovada exports (fpdb's regression files), which carry both the floor's prescribed remedies
(info) and the site's own inconsistencies (data): each filter returns exactly the stored findings it
names, and the filters combine."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from pipelines.cli_rules import main
from tests.conftest import real_data
from warehouse.ingest import ingest_paths


@pytest.fixture(scope="module")
def checked_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("viol") / "w.duckdb"
    ingest_paths([real_data("fpdb3_regression", "regression-test-files", "cash", "Bovada")], db, progress=False)
    assert main(["check", "--db", str(db), "--json"]) == 0
    return db


def _export(db: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> list[dict[str, object]]:
    capsys.readouterr()
    assert main(["violations", "--db", str(db), *extra]) == 0
    rows: list[dict[str, object]] = json.loads(capsys.readouterr().out)
    return rows


def test_severity_and_rule_filters_return_exactly_what_they_name(checked_db: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    everything = _export(checked_db, capsys)
    by_severity = Counter(str(r["severity"]) for r in everything)
    assert {"info", "data"} <= set(by_severity), by_severity  # the sample holds both kinds
    for sev, n in by_severity.items():
        assert Counter(str(r["severity"]) for r in _export(checked_db, capsys, "--severity", sev)) == {sev: n}
    both = _export(checked_db, capsys, "--severity", "info", "--severity", "data")
    assert len(both) == by_severity["info"] + by_severity["data"]
    rule = str(everything[0]["rule_id"])
    only_rule = _export(checked_db, capsys, "--rule", rule)
    assert only_rule == [r for r in everything if r["rule_id"] == rule]
    sev = str(everything[0]["severity"])
    assert _export(checked_db, capsys, "--rule", rule, "--severity", sev) == [
        r for r in everything if r["rule_id"] == rule and r["severity"] == sev]
    assert _export(checked_db, capsys, "--rule", rule.lower()) == only_rule  # rule ids in any case


def test_a_filter_that_matches_nothing_says_so(checked_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["violations", "--db", str(checked_db), "--rule", "NO.SUCH_RULE"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out) == []
    assert "no finding matches rule NO.SUCH_RULE; rule ids with findings: " in out.err
    assert "SHOWDOWN.ALLIN_TABLED" in out.err  # the ids the sample does have


def test_an_unknown_severity_is_refused(checked_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["violations", "--db", str(checked_db), "--severity", "fatal"])
    assert exc.value.code == 2
    assert "invalid choice: 'fatal'" in capsys.readouterr().err
