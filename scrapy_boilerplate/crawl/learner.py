"""The learner: the Scrapy extension that builds the crawl's parts, connects them to signals, and routes events.

Every site's state lives in one :class:`~scrapy_boilerplate.crawl.book.SiteBook`, the one place it
changes; each change returns events (:mod:`events`), which the parts hand to :meth:`route`.  The
parts each receive only what they use:

- :class:`~scrapy_boilerplate.crawl.sampler.Sampler`: pages offered to the samples (the sampling
  middleware's, the pipeline's and the recovery's);
- :class:`~scrapy_boilerplate.crawl.fitting.FitQueue`: one fit at a time, each run by
  :class:`~scrapy_boilerplate.crawl.fit_handler.FitHandler`;
- :class:`~scrapy_boilerplate.crawl.holding.HoldQueue`: items waiting for their site's model;
- :class:`~scrapy_boilerplate.crawl.sample_cleans.SampleCleans`: a fit's cleans of its sample pages;
- :class:`~scrapy_boilerplate.drift.watch.DriftWatch`, :class:`~scrapy_boilerplate.crawl.polling.SharedStorePoller`,
  :class:`~scrapy_boilerplate.crawl.quiet.QuietWatcher`, :class:`~scrapy_boilerplate.crawl.stopping.GracefulStop`
  and :class:`~scrapy_boilerplate.crawl.recovery.HeldItemRecovery`.

:meth:`route` releases a site's waiting items (with its model, or for the fallback), counts the
stats and logs each decision that changes users' output.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.utils.defer import maybe_deferred_to_future

import scrapy_boilerplate.crawl.events as events
import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.book import SiteBook
from scrapy_boilerplate.crawl.cleaner import Cleaner
from scrapy_boilerplate.crawl.clock import Clock, ReactorClock
from scrapy_boilerplate.crawl.config import BoilerplateConfig
from scrapy_boilerplate.crawl.decision_log import (
    log_fell_back,
    log_fit_failed,
    log_model_ready,
    log_template_found,
    log_unfinished_samples,
)
from scrapy_boilerplate.crawl.domain import DomainStatus
from scrapy_boilerplate.crawl.engine_state import EngineView
from scrapy_boilerplate.crawl.errors import BadSettingError, fail_crawl
from scrapy_boilerplate.crawl.fallback import FallbackReason, FallbackReport
from scrapy_boilerplate.crawl.finishing import CleanFinisher
from scrapy_boilerplate.crawl.fit_gate import FitGate
from scrapy_boilerplate.crawl.fit_handler import FitHandler
from scrapy_boilerplate.crawl.fitting import FitQueue, FitRunner
from scrapy_boilerplate.crawl.holding import HoldQueue, ToFallback, WithModel
from scrapy_boilerplate.crawl.item_cleaning import ItemCleaning
from scrapy_boilerplate.crawl.item_steps import ItemSteps
from scrapy_boilerplate.crawl.itempages import ItemPages
from scrapy_boilerplate.crawl.pacing import SamplePace
from scrapy_boilerplate.crawl.persistence import StoreSession
from scrapy_boilerplate.crawl.polling import SharedStorePoller
from scrapy_boilerplate.crawl.quiet import QuietWatcher
from scrapy_boilerplate.crawl.recovery import HeldItemRecovery
from scrapy_boilerplate.crawl.sample_cleans import SampleCleans
from scrapy_boilerplate.crawl.sampler import Sampler
from scrapy_boilerplate.crawl.shared_seen import SharedSeenPages
from scrapy_boilerplate.crawl.shelf import ModelShelf
from scrapy_boilerplate.crawl.stopping import GracefulStop
from scrapy_boilerplate.crawl.templating import PageTemplates
from scrapy_boilerplate.crawl.waiting import ModelWait
from scrapy_boilerplate.crawl.writing import ItemWriter
from scrapy_boilerplate.drift import DriftMonitor, DriftWatch

logger = logging.getLogger(__name__)


class BoilerplateLearner:
    """Extension that builds the crawl's parts and routes their events (see the module docstring)."""

    def __init__(self, config: BoilerplateConfig, crawler: Crawler, clock: Clock | None = None) -> None:
        """``clock``: the parts' timers (the reactor's by default; a test passes its own)."""
        clock = clock or ReactorClock()
        self.config = config
        self.crawler = crawler
        self.stats = crawler.stats
        self.report = FallbackReport(crawler.stats, config.fallback.label)
        self.hold = HoldQueue(
            config.hold_max_items,
            config.hold_max_bytes,
            config.hold_timeout,
            clock.callLater,
            clock.seconds,
            self.deadline,
        )
        self.item_pages = ItemPages(crawler)
        self.pace = SamplePace(config.hold_timeout, clock.seconds)
        self.session = StoreSession(config, crawler)
        self.shelf = ModelShelf(config.models_in_memory, self.session.reload)
        self.book = SiteBook(config.sample_size, config.max_sampling_domains, self.shelf.shelve)
        self.sample_cleans = SampleCleans(clock)
        self.templates = PageTemplates(
            template_cap(config, self.session), self.session.stored_templates, self.template_found
        )
        self.sampler = Sampler(
            self.book, self.templates, self.session, self.route, self.store_lost, config.max_page_bytes
        )
        self.fit_runner = FitRunner(self.session)
        fit_handler = FitHandler(
            self.fit_runner, self.book, self.session, self.route, self.store_lost, config.min_sample_size
        )
        self.fits = FitQueue(fit_handler.run, self.hold.progressed)  # a fit done brings the next ones closer
        self.drift = DriftWatch(
            drift_monitor(config), self.book.ready, self.session.restart_sample, self.session.failed, self.drifted
        )
        self.stop = GracefulStop(self.book, self.hold.domains, self.fits, self.route, config.min_sample_size)
        self.watcher = QuietWatcher(
            EngineView(crawler), lambda: self.hold.count, self.fits, self.release_unfinished, self.stop.tick, clock
        )
        self.poller = SharedStorePoller(self.book, self.session, self.fits, self.route, self.store_lost, clock)
        self.recovery = HeldItemRecovery(config, self.session, crawler, self.item_pages, self.sampler.offer_page, clock)
        self.seen_pages = SharedSeenPages.connect(crawler)  # scrapy-redis: unfiltered requests join the "seen" set
        self.fit_gate = FitGate(self.fits.submit, self.hold.waiting)  # a template's fit waits for an item
        self.item_steps = self._item_steps()

    def _item_steps(self) -> ItemSteps:
        """The pipeline's parts: wait for the site's model, clean, write."""
        config = self.config
        cleaner = Cleaner(config.clean_in_thread, config.inline_clean_ms)
        return ItemSteps(
            config,
            self.stats,
            self.item_pages,
            self.templates,
            self.recovery,
            ModelWait(
                self.book,
                self.hold,
                self.recovery.record,
                self.stats,
                self.pace.waiting_pays,
                self.fit_gate.item_arrived,
            ),
            ItemCleaning(
                cleaner,
                self.session.specs.fallback,
                self.sample_cleans,
                self.drift,
                self.sampler.offer_late,
                self.stats,
                CleanFinisher(config.record_names),
            ),
            ItemWriter(config, self.stats, self.report),
        )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateLearner:
        """Build from settings (NotConfigured when disabled) and connect the signals."""
        try:
            config = BoilerplateConfig.from_settings(crawler.settings)
        except BadSettingError as error:
            raise fail_crawl(crawler, error) from error.__cause__
        learner = cls(config, crawler)
        crawler.signals.connect(learner.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(learner.recovery.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(learner.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(learner.spider_closed, signal=signals.spider_closed)
        return learner

    # -- events -----------------------------------------------------------------------------------
    def route(self, happened: Iterable[events.Event]) -> None:
        """Act on each event of a site's change: its waiting items, the fit queue, the stats and the log."""
        for event in happened:
            if isinstance(event, events.ModelReady):
                self.pace.done(event.key)
                self._model_ready(event)
            elif isinstance(event, events.FellBack):
                self.pace.done(event.key)
                self._fell_back(event)
            elif isinstance(event, events.ItemsReleased):
                self.hold.release_domain(event.key, ToFallback(event.reason))
            elif isinstance(event, events.FitDue):
                self.fit_gate.due(event.job)
            elif isinstance(event, events.PageOffered):
                if event.accepted:
                    self.stats.inc_value(keys.SAMPLE_PAGES)
                    self.pace.page(event.key)
                self.hold.progressed((event.key,))
            elif isinstance(event, events.FitFailed):
                self._fit_failed(event)
            else:
                self.stats.inc_value(_COUNTED[type(event)])

    def template_found(self, key: events.SiteKey, url: str, count: int) -> None:
        """A new page template of a domain: counted, and said (with the cap when it is reached)."""
        self.stats.inc_value(keys.TEMPLATES_FOUND)
        log_template_found(key, url, count, self.config.max_templates, self.config.fallback.label)

    def deadline(self, key: events.SiteKey) -> None:
        """An item of ``key`` waited its deadline: a template whose sample stalled falls back (its items
        go on without waiting until the sample fills, no failure); a stalled fit leaves it to the hold."""
        if self.book.status(key) is DomainStatus.SAMPLING:
            self.route(self.book.stop_waiting(key, FallbackReason.SAMPLE_STALLED))

    def store_lost(self) -> None:
        """The shared store was lost: stop polling it; sites still sampling start a sample of their own."""
        self.poller.stop()
        self.book.samples_lost()

    def drifted(self, key: events.SiteKey) -> None:
        """``key``'s template changed: it samples again while its model keeps cleaning."""
        self.book.drifted(key)
        self.route([events.Drifted(key)])

    def release_unfinished(self) -> None:
        """The crawl went quiet: sites still sampling fall back and their items go on."""
        self.route(self.book.unfilled_fall_back(self.hold.domains()))

    def _model_ready(self, event: events.ModelReady) -> None:
        if event.source in (events.ModelSource.FITTED, events.ModelSource.PARTIAL):
            self.stats.inc_value(keys.MODELS_FITTED)
            # Scrapy annotates the increment as int; its stats collectors add any number.
            self.stats.inc_value(keys.FIT_SECONDS, round(event.seconds, 3))  # type: ignore[arg-type]
        if event.saved:
            self.stats.inc_value(keys.STORE_SAVED)
        if event.source is events.ModelSource.PARTIAL:
            self.stats.inc_value(keys.MODELS_PARTIAL)
        elif event.source is events.ModelSource.FITTED and event.replaced:
            self.stats.inc_value(keys.MODELS_REFITTED)
        elif event.source is events.ModelSource.SHARED:
            self.stats.inc_value(keys.MODELS_SHARED)
        self.drift.watch(event.key, event.stored)
        log_model_ready(event, self.config.model.label, self.config.sample_size)
        self.sample_cleans.keep(event.key, event.sample_cleans)
        self.hold.release_domain(event.key, WithModel(event.stored))

    def _fell_back(self, event: events.FellBack) -> None:
        """``event.key`` has no model coming for now: count it and let its waiting items go on."""
        self.stats.inc_value(keys.DOMAINS_FALLBACK)
        log_fell_back(event, self.config.fallback.label)
        self.hold.release_domain(event.key, ToFallback(event.reason))

    def _fit_failed(self, event: events.FitFailed) -> None:
        self.stats.inc_value(keys.ERRORS.format(kind=type(event.error).__name__))
        log_fit_failed(event, self.config.model.label)

    # -- signals ----------------------------------------------------------------------------------
    def spider_opened(self, **_: Any) -> None:
        """Start watching the engine, polling a shared store, and recording waiting items on it."""
        self.watcher.start(self.config.quiet_seconds)
        self.poller.start(self.config.store_poll)
        self.recovery.start()

    def spider_idle(self) -> None:
        """Sites that never completed their sample are cleaned by the fallback from now on."""
        self.route(self.book.unfilled_fall_back())

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
        log_unfinished_samples(self.book.resampling(), self.config.sample_size)
        if self.fit_gate.parked:
            self.stats.set_value(keys.TEMPLATES_WITHOUT_ITEMS, self.fit_gate.parked)
            logger.info(
                "boilerplate: %d page templates filled a sample but yielded no item (home or listing pages): not fitted",
                self.fit_gate.parked,
            )
        self.hold.release_all(ToFallback(FallbackReason.CLOSING))
        self.item_pages.clear()
        self.recovery.stop()
        self.session.close()
        total = self.stats.get_value(keys.CHARS_TOTAL, 0)
        if total:
            self.stats.set_value(keys.REMOVED_SHARE, round(self.stats.get_value(keys.CHARS_REMOVED, 0) / total, 4))
        skipped = {
            key.rsplit("/", 1)[1]: value
            for key, value in self.stats.get_stats().items()
            if key.startswith(keys.ITEMS_SKIPPED.split("{")[0])
        }
        self.report.log_summary(skipped)


def template_cap(config: BoilerplateConfig, session: StoreSession) -> int:
    """BOILERPLATE_MAX_TEMPLATES, or 1 on a shared store: workers share samples by domain there, and
    each would group a domain's pages by template in its own order."""
    if session.shared and config.max_templates > 1:
        logger.info(
            "boilerplate: the model store is shared by the crawl's workers: each domain is one template "
            "(BOILERPLATE_MAX_TEMPLATES applies to crawls on a directory store)"
        )
        return 1
    return config.max_templates


def drift_monitor(config: BoilerplateConfig) -> DriftMonitor | None:
    """The drift monitor the settings ask for (None: BOILERPLATE_DRIFT_ENABLED is off)."""
    if not config.drift_enabled:
        return None
    return DriftMonitor(config.drift_window, config.drift_tolerance, config.drift_every, warmup=config.drift_window)


# Events that only count: the stats key of each.
_COUNTED: dict[type, str] = {
    events.Evicted: keys.DOMAINS_EVICTED,
    events.Drifted: keys.DRIFT_DETECTED,
    events.SampleResumed: keys.SAMPLE_RESUMED,
}
