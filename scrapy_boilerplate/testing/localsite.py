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


LISTING_FOLDER = "list"


def listing_html(site: str, index: int, pages: int, article_paths: list[str]) -> str:
    """A listing page of ``site`` (another template than its articles): a grid of cards linking
    ``article_paths``, a pager to the next listing (of ``pages``), a header and a footer."""
    cards = "".join(
        f'<li class="card"><a href="{path}">Story {index}-{j}</a><span class="meta">{j + 3} comments</span></li>'
        for j, path in enumerate(article_paths)
    )
    pager = f'<a class="next" href="/{LISTING_FOLDER}/{(index + 1) % pages}.html">Next page</a>'
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Section {index} | {site}</title></head><body>'
        f'<div class="topbar"><span class="brand">{site}</span><form class="search"><input name="q"></form></div>'
        f'<section class="listing"><h2 class="heading">Section {index}</h2><ul class="cards">{cards}</ul>'
        f'<div class="pager">{pager}</div></section><aside class="promo"><p>Subscribe to {site}</p></aside>'
        f'<div class="bottom"><p>All stories of {site}</p></div></body></html>'
    )


def write_two_template_site(root: str | Path, site: str, articles: int, listings: int, seed: int = 0) -> list[str]:
    """Write a site of two templates: ``articles`` linked article pages (``/article/N.html``, with
    their gold text, see :func:`write_linked_site`) and ``listings`` listing pages
    (``/list/N.html``) of another skeleton, each linking the next listing and a few articles.
    Returns the seed paths that reach every page (``/list/0.html`` and ``/article/0.html``)."""
    pages = make_site(site, articles, seed=seed, variation=False, linked=True)
    folder = Path(root) / "article"
    folder.mkdir(parents=True, exist_ok=True)
    for i, page in enumerate(pages):
        (folder / f"{i}.html").write_text(page.html, encoding="utf-8")
        (folder / f"{i}.txt").write_text(page.article_text + "\n", encoding="utf-8")
    lists = Path(root) / LISTING_FOLDER
    lists.mkdir(parents=True, exist_ok=True)
    for i in range(listings):
        linked = [f"/article/{(i * 3 + j) % articles}.html" for j in range(4)]
        (lists / f"{i}.html").write_text(listing_html(site, i, listings, linked), encoding="utf-8")
    return [f"/{LISTING_FOLDER}/0.html", "/article/0.html"]
