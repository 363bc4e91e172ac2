"""A minimal W3C WebDriver client for a headless Chromium, over plain HTTP (urllib).

Starts Debian's ``chromedriver`` on a free port and drives one browser session: open a
page, run a script, press keys, read the console log, take a screenshot. No packages
beyond the standard library.
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
DRIVER_CANDIDATES = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--hide-scrollbars",
]
KEYS = {"ArrowLeft": "\ue012", "ArrowRight": "\ue014", "Home": "\ue011", "End": "\ue010"}


class WebDriverError(RuntimeError):
    """The driver answered with an error."""


def find_binaries() -> tuple[str, str] | None:
    """Paths of Chromium and chromedriver, or None when either is missing."""
    chromium = next((p for p in CHROMIUM_CANDIDATES if Path(p).exists()), None) \
        or shutil.which("chromium")
    driver = next((p for p in DRIVER_CANDIDATES if Path(p).exists()), None) \
        or shutil.which("chromedriver")
    return (chromium, driver) if chromium and driver else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Browser:
    """One headless Chromium session driven through chromedriver."""

    def __init__(self, chromium: str, driver: str, width: int = 1280, height: int = 900) -> None:
        self.port = _free_port()
        self.profile = tempfile.mkdtemp(prefix="e2e-chromium-")
        self.driver = subprocess.Popen(
            [driver, f"--port={self.port}"], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        self._wait_ready()
        capabilities = {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [*CHROMIUM_FLAGS, f"--user-data-dir={self.profile}",
                         f"--window-size={width},{height}"],
            },
            "goog:loggingPrefs": {"browser": "ALL"},
        }
        answer = self._call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = f"/session/{answer['sessionId']}"

    def _wait_ready(self, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/status", timeout=2) as response:
                    if json.load(response).get("value", {}).get("ready"):
                        return
            except (urllib.error.URLError, ConnectionError, ValueError):
                pass
            time.sleep(0.1)
        raise WebDriverError("chromedriver did not start")

    def _call(self, method: str, path: str, payload: dict[str, Any] | None = None) -> Any:
        data = json.dumps(payload if payload is not None else {}).encode() \
            if method == "POST" else None
        request = urllib.request.Request(
            self.base + path, data=data, method=method,
            headers={"Content-Type": "application/json; charset=utf-8"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                body = json.load(response)
        except urllib.error.HTTPError as error:
            detail = error.read().decode(errors="replace")[:500]
            raise WebDriverError(f"{method} {path}: {error.code} {detail}") from None
        return body.get("value")

    # -- the session ---------------------------------------------------------------

    def get(self, url: str) -> None:
        self._call("POST", f"{self.session}/url", {"url": url})

    def run(self, script: str, *args: Any) -> Any:
        """Run ``script`` (a function body: use ``return``) in the page."""
        return self._call("POST", f"{self.session}/execute/sync",
                          {"script": script, "args": list(args)})

    def press(self, key: str) -> None:
        """Press and release a key (``ArrowRight``, ``Home``... or a character)."""
        value = KEYS.get(key, key)
        self._call("POST", f"{self.session}/actions", {"actions": [{
            "type": "key", "id": "keyboard",
            "actions": [{"type": "keyDown", "value": value}, {"type": "keyUp", "value": value}],
        }]})

    def upload(self, selector: str, path: Path) -> None:
        """Choose ``path`` in the file input that ``selector`` finds."""
        found = self._call("POST", f"{self.session}/element",
                           {"using": "css selector", "value": selector})
        element = next(iter(found.values()))
        self._call("POST", f"{self.session}/element/{element}/value", {"text": str(path)})

    def set_size(self, width: int, height: int) -> None:
        self._call("POST", f"{self.session}/window/rect", {"width": width, "height": height})

    def console_errors(self) -> list[str]:
        """Console messages of level SEVERE since the last call (chromedriver's log)."""
        entries = self._call("POST", f"{self.session}/se/log", {"type": "browser"}) or []
        return [entry["message"] for entry in entries if entry.get("level") == "SEVERE"]

    def screenshot(self, path: Path, full_page: bool = True) -> Path:
        """Save a PNG of the page (the whole page height, up to 6000 px, if ``full_page``)."""
        if full_page:
            width = int(self._call("GET", f"{self.session}/window/rect")["width"])
            size = self.run("return [document.documentElement.scrollHeight,"
                            " window.outerHeight - window.innerHeight];")
            self.set_size(width, min(int(size[0]) + int(size[1]), 6000))
        png = base64.b64decode(self._call("GET", f"{self.session}/screenshot"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return path

    def quit(self) -> None:
        try:
            self._call("DELETE", self.session)
        except (WebDriverError, urllib.error.URLError, ConnectionError):
            pass
        finally:
            self.driver.terminate()
            try:
                self.driver.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.driver.kill()
            shutil.rmtree(self.profile, ignore_errors=True)
