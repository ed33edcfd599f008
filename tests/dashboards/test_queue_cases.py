"""Issue 14, build items 4 and 5: cases per suspected group, ranking, bulk dismiss, labels, and the
case page's "why this hand" lines with evidence ordered by the explanation's direction."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import duckdb
import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.cases import age, build_cases, case_status, group_flags, snippet
from dashboards.labels import build_labels, evaluate_labels, score_labels
from dashboards.review_store import ReviewStore, User
from tests.dashboards.test_pages import APP, TIMEOUT, app_as, plain

RITA = User("rita", "reviewer")


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, snapshot: Path, users_file: Path, tmp_path: Path) -> Path:
    """The dashboard on the fixture snapshot (as in test_pages), returning the review store's path."""
    monkeypatch.setenv("FLOORMAN_DB", str(snapshot))
    monkeypatch.setenv("FLOORMAN_USERS", str(users_file))
    monkeypatch.setenv("FLOORMAN_REVIEW_DB", str(tmp_path / "review.sqlite"))
    monkeypatch.delenv("FLOORMAN_PUBLISHED", raising=False)
    monkeypatch.delenv("FLOORMAN_AUTH", raising=False)
    return tmp_path / "review.sqlite"
T0 = dt.datetime(2026, 11, 29, 3)


def flag_rows(rows: list[tuple[str, str, list[str], float, float]]) -> pl.DataFrame:
    """Queue rows (data.queue's columns) for (flag_id, family, players, score, evidence_z)."""
    return pl.DataFrame([
        {"flag_id": f, "family": fam, "players": ps, "score": s, "severity": "low", "mode": "operator",
         "run_id": "r", "first_hand_at": T0, "last_hand_at": T0, "created_at": T0, "n_evidence": 1,
         "tables": ["T"], "evidence_hands": [f"h-{f}"], "explanation": f"{fam} by {' and '.join(ps)}. More text.",
         "evidence_z": z, "hands_together": 100}
        for f, fam, ps, s, z in rows])


def test_a_trio_in_five_overlapping_flags_is_one_case() -> None:
    q = flag_rows([
        ("ring", "collusion_ring", ["a", "b", "c"], 0.80, 2.0),
        ("sq-ab", "squeeze", ["a", "b"], 0.97, 9.0),
        ("sq-bc", "squeeze", ["b", "c"], 0.90, 3.0),
        ("cd-ac", "chip_dumping", ["a", "c"], 0.85, 4.0),
        ("sq-ab-player", "squeeze", ["a", "b"], 0.95, 8.0),
        ("other", "soft_play", ["c", "x"], 0.99, 1.0),  # shares only c: another case
    ])
    cases = build_cases(q)
    assert cases.height == 2
    trio = cases.filter(pl.col("lead") == "sq-ab").row(0, named=True)
    assert trio["case_id"] == "cd-ac"  # raised the same night: the smallest id founds the case
    assert trio["n_flags"] == 5 and sorted(trio["players"]) == ["a", "b", "c"]
    assert trio["families"] == ["squeeze", "chip_dumping", "collusion_ring"]  # by their best score
    assert trio["score"] == 0.97 and trio["strength"] == 9.0 and trio["n_evidence"] == 5
    assert trio["snippet"] == "squeeze by a and b."


