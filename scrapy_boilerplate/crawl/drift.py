"""Template drift during the crawl: measure one cleaned page in N, re-sample a site that drifted.

The pipeline asks :meth:`DriftWatch.due` before cleaning; a measured page is cleaned and measured
in one go (:func:`clean_and_measure`) and its figures go to :meth:`DriftWatch.observe`.  On drift
the site collects a new sample while its model keeps cleaning, and the next fit replaces it.  Pages
of a re-sampling site that reach the pipeline join the new sample too (see
:meth:`~scrapy_boilerplate.crawl.sampler.Sampler.offer_late`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from scrapy_boilerplate.crawl.book import SiteBook
from scrapy_boilerplate.crawl.domain import DomainStatus
from scrapy_boilerplate.crawl.events import SiteKey
from scrapy_boilerplate.crawl.persistence import ModelSync
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store import StoreError
from scrapy_boilerplate.store.sharing import Learned, SharedLearning

logger = logging.getLogger(__name__)


def clean_and_measure(model: SiteModel, page: Page, learned: Learned) -> tuple[CleanedPage, float | None]:
    """Clean one page and measure its unseen share for drift on the same parsed tree (thread-safe)."""
    return model.clean(page), SharedLearning.unseen_share(learned, page)


class DriftWatch:
    """Which pages to measure, and a drift noticed: ``on_drift(key)`` makes the site sample again."""

    def __init__(self, book: SiteBook, sync: ModelSync, on_drift: Callable[[SiteKey], None]) -> None:
        self.book = book
        self.sync = sync
        self.on_drift = on_drift

    def watch(self, key: SiteKey, learned: Learned) -> None:
        """``learned`` was just put to use for ``key``: its pages are compared with its fit from now on."""
        self.sync.watch(key, learned)

    def due(self, key: SiteKey, model: SiteModel) -> Learned | None:
        """The model in use if this page of ``key`` should be measured for drift (one in N)."""
        learned = self.book.in_use(key)
        monitor = self.sync.monitor
        if monitor is None or learned is None or learned.model is not model:
            return None
        return learned if self.book.status(key) is DomainStatus.READY and monitor.due(key) else None

    def observe(self, key: SiteKey, learned: Learned, removed_share: float, unseen_share: float | None) -> None:
        """One measured page; on drift, ``key`` samples again while its model keeps cleaning."""
        if self.book.in_use(key) is not learned or self.book.status(key) is not DomainStatus.READY:
            return  # the model changed meanwhile, or a new sample is under way
        try:
            drift = self.sync.observe(key, removed_share, unseen_share, learned)
        except StoreError as exc:
            self.sync.failed(f"restarting the sample of {key} after a template change", exc)
            return
        if drift is not None:
            self.on_drift(key)

    def report_unfinished(self) -> None:
        """At the crawl's end, say which sites changed template but never filled their new sample."""
        for key, pages in self.book.resampling():
            logger.info(
                "boilerplate: the crawl ended before %s's new sample filled after its template changed "
                "(%d of %d pages): its items were cleaned by the model fitted before the change, and "
                "this crawl stores no newer one",
                key,
                pages,
                self.book.sample_size,
            )
