"""A linked synthetic site written to disk and served on a loopback port, as the crawl tests crawl it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from scrapy_boilerplate.testing.localsite import serve_directory, write_linked_site
from scrapy_boilerplate.testing.synthetic import SyntheticPage


@contextlib.contextmanager
def served_linked_site(
    root: Path, name: str, n_pages: int, seed: int
) -> Iterator[tuple[str, dict[str, SyntheticPage]]]:
    """Write site ``name`` of ``n_pages`` linked pages under ``root`` and serve it; yields (base URL,
    {page URL: page})."""
    pages = write_linked_site(root, name, n_pages, seed=seed)
    with serve_directory(root) as base:
        yield base, dict(zip(article_urls(base, n_pages), pages, strict=True))


def article_urls(base: str, n_pages: int) -> list[str]:
    """The URLs of the first ``n_pages`` pages of a linked site served at ``base``."""
    return [f"{base}/article/{i}.html" for i in range(n_pages)]
