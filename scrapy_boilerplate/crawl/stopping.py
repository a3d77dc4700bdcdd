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

from typing import TYPE_CHECKING

from scrapy_boilerplate.crawl.domain import DomainStatus
from scrapy_boilerplate.crawl.fallback import FallbackReason

if TYPE_CHECKING:
    from scrapy_boilerplate.crawl.learner import BoilerplateLearner


class GracefulStop:
    """Decides, once per domain, how the items still waiting at a stop get their model."""

    def __init__(self, learner: BoilerplateLearner, min_pages: int) -> None:
        self.learner = learner
        self.min_pages = min_pages
        self._tried: set[str] = set()  # domains already given their one fit at the stop

    def tick(self) -> None:
        """One look while the engine closes: decide for every domain with waiting items."""
        learner = self.learner
        for domain in learner.hold.domains():
            state = learner.state(domain)
            if domain in learner.fits or state.status not in (DomainStatus.SAMPLING, DomainStatus.FITTING):
                continue  # its fit is on the way, or its items are not waiting for one
            if domain not in self._tried and learner.sample_pages(domain) >= self.min_pages:
                self._tried.add(domain)
                learner.fit_partial(domain)
            else:
                learner.stop_waiting(domain, state, FallbackReason.CLOSING)
