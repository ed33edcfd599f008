"""Real browser: log in, open the top case, replay an evidence hand, decide, download the export.

Runs with ``bash scripts/e2e_browser.sh`` (installs Debian's chromium when missing, then
``pytest -m e2e``). Skipped unless FLOORMAN_E2E=1 so the default test run stays fast.
Screenshots go to test-artifacts/e2e/.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboards import evidence
from dashboards.auth import ensure_user
from dashboards.review_store import ReviewStore
from tests.dashboards.cdp import Browser, chromium_path, free_port
from tests.dashboards.warehouse_fixture import build_warehouse
from warehouse.snapshot import publish

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(os.environ.get("FLOORMAN_E2E") != "1", reason="browser test: run scripts/e2e_browser.sh"),
]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path, Path, Path]]:
    build = build_warehouse(tmp_path / "build.duckdb", tmp_path / "landing")
    root = tmp_path / "published"
    publish(build, root)
    users = tmp_path / "users.json"
    ensure_user(users, "rita", "rita-e2e-pw", "reviewer")
    review = tmp_path / "review.sqlite"
    port = free_port()
    log = (tmp_path / "streamlit.log").open("wb")
    env = {**os.environ, "FLOORMAN_PUBLISHED": str(root), "FLOORMAN_USERS": str(users),
           "FLOORMAN_REVIEW_DB": str(review)}
    env.pop("FLOORMAN_DB", None)
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
            pytest.fail("streamlit did not become healthy: " + (tmp_path / "streamlit.log").read_text()[-2000:])
        time.sleep(0.3)
    try:
        yield url, root, review, tmp_path
    finally:
        proc.terminate()
        proc.wait(timeout=15)
        log.close()


def test_review_flow_in_headless_chromium(served: tuple[str, Path, Path, Path]) -> None:
    url, root, review, tmp = served
    binary = chromium_path()
    if binary is None:
        pytest.fail("chromium not installed: run scripts/e2e_browser.sh (apt-get install chromium)")
    b = Browser(tmp / "profile", binary)
    try:
        downloads = tmp / "downloads"
        b.allow_downloads(downloads)
        b.send("Page.enable")
        b.goto(url)
        b.wait_text("Floorman: log in")
        b.wait_idle()
        b.screenshot(ARTIFACTS / "01-login.png")

        b.type_into("input[type='text']", "rita")
        b.type_into("input[type='password']", "rita-e2e-pw")
        b.click_button("Log in")
        b.wait_text("Review queue")
        b.wait_text("Reviewer workload")
        b.wait_idle()
        b.screenshot(ARTIFACTS / "02-queue.png")

        b.click_button("Open case")  # the selectbox defaults to the top-ranked case
        b.wait_text("bob folds strong made hands")
        b.wait_idle()
        b.screenshot(ARTIFACTS / "03-case.png")

        b.click_button("Replay")  # first-ranked evidence hand
        b.wait_text("Hand replayer")
        b.wait_text("pokerstars:1002")
        b.wait_text("alice collects $40.50")
        b.wait_idle()
        b.screenshot(ARTIFACTS / "04-hand-replay.png")

        b.click_selector("a[href$='/case']")
        b.wait_text("Record decision")
        b.wait_idle()
        b.click_button("escalate", "[data-testid='stRadio'] label")
        b.type_into("textarea", "bob folded a full house to a river bet (e2e)")
        b.click_button("Record decision")
        deadline = time.monotonic() + 30
        while not ReviewStore(review).decisions("F-chip-001") and time.monotonic() < deadline:
            time.sleep(0.3)
        [d] = ReviewStore(review).decisions("F-chip-001")
        assert (d.actor, d.decision, d.reason) == ("rita", "escalate", "bob folded a full house to a river bet (e2e)")
        b.wait_text("escalated")
        b.wait_idle()
        b.screenshot(ARTIFACTS / "05-decision.png")

        b.click_button("Build evidence export")
        b.wait_text("Download evidence zip")
        b.wait_idle()
        b.click_button("Download evidence zip")
        deadline = time.monotonic() + 30
        target = downloads / "evidence-F-chip-001.zip"
        while not target.exists() and time.monotonic() < deadline:
            time.sleep(0.3)
        b.screenshot(ARTIFACTS / "06-export.png")
        assert target.exists(), f"no download in {list(downloads.iterdir())}"
        blob = target.read_bytes()
        assert evidence.verify_bundle(blob) == []
        # the browser's bundle is byte-identical to a rebuild from the same snapshot and review store
        from warehouse.snapshot import current_snapshot

        assert evidence.build_bundle(current_snapshot(root), "F-chip-001", ReviewStore(review)) == blob
    except Exception:
        b.screenshot(ARTIFACTS / "failure.png")
        raise
    finally:
        b.close()
