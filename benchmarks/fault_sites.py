"""Synthetic sites served with faults, for benchmarks/fault_crawl.py.

Each page of each site gets at most one fault, chosen from its site and page numbers (seeded):

- ``500``: the first request answers 500 (Scrapy retries it);
- ``cut``: the first request's connection is closed before any answer (retried);
- ``slow``: the first request answers only after ``SLOW_SECONDS``, past the crawl's
  ``DOWNLOAD_TIMEOUT`` (retried);
- ``json`` / ``png``: the page is served as JSON, or as a PNG image;
- ``huge``: the page is padded to ``HUGE_BYTES`` with an HTML comment (one page in the crawl).

Every fault of the first three kinds is transient, so every page ends with one response: a crawl
that loses nothing exports one item per page.
"""

from __future__ import annotations

import functools
import json
import random
import socket
import threading
import time
from collections import Counter
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path

from scrapy_boilerplate.testing.localsite import QuietHandler, serve_directory, write_linked_site

SLOW_SECONDS = 4.0
DOWNLOAD_TIMEOUT = 2  # the crawl's setting, below SLOW_SECONDS
HUGE_BYTES = 30 * 1024 * 1024
FAULT_SHARES = {"500": 0.08, "cut": 0.05, "slow": 0.02, "json": 0.03, "png": 0.03}
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(range(256)) * 4


def plan_faults(sites: int, pages: int, seed: int = 0) -> dict[tuple[int, int], str]:
    """(site, page) -> fault, for the pages that get one; one page of the crawl is ``huge``."""
    rng = random.Random(seed)
    plan: dict[tuple[int, int], str] = {}
    for site in range(sites):
        for page in range(pages):
            draw, edge = rng.random(), 0.0
            for fault, share in FAULT_SHARES.items():
                edge += share
                if draw < edge:
                    plan[site, page] = fault
                    break
    plan[sites // 2, pages - 1] = "huge"
    return plan


class FaultyHandler(QuietHandler):
    """Serves a site's folder, with the faults of ``faults`` (page number -> fault)."""

    def __init__(self, *args, faults: dict[int, str], attempts: Counter, lock: threading.Lock, **kwargs) -> None:
        self.faults, self.attempts, self.lock = faults, attempts, lock
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:
        try:
            self._answer()
        except (ConnectionResetError, BrokenPipeError):  # the crawler gave up on a slow answer
            self.close_connection = True

    def _answer(self) -> None:
        name = Path(self.path).name
        fault = self.faults.get(int(name.split(".")[0])) if name.endswith(".html") else None
        with self.lock:
            self.attempts[self.path] += 1
            first = self.attempts[self.path] == 1
        if fault == "500" and first:
            self.send_error(500)
        elif fault == "cut" and first:
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
        elif fault == "slow" and first:
            time.sleep(SLOW_SECONDS)
            super().do_GET()
        elif fault in ("json", "png", "huge"):
            self._send_body(fault)
        else:
            super().do_GET()

    def _send_body(self, fault: str) -> None:
        html = Path(self.translate_path(self.path)).read_bytes()
        if fault == "json":
            body, kind = json.dumps({"url": self.path, "html": html.decode()}).encode(), "application/json"
        elif fault == "png":
            body, kind = PNG, "image/png"
        else:
            body, kind = html + b"<!--" + b"x" * (HUGE_BYTES - len(html)) + b"-->", "text/html; charset=utf-8"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve_faulty(root: Path, faults: dict[int, str]) -> AbstractContextManager[str]:
    """Serve ``root`` with ``faults`` on a loopback port; the context gives the base URL."""
    handler = functools.partial(FaultyHandler, faults=faults, attempts=Counter(), lock=threading.Lock())
    return serve_directory(root, handler_class=handler)


def serve_faulty_sites(stack: ExitStack, root: Path, sites: int, pages: int) -> tuple[list[str], Counter]:
    """Write and serve ``sites`` sites with planned faults: every page's URL, and the faults by kind."""
    plan = plan_faults(sites, pages)
    seeds: list[str] = []
    for site in range(sites):
        write_linked_site(root / f"faulty{site}", f"faulty{site}.example", pages, seed=site)
        faults = {page: fault for (s, page), fault in plan.items() if s == site}
        base = stack.enter_context(serve_faulty(root / f"faulty{site}", faults))
        seeds += [f"{base}/article/{n}.html" for n in range(pages)]
    return seeds, Counter(plan.values())
