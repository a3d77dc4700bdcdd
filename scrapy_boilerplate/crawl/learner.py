"""The learner: per-domain samples and models (a Scrapy extension, the hub of the other components).

The sampling middleware offers it pages; when a domain's sample is full, its fit is queued
(:class:`FitQueue`: one fit at a time, see :mod:`fitting`) and the model adopted when ready.  The
pipeline asks it for a domain's model and waits in its :class:`HoldQueue` meanwhile.  Each domain
is a :class:`DomainState` state machine.  A watcher releases waiting items when the crawl goes quiet
or starts closing, because ``spider_idle`` never fires while an item waits.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.utils.defer import maybe_deferred_to_future

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.config import BoilerplateConfig, fitted_fallback
from scrapy_boilerplate.crawl.domain import DomainState, DomainStatus
from scrapy_boilerplate.crawl.drift import DriftWatch
from scrapy_boilerplate.crawl.errors import BadSettingError, fail_crawl
from scrapy_boilerplate.crawl.fallback import FallbackReason, FallbackReport
from scrapy_boilerplate.crawl.fitting import FitQueue, FitRunner
from scrapy_boilerplate.crawl.holding import HoldQueue
from scrapy_boilerplate.crawl.itempages import ItemPages
from scrapy_boilerplate.crawl.persistence import ModelSync, PollResult
from scrapy_boilerplate.crawl.polling import SharedStorePoller
from scrapy_boilerplate.crawl.quiet import QuietWatcher
from scrapy_boilerplate.crawl.recovery import HeldItemRecovery
from scrapy_boilerplate.crawl.sampling import SamplingDomains
from scrapy_boilerplate.crawl.stopping import GracefulStop
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store import StoreError
from scrapy_boilerplate.store.sharing import BUSY, FITTED, INCOMPLETE, FitOutcome, Learned

if TYPE_CHECKING:
    from twisted.internet.interfaces import IDelayedCall

logger = logging.getLogger(__name__)

# Cleaned sample pages are kept this long after a fit for the items of those pages.
PREPARED_TTL_SECONDS = 30.0
# Where an adopted model comes from (FITTED here is the sharing module's own status name; PARTIAL:
# fitted here on a sample that was not full when the crawl stopped).
STORED, SHARED, PARTIAL = "stored", "shared", "partial"
PARTIAL_NOTE = (
    " (the crawl is stopping before its sample of {size} pages filled: this model cleans this crawl's"
    " waiting items and is not stored)"
)


class BoilerplateLearner:
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

    def _resume_sample(self, domain: str, state: DomainState) -> None:
        """``domain``'s sample was kept in JOBDIR by an earlier run: go on filling it."""
        state.urls.update(self.sync.sample_urls(domain))
        self.stats.inc_value(keys.SAMPLE_RESUMED)
        self.sampling.fed(domain, len(state.urls))
        if len(state.urls) >= self.config.sample_size:
            self._sample_complete(domain, state, fit_here=True)

    def wants_sample(self, domain: str) -> bool:
        """True while ``domain`` collects a sample (its first, or a new one after a template change)."""
        return self.state(domain).wants_pages

    def add_sample(self, domain: str, page: Page) -> None:
        """Offer one page to ``domain``'s (possibly shared) sample; queues the fit when it completes it."""
        state = self.state(domain)
        if not state.wants_pages or page.url in state.urls:
            return
        if domain not in self.sampling:
            self._make_room_for(domain)
        offer = self.sync.offer(domain, page)
        if offer is None:  # the shared store is gone: sample again, in this process
            self.reset_shared_samples()
            offer = self.sync.offer(domain, page)
        state.urls.add(page.url)  # after any reset, which forgets the URLs offered so far
        if offer is None:
            self.sampling.fed(domain, state.sampled)
            return
        if offer.accepted:
            state.sampled += 1
            self.stats.inc_value(keys.SAMPLE_PAGES)
        self.sampling.fed(domain, offer.count)
        self.hold.progressed((domain,))
        if offer.count >= self.config.sample_size:
            self._sample_complete(domain, state, fit_here=offer.accepted)

    def _sample_complete(self, domain: str, state: DomainState, fit_here: bool) -> None:
        """The (shared) sample is full: items wait for the fit, here or by another worker."""
        self.sampling.done(domain)
        if state.sample_filled() and fit_here:
            self.fits.submit(domain)

    def _make_room_for(self, domain: str) -> None:
        """Bound sample memory: past BOILERPLATE_MAX_SAMPLING_DOMAINS, evict (see :mod:`sampling`)."""
        for evicted in self.sampling.to_evict(domain):
            self.stats.inc_value(keys.DOMAINS_EVICTED)
            self.sync.drop_sample(evicted)
            state = self.state(evicted)
            if state.give_up(FallbackReason.EVICTED):
                self._domain_falls_back(evicted, state, FallbackReason.EVICTED)

    # -- fitting -------------------------------------------------------------------------
    def sample_pages(self, domain: str) -> int:
        """How many pages ``domain``'s current sample has (a full one while its fit is pending)."""
        if self.state(domain).status is DomainStatus.FITTING:
            return self.config.sample_size
        return self.sampling.pages(domain)

    def fit_partial(self, domain: str) -> None:
        """Queue a fit of ``domain``'s sample as it is (see :mod:`stopping`); its items keep waiting."""
        state = self.state(domain)
        self.sampling.done(domain)
        if state.status is DomainStatus.SAMPLING:
            state.sample_filled()
        self._partial.add(domain)
        self.fits.submit(domain)

    async def _fit(self, domain: str) -> None:
        """Fit ``domain``'s full sample (run by the fit queue) and adopt the model."""
        state = self.state(domain)
        started = time.perf_counter()
        partial = domain in self._partial
        self._partial.discard(domain)
        try:
            outcome = await self._fit_sample(domain, partial)
        except Exception as exc:  # a model bug degrades this domain to the fallback, never the crawl
            self.stats.inc_value(keys.ERRORS.format(kind=type(exc).__name__))
            logger.warning("boilerplate: fitting %s on %s failed (%r)", self.config.model.label, domain, exc)
            if state.give_up(FallbackReason.FIT_FAILED):
                self._domain_falls_back(domain, state, FallbackReason.FIT_FAILED)
            return
        seconds = time.perf_counter() - started
        if outcome.store_error is not None:
            self.sync.failed(f"storing the model of {domain}", outcome.store_error)
        if outcome.status == FITTED:
            self.stats.inc_value(keys.MODELS_FITTED)
            # Scrapy annotates the increment as int; its stats collectors add any number.
            self.stats.inc_value(keys.FIT_SECONDS, round(seconds, 3))  # type: ignore[arg-type]
            if outcome.stored and self.sync.persistent:
                self.stats.inc_value(keys.STORE_SAVED)
        if partial and outcome.learned is not None:
            self.stats.inc_value(keys.MODELS_PARTIAL)
            self._adopt(domain, state, outcome.learned, PARTIAL, seconds)
        elif outcome.learned is not None:
            self._adopt(domain, state, outcome.learned, FITTED if outcome.status == FITTED else SHARED, seconds)
        elif outcome.status != BUSY:  # the sample was re-opened: keep collecting
            state.sample_reopened()

    async def _fit_sample(self, domain: str, partial: bool = False) -> FitOutcome:
        """Fit ``domain``'s sample (``partial``: as it is, see :mod:`stopping`); when the store fails,
        go on without it: a sample of this process is fitted again at once, a shared one is lost (the
        domain samples again, here)."""
        min_pages = self.config.min_sample_size if partial else None
        try:
            return await self.fit_runner.fit(domain, min_pages)
        except StoreError as exc:
            if self.sync.go_local(f"fitting the model of {domain}", exc):
                self.reset_shared_samples()
                return FitOutcome(INCOMPLETE)
            return await self.fit_runner.fit(domain, min_pages)

    def _adopt(self, domain: str, state: DomainState, learned: Learned, source: str, seconds: float = 0.0) -> None:
        """Put ``learned`` (``source``: fitted here in ``seconds``, stored before the crawl, shared by
        another worker) to use for ``domain`` and release its waiting items."""
        replaced = state.model is not None
        # state.prepared is the very dict of learned.prepared, drained as items take their pages: a
        # copy would keep the whole sample (HTML and cleaned text) alive through the model in use
        state.adopt(learned)
        self.sampling.done(domain)
        self.sync.watch(domain, learned)
        if replaced and source == FITTED:
            self.stats.inc_value(keys.MODELS_REFITTED)
        if source == SHARED:
            self.stats.inc_value(keys.MODELS_SHARED)
        self._log_adoption(domain, learned, source, seconds, replaced)
        self.hold.release_domain(domain, None)
        if state.prepared:
            self._call_later(PREPARED_TTL_SECONDS, state.prepared.clear)

    def _log_adoption(self, domain: str, learned: Learned, source: str, seconds: float, replaced: bool) -> None:
        entry = learned.entry
        if source in (FITTED, PARTIAL):
            removed = [c.removed_share for _, c in learned.prepared.values()]
            share = sum(removed) / len(removed) if removed else 0.0
            logger.info(
                "boilerplate: %s %s for %s on %d pages in %.2f s; it removes %.0f%% of the text%s",
                "re-fitted" if replaced else "fitted",
                self.config.model.label,
                domain,
                entry.pages,
                seconds,
                100 * share,
                PARTIAL_NOTE.format(size=self.config.sample_size) if source == PARTIAL else "",
            )
        else:
            logger.info(
                "boilerplate: using the stored %s model of %s (fitted on %d pages by %s)",
                entry.model,
                domain,
                entry.pages,
                entry.fitter or "another crawl",
            )

    # -- shared stores: other workers' samples and models --------------------------------
    def apply_poll(self, result: PollResult) -> None:
        """Act on what the poller found for one domain (reactor thread)."""
        state = self.domains[result.domain]
        if result.newer is not None:
            self._adopt(result.domain, state, result.newer, SHARED)
        elif result.revision is not None:
            state.revision = result.revision
        elif result.state is not None and self.sync.needs_fit(
            result.state, state.learned.entry if state.learned else None
        ):
            self._sample_complete(result.domain, state, fit_here=True)

    def reset_shared_samples(self) -> None:
        """The shared store was lost: domains still sampling start a sample of their own."""
        self.poller.stop()
        for state in self.domains.values():
            if state.model is None or state.status is not DomainStatus.READY:
                state.sample_reopened()

    def waiting_for_others(self) -> dict[str, Any]:
        """Domains whose model may come from another worker: domain -> the store entry in use (or None)."""
        return {
            domain: (state.learned.entry if state.learned else None)
            for domain, state in self.domains.items()
            if domain not in self.fits and (state.model is None or state.status is not DomainStatus.READY)
        }

    def ready_to_recheck(self) -> dict[str, Any]:
        """Domains with a model another worker may re-fit: domain -> (revision, entry in use)."""
        return {
            domain: (state.revision, state.learned.entry)
            for domain, state in self.domains.items()
            if state.status is DomainStatus.READY and domain not in self.fits and state.learned is not None
        }

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

    # -- falling back --------------------------------------------------------------------
    def _domain_falls_back(self, domain: str, state: DomainState, reason: FallbackReason) -> None:
        """``domain`` has no model coming for now: count it and let its waiting items go on."""
        self.stats.inc_value(keys.DOMAINS_FALLBACK)
        logger.info(
            "boilerplate: %s has no site model (%s, %d pages sampled here); cleaning it with %s",
            domain,
            reason.what,
            state.sampled,
            self.config.fallback.label,
        )
        self.hold.release_domain(domain, reason)

    def stop_waiting(self, domain: str, state: DomainState, reason: FallbackReason) -> None:
        """``domain``'s waiting items go on with the fallback for ``reason``; if it was sampling, its
        later items too (it goes on sampling)."""
        if state.fall_back(reason):
            self.sampling.done(domain)
            self._domain_falls_back(domain, state, reason)
        else:
            self.hold.release_domain(domain, reason)

    def release_unfinished(self) -> None:
        """The crawl went quiet: domains still sampling fall back and their items go on."""
        for domain in self.hold.domains():
            state = self.state(domain)
            if state.status is DomainStatus.SAMPLING:
                self.stop_waiting(domain, state, FallbackReason.SAMPLE_NOT_FILLED)

    def release_all(self) -> None:
        """The spider is closing: let every waiting item go on with the fallback."""
        self.hold.release_all(FallbackReason.CLOSING)

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
