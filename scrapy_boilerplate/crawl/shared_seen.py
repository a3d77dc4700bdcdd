"""Pages fetched by unfiltered requests enter scrapy-redis's shared "seen" set, so no link fetches them again.

Scrapy's start requests (and scrapy-redis's ``RedisSpider`` seeds) have ``dont_filter=True``: the
scheduler neither checks nor records them in the dupefilter.  In one process that already fetches
a start page twice when another page links to it; on scrapy-redis every worker of the crawl may
then fetch and export it again.  Under the scrapy-redis scheduler this watcher adds each such
request's fingerprint to the shared dupefilter as the request is scheduled.  It drops nothing:
the request goes on as Scrapy meant, and only later *filtered* requests for the same page are
left out, as for any page seen.  A start request of this worker that the shared set already held
(another worker's start requests, or an earlier crawl's) is said once: its page is exported again.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler

from scrapy_boilerplate.store.factory import uses_scrapy_redis

logger = logging.getLogger(__name__)

# Meta keys of a request that is a retry or a redirect of another: its page was recorded already.
REPEAT_META = ("retry_times", "redirect_times")


class SharedSeenPages:
    """Records unfiltered requests in the scrapy-redis dupefilter (connected by the learner)."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self._warned = False
        self._failed = False

    @classmethod
    def connect(cls, crawler: Crawler) -> SharedSeenPages | None:
        """Watch the requests scheduled in a scrapy-redis crawl (None for any other scheduler)."""
        if not uses_scrapy_redis(crawler.settings):
            return None
        watcher = cls(crawler)
        crawler.signals.connect(watcher.request_scheduled, signal=signals.request_scheduled)
        return watcher

    def _dupefilter(self) -> Any:
        engine = self.crawler.engine
        slot = getattr(engine, "_slot", None)  # Scrapy 2.13's engine has no public ``scheduler``
        scheduler = getattr(engine, "scheduler", None) or getattr(slot, "scheduler", None)
        return getattr(scheduler, "df", None)

    def _seeded(self) -> bool:
        """True when the spider reads its start URLs from Redis (each seed is then popped by one worker)."""
        spider = self.crawler.spider
        return hasattr(spider, "redis_key") and callable(getattr(spider, "next_requests", None))  # RedisMixin's

    def request_scheduled(self, request: Request, **_: Any) -> None:
        """Record an unfiltered request's page as seen; say once that a start page is fetched again."""
        dupefilter = self._dupefilter()
        if not request.dont_filter or dupefilter is None or self._failed:
            return
        try:
            seen = dupefilter.request_seen(request)
        except Exception as exc:  # a Redis failure: the request goes on, as it would without this
            self._failed = True
            logger.warning("boilerplate: cannot record unfiltered requests in the shared dupefilter: %r", exc)
            return
        repeat = any(key in request.meta for key in REPEAT_META)
        if seen and request.meta.get("is_start_request") and not repeat and not self._warned and not self._seeded():
            self._warned = True
            spider = self.crawler.spider.name if self.crawler.spider else "SPIDER"
            logger.warning(
                "boilerplate: start request %s was fetched before by another worker or an earlier crawl (the shared "
                "dupefilter has it), and start requests are not filtered, so its page is exported again; seed start "
                "URLs into the Redis list '%s:start_urls' of a scrapy_redis RedisSpider so that one worker fetches "
                "each (see the distributed recipe in the store documentation)",
                request.url,
                spider,
            )
