"""The learner: per-domain samples and models (a Scrapy extension, the hub of the other components).

The sampling middleware offers it pages; when a domain's sample is full, its fit is queued
(:class:`FitQueue`: one fit at a time, see :mod:`fitting`) and the model adopted when ready.  The
pipeline asks it for a domain's model and waits in its :class:`HoldQueue` meanwhile.  Each domain
is a :class:`DomainState` state machine.  A watcher releases waiting items when the crawl goes quiet
or starts closing, because ``spider_idle`` never fires while an item waits.

Its steps live beside it, one concern per module, as the classes it is made of:
:mod:`sample_intake` (filling samples), :mod:`adoption` (fitting and adopting models),
:mod:`shared_domains` (other workers' models and samples) and :mod:`domain_fallback` (domains with
no model coming).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.utils.defer import maybe_deferred_to_future

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.adoption import STORED, FitAndAdopt
from scrapy_boilerplate.crawl.config import BoilerplateConfig, fitted_fallback
from scrapy_boilerplate.crawl.domain import DomainState
from scrapy_boilerplate.crawl.domain_fallback import DomainFallback
from scrapy_boilerplate.crawl.drift import DriftWatch
from scrapy_boilerplate.crawl.errors import BadSettingError, fail_crawl
from scrapy_boilerplate.crawl.fallback import FallbackReason, FallbackReport
from scrapy_boilerplate.crawl.fitting import FitQueue, FitRunner
from scrapy_boilerplate.crawl.holding import HoldQueue
from scrapy_boilerplate.crawl.itempages import ItemPages
from scrapy_boilerplate.crawl.persistence import ModelSync
from scrapy_boilerplate.crawl.polling import SharedStorePoller
from scrapy_boilerplate.crawl.quiet import QuietWatcher
from scrapy_boilerplate.crawl.recovery import HeldItemRecovery
from scrapy_boilerplate.crawl.sample_intake import SampleIntake
from scrapy_boilerplate.crawl.sampling import SamplingDomains
from scrapy_boilerplate.crawl.shared_domains import SharedStoreDomains
from scrapy_boilerplate.crawl.shared_seen import SharedSeenPages
from scrapy_boilerplate.crawl.stopping import GracefulStop
from scrapy_boilerplate.models.base import CleanedPage, SiteModel

if TYPE_CHECKING:
    from twisted.internet.interfaces import IDelayedCall

logger = logging.getLogger(__name__)


class BoilerplateLearner(SampleIntake, FitAndAdopt, SharedStoreDomains, DomainFallback):
    """Extension owning every domain's state, the fit queue, the hold queue and the shared registries."""

    def __init__(self, config: BoilerplateConfig, crawler: Crawler) -> None:
        from twisted.internet import reactor  # imported late: the crawler installs the reactor

        # Declared here: Twisted types the reactor by interfaces whose methods have no ``self``, so mypy
        # would take callLater's delay for its ``self`` and the callable for the delay.
        self._call_later: Callable[..., IDelayedCall] = reactor.callLater
        self.config = config
        self.crawler = crawler
        self.stats = crawler.stats
        self.fallback = fitted_fallback(config)
        self.report = FallbackReport(crawler.stats, config.fallback.label)
        self.hold = HoldQueue(config.hold_max_items, config.hold_max_bytes, config.hold_timeout, self._call_later)
        self.item_pages = ItemPages(crawler)
        self.domains: dict[str, DomainState] = {}
        self.sampling = SamplingDomains(config.max_sampling_domains, config.sample_size)
        self.fits = FitQueue(self._fit, self.hold.progressed)  # a fit done brings the next ones closer
        self._partial: set[str] = set()  # domains whose queued fit takes the sample as it is (a stop)
        self.stop = GracefulStop(self, config.min_sample_size)
        self.sync = ModelSync(config, crawler)
        self.fit_runner = FitRunner(self.sync)
        self.drift = DriftWatch(self)
        self.watcher = QuietWatcher(crawler, self, config.quiet_seconds)
        self.poller = SharedStorePoller(self, config.store_poll)
        self.recovery = HeldItemRecovery(self, config.worker_timeout, config.store_poll)
        self.seen_pages = SharedSeenPages.connect(crawler)  # scrapy-redis: unfiltered requests join the "seen" set
        self._resumed = set(self.sync.open_samples())  # partial samples kept in JOBDIR by an earlier run
        if self._resumed:
            logger.info(
                "boilerplate: going on with the partial samples of %d domains kept in JOBDIR", len(self._resumed)
            )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateLearner:
        """Build from settings (NotConfigured when disabled) and connect the signals."""
        try:
            config = BoilerplateConfig.from_settings(crawler.settings)
        except BadSettingError as error:
            raise fail_crawl(crawler, error) from error.__cause__
        learner = cls(config, crawler)
        crawler.signals.connect(learner.watcher.start, signal=signals.spider_opened)
        crawler.signals.connect(learner.poller.start, signal=signals.spider_opened)
        crawler.signals.connect(learner.recovery.start, signal=signals.spider_opened)
        crawler.signals.connect(learner.recovery.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(learner.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(learner.spider_closed, signal=signals.spider_closed)
        return learner

    # -- sampling ------------------------------------------------------------------------
    def state(self, domain: str) -> DomainState:
        """The state of ``domain``; on first sight its stored model is loaded, so it cleans at once."""
        state = self.domains.get(domain)
        if state is None:
            state = self.domains[domain] = DomainState()
            learned = self.sync.load(domain)
            if learned is not None:
                self._adopt(domain, state, learned, STORED)
            elif domain in self._resumed:
                self._resume_sample(domain, state)
        return state

    # -- models for the pipeline ---------------------------------------------------------
    def model_for(self, domain: str) -> SiteModel | None:
        """The fitted site model of ``domain``, or None."""
        state = self.domains.get(domain)
        return state.model if state is not None else None

    def should_hold(self, domain: str) -> bool:
        """True when an item of ``domain`` should wait for the domain's model.

        The middleware sees a response before the spider makes its items, so a domain with no
        page offered to its sample yet (e.g. an item URL on another host) has no model coming.
        """
        state = self.domains.get(domain)
        return state is not None and state.items_wait

    def fallback_reason(self, domain: str) -> FallbackReason:
        """Why an item of ``domain`` that did not wait goes to the fallback."""
        state = self.domains.get(domain)
        if state is None or (state.fallback_reason is None and not state.urls and state.model is None):
            return FallbackReason.NOT_SAMPLED
        return state.fallback_reason or FallbackReason.SAMPLE_NOT_FILLED

    def take_prepared(self, domain: str, url: str, html: str) -> CleanedPage | None:
        """The cleaning already done during the fit for this very page, if any."""
        state = self.domains.get(domain)
        if state is None or url not in state.prepared:
            return None
        sampled_html, cleaned = state.prepared.pop(url)
        return cleaned if sampled_html == html else None

    # -- signals --------------------------------------------------------------------------
    def spider_idle(self) -> None:
        """Domains that never completed their sample are cleaned by the fallback from now on."""
        for domain, state in list(self.domains.items()):
            if state.fall_back(FallbackReason.SAMPLE_NOT_FILLED):
                self.sampling.done(domain)
                self._domain_falls_back(domain, state, FallbackReason.SAMPLE_NOT_FILLED)

    async def spider_closed(self) -> None:
        """Stop watching and polling, finish the fits still queued (a re-fit after a template change
        near the end: its model is stored for the next crawl), release anything left, record the
        share of text removed, sum up.  Scrapy closes its stats once this returns."""
        self.watcher.stop()
        self.poller.stop()
        if len(self.fits):
            logger.info(
                "boilerplate: the crawl is closing; finishing %d queued fit(s) first so their models are stored",
                len(self.fits),
            )
            await maybe_deferred_to_future(self.fits.finished())
        self.drift.report_unfinished()
        self.release_all()
        self.item_pages.clear()
        self.recovery.stop()
        self.sync.close()
        total = self.stats.get_value(keys.CHARS_TOTAL, 0)
        if total:
            self.stats.set_value(keys.REMOVED_SHARE, round(self.stats.get_value(keys.CHARS_REMOVED, 0) / total, 4))
        skipped = {
            key.rsplit("/", 1)[1]: value
            for key, value in self.stats.get_stats().items()
            if key.startswith(keys.ITEMS_SKIPPED.split("{")[0])
        }
        self.report.log_summary(skipped)
