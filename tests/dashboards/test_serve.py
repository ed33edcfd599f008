"""``floorman serve`` becomes the Streamlit server, so SIGTERM to it leaves no server behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.dashboards.cdp import free_port

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to inspect processes")


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, process group) of a live process, None once it is gone or a zombie."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2:].split()  # after "pid (comm) "
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[1]), int(fields[2])


def _related(pid: int) -> list[int]:
    """Live processes in ``pid``'s process group or parented by it."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (st := _stat(int(entry.name))) is not None and pid in st:
            out.append(int(entry.name))
    return out


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _answers(url: str) -> bool:
    try:
        return bool(urllib.request.urlopen(url, timeout=2).read() == b"ok")
    except OSError:
        return False


def test_sigterm_to_floorman_serve_stops_streamlit(snapshot: Path, users_file: Path, tmp_path: Path) -> None:
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipelines.cli", "serve", "--db", str(snapshot), "--port", str(port),
         "--users", str(users_file), "--review-db", str(tmp_path / "review.sqlite")],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    health = f"http://127.0.0.1:{port}/_stcore/health"
    try:
        deadline = time.monotonic() + 90
        while not _answers(health):
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "floorman serve never answered"
            time.sleep(0.3)
        assert "streamlit" in _cmdline(proc.pid)  # the process we started is the server itself (exec)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while _related(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = [(p, _cmdline(p)) for p in _related(proc.pid)]
        assert left == [], f"left running after SIGTERM: {left}"
        assert not _answers(health)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # only the group this test started
            proc.wait()
        log.close()