def test_case_id_stays_when_a_stronger_flag_joins_the_group() -> None:
    """Night 1: a squeeze pair is a case. Night 2: a stronger chip-dumping flag on the same pair and
    a ring around it join; the case keeps its id (its founding flag's), the lead moves to the
    strongest flag, and both nights' ids resolve to one case."""
    night1 = flag_rows([("sq-ab", "squeeze", ["a", "b"], 0.80, 2.0)])
    [c1] = build_cases(night1).to_dicts()
    later = T0 + dt.timedelta(days=1)
    joined = flag_rows([("cd-ab", "chip_dumping", ["a", "b"], 0.99, 9.0),
                        ("ring-abc", "collusion_ring", ["a", "b", "c"], 0.95, 5.0)]).with_columns(
        pl.lit(later).alias("created_at"))
    night2 = pl.concat([night1.with_columns(pl.lit(later).alias("created_at"),
                                            pl.lit(T0).alias("first_flagged_at")),
                        joined.with_columns(pl.lit(later).alias("first_flagged_at"))], how="diagonal_relaxed")
    [c2] = build_cases(night2).to_dicts()
    assert c1["case_id"] == c2["case_id"] == "sq-ab"
    assert c1["lead"] == "sq-ab" and c2["lead"] == "cd-ab" and c2["score"] == 0.99
    assert c2["snippet"] == "chip_dumping by a and b."  # the queue row reads the strongest flag
    # flags first raised the same night: the smaller id founds the case, whatever the scores
    same = flag_rows([("zz-ab", "squeeze", ["a", "b"], 0.99, 9.0), ("aa-ab", "soft_play", ["a", "b"], 0.1, 0.0)])
    assert build_cases(same)["case_id"].to_list() == ["aa-ab"]


def test_grouping_is_by_containment_not_by_chained_overlap() -> None:
    groups = group_flags([("f1", ["a", "b"]), ("f2", ["b", "c"]), ("f3", ["c", "a", "b"]), ("f4", ["d", "a"])])
    assert groups["f1"] == groups["f2"] == groups["f3"] != groups["f4"]
    assert len(set(group_flags([("f1", ["a", "b"]), ("f2", ["b", "c"])]).values())) == 2
    # two rings sharing two members stay two cases; the pair inside both joins the stronger ring
    two = group_flags([("r1", ["a", "b", "c"]), ("r2", ["a", "b", "d"]), ("ab", ["a", "b"])],
                      {"r1": 0.5, "r2": 0.9, "ab": 0.7})
    assert two["r1"] != two["r2"] and two["ab"] == two["r2"]


def test_tied_scores_are_ordered_by_evidence_strength() -> None:
    q = flag_rows([
        ("weak", "squeeze", ["a", "b"], 0.99996, 0.4),
        ("strong", "chip_dumping", ["c", "d"], 0.99977, 65.4),
        ("middle", "squeeze", ["e", "f"], 0.9998, 9.8),
        ("lower", "soft_play", ["g", "h"], 0.95, 99.0),
    ])
    cases = build_cases(q)
    # all three show as 1.00; the evidence separates them; a lower score stays below whatever its z
    assert cases["case_id"].to_list() == ["strong", "middle", "weak", "lower"]
    assert cases["rank"].to_list() == [1, 2, 3, 4]
    top = cases.head(3).select(pl.col("score").round(2), pl.col("strength").round(1)).rows()
    assert len(set(top)) == 3


def test_snippet_age_and_case_status() -> None:
    assert snippet("x loses chips to y in pots x should not lose. Second sentence.") == \
        "x loses chips to y in pots x should not lose."
    long = snippet("word " * 60, limit=30)
    assert long.endswith("…") and len(long) <= 30
    now = dt.datetime(2026, 12, 2, 3)
    assert [age(now - dt.timedelta(minutes=5), now), age(now - dt.timedelta(hours=5), now),
            age(now - dt.timedelta(days=3), now), age(now - dt.timedelta(days=30), now), age(None, now)] == \
        ["5 min", "5 h", "3 d", "4 w", ""]
    recs = {"old-lead": ("dismissed", "rita", "2026-11-01T00:00:00"), "member": ("escalated", "adam", "2026-12-01")}
    assert case_status(["new-lead", "old-lead", "member"], recs) == ("escalated", "adam")
    assert case_status(["nothing"], recs) == ("open", None)


def test_queue_rows_show_families_snippet_age_and_status(env: Path) -> None:
    ReviewStore(env).assign("F-soft-003", "rita", RITA)
    at = app_as("viewer")
    df = at.dataframe[0].value
    row = df[df["case_id"] == "F-chip-001"].iloc[0]
    assert list(row["families"]) == ["chip_dumping", "collusion_ring"]
    assert list(row["players"]) == ["alice", "bob", "carol"]
    assert row["snippet"] == ("bob folds strong made hands to alice's river bets and alice wins 20.50 from bob"
                              " in 2 hands.")
    assert row["n_flags"] == 2 and row["status"] == "open" and row["age"].split()[-1] in ("min", "h", "d", "w")
    soft = df[df["case_id"] == "F-soft-003"].iloc[0]
    assert soft["assignee"] == "rita"
    assert "3 of 3 cases (4 flags grouped by suspected group)" in [plain(m.value) for m in at.markdown]


