"""Serve a directory on localhost (demo, tests, benchmark) and write linked synthetic sites to serve."""

from __future__ import annotations

import contextlib
import functools
import random
import threading
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from scrapy_boilerplate.testing.synthetic import SyntheticPage, make_site

LOOPBACK = "127.0.0.1"


class QuietHandler(SimpleHTTPRequestHandler):
    """Static files, without a log line per request."""

    def log_message(self, format: str, *args: Any) -> None:  # the stdlib's name
        return


@contextlib.contextmanager
def serve_directory(
    root: str | Path, port: int = 0, handler_class: Callable[..., SimpleHTTPRequestHandler] = QuietHandler
) -> Iterator[str]:
    """Serve ``root`` on the loopback address in a background thread; yields the base URL.

    ``handler_class`` answers the requests: a ``SimpleHTTPRequestHandler`` subclass (or a factory of
    one, such as a ``functools.partial`` of it), given ``directory=root``.  Tests serve pages compressed
    or redirected with one, the fault benchmark serves errors and cut connections.
    """
    server = ThreadingHTTPServer((LOOPBACK, port), functools.partial(handler_class, directory=str(root)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=f"serve {root}", daemon=True)
    thread.start()
    try:
        yield f"http://{LOOPBACK}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def write_linked_site(
    root: str | Path,
    site: str,
    n_pages: int,
    seed: int = 0,
    paragraphs: Callable[[random.Random, int], list[str]] | None = None,
    page_kb: int = 0,
) -> list[SyntheticPage]:
    """Write a synthetic site whose pages link to each other as ``root/article/N.html``.

    Every page is reachable from ``/article/0.html``; ``article/N.txt`` holds the gold article text.
    ``paragraphs`` and ``page_kb`` are passed to :func:`~scrapy_boilerplate.testing.synthetic.make_site`.
    """
    folder = Path(root) / "article"
    folder.mkdir(parents=True, exist_ok=True)
    pages = make_site(site, n_pages, seed=seed, linked=True, paragraphs=paragraphs, page_kb=page_kb)
    for i, page in enumerate(pages):
        (folder / f"{i}.html").write_text(page.html, encoding="utf-8")
        (folder / f"{i}.txt").write_text(page.article_text + "\n", encoding="utf-8")
    return pages


SEED_PATH = "/article/0.html"
