"""Labelled pages for the page-type classifier: a folder of pages and a ``manifest.json`` naming
each page's type.

The manifest is WCXB's layout: ``pages[]`` with ``path`` (the page file without ``.html``, under
the folder; ``.html.gz`` is read too), ``site``, ``url``, ``page_type`` and ``gold_empty`` (a page
whose saved HTML has no main content: its label is :data:`~scrapy_boilerplate.pagetype.labels.NO_CONTENT`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scrapy_boilerplate.corpus import read_page_bytes
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.pagetype.labels import NO_CONTENT, PAGE_TYPES
from scrapy_boilerplate.pagetype.signals import PageSignals, read_signals

logger = logging.getLogger(__name__)
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class LabelledPage:
    """One page's signals, its site (the group cross-validation keeps together) and its type."""

    path: str
    site: str
    label: str
    signals: PageSignals


def manifest_entries(data_dir: Path) -> list[dict[str, Any]]:
    """The manifest's page entries (raises ``ValueError`` on a folder without a readable one)."""
    try:
        document = json.loads((data_dir / MANIFEST).read_bytes())
    except (OSError, ValueError) as exc:
        raise ValueError(f"{data_dir} has no readable {MANIFEST}: {exc}") from exc
    pages = document.get("pages") if isinstance(document, dict) else None
    if not isinstance(pages, list):
        raise ValueError(f"{data_dir / MANIFEST} lists no pages")
    return [entry for entry in pages if isinstance(entry, dict) and isinstance(entry.get("path"), str)]


def entry_label(entry: dict[str, Any]) -> str | None:
    """The page type an entry gives, or None when it gives none this classifier knows."""
    if entry.get("gold_empty"):
        return NO_CONTENT
    label = entry.get("page_type")
    return label if label in PAGE_TYPES else None


def read_entry_page(data_dir: Path, entry: dict[str, Any]) -> Page:
    """The entry's page, decoded as a crawler would, with its web address when the entry has one."""
    plain = data_dir / (entry["path"] + ".html")
    body = read_page_bytes(plain if plain.is_file() else data_dir / (entry["path"] + ".html.gz"))
    url = entry.get("url")
    return Page.from_bytes(body, url=url if isinstance(url, str) else "")


def labelled_pages(data_dir: Path, page_done: Callable[[], object] = lambda: None) -> Iterator[LabelledPage]:
    """Every labelled page of ``data_dir`` that can be read, in manifest order."""
    for entry in manifest_entries(data_dir):
        label = entry_label(entry)
        if label is None:
            continue
        try:
            page = read_entry_page(data_dir, entry)
        except (OSError, ValueError) as exc:
            logger.warning("page-type training: skipping %s: %s", entry["path"], exc)
            continue
        site = entry.get("site") if isinstance(entry.get("site"), str) else entry["path"].split("/")[0]
        yield LabelledPage(entry["path"], str(site), label, read_signals(page))
        page_done()
