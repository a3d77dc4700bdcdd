"""The site-level benchmarks' shared selection: the sites of a set with their gold pages.

A site-level site is one of several pages whose site is known (``_unknown*`` folders never); its
gold pages are those with a ``.txt`` gold file beside them, in file-name order.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scrapy_boilerplate.corpus import Site, find_sites, gold_path
from scrapy_boilerplate.evaluation.bench import is_site_level
from scrapy_boilerplate.offline import load_page
from scrapy_boilerplate.page import Page


@dataclass
class GoldSite:
    """A site's gold pages, loaded once: (page, gold text), in file-name order."""

    site: Site
    pages: list[tuple[Page, str]]


def gold_sites(data_dir: Path, max_pages: int | None = None) -> list[GoldSite]:
    """Every site-level site of ``data_dir`` with its gold pages (its first ``max_pages`` of them when given)."""
    out = []
    for site in find_sites(data_dir):
        if not is_site_level(site):
            continue
        pages = []
        for path in site.pages:
            if max_pages is not None and len(pages) >= max_pages:
                break
            if gold_path(path).is_file():
                pages.append((load_page(path), gold_path(path).read_text(encoding="utf-8", errors="replace")))
        out.append(GoldSite(site, pages))
    return out
