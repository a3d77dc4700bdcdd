"""The one module that reads Scrapy's private engine state, for the quiet-crawl watcher (and that
hands recovered items to the scraper).

Scrapy has no public way to ask "is the spider closing?" before ``spider_closed`` (which comes only
after every item in the pipelines left, including the waiting ones), nor "is anything left but the
items in the pipelines?" (``spider_idle`` never fires while items wait).  Both are read here from
the engine's private ``_slot`` and ``_start``; tests/test_crawl_engine_state.py checks them on each
supported Scrapy.  If a Scrapy renames them, both answers are "no": nothing is released early, and
each waiting item's deadline still releases it.

Items taken over from a dead worker (see :mod:`recovery`) enter the item pipelines through the
scraper's ``start_itemproc_async`` (Scrapy 2.14+; ``start_itemproc`` before), the same call that
the scraper makes for every item a callback or ``start()`` yields: they pass every pipeline, the
``item_scraped`` signal and the feeds, and count in the scraper's slot, so the spider is not idle
while they are processed.
"""

from __future__ import annotations

from typing import Any

_MISSING = object()


def spider_closing(crawler: Any) -> bool:
    """True once the engine started closing the spider (CLOSESPIDER_*, Ctrl-C, finished)."""
    slot = getattr(getattr(crawler, "engine", None), "_slot", None)
    return slot is not None and getattr(slot, "closing", None) is not None


def only_pipeline_items_left(crawler: Any, waiting: int) -> bool:
    """True when the crawl has nothing left to do but ``waiting`` items in the item pipelines:
    no start request, no request scheduled or downloading, no response being scraped."""
    engine = getattr(crawler, "engine", None)
    slot = getattr(engine, "_slot", None)
    scraper_slot = getattr(getattr(engine, "scraper", None), "slot", None)
    if engine is None or slot is None or scraper_slot is None or getattr(engine, "_start", _MISSING) is not None:
        return False  # start requests not exhausted (or a Scrapy whose internals differ)
    return (
        not engine.downloader.active
        and not slot.scheduler.has_pending_requests()
        and not scraper_slot.queue
        and scraper_slot.itemproc_size <= waiting
    )


async def send_to_item_pipelines(crawler: Any, item: Any) -> None:
    """Process ``item`` through the item pipelines, as the scraper does an item a callback yields."""
    scraper = crawler.engine.scraper
    start = getattr(scraper, "start_itemproc_async", None) or scraper.start_itemproc  # Scrapy 2.13: async
    await start(item, response=None)


class EngineView:
    """The two questions about ``crawler``'s engine, for parts that should not hold the crawler."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler

    def closing(self) -> bool:
        """See :func:`spider_closing`."""
        return spider_closing(self.crawler)

    def only_items_left(self, waiting: int) -> bool:
        """See :func:`only_pipeline_items_left`."""
        return only_pipeline_items_left(self.crawler, waiting)
