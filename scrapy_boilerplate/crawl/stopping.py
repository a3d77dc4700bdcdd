"""A graceful stop (Ctrl-C, ``CLOSESPIDER_*``): fit what was sampled before the waiting items go on.

Scrapy's close waits for every request in progress, and so for every item waiting in the
pipeline; ``spider_closed`` comes only after they left.  So the quiet watcher calls
:meth:`GracefulStop.tick` on each look once the engine is closing.  Each domain whose items wait:

- with a fit queued here, keeps waiting for it (its items still have their deadline);
- still sampling (or waiting for another worker's fit) with at least
  ``BOILERPLATE_MIN_SAMPLE_SIZE`` sample pages, is fitted on those pages, once.  The model cleans
  this crawl's items only: it is not stored, and the sample stays open for the next crawl;
- otherwise falls back (``closing``), and its items go on at once.

Items that reach the pipeline later in the close (responses still downloading) are handled by
the next look, a quarter of ``BOILERPLATE_QUIET_SECONDS`` later.
"""

from __future__ import annotations

from collections.abc import Callable, Container

from scrapy_boilerplate.crawl.book import SiteBook
from scrapy_boilerplate.crawl.domain import DomainStatus
from scrapy_boilerplate.crawl.events import Event, SiteKey
from scrapy_boilerplate.crawl.fallback import FallbackReason


class GracefulStop:
    """Decides, once per site, how the items still waiting at a stop get their model (changes to ``emit``)."""

    def __init__(
        self,
        book: SiteBook,
        waiting: Callable[[], list[SiteKey]],
        fitting: Container[SiteKey],
        emit: Callable[[list[Event]], None],
        min_pages: int,
    ) -> None:
        """``waiting()``: the sites with waiting items; ``fitting``: the sites with a fit queued or running."""
        self.book = book
        self.waiting = waiting
        self.fitting = fitting
        self.emit = emit
        self.min_pages = min_pages
        self._tried: set[SiteKey] = set()  # sites already given their one fit at the stop

    def tick(self) -> None:
        """One look while the engine closes: decide for every site with waiting items."""
        for key in self.waiting():
            if key in self.fitting or self.book.status(key) not in (DomainStatus.SAMPLING, DomainStatus.FITTING):
                continue  # its fit is on the way, or its items are not waiting for one
            if key not in self._tried and self.book.sample_pages(key) >= self.min_pages:
                self._tried.add(key)
                self.emit(self.book.fit_partial(key))
            else:
                self.emit(self.book.stop_waiting(key, FallbackReason.CLOSING))
