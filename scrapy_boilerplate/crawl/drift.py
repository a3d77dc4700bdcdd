"""Template drift during the crawl: measure one cleaned page in N, re-sample a domain that drifted.

The pipeline asks :meth:`DriftWatch.due` before cleaning; a measured page is cleaned and measured
in one go (:func:`clean_and_measure`) and its figures go to :meth:`DriftWatch.observe`.  On drift
the domain collects a new sample while its model keeps cleaning, and the next fit replaces it.

Drift is noticed in the pipeline, but pages join a sample in the downloader middleware, when they
are downloaded: the pages downloaded before the change was noticed (Scrapy downloads on while
items wait in the pipelines) have already passed it.  So the pipeline offers each page of a
re-sampling domain to the new sample too (:meth:`DriftWatch.offer_page`); a page offered twice
counts once.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING
from urllib.parse import urldefrag

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.domain import DomainStatus
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store import StoreError
from scrapy_boilerplate.store.sharing import Learned, SharedLearning

if TYPE_CHECKING:
    from scrapy_boilerplate.crawl.learner import BoilerplateLearner

logger = logging.getLogger(__name__)


def clean_and_measure(model: SiteModel, html: str, url: str, learned: Learned) -> tuple[CleanedPage, float | None]:
    """Clean one page and measure its unseen share for drift on the same parsed tree (thread-safe)."""
    page = Page(html, url)
    return model.clean(page), SharedLearning.unseen_share(learned, page)


class DriftWatch:
    """The drift side of the learner: which pages to measure, and what a drift changes."""

    def __init__(self, learner: BoilerplateLearner) -> None:
        self.learner = learner

    def due(self, domain: str, model: SiteModel) -> Learned | None:
        """The model in use if this page of ``domain`` should be measured for drift (one in N)."""
        state = self.learner.domains.get(domain)
        sync = self.learner.sync
        if sync.monitor is None or state is None or state.learned is None or state.learned.model is not model:
            return None
        return state.learned if state.status is DomainStatus.READY and sync.monitor.due(domain) else None

    def observe(self, domain: str, learned: Learned, removed_share: float, unseen_share: float | None) -> None:
        """One measured page; on drift, ``domain`` samples again while its model keeps cleaning."""
        state = self.learner.domains.get(domain)
        if state is None or state.learned is not learned or state.status is not DomainStatus.READY:
            return  # the model changed meanwhile, or a new sample is under way
        sync = self.learner.sync
        try:
            drift = sync.observe(domain, removed_share, unseen_share, learned)
        except StoreError as exc:
            sync.failed(f"restarting the sample of {domain} after a template change", exc)
            return
        if drift is not None:
            self.learner.stats.inc_value(keys.DRIFT_DETECTED)
            state.drifted()

    def resampling(self, domain: str) -> bool:
        """True while ``domain`` collects a new sample after a template change."""
        state = self.learner.domains.get(domain)
        return state is not None and state.status is DomainStatus.RESAMPLING

    def offer_page(self, domain: str, url: str, html: str) -> None:
        """A page of ``domain`` reached the pipeline: while the domain re-samples, it joins the new
        sample unless the sampling middleware already offered it (see the module docstring).  The
        URL's fragment is dropped: a listing page's entries share their page."""
        if not self.resampling(domain):
            return
        state = self.learner.domains[domain]
        url = urldefrag(url)[0]
        if url not in state.urls:
            self.learner.add_sample(domain, Page(html, url))

    def report_unfinished(self) -> None:
        """At the crawl's end, say which domains changed template but never filled their new sample."""
        for domain, state in self.learner.domains.items():
            if state.status is DomainStatus.RESAMPLING:
                logger.info(
                    "boilerplate: the crawl ended before %s's new sample filled after its template changed "
                    "(%d of %d pages): its items were cleaned by the model fitted before the change, and "
                    "this crawl stores no newer one",
                    domain,
                    self.learner.sampling.pages(domain),
                    self.learner.config.sample_size,
                )
