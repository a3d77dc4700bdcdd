"""The link from an item to the response that produced it, kept outside the item.

Item pipelines never see the response; the spider middleware does, next to each item its
callback yields.  It records here, per item (by identity), either the response whose page cleans
an item that does not carry its HTML, or that the item's request opted out.  The pipeline reads the
entry and removes it; an item dropped or failed before the pipeline reaches it is removed on
``item_dropped`` / ``item_error``.  So the page never enters the item, its feed or its log line.
Plain dicts cannot be weakly referenced, hence the id-keyed map with the item kept beside its id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scrapy import signals
from scrapy.http import Response, TextResponse

from scrapy_boilerplate.page import Page

OPTED_OUT = None  # the entry of an item whose request set dont_clean_boilerplate


@dataclass(frozen=True)
class ItemPage:
    """The page an item is cleaned from: its HTML, URL, size in Scrapy's scraper slot, response
    (None when the item carries the HTML), and the page parsed already to tell its template (its
    clean reads the same tree)."""

    html: str
    url: str
    size: int
    response: Response | None = None
    parsed: Page | None = None


class ItemPages:
    """id(item) -> (item, its response, or OPTED_OUT)."""

    def __init__(self, crawler: Any) -> None:
        self._crawler = crawler
        self._entries: dict[int, tuple[Any, TextResponse | None]] = {}
        self._forgetting = False

    def __len__(self) -> int:
        return len(self._entries)

    def link(self, item: Any, response: TextResponse) -> None:
        """``item`` came from ``response`` and will be cleaned from its page."""
        self._add(item, response)

    def opt_out(self, item: Any) -> None:
        """``item`` came from a request with ``dont_clean_boilerplate``: it passes untouched."""
        self._add(item, OPTED_OUT)

    def take(self, item: Any) -> tuple[bool, TextResponse | None]:
        """Remove ``item``'s entry: (whether it had one, its response or OPTED_OUT)."""
        entry = self._entries.get(id(item))
        if entry is None or entry[0] is not item:
            return False, None
        del self._entries[id(item)]
        return True, entry[1]

    def forget(self, item: Any, **_: Any) -> None:
        """Remove ``item``'s entry if it has one (an item that left without reaching the pipeline)."""
        self.take(item)

    def clear(self) -> None:
        """Forget everything (spider closed)."""
        self._entries.clear()

    def _add(self, item: Any, value: TextResponse | None) -> None:
        if not self._forgetting:
            # Connected at the first entry: a receiver of these signals costs each one an asyncio
            # task, so crawls that never link an item do without them.  item_scraped is not
            # needed: every scraped item went through the pipeline, which took its entry.
            self._forgetting = True
            for signal in (signals.item_dropped, signals.item_error):
                self._crawler.signals.connect(self.forget, signal=signal)
        self._entries[id(item)] = (item, value)
