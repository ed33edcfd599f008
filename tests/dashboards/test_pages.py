"""AppTest runs of every page against the fixture snapshot, including access control."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from dashboards.review_store import ReviewStore, User
from tests.dashboards.conftest import USERS

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "dashboards" / "app.py")
TIMEOUT = 30


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, snapshot: Path, users_file: Path, tmp_path: Path) -> Path:
    monkeypatch.setenv("FLOORMAN_DB", str(snapshot))
    monkeypatch.setenv("FLOORMAN_USERS", str(users_file))
    monkeypatch.setenv("FLOORMAN_REVIEW_DB", str(tmp_path / "review.sqlite"))
    monkeypatch.delenv("FLOORMAN_PUBLISHED", raising=False)
    monkeypatch.delenv("FLOORMAN_AUTH", raising=False)
    return tmp_path / "review.sqlite"


def app_as(role: str | None, page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if role is not None:
        name = next(n for n, (r, _) in USERS.items() if r == role)
        at.session_state["user"] = User(name, role)
    at.run()
    if page is not None:
        at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def plain(text: object) -> str:
    """Markdown as a reader sees it: backslash escapes removed (pages escape '$', '.', ':'...)."""
    return re.sub(r"\\(.)", r"\1", str(text))


def in_order(node: Any) -> list[Any]:
    """The page's elements in the order a reader meets them (depth first through blocks)."""
    kids = getattr(node, "children", None)
    if kids is None:
        return [node]
    return [e for k in sorted(kids) for e in in_order(kids[k])]


def texts(at: AppTest) -> str:
    parts = [e.value for e in (*at.markdown, *at.title, *at.subheader, *at.info, *at.warning, *at.error,
                               *at.success, *at.caption)]
    return "\n".join(plain(p) for p in parts)


def test_anonymous_gets_only_the_login_page(env: Path) -> None:
    at = app_as(None)
    assert [t.value for t in at.title] == ["Floorman: log in"]
    assert len(at.dataframe) == 0
    assert "Review queue" not in texts(at)


