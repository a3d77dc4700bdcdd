"""The speed benchmarks' shared set-up: each site's readable pages, unparsed copies, every N-th page, timing.

A clean is timed from a fresh, unparsed :class:`Page` (parsing included, as in the peers' time); a
sample is parsed before a timed fit, as a crawl parses its sample before fitting.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from scrapy_boilerplate.corpus import Site, find_sites
from scrapy_boilerplate.offline import load_page
from scrapy_boilerplate.page import Page


def site_pages(data_dir: Path) -> Iterator[tuple[Site, list[Page]]]:
    """Every site of ``data_dir`` with its pages that read and decode (others are skipped)."""
    for site in find_sites(data_dir):
        pages = []
        for path in site.pages:
            try:
                pages.append(load_page(path))
            except (OSError, ValueError):
                continue
        yield site, pages


def fresh(page: Page) -> Page:
    """An unparsed copy of ``page``: timing a clean of it includes parsing."""
    return Page(page.html, page.url)


def parsed(pages: list[Page]) -> list[Page]:
    """Parsed copies of ``pages``, as a crawl holds its sample when it fits."""
    return [fresh(page).parse() for page in pages]


class EveryNth:
    """Picks every ``n``-th page over a whole corpus (the count runs on across sites)."""

    def __init__(self, n: int) -> None:
        self.n, self.count = n, 0

    def __call__(self) -> bool:
        """True for the page just counted when it is an ``n``-th one."""
        self.count += 1
        return self.count % self.n == 0


def seconds(call: Callable[..., Any], *args: Any, clock: Callable[[], float] = time.perf_counter) -> float:
    """How long ``call(*args)`` took on ``clock``."""
    started = clock()
    call(*args)
    return clock() - started
