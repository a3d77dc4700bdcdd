"""A local site some of whose pages never come: their requests wait, unanswered, until the test ends."""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterator
from pathlib import Path

from scrapy_boilerplate.testing.localsite import QuietHandler, serve_directory


@contextlib.contextmanager
def served_with_hanging_pages(root: Path, hang: str) -> Iterator[str]:
    """Serve ``root``; requests whose path matches the regex ``hang`` get no answer until the block
    ends (then their connection closes).  Yields the base URL."""
    released = threading.Event()

    class HangingHandler(QuietHandler):
        def do_GET(self) -> None:  # the stdlib's name
            if re.search(hang, self.path):
                released.wait()  # not a delay: the page never comes while the test runs
                return
            super().do_GET()

    with serve_directory(root, handler_class=HangingHandler) as base:
        try:
            yield base
        finally:
            released.set()
