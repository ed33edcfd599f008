"""Real browser, as a reviewer: sessions that survive reloads and tabs, links that land after login,
the replayer read as text, assignment/notes/decision/export, and the login lockout.

Runs with ``bash scripts/e2e_browser.sh`` (installs Debian's chromium when missing, then
``pytest -m e2e``). Skipped unless FLOORMAN_E2E=1 so the default test run stays fast.
Screenshots and page timings go to test-artifacts/e2e/.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

from dashboards import evidence
from dashboards.auth import SESSION_COOKIE, ensure_user
from dashboards.review_store import ReviewStore
from tests.dashboards.cdp import Browser, chromium_path, free_port
from tests.dashboards.warehouse_fixture import build_warehouse
from warehouse.snapshot import current_snapshot, publish

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
PASSWORD = "rita-e2e-pw"
#: CPU seconds of a page's script run on the server (what the dashboard's code controls), 95th percentile
RUN_BUDGET = 0.5
#: click to drawn page in the browser: only catches hangs (drawing time follows the shared machine's load)
BROWSER_BUDGET = 10.0

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(os.environ.get("FLOORMAN_E2E") != "1", reason="browser test: run scripts/e2e_browser.sh"),
]


@dataclass
class Served:
    url: str
    root: Path
    review: Path
    tmp: Path
    timings: dict[str, float]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tmp = tmp_path_factory.mktemp("e2e")
    build = build_warehouse(tmp / "build.duckdb", tmp / "landing")
    root = tmp / "published"
    publish(build, root)
    users = tmp / "users.json"
    ensure_user(users, "rita", PASSWORD, "reviewer")
    ensure_user(users, "lou", "lou-e2e-pw", "reviewer")
    review = tmp / "review.sqlite"
    port = free_port()
    log = (tmp / "streamlit.log").open("wb")
    env = {**os.environ, "FLOORMAN_PUBLISHED": str(root), "FLOORMAN_USERS": str(users),
           "FLOORMAN_REVIEW_DB": str(review), "FLOORMAN_PAGE_TIMINGS": str(tmp / "page_timings.jsonl")}
    for var in ("FLOORMAN_DB", "FLOORMAN_SESSION_SECRET", "FLOORMAN_SESSION_DIR", "FLOORMAN_AUTH"):
        env.pop(var, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "dashboards" / "app.py"), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none", "--global.developmentMode", "false"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                break
        except OSError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.terminate()
            pytest.fail("streamlit did not become healthy: " + (tmp / "streamlit.log").read_text()[-2000:])
        time.sleep(0.3)
    s = Served(url, root, review, tmp, {})
    try:
        yield s
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "timings.json").write_text(json.dumps(s.timings, indent=2, sort_keys=True) + "\n")
        proc.terminate()
        proc.wait(timeout=15)
        log.close()


@pytest.fixture
def browser(served: Served, request: pytest.FixtureRequest) -> Iterator[Browser]:
    """A fresh browser (own profile: no cookies) per test; a screenshot when the test fails."""
    binary = chromium_path()
    if binary is None:
        pytest.fail("chromium not installed: run scripts/e2e_browser.sh (apt-get install chromium)")
    b = Browser(served.tmp / f"profile-{request.node.name}", binary)
    b.send("Page.enable")
    try:
        yield b
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            b.screenshot(ARTIFACTS / f"failure-{request.node.name}.png")
            (ARTIFACTS / f"failure-{request.node.name}.txt").write_text(b.url() + "\n\n" + b.page_text())
    finally:
        b.close()


def timed(served: Served, name: str, b: Browser, text: str) -> float:
    """Seconds until ``text`` is on the page and the script is idle, recorded under ``name``."""
    t0 = time.monotonic()
    b.wait_text(text)
    b.wait_idle()
    took = time.monotonic() - t0 - 0.3  # wait_idle's settle pause
    served.timings[name] = round(took, 3)
    return took


def log_in(b: Browser, name: str = "rita", password: str = PASSWORD) -> None:
    b.wait_text("Floorman: log in")
    b.wait_idle()
    b.fill("input[type='text']", name)
    b.fill("input[type='password']", password)
    b.click_button("Log in")


def session_cookie(b: Browser) -> dict[str, object] | None:
    return next((c for c in b.cookies() if c["name"] == SESSION_COOKIE), None)


def test_login_survives_reload_and_new_tab_and_logout_ends_it(served: Served, browser: Browser) -> None:
    b = browser
    b.goto(served.url)
    log_in(b)
    timed(served, "login -> queue", b, "Reviewer workload")
    b.screenshot(ARTIFACTS / "01-queue-after-login.png")
    cookie = session_cookie(b)
    assert cookie is not None and cookie["sameSite"] == "Strict" and cookie["path"] == "/"
    assert 11 * 3600 < float(str(cookie["expires"])) - time.time() <= 12 * 3600

    b.reload()
    b.wait_text("Review queue")
    b.wait_idle()
    assert "Floorman: log in" not in b.page_text() and "rita (reviewer)" in b.page_text()
    b.screenshot(ARTIFACTS / "02-queue-after-reload.png")

    b.new_tab(f"{served.url}/violations")
    b.wait_text("Rule violations")
    b.wait_idle()
    assert "rita (reviewer)" in b.page_text()

    b.click_button("Log out")
    b.wait_text("Floorman: log in")
    b.wait_idle()
    b.reload()
    b.wait_text("Floorman: log in")
    b.wait_idle()
    assert "Review queue" not in b.page_text()
    b.screenshot(ARTIFACTS / "03-logged-out.png")

    # the logged-out cookie is dead server-side even if a copy of it is replayed
    other = Browser(served.tmp / "profile-replayed-cookie", str(chromium_path()))
    try:
        other.send("Page.enable")
        other.set_cookie(SESSION_COOKIE, str(cookie["value"]), served.url)
        other.goto(f"{served.url}/queue")
        other.wait_text("Floorman: log in")
        other.wait_idle()
        assert "Review queue" not in other.page_text()
    finally:
        other.close()


def test_case_link_in_a_fresh_browser_lands_on_the_case_after_login(served: Served, browser: Browser) -> None:
    b = browser
    b.goto(f"{served.url}/case?case=f-sqz-004")  # a prefix in another case: the short form is accepted
    b.wait_text("Floorman: log in")
    b.wait_idle()
    assert "Page not found" not in b.page_text()
    b.screenshot(ARTIFACTS / "04-case-link-login.png")
    log_in(b)
    timed(served, "login -> linked case", b, "What would overturn it")
    text = b.page_text()
    assert "F-sqz-004" in text and "squeeze" in text
    assert "case=F-sqz-004" in b.url()
    b.screenshot(ARTIFACTS / "05-linked-case.png")
    b.goto(f"{served.url}/login")  # a bookmarked login page, already logged in: the queue
    b.wait_text("Reviewer workload")
    b.wait_idle()
    assert "Page not found" not in b.page_text()


def test_login_address_in_a_fresh_browser(served: Served, browser: Browser) -> None:
    b = browser
    b.goto(f"{served.url}/login")
    b.wait_text("Floorman: log in")
    b.wait_idle()
    assert "Page not found" not in b.page_text()


def click_queue_row(b: Browser, expected: str, attempts: int = 3) -> None:
    """Click the queue grid's second row until ``expected`` shows. The grid is a canvas that draws
    after the script is idle, so under load a click can land before the rows exist and is lost;
    a lost click is retried, but a row that never opens its case still fails the test."""
    for attempt in range(attempts):
        # rows and header are 35 px high: the second row's selection marker
        x, y = b.wait_for("""(() => { const g = document.querySelector("[data-testid='stDataFrame']");
            if (!g) return null; g.scrollIntoView({block: 'center'}); const r = g.getBoundingClientRect();
            return [r.x + 18, r.y + 35 + 35 + 17]; })()""", what="queue grid")
        time.sleep(0.5 * (attempt + 1))  # give the canvas time to draw its rows
        b.mouse_click(x, y)
        try:
            b.wait_text(expected, timeout=10 if attempt + 1 < attempts else 30)
            return
        except TimeoutError:
            if attempt + 1 == attempts:
                raise


def test_a_queue_row_opens_its_case(served: Served, browser: Browser) -> None:
    b = browser
    b.goto(served.url)
    log_in(b)
    b.wait_text("Reviewer workload")
    b.wait_idle()
    t0 = time.monotonic()
    click_queue_row(b, "checks back strong hands")  # F-soft-003's explanation (row 1 is the chip + ring case)
    b.wait_idle()
    served.timings["queue row -> case"] = round(time.monotonic() - t0 - 0.5, 3)  # less the first draw wait
    assert "case=F-soft-003" in b.url()
    b.screenshot(ARTIFACTS / "05b-row-opened-case.png")
    b.click_button("Queue", "a")  # back to the queue: the old selection does not bounce to the case again
    b.wait_text("Reviewer workload")
    b.wait_idle()
    time.sleep(1.0)
    b.wait_idle()
    assert "Review queue" in b.page_text() and "case=" not in b.url()


def usd(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def test_hand_page_shows_every_action_as_text(served: Served, browser: Browser) -> None:
    b = browser
    hand = "pokerstars:1002"
    b.goto(f"{served.url}/hand?hand=1002&case=F-chip-001")  # the site prefix is optional
    log_in(b)
    timed(served, "login -> linked hand", b, "alice wins $40.50 from the main pot")
    b.screenshot(ARTIFACTS / "06-hand-replay.png")
    lines = b.page_text().splitlines()
    with duckdb.connect(str(current_snapshot(served.root)), read_only=True) as con:
        actions = con.execute("SELECT seq, player, kind, amount, raise_to FROM actions WHERE hand_id = ?"
                              " ORDER BY seq", [hand]).fetchall()
    assert len(actions) == 13
    for seq, player, kind, _amount, raise_to in actions:
        line = next((ln for ln in lines if re.match(rf"#{seq}\s", ln)), None)
        assert line is not None, f"no line for action #{seq} in the page text"
        assert player in line, (seq, player, line)
        if kind == "bet":
            assert f"{player}: bet {usd(raise_to)}" in line, line
        elif kind == "raise":
            assert f"{player}: raise to {usd(raise_to)}" in line, line
        elif kind in ("call", "fold", "check"):
            assert f"{player}: {kind}" in line, line
    # the finding sits under the action it is about (bob's call of a raise, #3)
    at3 = next(i for i, ln in enumerate(lines) if ln.startswith("#3 "))
    assert any("UNDERCALL.FULL_CALL" in ln for ln in lines[at3 + 1 : at3 + 4])

    t0 = time.monotonic()
    b.click_button("◀ Back")
    b.wait_text("last action: #11 bob: fold")
    b.wait_idle()
    served.timings["hand step back"] = round(time.monotonic() - t0 - 0.3, 3)
    b.screenshot(ARTIFACTS / "07-hand-step-back.png")

    b.click_button("★ alice", "a")
    timed(served, "hand -> player link", b, "Net result")
    assert "player=alice" in b.url()
    b.goto(f"{served.url}/hand?hand={hand}&case=F-chip-001")  # a new page load: the cookie keeps rita in
    b.wait_text("Back to case F-chip-001")
    b.wait_idle()
    b.click_button("← Back to case F-chip-001", "a")
    timed(served, "hand -> back to case", b, "What would overturn it")
    assert "case=F-chip-001" in b.url()


def test_reviewer_assigns_notes_decides_and_exports(served: Served, browser: Browser) -> None:
    b = browser
    downloads = served.tmp / "downloads"
    b.allow_downloads(downloads)
    b.goto(served.url)
    log_in(b)
    b.wait_text("Reviewer workload")
    b.wait_idle()
    t0 = time.monotonic()
    b.click_button("Open case")  # the selectbox defaults to the top-ranked case
    b.wait_text("bob folds strong made hands")
    b.wait_idle()
    served.timings["queue -> case"] = round(time.monotonic() - t0 - 0.3, 3)
    assert "case=F-chip-001" in b.url()
    store = ReviewStore(served.review)

    b.click_button("Assign")  # defaults to the reviewer herself
    wait_until(lambda: store.statuses().get("F-chip-001", ("", None))[1] == "rita", "assignment stored")
    b.wait_text("Assigned to: rita")
    b.fill("textarea[aria-label='Add a note']", "asked payments for bob's deposit history (e2e)")
    b.click_button("Add note")
    wait_until(lambda: bool(store.notes("F-chip-001")), "note stored")
    assert [(a, t) for a, _, t in store.notes("F-chip-001")] == [
        ("rita", "asked payments for bob's deposit history (e2e)")]
    b.wait_text("asked payments for bob's deposit history (e2e)")
    b.wait_idle()
    b.screenshot(ARTIFACTS / "08-assigned-and-noted.png")

    b.click_button("escalate", "[data-testid='stRadio'] label")
    b.fill("textarea[aria-label='Reason (required)']", "bob folded a full house to a river bet (e2e)")
    b.click_button("Record decision")
    wait_until(lambda: bool(store.decisions("F-chip-001")), "decision stored")
    [d] = store.decisions("F-chip-001")
    assert (d.actor, d.decision, d.reason) == ("rita", "escalate", "bob folded a full house to a river bet (e2e)")
    b.wait_text("escalated")
    b.wait_idle()
    b.screenshot(ARTIFACTS / "09-decision.png")
    assert store.workload()["rita"] == {"decisions": 1, "assigned_open": 1}

    b.click_button("Build evidence export")
    b.wait_text("Download evidence zip")
    b.wait_idle()
    b.click_button("Download evidence zip")
    target = downloads / "evidence-F-chip-001.zip"
    wait_until(target.exists, "download")
    b.screenshot(ARTIFACTS / "10-export.png")
    blob = target.read_bytes()
    assert evidence.verify_bundle(blob) == []
    # the browser's bundle is byte-identical to a rebuild from the same snapshot and review store
    assert evidence.build_bundle(current_snapshot(served.root), "F-chip-001", ReviewStore(served.review)) == blob


def test_five_wrong_passwords_then_even_the_right_one_is_refused(served: Served, browser: Browser) -> None:
    b = browser
    b.goto(served.url)
    for i in range(5):
        log_in(b, "lou", f"wrong-{i}")
        b.wait_idle()
        b.wait_text("Unknown user or wrong password." if i < 4 else "Too many failed log-ins")
    log_in(b, "lou", "lou-e2e-pw")
    b.wait_idle()
    b.wait_text("Too many failed log-ins: try again in")
    assert "Review queue" not in b.page_text()
    b.screenshot(ARTIFACTS / "11-locked-out.png")
    refused = [e for e in ReviewStore(served.review).audit_log() if e["action"] == "login.refused"]
    assert refused and refused[-1]["object"] == "lou"


def test_pages_answer_within_the_budget(served: Served) -> None:
    """Runs last: the server's script runs of the page views above, p95 of their CPU under RUN_BUDGET.

    Why CPU seconds of the script thread, not wall time: on this shared 2-core machine wall time
    follows whatever else runs (load 8-11 while these tests were written: a 0.1 s CPU run waited
    up to 3 s for a core). Wall times are written to page_runs.json beside the load for the record.
    """
    runs = [json.loads(line) for line in (served.tmp / "page_timings.jsonl").read_text().splitlines()]
    # page views of a logged-in reviewer: not the login form's runs (Argon2id on purpose costs ~0.3 s of
    # CPU per attempt) and not the run that builds an evidence bundle (an explicit, slower action)
    views = [r for r in runs if r["user"] and not r["action"]]
    assert len(views) >= 15, f"too few page runs recorded: {len(views)}"
    by_page: dict[str, list[dict[str, float]]] = {}
    for r in views:
        by_page.setdefault(r["page"], []).append(r)
    summary = {p: {"runs": len(v), "wall_p50": pct([r["seconds"] for r in v], 0.5),
                   "wall_max": max(r["seconds"] for r in v), "cpu_p50": pct([r["cpu"] for r in v], 0.5),
                   "cpu_max": max(r["cpu"] for r in v)} for p, v in sorted(by_page.items())}
    cpu95, wall95 = pct([r["cpu"] for r in views], 0.95), pct([r["seconds"] for r in views], 0.95)
    load = os.getloadavg()[0]
    (ARTIFACTS / "page_runs.json").write_text(json.dumps(
        {"views": len(views), "cpu_p95": cpu95, "wall_p95": wall95, "load_1min": round(load, 2), "pages": summary,
         "browser_click_to_drawn": served.timings}, indent=2) + "\n")
    assert cpu95 < RUN_BUDGET, f"p95 script CPU {cpu95:.3f} s >= {RUN_BUDGET} s: {summary}"
    slow = {k: v for k, v in served.timings.items() if v > BROWSER_BUDGET}
    assert not slow, f"browser slower than {BROWSER_BUDGET} s (load {load:.1f}): {slow}"


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    v = sorted(values)
    return v[max(0, min(len(v) - 1, round(q * len(v)) - 1))]


def wait_until(check: object, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(check) and check():
            return
        time.sleep(0.2)
    raise TimeoutError(f"timed out waiting for {what}")
