"""Notice when only held items keep the crawl alive, or when the spider starts closing.

``spider_idle`` cannot tell us: the engine is not idle while the scraper slot has items in the
pipelines (scrapy/core/engine.py:438-447, scrapy/core/scraper.py:99), and the engine waits for every
in-progress request, including those whose items we hold, before ``spider_closed``
(scrapy/core/engine.py:88-98 and :650).  So a looping call reads the engine's state.  It reads two
private attributes (``_slot``, ``_start``); if a future Scrapy renames them, the watcher reports
"not quiet" and "not closing", and the per-item deadline still releases everything.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from scrapy.crawler import Crawler
from twisted.internet.task import LoopingCall

if TYPE_CHECKING:
    from scrapy_boilerplate.crawl.learner import BoilerplateLearner

_MISSING = object()
# How often the engine is looked at, as a share of the quiet period.
TICKS_PER_QUIET_PERIOD = 4


class QuietWatcher:
    """Release held items when the crawl is quiet for ``quiet_seconds`` or is closing."""

    def __init__(self, crawler: Crawler, learner: BoilerplateLearner, quiet_seconds: float) -> None:
        self.crawler = crawler
        self.learner = learner
        self.quiet_seconds = quiet_seconds
        self._loop = LoopingCall(self.tick)
        self._quiet_since: float | None = None

    def start(self, **_: Any) -> None:
        """Start looking (connected to ``spider_opened``)."""
        if not self._loop.running:
            self._loop.start(self.quiet_seconds / TICKS_PER_QUIET_PERIOD, now=False)

    def stop(self) -> None:
        """Stop looking."""
        if self._loop.running:
            self._loop.stop()

    def tick(self) -> None:
        """One look at the engine."""
        engine = getattr(self.crawler, "engine", None)
        slot = getattr(engine, "_slot", None)
        if engine is None or slot is None:
            return
        if getattr(slot, "closing", None) is not None:
            self.learner.release_all()
            return
        if not self.learner.hold.count or not self._only_held_items_left(engine, slot):
            self._quiet_since = None
            return
        now = time.monotonic()
        if self._quiet_since is None:
            self._quiet_since = now
        elif now - self._quiet_since >= self.quiet_seconds:
            self._quiet_since = None
            self.learner.release_unfinished(reason="crawl went quiet before the sample was complete")

    def _only_held_items_left(self, engine: Any, slot: Any) -> bool:
        scraper_slot = getattr(engine.scraper, "slot", None)
        start = getattr(engine, "_start", _MISSING)
        if scraper_slot is None or start is not None:  # start requests not exhausted (or unknown)
            return False
        return (
            not engine.downloader.active
            and not slot.scheduler.has_pending_requests()
            and not scraper_slot.queue
            and scraper_slot.itemproc_size <= self.learner.hold.count
        )