def test_a_member_flag_id_opens_its_case(env: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["user"] = User("vera", "viewer")
    at.query_params["case"] = "F-ring-002"  # the ring is part of the chip-dumping pair's case
    at.run()
    at.switch_page("app_pages/case.py").run()
    assert not at.exception
    assert at.selectbox(key="case_pick").value == "F-chip-001"
    assert {m.label: m.value for m in at.metric}["Families"] == "chip_dumping + collusion_ring"


def test_bulk_dismiss_records_each_case_in_the_audit_trail(env: Path) -> None:
    at = app_as("reviewer")
    at.multiselect(key="bulk_cases").set_value(["F-soft-003", "F-sqz-004"])
    at.text_input(key="bulk_reason").input("same table regulars, reviewed together")
    at.button(key="FormSubmitter:bulk_dismiss-Dismiss").click().run()
    assert not at.exception
    store = ReviewStore(env)
    for case in ("F-soft-003", "F-sqz-004"):
        [entry] = store.audit_log(case)
        assert entry["action"] == "case.dismiss" and entry["actor"] == "rita"
        assert json.loads(str(entry["new"])) == {"status": "dismissed", "reason": "same table regulars, reviewed "
                                                 "together", "bulk": "true"}
        assert store.status(case) == "dismissed"
    assert store.decisions("F-chip-001") == []
    assert list(at.dataframe[0].value["case_id"]) == ["F-chip-001"]  # the default view hides dismissed cases
    assert "Dismissed 2 cases." in [s.value for s in at.success]


def test_bulk_dismiss_needs_a_reason_and_a_reviewer(env: Path) -> None:
    at = app_as("reviewer")
    at.checkbox(key="bulk_all").check()
    at.button(key="FormSubmitter:bulk_dismiss-Dismiss").click().run()
    assert "a decision needs a reason" in [e.value for e in at.error]
    assert ReviewStore(env).all_decisions() == []
    viewer = app_as("viewer")
    assert not [m for m in viewer.multiselect if m.key == "bulk_cases"]


def test_labels_from_decisions_and_evaluation_reads_them(env: Path, snapshot: Path, tmp_path: Path) -> None:
    store = ReviewStore(env)
    store.decide("F-chip-001", "confirm", "bob dumped to alice", RITA)  # the case: alice, bob, carol
    store.decide("F-soft-003", "escalate", "needs payments data", RITA)
    store.decide("F-sqz-004", "confirm", "first look", RITA)
    store.decide("F-sqz-004", "dismiss", "on second look: standard squeezes", RITA)  # the last one holds
    doc = build_labels(snapshot, store)
    got = {(p["a"], p["b"]): (p["label"], p["decision"]) for p in doc["pairs"]}
    assert got == {("alice", "bob"): (1, "confirm"), ("alice", "carol"): (1, "confirm"),
                   ("bob", "carol"): (1, "confirm"), ("carol", "dave"): (None, "escalate"),
                   ("bob", "dave"): (0, "dismiss")}
    assert [(t["members"], t["family"]) for t in doc["teams"]] == [(["alice", "bob", "carol"], "chip_dumping")]
    assert doc["counts"] == {"cases": 3, "pairs": 5, "positive": 3, "negative": 1, "undecided": 1}
    # scored on the reviewed pairs: chip (0.93) and ring (0.71) flags rank the confirmed pairs above
    # the dismissed bob/dave pair (0.21): perfect precision
    flags: list[tuple[str, list[str], float, list[str]]] = [
        ("chip_dumping", ["alice", "bob"], 0.93, []), ("collusion_ring", ["alice", "bob", "carol"], 0.71, []),
        ("squeeze", ["bob", "dave"], 0.21, [])]
    res = score_labels(flags, doc)
    assert res["pair_ap"] == 1.0 and res["labels"] == {"reviewed_pairs": 4, "confirmed": 3, "dismissed": 1}
    # a detector that scores the dismissed pair highest is worse
    worse = score_labels([(f, p, 1.0 - s, e) for f, p, s, e in flags], doc)
    assert worse["pair_ap"] < 1.0


def test_floorman_labels_and_evaluate_on_the_command_line(env: Path, snapshot: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from pipelines.cli import main as floorman

    store = ReviewStore(env)
    store.decide("F-chip-001", "confirm", "bob dumped to alice", RITA)
    store.decide("F-sqz-004", "dismiss", "standard squeezes", RITA)
    out = tmp_path / "labels.json"
    assert floorman(["labels", "--db", str(snapshot), "--review-db", str(env), "--out", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["kind"] == "floorman-review-labels" and len(doc["pairs"]) == 4
    # the fixture's flags sit in two runs: evaluate the run holding the chip and ring flags
    db = tmp_path / "w.duckdb"
    db.write_bytes(snapshot.read_bytes())
    con = duckdb.connect(str(db))
    con.execute("UPDATE flags SET run_id = 'run-2026-11-29'")
    con.close()
    capsys.readouterr()
    assert floorman(["evaluate", "--db", str(db), "--truth", str(out), "--json"]) == 0
    res = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert res["run_id"] == "run-2026-11-29" and res["labels"]["reviewed_pairs"] == 4
    assert res["pair_ap"] == 1.0
    assert evaluate_labels(db, out)["positive_pairs"] == 3


def test_why_this_hand_lines_and_direction(env: Path) -> None:
    at = app_as("viewer", "case")
    assert not at.exception
    ev = next(d.value for d in at.dataframe if "why this hand" in d.value.columns)
    # the chip-dumping case (with its ring): bob -> alice over their shared hands. The detector ranks
    # 1002 then 1003 for the pair and 1001 for the ring; 1003 (bob wins $1.50 from alice) goes the
    # other way, so it is listed last and marked
    assert list(ev["hand"]) == [f"hand?hand=pokerstars:{n}&case=F-chip-001" for n in (1002, 1001, 1003)]
    first, ring, last = ev["why this hand"].iloc[0], ev["why this hand"].iloc[1], ev["why this hand"].iloc[2]
    assert first.startswith("bob loses $20.00 to alice, folding on the river to alice's bet")
    assert "river: alice bets $30.00; river: bob folds" in first
    assert ring.startswith("alice, bob, carol in the hand together, no chips between them")
    assert last.startswith("against the case's direction: alice loses $1.50 to bob, folding on the flop to bob's bet")
    assert list(ev["family"]) == ["chip_dumping", "collusion_ring", "chip_dumping"]
    warnings = [w.value for w in at.warning]
    assert any("1 of 3 evidence hands moved money against the case's direction (bob → alice)" in w for w in warnings)
    assert list(ev["findings"]) == [1, 0, 1]  # the house decision in 1002, RAISE.MIN in 1003


def test_each_evidence_hand_is_explained_by_the_family_it_was_picked_for(
        env: Path, snapshot: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pair's lead flag pools every family's hands (detectors 1.11): the case page's family column
    and the export's headings follow each hand's own family; flags from before name none per hand."""
    import shutil

    from dashboards import evidence
    from dashboards.why import evidence_with_families

    assert evidence_with_families({"family": "soft_play", "evidence_hands": ["h1", "h2"]}) == [
        ("h1", "soft_play"), ("h2", "soft_play")]
    assert evidence_with_families({"family": "card_sharing", "evidence_hands": ["h1", "h2"],
                                   "evidence_families": ["squeeze", "card_sharing"]}) == [
        ("h1", "squeeze"), ("h2", "card_sharing")]
    db = tmp_path / "snap-families.duckdb"
    shutil.copy(snapshot, db)
    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE flags SET evidence_families = ['chip_dumping', 'soft_play'] WHERE flag_id = 'F-chip-001'")
    monkeypatch.setenv("FLOORMAN_DB", str(db))
    at = app_as("viewer", "case")
    assert not at.exception
    ev = next(d.value for d in at.dataframe if "why this hand" in d.value.columns)
    # 1003's money went against the chip-dumping direction, but as a soft-play hand it is not judged
    # by that direction, so it is no longer sent to the end of the list
    assert list(ev["hand"]) == [f"hand?hand=pokerstars:{n}&case=F-chip-001" for n in (1002, 1003, 1001)]
    assert list(ev["family"]) == ["chip_dumping", "soft_play", "collusion_ring"]
    assert not ev["why this hand"].iloc[1].startswith("against the case's direction")
    case = evidence.collect(db, "F-chip-001", None)
    assert evidence.supports(case, "pokerstars:1003") == "F-chip-001 (soft_play)"
    assert evidence.supports(case, "pokerstars:1002") == "F-chip-001 (chip_dumping); F-ring-002 (collusion_ring)"


def test_why_lines_for_squeeze_and_soft_play() -> None:
    from dashboards.why import why_hand

    def rows(acts: list[tuple[int, str, str, str, int | None, int | None, int]],
             awards: list[tuple[str, int]]) -> dict[str, pl.DataFrame]:
        a = pl.DataFrame([{"hand_id": "h", "seq": s, "street": st, "player": p, "kind": k, "amount": am,
                           "raise_to": rt, "all_in": False, "contribution": c} for s, st, p, k, am, rt, c in acts])
        w = pl.DataFrame([{"hand_id": "h", "player": p, "amount": v} for p, v in awards])
        return {"actions": a, "awards": w}

    def fmt(v: int) -> str:
        return f"${v / 100:.2f}"

    sq = rows([(0, "preflop", "s", "post_sb", 50, None, 50), (1, "preflop", "bb", "post_bb", 100, None, 100),
               (2, "preflop", "a", "raise", 200, 300, 300), (3, "preflop", "c", "call", 300, None, 300),
               (4, "preflop", "b", "raise", 900, 1200, 1200), (5, "preflop", "s", "fold", None, None, 0),
               (6, "preflop", "bb", "fold", None, None, 0), (7, "preflop", "c", "fold", None, None, 0),
               (8, "preflop", "a", "fold", None, None, 0), (9, "preflop", "b", "uncalled_return", 900, None, -900)],
              [("b", 1050)])
    w = why_hand("squeeze", ["a", "b"], sq, "h", fmt)
    assert w.line.startswith("squeeze: a raises to $3.00, c calls, b re-raises to $12.00, c folds")
    soft = rows([(0, "preflop", "a", "post_sb", 50, None, 50), (1, "preflop", "b", "post_bb", 100, None, 100),
                 (2, "preflop", "a", "call", 50, None, 50), (3, "preflop", "b", "check", None, None, 0),
                 (4, "flop", "a", "check", None, None, 0), (5, "flop", "b", "check", None, None, 0),
                 (6, "turn", "a", "check", None, None, 0), (7, "turn", "b", "check", None, None, 0),
                 (8, "river", "a", "bet", 100, 100, 100), (9, "river", "b", "fold", None, None, 0),
                 (10, "river", "a", "uncalled_return", 100, None, -100)], [("a", 200)])
    w = why_hand("soft_play", ["a", "b"], soft, "h", fmt)
    assert w.line.startswith("soft play: heads-up, a and b check the flop, turn through")
    assert w.flow == ("b", "a", 100)
    soft["hole_cards"] = pl.DataFrame([{"hand_id": "h", "player": "b", "cards": "AhKd"},
                                       {"hand_id": "h", "player": "a", "cards": "7c2s"}])
    w = why_hand("card_sharing", ["b", "a"], soft, "h", fmt)
    assert w.line.startswith("card sharing: b folds on the river holding Ah Kd while a is still in with 7c 2s")
    w = why_hand("chip_dumping", ["a", "b"], soft, "h", fmt)
    assert w.line.startswith("b loses $1.00 to a, folding on the river to a's bet")


def test_results_line_is_thinned_but_keeps_the_last_hand() -> None:
    import datetime as dt

    from dashboards.hud import MAX_POINTS, results_series

    n = 5 * MAX_POINTS + 7
    t0 = dt.datetime(2026, 11, 29)
    hands = pl.DataFrame({"hr": list(range(n)), "table_name": ["T"] * n,
                          "started_at": [t0 + dt.timedelta(seconds=i) for i in range(n)], "currency": ["USD"] * n,
                          "unit_scale": [100] * n, "bb": [100] * n, "net": [100] * n})
    s = results_series(hands, pl.DataFrame())
    assert MAX_POINTS // 2 < s.height <= MAX_POINTS + 1
    assert s["hand"].max() == n and s["amount"].max() == float(n)  # $1 a hand, to the last hand


def _chip_flow_by_hand(shared: pl.DataFrame, players: list[str]) -> dict[tuple[str, str], int]:
    """The chip-flow rule written hand by hand (the loop data.chip_flow replaced)."""
    group, flow = set(players), dict[tuple[str, str], int]()
    for (_h,), rows in shared.filter(pl.col("player").is_in(list(group))).group_by(["hand_id"]):
        winners = sorted(((r["player"], r["net"]) for r in rows.iter_rows(named=True) if r["net"] > 0),
                         key=lambda x: (-x[1], x[0]))
        losers = [(r["player"], -r["net"]) for r in rows.iter_rows(named=True) if r["net"] < 0]
        total = sum(w for _, w in winners)
        for loser, lost in losers if winners else []:
            moved = min(lost, total)
            shares = [moved * w // total for _, w in winners]
            shares[0] += moved - sum(shares)
            for (winner, _), share in zip(winners, shares, strict=True):
                flow[(loser, winner)] = flow.get((loser, winner), 0) + share
    return {k: v - flow.get((k[1], k[0]), 0) for k, v in sorted(flow.items()) if v > flow.get((k[1], k[0]), 0)}


def test_vectorised_chip_flow_matches_the_hand_by_hand_rule() -> None:
    import random

    from dashboards.data import chip_flow

    rng = random.Random(5)
    for _ in range(200):
        rows = [{"hand_id": f"h{h}", "table_name": "T", "started_at": T0, "player": p,
                 "net": rng.choice([0, rng.randint(-500, 500)])}
                for h in range(rng.randint(0, 25)) for p in rng.sample("abcd", rng.randint(1, 4))]
        shared = pl.DataFrame(rows, schema={"hand_id": pl.String, "table_name": pl.String,
                                            "started_at": pl.Datetime("us"), "player": pl.String, "net": pl.Int64})
        group = rng.sample(list("abcd"), rng.randint(2, 4))
        assert chip_flow(shared, group) == _chip_flow_by_hand(shared, group)


def test_snapshot_aggregates_equal_the_row_by_row_figures(snapshot: Path) -> None:
    """The pages' in-snapshot figures (flow, sessions, results line, player sessions, pair page)
    equal what the row-by-row functions give on the same hands."""
    from dashboards import data
    from dashboards.hud import player_sessions, results_from, results_series

    for group in (["alice", "bob"], ["alice", "bob", "carol"], ["carol", "dave"], ["bob", "dave"]):
        shared = data.shared_hands(snapshot, group)
        assert data.group_flow(snapshot, group) == data.chip_flow(shared, group)
        rows = data.sessions(shared)
        sql = data.group_sessions(snapshot, group)
        assert sql.select("table_name", "start", "end", "hands").rows() == \
            rows.select("table_name", "start", "end", "hands").rows()
        assert sql["players"].to_list() == rows["players"].to_list()
    for player in ("alice", "bob", "carol", "dave"):
        hands, days = data.player_hands(snapshot, player), data.player_days(snapshot, player)
        line, ends = data.player_line(snapshot, player)
        assert results_from(line, ends, days).rows() == results_series(hands, days).rows()
        assert data.player_sessions(snapshot, player).rows() == player_sessions(hands).rows()
    over = data.pair_overview(snapshot, "bob", "alice")
    assert over.select("player", "hands", "net").rows() == [("alice", 3, 1900), ("bob", 3, -1850)]
    page = data.shared_page(snapshot, "bob", "alice", 1, 5)
    assert page.columns == ["hand_id", "table_name", "started_at", "alice", "bob"]
    assert page.select("hand_id", "alice", "bob").rows() == [("pokerstars:1002", 20.5, -20.0),
                                                             ("pokerstars:1003", -1.5, 2.0)]


def test_case_groups_read_their_nightly_summaries_and_equal_the_live_figures(snapshot: Path) -> None:
    from dashboards import data
    from dashboards.precompute import materialised

    with data.connect(snapshot) as con:
        assert materialised(con, "dash_groups") and materialised(con, "dash_group_flow")
        groups = {tuple(g) for (g,) in con.execute("SELECT grp FROM dash_groups").fetchall()}
    assert groups == {("alice", "bob"), ("alice", "bob", "carol"), ("carol", "dave"), ("bob", "dave")}
    for group in [*groups, ("alice", "dave")]:  # the last is no flag's: computed live
        shared = data.shared_hands(snapshot, group)
        flow, sess = data.group_figures(snapshot, group)
        assert flow == data.chip_flow(shared, group)
        rows = data.sessions(shared)
        assert sess.select("table_name", "start", "end", "hands").rows() == \
            rows.select("table_name", "start", "end", "hands").rows()
        assert sess["players"].to_list() == rows["players"].to_list()
    assert data.group_figures(snapshot, ["alice", "bob"])[0] == {("bob", "alice"): 1850}


def test_summary_and_live_paths_agree(snapshot: Path, tmp_path: Path) -> None:
    """The nightly dash_* rows the player, pair and case pages read equal the live definitions
    (a snapshot without current summaries is read through them)."""
    from dashboards import data, precompute

    live = tmp_path / "live.duckdb"
    live.write_bytes(snapshot.read_bytes())
    con = duckdb.connect(str(live))
    con.execute("DROP TABLE dash_meta")
    con.close()
    precompute._CURRENT.clear()
    with data.connect(live) as c:
        assert not precompute.materialised(c, "dash_player_line")
    for player in ("alice", "bob", "carol", "dave"):
        a, b = data.player_line(snapshot, player), data.player_line(live, player)
        assert a[0].rows() == b[0].rows() and a[1].rows() == b[1].rows()
        assert data.player_sessions(snapshot, player).rows() == data.player_sessions(live, player).rows()
    for x, y in (("alice", "bob"), ("carol", "dave"), ("alice", "dave")):
        assert data.pair_overview(snapshot, x, y).rows() == data.pair_overview(live, x, y).rows()
    for group in (["alice", "bob"], ["alice", "bob", "carol"]):
        f1, s1 = data.group_figures(snapshot, group)
        f2, s2 = data.group_figures(live, group)
        assert f1 == f2 and s1.rows() == s2.rows()


def test_age_counts_from_the_first_night_a_flag_was_raised(snapshot: Path, tmp_path: Path) -> None:
    from dashboards import data
    from dashboards.precompute import build_summaries

    db = tmp_path / "two-nights.duckdb"
    db.write_bytes(snapshot.read_bytes())
    con = duckdb.connect(str(db))
    # the same soft-play flag raised again a night later, with a new score: one queue row, the newer one
    con.execute("INSERT INTO flags SELECT * REPLACE ('run-2026-11-30' AS run_id, 0.60 AS score,"
                " TIMESTAMP '2026-11-30 03:10:00' AS created_at) FROM flags WHERE flag_id = 'F-soft-003'")
    build_summaries(con)
    con.close()
    q = data.queue(db)
    soft = q.filter(pl.col("flag_id") == "F-soft-003")
    assert soft.height == 1 and soft["score"][0] == 0.60 and soft["run_id"][0] == "run-2026-11-30"
    case = build_cases(q).filter(pl.col("case_id") == "F-soft-003").row(0, named=True)
    assert case["flagged_at"] == dt.datetime(2026, 11, 29, 3, 10)
