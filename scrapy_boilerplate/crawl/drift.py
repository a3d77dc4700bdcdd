"""Template drift during the crawl: measure one cleaned page in N, re-sample a domain that drifted.

The pipeline asks :meth:`DriftWatch.due` before cleaning; a measured page is cleaned and measured
in one go (:func:`clean_and_measure`) and its figures go to :meth:`DriftWatch.observe`.  On drift
the domain collects a new sample while its model keeps cleaning, and the next fit replaces it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

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
