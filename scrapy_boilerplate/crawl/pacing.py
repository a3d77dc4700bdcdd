"""Whether waiting for a template's fit can pay: how fast the crawl's samples fill.

An item that waits for its template's fit falls back once ``BOILERPLATE_HOLD_TIMEOUT`` seconds pass
without its sample getting a page.  Scrapy's scheduler takes a broad crawl's domains in turn, so the
time between two sample pages of one template grows with the domains crawled at once: past a few
hundred domains it nears the deadline, the items that waited fall back all the same, and the hold
meanwhile keeps their responses in memory.  So the pace is measured (a running mean of the time
between consecutive sample pages of a template, over every template), and while it is above the
deadline an item does not wait: the single-page model cleans it at once (``not_waiting``), and its
template's fit, once its sample fills, serves the pages that come after.
"""

from __future__ import annotations

from collections.abc import Callable

from scrapy_boilerplate.crawl.events import SiteKey

MEAN_WEIGHT = 0.1  # weight of the newest interval in the running mean
DEADLINE_SHARE = 1.0  # items wait while the mean interval is at most this share of the hold's timeout


class SamplePace:
    """The running mean time between a template's sample pages, and what it says about waiting."""

    def __init__(self, timeout: float, clock: Callable[[], float]) -> None:
        """``timeout``: BOILERPLATE_HOLD_TIMEOUT; ``clock()``: the time now, in seconds."""
        self.limit = timeout * DEADLINE_SHARE
        self.clock = clock
        self.interval: float | None = None  # None: no template has had two sample pages yet
        self._last: dict[SiteKey, float] = {}  # templates sampling -> when their last page joined

    def page(self, key: SiteKey) -> None:
        """A page joined ``key``'s sample."""
        now = self.clock()
        last = self._last.get(key)
        self._last[key] = now
        if last is not None:
            gap = now - last
            self.interval = gap if self.interval is None else self.interval + MEAN_WEIGHT * (gap - self.interval)

    def done(self, key: SiteKey) -> None:
        """``key`` samples no more (its model is ready, or it gave up)."""
        self._last.pop(key, None)

    def waiting_pays(self) -> bool:
        """True while a template's next sample page is expected well within the hold's deadline."""
        return self.interval is None or self.interval <= self.limit

    def __len__(self) -> int:
        return len(self._last)
