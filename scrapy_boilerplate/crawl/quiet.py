"""Release waiting items when the crawl is quiet for ``BOILERPLATE_QUIET_SECONDS`` or is closing.

``spider_idle`` cannot tell: the engine is not idle while items wait in the pipelines, and
``spider_closed`` comes only after they left.  So a looping call asks :mod:`engine_state`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from scrapy.crawler import Crawler
from twisted.internet.task import LoopingCall

from scrapy_boilerplate.crawl.engine_state import only_pipeline_items_left, spider_closing

if TYPE_CHECKING:
    from scrapy_boilerplate.crawl.learner import BoilerplateLearner

# How often the engine is looked at, as a share of the quiet period.
TICKS_PER_QUIET_PERIOD = 4


class QuietWatcher:
    """Release waiting items when the crawl is quiet for ``quiet_seconds`` or is closing."""

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
        if spider_closing(self.crawler):
            self.learner.stop.tick()
            return
        waiting = self.learner.hold.count
        if not waiting or len(self.learner.fits) or not only_pipeline_items_left(self.crawler, waiting):
            self._quiet_since = None
            return
        now = time.monotonic()
        if self._quiet_since is None:
            self._quiet_since = now
        elif now - self._quiet_since >= self.quiet_seconds:
            self._quiet_since = None
            self.learner.release_unfinished()
