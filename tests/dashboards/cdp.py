"""A minimal Chrome DevTools Protocol driver for the browser test (Debian's /usr/bin/chromium).

Why not Playwright or Selenium: neither is in the project's environment, and Playwright cannot
download its browser builds here. Chromium speaks CDP over a websocket, and ``websockets``
already ships with Streamlit, so a page can be driven with real input events in ~100 lines.
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

CHROMIUM_FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-extensions", "--disable-sync", "--no-first-run",
    "--no-default-browser-check", "--mute-audio", "--window-size=1400,1000", "--hide-scrollbars",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


class Browser:
    """One headless Chromium process and a session on its first page."""

    def __init__(self, profile: Path, binary: str) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [binary, *CHROMIUM_FLAGS, f"--remote-debugging-port={self.port}", f"--user-data-dir={profile}",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=2))
                page = next(t for t in targets if t.get("type") == "page")
                version = json.load(urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/version", timeout=2))
                break
            except (OSError, StopIteration):
                if time.monotonic() > deadline:
                    self.close()
                    raise RuntimeError("chromium did not start its DevTools endpoint") from None
                time.sleep(0.2)
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(connect(page["webSocketDebuggerUrl"], max_size=None))
        self.browser_ws: ClientConnection = self._stack.enter_context(
            connect(version["webSocketDebuggerUrl"], max_size=None)
        )
        self._id = 0

    def close(self) -> None:
        stack = getattr(self, "_stack", None)
        if stack is not None:
            stack.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def send(self, method: str, browser: bool = False, **params: Any) -> dict[str, Any]:
        ws = self.browser_ws if browser else self.ws
        self._id += 1
        ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg.get("id") == self._id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return dict(msg.get("result", {}))

    def eval(self, js: str) -> Any:
        r = self.send("Runtime.evaluate", expression=js, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"JS error in {js!r}: {r['exceptionDetails']}")
        return r.get("result", {}).get("value")

    def goto(self, url: str) -> None:
        self.send("Page.navigate", url=url)

    def reload(self) -> None:
        """F5: a new page load, hence a new Streamlit session (only cookies carry over)."""
        self.send("Page.reload", ignoreCache=True)

    def url(self) -> str:
        return str(self.eval("location.href"))

    def new_tab(self, url: str) -> None:
        """Open ``url`` in a new tab of the same browser (same cookie jar) and drive that tab."""
        target = self.send("Target.createTarget", browser=True, url=url)["targetId"]
        deadline = time.monotonic() + 30
        while True:
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=2))
            found = [t for t in targets if t.get("id") == target and t.get("webSocketDebuggerUrl")]
            if found:
                break
            if time.monotonic() > deadline:
                raise RuntimeError("new tab has no DevTools endpoint")
            time.sleep(0.2)
        self.ws = self._stack.enter_context(connect(found[0]["webSocketDebuggerUrl"], max_size=None))
        self.send("Page.enable")

    def cookies(self) -> list[dict[str, Any]]:
        return list(self.send("Storage.getCookies", browser=True).get("cookies", []))

    def set_cookie(self, name: str, value: str, url: str) -> None:
        self.send("Network.setCookie", name=name, value=value, url=url)

    def fill(self, css: str, text: str) -> None:
        """Replace an input's whole value as a user would (select all, type over it)."""
        self.click_selector(css)
        self.eval(f"document.querySelector({json.dumps(css)}).select()")
        self.send("Input.insertText", text=text)

    def wait_for(self, js: str, timeout: float = 30, what: str = "") -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = self.eval(js)
            except RuntimeError:
                value = None
            if value:
                return value
            time.sleep(0.25)
        raise TimeoutError(f"timed out waiting for {what or js}")

    def wait_idle(self) -> None:
        """Streamlit finished its rerun: connected, script not running."""
        self.wait_for(
            "!!document.querySelector(\"[data-testid='stApp'][data-test-script-state='notRunning']\")",
            what="script idle",
        )
        time.sleep(0.3)

    def page_text(self) -> str:
        return str(self.eval("document.body.innerText"))

    def wait_text(self, text: str, timeout: float = 30) -> None:
        self.wait_for(f"document.body.innerText.includes({json.dumps(text)})", timeout, what=repr(text))

    def click_button(self, label: str, css: str = "button") -> None:
        """Click the first visible element matching ``css`` whose text is ``label`` (real mouse events)."""
        rect = self.wait_for(
            f"""(() => {{ const b = [...document.querySelectorAll({json.dumps(css)})]
                .find(b => b.innerText.trim() === {json.dumps(label)} && b.offsetParent !== null);
                if (!b) return null; b.scrollIntoView({{block: 'center'}});
                const r = b.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()""",
            what=f"button {label!r}",
        )
        self.mouse_click(rect[0], rect[1])

    def click_selector(self, css: str) -> None:
        rect = self.wait_for(
            f"""(() => {{ const e = document.querySelector({json.dumps(css)}); if (!e) return null;
                e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect();
                return [r.x + r.width / 2, r.y + r.height / 2]; }})()""",
            what=css,
        )
        self.mouse_click(rect[0], rect[1])

    def mouse_click(self, x: float, y: float) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def type_into(self, css: str, text: str) -> None:
        """Focus an input by CSS selector and type like a user (insertText fires input events)."""
        self.click_selector(css)
        self.send("Input.insertText", text=text)

    def press(self, key: str) -> None:
        codes = {"Enter": 13, "Tab": 9}
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, code=key,
                      windowsVirtualKeyCode=codes[key], text="\r" if key == "Enter" and kind == "keyDown" else "")

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = self.send("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))

    def allow_downloads(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.send("Browser.setDownloadBehavior", browser=True, behavior="allow", downloadPath=str(folder))
