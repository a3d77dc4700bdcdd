"""A headless Chromium driven over the DevTools protocol on a pipe: open pages, measure, take screenshots.

One browser serves many pages (a launch costs about a second), and the page under test runs
with its own Content-Security-Policy intact: measurements are made by the protocol's
``Runtime.evaluate``, not by a script injected into the page.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
BROWSER = next((path for path in map(shutil.which, BROWSERS) if path), None)
TIMEOUT_SECONDS = 60


class BrowserError(RuntimeError):
    """The browser answered a command with an error, or went away."""


class Browser:
    """``with Browser() as browser: browser.open(url, width, height)``, then measure and screenshot."""

    def __init__(self) -> None:
        if BROWSER is None:
            raise BrowserError(f"no headless browser found (looked for {', '.join(BROWSERS)})")
        self._profile = tempfile.TemporaryDirectory()
        to_browser, self._to_browser = os.pipe()
        self._from_browser, from_browser = os.pipe()

        def wire() -> None:  # the protocol pipe is the child's fds 3 (in) and 4 (out)
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        command = [
            BROWSER,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--remote-debugging-pipe",
            f"--user-data-dir={self._profile.name}",
        ]
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,
            pass_fds=(3, 4),
        )
        os.close(to_browser)
        os.close(from_browser)
        self._reader = os.fdopen(self._from_browser, "rb")
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Page.enable", session=True)

    def _read(self) -> dict[str, Any]:
        data = bytearray()
        while True:
            byte = self._reader.read(1)
            if not byte:
                raise BrowserError("the browser closed the pipe")
            if byte == b"\0":
                return json.loads(data)
            data += byte

    def send(self, method: str, session: bool = False, **params: Any) -> dict[str, Any]:
        """Send one command and return its result (events that arrive meanwhile are kept)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._events.append(reply)

    def _wait_for(self, event: str) -> None:
        while not any(e.get("method") == event for e in self._events):
            self._events.append(self._read())
        self._events.clear()

    def open(self, url: str, width: int, height: int) -> None:
        """Load ``url`` in a ``width`` x ``height`` viewport and wait for it to load."""
        self.send("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height,
                  deviceScaleFactor=1, mobile=False)  # fmt: skip
        self._events.clear()
        self.send("Page.navigate", session=True, url=url)
        self._wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the open page (run by the protocol, not the page)."""
        result = self.send("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self) -> bytes:
        """A PNG of the viewport."""
        return base64.b64decode(self.send("Page.captureScreenshot", session=True, format="png")["data"])

    def close(self) -> None:
        """End the browser."""
        with contextlib.suppress(BrowserError, OSError):
            self.send("Browser.close")
        try:
            self._process.wait(timeout=TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._reader.close()
        os.close(self._to_browser)
        self._profile.cleanup()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def file_url(path: Path) -> str:
    """The ``file://`` URL of a local file."""
    return path.resolve().as_uri()
