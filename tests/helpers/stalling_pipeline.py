"""An item pipeline that writes items one at a time, in order, and stalls on one page's item.

It stands for a user's pipeline ahead of the plugin's (a database with one connection, say) that
hiccups: Scrapy goes on downloading while the items queue behind the stalled one, so the plugin's
pipeline sees those pages long after the sampling middleware did.  Settings: ``TEST_STALL_URL``
(the URL suffix whose item stalls) and ``TEST_STALL_SECONDS``.
"""

from __future__ import annotations

from typing import Any

from scrapy.crawler import Crawler
from twisted.internet.defer import Deferred
from twisted.internet.task import deferLater


class StallingPipeline:
    """Passes each item on after the one before it, plus a stall for the item of ``stall_url``."""

    def __init__(self, stall_url: str, stall_seconds: float) -> None:
        self.stall_url = stall_url
        self.stall_seconds = stall_seconds
        self._previous: Deferred[None] | None = None  # fires when the item before this one passed

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StallingPipeline:
        return cls(crawler.settings["TEST_STALL_URL"], crawler.settings.getfloat("TEST_STALL_SECONDS"))

    def process_item(self, item: Any, spider: Any = None) -> Deferred[Any]:
        from twisted.internet import reactor  # imported late: the crawler installs the reactor

        delay = self.stall_seconds if item["url"].endswith(self.stall_url) else 0.0
        previous, passed = self._previous, Deferred()
        self._previous = passed

        def write(_: object) -> Deferred[Any]:
            return deferLater(reactor, delay, lambda: item)

        written = (previous if previous is not None else deferLater(reactor, 0, lambda: None)).addCallback(write)
        written.addCallback(lambda result: (passed.callback(None), result)[1])
        return written