@pytest.mark.parametrize("page", ["queue", "case", "hand", "player", "pair", "violations", "runs", "admin"])
def test_pages_refuse_anonymous_sessions_when_opened_directly(env: Path, page: str) -> None:
    at = AppTest.from_file(str(ROOT / "dashboards" / "app_pages" / f"{page}.py"), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception
    assert [w.value for w in at.warning] == ["Please log in."]
    assert len(at.dataframe) == 0


def test_a_too_short_admin_password_is_named_on_the_login_page(env: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A deployment whose FLOORMAN_ADMIN_PASSWORD is too short gets the login page with the reason,
    not a crashed page, and no admin is created."""
    empty = tmp_path / "no-users.json"
    monkeypatch.setenv("FLOORMAN_USERS", str(empty))
    monkeypatch.setenv("FLOORMAN_ADMIN_PASSWORD", "abc")
    at = app_as(None)
    assert [t.value for t in at.title] == ["Floorman: log in"]
    assert any("FLOORMAN_ADMIN_PASSWORD: password too short" in e.value for e in at.error)
    assert not empty.exists()


def test_login_with_the_users_file(env: Path) -> None:
    at = app_as(None)
    at.text_input(key="login_user").input("rita")
    at.text_input(key="login_password").input("wrong")
    at.button[0].click().run()
    assert "Unknown user or wrong password." in [e.value for e in at.error]
    assert "user" not in at.session_state
    at.text_input(key="login_password").input(USERS["rita"][1])
    at.button[0].click().run()
    assert not at.exception
    assert at.session_state["user"] == User("rita", "reviewer")
    assert "Review queue" in [t.value for t in at.title]
    assert ReviewStore(env).audit_log()[-1]["action"] == "login"


def test_queue_ranks_by_score_and_filters(env: Path) -> None:
    at = app_as("viewer")
    df = at.dataframe[0].value
    # the chip-dumping pair and the ring around it are one case (they share alice and bob)
    assert list(df["case_id"]) == ["F-chip-001", "F-soft-003", "F-sqz-004"]
    at.multiselect(key="f_family").set_value(["soft_play", "squeeze"]).run()
    assert list(at.dataframe[0].value["case_id"]) == ["F-soft-003", "F-sqz-004"]
    at.multiselect(key="f_family").set_value(["collusion_ring"]).run()
    assert list(at.dataframe[0].value["case_id"]) == ["F-chip-001"]
    at.multiselect(key="f_family").set_value([]).run()
    at.text_input(key="f_player").input("CAR").run()  # partial, any case
    assert list(at.dataframe[0].value["case_id"]) == ["F-chip-001", "F-soft-003"]
    at.slider(key="f_score").set_value(0.6).run()
    assert list(at.dataframe[0].value["case_id"]) == ["F-chip-001"]


def test_queue_status_filter_follows_decisions(env: Path) -> None:
    ReviewStore(env).decide("F-chip-001", "dismiss", "benign: same folds vs everyone", User("rita", "reviewer"))
    at = app_as("viewer")
    assert "F-chip-001" not in list(at.dataframe[0].value["case_id"])  # default: open + escalated
    at.multiselect(key="f_status").set_value(["dismissed"]).run()
    assert list(at.dataframe[0].value["case_id"]) == ["F-chip-001"]
    workload = at.dataframe[1].value
    assert dict(zip(workload["reviewer"], workload["decisions recorded"], strict=True)) == {"adam": 0, "rita": 1}


def test_case_page_shows_case_and_reviewer_records_decision(env: Path) -> None:
    at = app_as("reviewer", "case")
    body = texts(at)
    assert "bob folds strong made hands" in body
    assert "alice, bob" in body
    charts = [json.loads(c.proto.spec) for c in at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")]
    titles = {t["text"] if isinstance(t, dict) else t for t in (c.get("title") for c in charts)}
    # interactive figures (tooltips; zoom and pan where there is an axis to zoom), readable text sizes
    assert {"Observed behaviour vs population", "Net chip flow (loser → winner)", "Sessions together"} <= titles
    assert all(c["config"]["axis"]["labelFontSize"] >= 13 for c in charts)
    assert any("params" in layer for c in charts for layer in [c, *c.get("layer", [])])  # a zoom/pan binding
    at.radio(key="decision").set_value("escalate")
    at.text_area(key="reason").input("bob folded a full house to a river bet")
    at.button(key="FormSubmitter:decide-Record decision").click().run()
    assert not at.exception
    store = ReviewStore(env)
    [d] = store.decisions("F-chip-001")
    assert (d.decision, d.actor, d.reason) == ("escalate", "rita", "bob folded a full house to a river bet")
    assert store.status("F-chip-001") == "escalated"


def test_reviewer_cannot_record_a_decision_without_reason(env: Path) -> None:
    at = app_as("reviewer", "case")
    at.button(key="FormSubmitter:decide-Record decision").click().run()
    assert "a decision needs a reason" in [e.value for e in at.error]
    assert ReviewStore(env).decisions("F-chip-001") == []


def test_viewer_cannot_record_a_decision(env: Path) -> None:
    at = app_as("viewer", "case")
    assert "Viewers can read cases but cannot record decisions." in [i.value for i in at.info]
    assert len(at.text_area) == 0 and len(at.radio) == 0
    assert not [b for b in at.button if "Record decision" in str(b.label)]


def test_case_export_button_offers_the_zip(env: Path) -> None:
    at = app_as("reviewer", "case")
    at.button(key="build_export").click().run()
    assert not at.exception
    assert at.session_state["export"][0] == "F-chip-001"
    assert at.session_state["export"][1][:2] == b"PK"
    assert [e["action"] for e in ReviewStore(env).access_log("F-chip-001")] == ["view", "export"]
    assert [getattr(b, "label", None) for b in at.get("download_button")] == ["Download evidence zip"]


def test_viewer_gets_no_export_button(env: Path) -> None:
    at = app_as("viewer", "case")
    assert not [b for b in at.button if "export" in str(b.label).lower()]
    assert "Evidence export is limited to: reviewer, admin." in [i.value for i in at.info]
    assert len(at.get("download_button")) == 0
    assert [(e["actor"], e["action"]) for e in ReviewStore(env).access_log("F-chip-001")] == [("vera", "view")]


def test_export_roles_from_the_environment(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLOORMAN_EXPORT_ROLES", "admin")
    at = app_as("reviewer", "case")
    assert "Evidence export is limited to: admin." in [i.value for i in at.info]
    assert not [b for b in at.button if "export" in str(b.label).lower()]


def test_login_is_refused_after_five_wrong_passwords(env: Path) -> None:
    at = app_as(None)
    for _ in range(5):
        at.text_input(key="login_user").input("rita")
        at.text_input(key="login_password").input("wrong")
        at.button[0].click().run()
    # 30 s from the fifth failure, less the time its Argon2id check took (over a second on a loaded machine)
    waits = [int(m.group(1)) for e in at.error if (m := re.match(r"Too many failed log-ins: try again in (\d+) s",
                                                                  e.value))]
    assert waits and 25 <= waits[0] <= 30, [e.value for e in at.error]
    at.text_input(key="login_password").input(USERS["rita"][1])
    at.button[0].click().run()
    assert "user" not in at.session_state
    assert any(e.value.startswith("Too many failed log-ins: try again in") for e in at.error)


def test_hand_replayer_places_rule_finding_at_its_action(env: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["user"] = User("vera", "viewer")
    at.session_state["hand_id"] = "pokerstars:1003"  # how the violations page hands over a hand
    at.run()
    at.switch_page("app_pages/hand.py").run()
    assert not at.exception
    assert len(at.dataframe) == 0  # every action is text on the page, none in an inner-scroll table
    md = [plain(m.value) for m in at.markdown]
    assert [m for m in md if m.startswith("#### ")][:2] == ["#### Preflop", "#### Flop :gray[**A♠**] :blue[**A♦**] "
                                                            ":red[**5♥**]"]
    # the finding box comes right after the line of the action it is about (bob's short raise, #2)
    lines = [e for e in in_order(at.main) if e.type in ("markdown", "error", "warning")]
    i = next(k for k, e in enumerate(lines) if "`#2` CO **bob**: raise to $1.50" in plain(e.value))
    assert "to call $1.00" in plain(lines[i].value)
    assert "RAISE.MIN" in plain(lines[i + 1].value) and "#2 bob" in plain(lines[i + 1].value)
    assert at.query_params["hand"] == "pokerstars:1003"


def test_hand_replayer_reads_the_address_and_links_back_to_the_case(env: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["user"] = User("vera", "viewer")
    at.query_params["hand"] = "1002"  # no site prefix
    at.query_params["case"] = "f-chip-001"  # any case
    at.run()
    at.switch_page("app_pages/hand.py").run()
    assert not at.exception
    body = texts(at)
    assert "pokerstars:1002 · holdem NL" in body
    assert "alice wins $40.50 from the main pot" in body
    links = {(str(e.proto.label), str(e.proto.page)) for e in at.get("page_link")}
    assert ("← Back to case F-chip-001", "app_pages/case.py") in {(lbl, pg.split("/", 3)[-1] if "/" in pg else pg)
                                                                  for lbl, pg in links} or any(
        lbl == "← Back to case F-chip-001" for lbl, _ in links)
    # the case holds the chip-dumping pair and the ring around it: all three are its players
    assert {"★ alice", "★ bob", "★ carol", "dave"} <= {lbl for lbl, _ in links}
    # the case's players are highlighted in the action lines, the others are not
    assert any(":orange-background[**alice**]: raise to" in m.value for m in at.markdown)
    assert not any(":orange-background[**dave**]" in m.value for m in at.markdown)


def test_hand_search_is_case_insensitive_and_partial(env: Path, snapshot: Path) -> None:
    from dashboards import data

    assert data.find_hands(snapshot, "pokerstars:1002") == ["pokerstars:1002"]
    assert data.find_hands(snapshot, "1002") == ["pokerstars:1002"]
    assert data.find_hands(snapshot, "PokerStars:1002") == ["pokerstars:1002"]
    assert data.find_hands(snapshot, "STARS:100") == ["pokerstars:1001", "pokerstars:1002", "pokerstars:1003"]
    assert data.find_hands(snapshot, "9999") == []
    at = app_as("viewer", "hand")
    at.text_input(key="hand_input").input("stars:100").run()
    assert sorted(str(e.proto.label) for e in at.get("page_link") if "stars" in str(e.proto.label)) == [
        "pokerstars:1001", "pokerstars:1002", "pokerstars:1003"]


def test_hand_step_through_moves_the_table(env: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["user"] = User("vera", "viewer")
    at.query_params["hand"] = "pokerstars:1002"
    at.run()
    at.switch_page("app_pages/hand.py").run()
    assert at.slider(key="hand_step").value == 13  # starts at the end: all 13 actions done
    at.slider(key="hand_step").set_value(3).run()  # posts, alice's raise to $3
    table = at.get("html")[-1].proto.body
    assert "pot <b>$4.50</b>" in table and "#2 alice: raise to $3.00" in table
    assert ">$97.00<" in table  # alice's stack behind after raising to $3
    at.button(key="step_next").click().run()
    assert at.slider(key="hand_step").value == 4
    assert "#3 bob: call $3.00" in at.get("html")[-1].proto.body


def test_hand_replayer_unknown_hand(env: Path) -> None:
    at = app_as("viewer", "hand")
    at.text_input(key="hand_input").input("pokerstars:9999").run()
    assert "No hand matches 'pokerstars:9999' in this snapshot." in [e.value for e in at.error]


def test_player_page(env: Path) -> None:
    at = app_as("viewer", "player")
    at.text_input(key="player_input").input("alice").run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    # alice: 1001 folds (0), 1002 wins 40.50 after putting in 20.00, 1003 loses her 1.50 BB+call
    assert metrics["Net result"] == "$19.00"
    assert metrics["Hands (USD)"] == "3"


def frame(at: AppTest, column: str) -> Any:
    """The one dataframe on the page with ``column``."""
    [df] = [d.value for d in at.dataframe if column in d.value.columns]
    return df


def test_player_page_hud_uses_pokertracker_names_from_the_latest_run(env: Path) -> None:
    at = app_as("viewer", "player")
    at.text_input(key="player_input").input("alice").run()
    assert not at.exception
    hud = frame(at, "statistic")
    got = dict(zip(hud["statistic"], hud["value"], strict=True))
    # the latest run's row (2/3 VPIP), not the older run's 99/99
    assert got["VPIP"] == "66.7" and got["PFR"] == "33.3" and got["3Bet PF"] == "0.0"
    assert got["Attempt to Steal"] == "100.0" and got["Fold to Steal"] == "0.0"
    assert got["CBet F"] == "100.0" and got["Fold to F CBet"] == "100.0"
    assert got["Postflop Agg (AF)"] == "–"  # 3 bets and raises over 0 calls: no ratio
    assert got["Postflop Agg% (AFq)"] == "75.0"  # 3 / (3 + 0 + 1)
    assert got["WWSF%"] == "50.0" and got["bb/100"] == "633.33"
    assert got["4Bet PF"] == "–"  # no chance
    counts = dict(zip(hud["statistic"], hud["opportunities"], strict=True))
    assert counts["VPIP"] == "3" and counts["PFR"] == "3"


def test_player_page_results_opponents_and_sessions(env: Path) -> None:
    at = app_as("viewer", "player")
    at.text_input(key="player_input").input("bob").run()
    assert not at.exception
    [chart] = at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    spec = json.loads(chart.proto.spec)
    assert spec["encoding"]["y"]["title"] == "cumulative result (USD)"
    opp = frame(at, "opponent")
    assert list(opp["opponent"]) == ["alice"] and list(opp["hands_together"]) == [3]
    sess = frame(at, "end")
    assert list(sess["hands"]) == [3] and list(sess["net"]) == [-18.5]  # dollars, not cents
    assert list(sess["table_name"]) == ["Alcor"]


def test_player_results_series_in_currency_units() -> None:
    import datetime as dt

    import polars as pl

    from dashboards.hud import results_series

    t0 = dt.datetime(2026, 11, 29, 1)
    hands = pl.DataFrame({"hr": [0, 1, 2], "table_name": ["T"] * 3,
                          "started_at": [t0, t0 + dt.timedelta(minutes=2), t0 + dt.timedelta(minutes=4)],
                          "currency": ["USD"] * 3, "unit_scale": [100] * 3, "bb": [100] * 3, "net": [-50, -2000, 200]})
    days = pl.DataFrame({"hand_date": [dt.date(2026, 11, 29)], "net_cbb": [-1850], "allin_adj_net_cbb": [-1350]})
    s = results_series(hands, days)
    net = s.filter(pl.col("series") == "net won")
    assert net["amount"].to_list() == [-0.5, -20.5, -18.5]
    ev = s.filter(pl.col("series") == "all-in adjusted (EV)")
    assert ev["hand"].to_list() == [3] and ev["amount"].to_list() == [-13.5]  # +5 bb of equity at $1 a bb


def test_player_search_is_partial_and_case_insensitive(env: Path) -> None:
    at = app_as("viewer", "player")
    at.text_input(key="player_input").input("ALI").run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Net result"] == "$19.00"
    assert at.query_params["player"] == "alice"
    at.text_input(key="player_input").input("pokerstars:Bob").run()  # a site prefix is not needed, nor harmful
    assert {m.label: m.value for m in at.metric}["Net result"] == "-$18.50"
    at.text_input(key="player_input").input("a").run()  # alice, carol, dave: pick one
    assert at.selectbox(key="player_match").options == ["dave", "alice", "carol"] or \
        sorted(at.selectbox(key="player_match").options) == ["alice", "carol", "dave"]
    at.text_input(key="player_input").input("zed").run()
    assert "No player matching 'zed' in this snapshot." in [w.value for w in at.warning]


def test_pair_page(env: Path) -> None:
    at = app_as("viewer", "pair")
    at.text_input(key="pair_a").input("alice")
    at.text_input(key="pair_b").input("bob").run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Hands together"] == "3"
    net = at.dataframe[0].value  # money in currency units, as on the player page (not cents)
    assert dict(zip(net["player"], net["net won together"], strict=True)) == {"alice": "$19.00", "bob": "-$18.50"}
    sess = at.dataframe[1].value
    assert list(sess["hands"]) == [3] and list(sess["table_name"]) == ["Alcor"]
    hands = at.dataframe[2].value
    assert dict(zip(hands["hand_id"], hands["bob"], strict=True)) == {
        "pokerstars:1001": -0.5, "pokerstars:1002": -20.0, "pokerstars:1003": 2.0}


def test_pair_page_takes_partial_names(env: Path) -> None:
    at = app_as("viewer", "pair")
    at.text_input(key="pair_a").input("ALI")
    at.text_input(key="pair_b").input("bo").run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Hands together"] == "3"
    assert at.query_params["a"] == "alice" and at.query_params["b"] == "bob"


def test_violations_page(env: Path) -> None:
    at = app_as("viewer", "violations")
    summary = at.dataframe[0].value
    assert list(summary["rule"]) == ["RAISE.MIN", "UNDERCALL.FULL_CALL"]
    assert list(summary["house_decisions"]) == [0, 1]
    at.radio(key="viol_by").set_value("rulebook").run()
    assert sorted(at.dataframe[0].value["rulebook"]) == ["CEP-2023", "online-standard"]


def test_runs_page_shows_checks(env: Path) -> None:
    at = app_as("viewer", "runs")
    assert list(at.dataframe[0].value["run_id"]) == ["run-2026-11-29", "run-2026-11-28"]
    assert "rule_errors: 1 high-severity finding" in [e.value for e in at.error]


def test_admin_page_is_admin_only(env: Path) -> None:
    from dashboards.ui import page_specs

    assert "Admin" not in page_specs("reviewer") and "Admin" not in page_specs("viewer")
    assert page_specs("admin")["Admin"] == [("admin", "Users & settings")]
    pages = {slug for entries in page_specs("viewer").values() for slug, _ in entries}
    assert pages == {p.stem for p in (ROOT / "dashboards" / "app_pages").glob("*.py")} - {"__init__", "login", "admin"}
    direct = AppTest.from_file(str(ROOT / "dashboards" / "app_pages" / "admin.py"), default_timeout=TIMEOUT)
    direct.session_state["user"] = User("rita", "reviewer")
    direct.run()
    assert "Your role (reviewer) does not allow this page." in [e.value for e in direct.error]


def test_admin_adds_a_user(env: Path, users_file: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    own = tmp_path / "users.json"
    own.write_bytes(users_file.read_bytes())
    monkeypatch.setenv("FLOORMAN_USERS", str(own))
    at = app_as("admin", "admin")
    at.text_input(key="new_user").input("nina")
    at.selectbox(key="new_role").set_value("reviewer")
    at.text_input(key="new_password").input("s3cret-pass")
    at.button(key="FormSubmitter:add_user-Save user").click().run()
    assert not at.exception
    from dashboards.auth import authenticate

    assert authenticate(own, "nina", "s3cret-pass") == User("nina", "reviewer")
    # a short password is refused on the page, and the user's old one still works
    at.text_input(key="new_user").input("nina")
    at.text_input(key="new_password").input("abc12")
    at.button(key="FormSubmitter:add_user-Save user").click().run()
    assert any("password too short" in e.value for e in at.error)
    assert authenticate(own, "nina", "abc12") is None
    assert authenticate(own, "nina", "s3cret-pass") == User("nina", "reviewer")


def test_case_page_takes_its_case_from_the_address(env: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["user"] = User("vera", "viewer")
    at.query_params["case"] = "f-soft"  # a unique prefix, any case
    at.run()
    at.switch_page("app_pages/case.py").run()
    assert not at.exception
    assert at.selectbox(key="case_pick").value == "F-soft-003"
    assert at.query_params["case"] == "F-soft-003"
    links = [(str(e.proto.label), dict(e.proto.query_params) if hasattr(e.proto, "query_params") else {})
             for e in at.get("page_link")]
    assert any(lbl.startswith("#1 replay ") for lbl, _ in links)
    at.selectbox(key="case_pick").set_value("F-sqz-004").run()
    assert at.query_params["case"] == "F-sqz-004"


def test_a_flag_followed_from_the_player_page_is_named_on_its_case(env: Path) -> None:
    """alice's ring flag links to the case the ring joined (headed by the chip-dumping pair's
    flag) and names itself, so the reviewer is not left wondering why another pair heads the page."""
    at = app_as("viewer", "player")
    at.text_input(key="player_input").input("alice").run()
    links = list(frame(at, "case")["case"])
    ring = [u for u in links if u.endswith("&flag=F-ring-002")]
    assert ring and ring[0].startswith("case?case=F-chip")
    case, flag = ring[0].removeprefix("case?").split("&")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["user"] = User("vera", "viewer")
    at.query_params["case"] = case.removeprefix("case=")
    at.query_params["flag"] = flag.removeprefix("flag=")
    at.run()
    at.switch_page("app_pages/case.py").run()
    assert not at.exception
    [note] = [i.value for i in at.info if "You followed flag" in i.value]
    assert "F-ring-002" in plain(note) and "F-chip-001" in plain(note) and "alice, bob, carol" in plain(note)
    at.selectbox(key="case_pick").set_value("F-sqz-004").run()  # another case: the flag leaves the address
    assert "flag" not in at.query_params
    assert not any("You followed flag" in i.value for i in at.info)


def test_case_page_unknown_case_says_so(env: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["user"] = User("vera", "viewer")
    at.query_params["case"] = "nope"
    at.run()
    at.switch_page("app_pages/case.py").run()
    assert "Case nope is not in this snapshot." in [e.value for e in at.error]


def test_reviewer_assigns_and_adds_a_note(env: Path) -> None:
    at = app_as("reviewer", "case")
    at.selectbox(key="assign_to").set_value("adam")
    at.button(key="FormSubmitter:assign-Assign").click().run()
    assert not at.exception
    store = ReviewStore(env)
    assert store.statuses()["F-chip-001"] == ("open", "adam")
    assert "**Assigned to:** adam" in texts(at)
    at.text_area(key="note_text").input("asked payments for bob's deposit history")
    at.button(key="FormSubmitter:note-Add note").click().run()
    assert [(a, t) for a, _, t in store.notes("F-chip-001")] == [("rita", "asked payments for bob's deposit history")]
    assert "**rita**: asked payments for bob's deposit history" in texts(at)
    workload = app_as("viewer").dataframe[1].value
    assert dict(zip(workload["reviewer"], workload["assigned open"], strict=True)) == {"adam": 1, "rita": 0}


def test_viewer_sees_notes_but_cannot_assign_or_write(env: Path) -> None:
    ReviewStore(env).add_note("F-chip-001", "first look", User("rita", "reviewer"))
    at = app_as("viewer", "case")
    assert "**rita**: first look" in texts(at)
    assert not [b for b in at.button if str(b.label) in ("Assign", "Add note")]


def test_queue_links_each_case_by_its_short_id(env: Path) -> None:
    at = app_as("viewer")
    df = at.dataframe[0].value
    assert list(df["case"]) == ["case?case=F-chip-001", "case?case=F-soft-003", "case?case=F-sqz-004"]
    assert df["pair"].iloc[0] == "pair?a=alice&b=bob"


def test_short_case_ids_are_unique_prefixes_and_resolve_back() -> None:
    from dashboards.data import resolve_case, short_ids

    ids = ["3f9a2c41d0e5b7a8c9d1", "3f9a2c99aaaaaaaaaaaa", "b7c1d2e3f4a5b6c7d8e9", "F-chip-001"]
    short = short_ids(ids)
    assert short == {"3f9a2c41d0e5b7a8c9d1": "3f9a2c4", "3f9a2c99aaaaaaaaaaaa": "3f9a2c9",
                     "b7c1d2e3f4a5b6c7d8e9": "b7c1d2", "F-chip-001": "F-chip-001"}
    assert all(resolve_case(s, ids) == i for i, s in short.items())
    assert resolve_case("3F9A2C4", ids) == "3f9a2c41d0e5b7a8c9d1"
    assert resolve_case("3f9a2c", ids) is None  # ambiguous
    assert resolve_case("3f9", ids) is None  # too short to trust
    assert resolve_case("b7c1d2e3f4a5b6c7d8e9", ids) == "b7c1d2e3f4a5b6c7d8e9"


def test_player_and_pair_pages_take_their_subject_from_the_address(env: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["user"] = User("vera", "viewer")
    at.query_params["player"] = "alice"
    at.run()
    at.switch_page("app_pages/player.py").run()
    assert {m.label: m.value for m in at.metric}["Net result"] == "$19.00"
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["user"] = User("vera", "viewer")
    at.query_params["a"] = "alice"
    at.query_params["b"] = "bob"
    at.run()
    at.switch_page("app_pages/pair.py").run()
    assert {m.label: m.value for m in at.metric}["Hands together"] == "3"


def test_the_same_hand_link_works_again_after_visiting_another_page(env: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["user"] = User("vera", "viewer")
    at.run()
    at.switch_page("app_pages/hand.py")
    at.query_params["hand"] = "pokerstars:1002"
    at.run()
    assert "alice wins $40.50 from the main pot" in texts(at)
    at.switch_page("app_pages/runs.py").run()
    at.switch_page("app_pages/hand.py")
    at.query_params["hand"] = "pokerstars:1002"
    at.run()
    assert "alice wins $40.50 from the main pot" in texts(at)


def test_finding_boxes_name_each_severity(tmp_path: Path) -> None:
    """Only errors and warnings are called violations; review, info and data findings are not."""
    script = tmp_path / "boxes.py"
    script.write_text(
        "from dashboards import ui\n"
        "for sev, house in [('error', False), ('review', True), ('info', False), ('data', False)]:\n"
        "    ui.finding_box({'rule_id': 'R.' + sev.upper(), 'rulebook': 'CEP-2023', 'severity': sev,\n"
        "                    'house_decision': house, 'expected': 'call $3.00', 'actual': 'call $2.00',\n"
        "                    'message': 'msg'})\n"
    )
    at = AppTest.from_file(str(script), default_timeout=TIMEOUT).run()
    assert not at.exception
    def heads(boxes: Any) -> list[str]:
        return [plain(e.value).replace("**", "").split("): ")[0] + ")" for e in boxes]

    assert heads(at.error) == ["R.ERROR (CEP-2023, violation, error)"]
    assert heads(at.warning) == ["R.REVIEW (CEP-2023, house decision (floor's discretion))"]
    assert heads(at.info) == ["R.INFO (CEP-2023, remedy the rulebook prescribes)",
                              "R.DATA (CEP-2023, data issue: the export contradicts itself)"]
    assert "Expected call $3.00; actual call $2.00." in plain(at.error[0].value)  # '$' shown, not maths
