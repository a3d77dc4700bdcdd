"""The learner: per-domain samples and models, fitted off the reactor thread (a Scrapy extension).

The sampling middleware feeds it pages, the pipeline asks it for a domain's model and holds items
in its :class:`HoldQueue` until the model is ready.  A watcher releases held items when the crawl
goes quiet or starts closing, because ``spider_idle`` never fires while an item is held.
"""

from __future__ import annotations

import logging
import time
from typing import Any
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.utils.defer import deferred_from_coro

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.config import BoilerplateConfig, fitted_fallback
from scrapy_boilerplate.crawl.domain_state import FALLBACK, FITTING, READY, SAMPLING, DomainState
from scrapy_boilerplate.crawl.holding import CLOSING, MODEL, NO_MODEL, QUIET, HoldQueue
from scrapy_boilerplate.crawl.persistence import ModelSync, PollResult
from scrapy_boilerplate.crawl.polling import SharedStorePoller
from scrapy_boilerplate.crawl.quiet import QuietWatcher
from scrapy_boilerplate.crawl.threads import next_reactor_turn, run_in_thread
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store import StoreError
from scrapy_boilerplate.store.sharing import BUSY, FITTED, INCOMPLETE, FitOutcome, Learned

logger = logging.getLogger(__name__)

# Cleaned sample pages are kept this long after a fit for the held items of those pages.
PREPARED_TTL_SECONDS = 30.0
# A fit's sample pages are parsed on the reactor thread (see BoilerplateLearner._parse_sample),
# a turn of the reactor after each this many seconds of parsing; pages longer than this many
# characters are left to the fit thread.
PARSE_SLICE_SECONDS = 0.005
REACTOR_PARSE_MAX_CHARS = 500_000
# Where an adopted model comes from (FITTED here is the sharing module's own status name).
STORED, SHARED = "stored", "shared"


def domain_of(url: str) -> str:
    """The domain key of ``url``: host plus explicit port, lower-cased, without credentials."""
    netloc = urlsplit(url).netloc
    return netloc.rpartition("@")[2].lower()


class BoilerplateLearner:
    """Extension owning every domain's sample and model, the hold queue and the quiet watcher."""

    def __init__(self, config: BoilerplateConfig, crawler: Crawler) -> None:
        from twisted.internet import reactor  # imported late: the crawler installs the reactor

        self._call_later = reactor.callLater
        self.config = config
        self.crawler = crawler
        self.stats = crawler.stats
        self.count = keys.counter(crawler.stats)  # stats.inc_value for the per-page and per-item counts
        self.fallback = fitted_fallback(config)
        self.hold = HoldQueue(config.hold_max_items, config.hold_max_bytes, config.hold_timeout, self._call_later)
        self.domains: dict[str, DomainState] = {}
        self._sampling: dict[str, None] = {}  # domains with a partial sample here, oldest first
        self.watcher = QuietWatcher(crawler, self, config.quiet_seconds)
        self.sync = ModelSync(config, crawler)
        self.poller = SharedStorePoller(self, config.store_poll)
        self._opted_out: dict[int, Any] = {}
        self._forgetting = False  # forget_item is connected to the item signals
        self._fits: set[Any] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateLearner:
        """Build from settings (NotConfigured when disabled) and connect the signals."""
        learner = cls(BoilerplateConfig.from_settings(crawler.settings), crawler)
        crawler.signals.connect(learner.watcher.start, signal=signals.spider_opened)
        crawler.signals.connect(learner.poller.start, signal=signals.spider_opened)
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
        return state

    def wants_sample(self, domain: str) -> bool:
        """True while ``domain`` collects a sample (its first, or a new one after a template change)."""
        state = self.state(domain)
        if state.sample_full or state.sampling_closed:
            return False
        return state.resampling or (state.status in (SAMPLING, FALLBACK) and state.model is None)

    def add_sample(self, domain: str, page: Page) -> None:
        """Offer one page to ``domain``'s (possibly shared) sample; starts the fit when it completes it."""
        state = self.state(domain)
        if not self.wants_sample(domain) or page.url in state.urls:
            return
        if not state.urls:
            self._make_room_for(domain)
        self._sampling[domain] = None
        offer = self.sync.offer(domain, page)
        if offer is None:  # the shared store is gone: sample again, in this process
            self.reset_shared_samples()
            offer = self.sync.offer(domain, page)
        state.urls.add(page.url)  # after any reset, which forgets the URLs offered so far
        if offer is None:
            return
        if offer.accepted:
            state.sampled += 1
            self.count(keys.SAMPLE_PAGES)
        if offer.count >= self.config.sample_size:
            self._sample_complete(domain, state, start_fit=offer.accepted)

    def _sample_complete(self, domain: str, state: DomainState, start_fit: bool) -> None:
        """The shared sample is full: items wait for the fit (here, or by another worker)."""
        state.sample_full = True
        self._sampling.pop(domain, None)
        if state.status == SAMPLING:
            state.status = FITTING
        if start_fit and not state.fitting and not state.sampling_closed:
            state.fitting = True
            fit = deferred_from_coro(self._fit(domain, state))
            self._fits.add(fit)
            fit.addBoth(lambda _: self._fits.discard(fit))

    async def _fit(self, domain: str, state: DomainState) -> None:
        started = time.perf_counter()
        try:
            outcome = await self._fit_sample(domain)
        except Exception as exc:  # a model bug degrades this domain to the fallback, never the crawl
            state.sampling_closed = True
            self.count(keys.ERRORS.format(kind=type(exc).__name__))
            logger.warning(
                "boilerplate: fitting %s on %s failed (%r); cleaning it with %s",
                self.config.model.label,
                domain,
                exc,
                self.config.fallback.label,
            )
            if state.model is None:
                self.use_fallback(domain, reason="fit failed")
            return
        finally:
            state.fitting = False
        seconds = time.perf_counter() - started
        if outcome.store_error is not None:
            self.sync.failed(f"storing the model of {domain}", outcome.store_error)
        if outcome.status == FITTED:
            self.count(keys.MODELS_FITTED)
            self.count(keys.FIT_SECONDS, round(seconds, 3))
            if outcome.stored and self.sync.persistent:
                self.count(keys.STORE_SAVED)
        if outcome.learned is not None:
            self._adopt(domain, state, outcome.learned, FITTED if outcome.status == FITTED else SHARED, seconds)
        elif outcome.status != BUSY:  # the sample was re-opened: keep collecting
            state.sample_full = False
            if state.status == FITTING and not state.resampling:
                state.status = SAMPLING

    async def _fit_sample(self, domain: str) -> FitOutcome:
        """Fit ``domain``'s sample; when the store fails, go on without it: a sample of this process
        is fitted again at once, a shared one is lost (the domain samples again, here)."""
        parsed = await self._parse_sample(domain)
        try:
            return await run_in_thread(self.sync.learning.fit, domain, parsed)
        except StoreError as exc:
            if self.sync.go_local(f"fitting the model of {domain}", exc):
                self.reset_shared_samples()
                return FitOutcome(INCOMPLETE)
            return await run_in_thread(self.sync.learning.fit, domain, parsed)

    async def _parse_sample(self, domain: str) -> list[Page]:
        """``domain``'s sample pages (when the sample lives in this process), parsed on this thread.

        lxml's parser releases the GIL while it runs.  In the fit thread, each of those releases
        handed the GIL to the reactor thread and back: two context switches a parse, about as much
        CPU as the fits themselves on the benchmark crawl (docs/perf.md).  Parsed here, a sample
        costs the reactor what parsing its pages for cleaning would, spread over turns of
        ``PARSE_SLICE_SECONDS``; the fit then reads the trees (lxml allows reading a tree in
        another thread, and the reactor thread that parsed it outlives the fit).
        """
        pages = self.sync.learning.local_sample(domain)
        slice_end = time.perf_counter() + PARSE_SLICE_SECONDS
        for page in pages:
            if len(page.html) > REACTOR_PARSE_MAX_CHARS:
                continue  # parsed by the fit, in its thread: no long stall of the crawl
            if time.perf_counter() > slice_end:
                await next_reactor_turn()
                slice_end = time.perf_counter() + PARSE_SLICE_SECONDS
            page.parse()
        return pages

    def _adopt(self, domain: str, state: DomainState, learned: Learned, source: str, seconds: float = 0.0) -> None:
        """Put ``learned`` (``source``: fitted here in ``seconds``, stored before the crawl, shared by
        another worker) to use for ``domain`` and release its waiting items."""
        replaced = state.model is not None
        state.model, state.learned, state.status = learned.model, learned, READY
        # the very dict, drained as items take their pages: a copy would keep the whole sample (HTML and
        # cleaned text) alive through ``state.learned`` for the rest of the crawl
        state.prepared, state.resampling, state.sampling_closed = learned.prepared, False, False
        self._sampling.pop(domain, None)
        state.urls, state.sampled, state.revision, state.sample_full = set(), 0, None, False
        self.sync.learning.watch(domain, learned)
        entry = learned.entry
        if replaced and source == FITTED:
            self.count(keys.MODELS_REFITTED)
        if source == SHARED:
            self.count(keys.MODELS_SHARED)
        if source == FITTED:
            removed = [c.removed_share for _, c in learned.prepared.values()]
            share = sum(removed) / len(removed) if removed else 0.0
            logger.info(
                "boilerplate: %s %s for %s on %d pages in %.2f s; it removes %.0f%% of the text",
                "re-fitted" if replaced else "fitted",
                self.config.model.label,
                domain,
                entry.pages,
                seconds,
                100 * share,
            )
        else:
            logger.info(
                "boilerplate: using the stored %s model of %s (fitted on %d pages by %s)",
                entry.model,
                domain,
                entry.pages,
                entry.fitter or "another crawl",
            )
        self._release(domain, MODEL)
        if state.prepared:
            self._call_later(PREPARED_TTL_SECONDS, state.prepared.clear)

    # -- shared stores: other workers' samples and models --------------------------------
    def apply_poll(self, result: PollResult) -> None:
        """Act on what the poller found for one domain (reactor thread)."""
        state = self.domains[result.domain]
        if result.newer is not None:
            self._adopt(result.domain, state, result.newer, SHARED)
        elif result.revision is not None:
            state.revision = result.revision
        elif result.state is not None and self.sync.learning.needs_fit(
            result.state, state.learned.entry if state.learned else None
        ):
            self._sample_complete(result.domain, state, start_fit=True)

    def reset_shared_samples(self) -> None:
        """The shared store was lost: domains still sampling start a sample of their own."""
        self.poller.stop()
        for state in self.domains.values():
            if state.model is None or state.resampling:
                state.urls, state.sampled, state.sample_full = set(), 0, False
                if state.status == FITTING:
                    state.status = SAMPLING

    # -- models for the pipeline ---------------------------------------------------------
    def model_for(self, domain: str) -> SiteModel | None:
        """The fitted site model of ``domain``, or None."""
        state = self.domains.get(domain)
        return state.model if state is not None else None

    def should_hold(self, domain: str) -> bool:
        """True when an item of ``domain`` should wait for the domain's model.

        The middleware sees a response before the spider makes its items, so a domain with no
        page offered to its sample yet (e.g. an item URL on another host) has no model coming: no waiting.
        """
        state = self.domains.get(domain)
        return state is not None and (state.status == FITTING or (state.status == SAMPLING and bool(state.urls)))

    def take_prepared(self, domain: str, url: str, html: str) -> CleanedPage | None:
        """The cleaning already done during the fit for this very page, if any."""
        state = self.domains.get(domain)
        if state is None or url not in state.prepared:
            return None
        sampled_html, cleaned = state.prepared.pop(url)
        return cleaned if sampled_html == html else None

    # -- template drift -------------------------------------------------------------------
    def drift_due(self, domain: str, model: SiteModel) -> Learned | None:
        """The model in use if this page of ``domain`` should be measured for drift (one in N)."""
        state = self.domains.get(domain)
        monitor = self.sync.monitor
        if monitor is None or state is None or state.learned is None or state.learned.model is not model:
            return None
        return state.learned if not state.resampling and monitor.due(domain) else None

    def observe(self, domain: str, learned: Learned, removed_share: float, unseen_share: float | None) -> None:
        """One measured page; on drift, ``domain`` samples again while its model keeps cleaning."""
        state = self.domains.get(domain)
        if state is None or state.learned is not learned:
            return  # the model changed meanwhile
        try:
            drift = self.sync.learning.observe(domain, removed_share, unseen_share, learned)
        except StoreError as exc:
            self.sync.failed(f"restarting the sample of {domain} after a template change", exc)
            return
        if drift is not None:
            self.count(keys.DRIFT_DETECTED)
            state.resampling, state.urls, state.sampled, state.sample_full = True, set(), 0, False

    def _make_room_for(self, domain: str) -> None:
        """Bound sample memory: past BOILERPLATE_MAX_SAMPLING_DOMAINS, the oldest sampling domain
        (the first to start) gives up its sample and is cleaned by the fallback."""
        while len(self._sampling) >= self.config.max_sampling_domains:
            oldest = next(iter(self._sampling))
            del self._sampling[oldest]
            state = self.state(oldest)
            self.count(keys.DOMAINS_EVICTED)
            if state.model is None:
                self.use_fallback(oldest, reason="too many domains sampling at once")
            state.sampling_closed, state.resampling, state.urls = True, False, set()  # a re-sample: keep the model
            self.sync.drop_sample(oldest)

    def use_fallback(self, domain: str, reason: str, release: str = NO_MODEL) -> None:
        """Clean ``domain`` with the fallback from now on (its sampling may still complete later)."""
        state = self.state(domain)
        if state.status == FALLBACK:
            return
        state.status = FALLBACK
        self.count(keys.DOMAINS_FALLBACK)
        logger.info(
            "boilerplate: %s has no site model (%s, %d pages sampled here); cleaning it with %s",
            domain,
            reason,
            state.sampled,
            self.config.fallback.label,
        )
        self._release(domain, release)

    def _release(self, domain: str, reason: str) -> None:
        self.hold.release_domain(domain, reason)  # the pipeline counts releases by reason

    def release_unfinished(self, reason: str) -> None:
        """The crawl went quiet: domains still sampling fall back and their items go on."""
        for domain in self.hold.domains():
            if self.state(domain).status == SAMPLING:
                self.use_fallback(domain, reason=reason, release=QUIET)

    def release_all(self) -> None:
        """The spider is closing: let every held item go on with the fallback."""
        self.hold.release_all(CLOSING)

    # -- opt-out registry (spider middleware -> pipeline) --------------------------------
    def mark_opt_out(self, item: Any) -> None:
        """Remember that ``item`` came from a request with ``dont_clean_boilerplate``.

        The first one connects :meth:`forget_item` to the item signals: a receiver of
        ``item_scraped`` costs every item of the crawl an asyncio task (scrapy/utils/signal.py,
        ``_send_catch_log_asyncio``), so crawls that never opt out do without it.
        """
        if not self._forgetting:
            self._forgetting = True
            for signal in (signals.item_scraped, signals.item_dropped, signals.item_error):
                self.crawler.signals.connect(self.forget_item, signal=signal)
        self._opted_out[id(item)] = item

    def is_opted_out(self, item: Any) -> bool:
        """True for items marked by :meth:`mark_opt_out` (identity, not equality)."""
        return self._opted_out.get(id(item)) is item

    def forget_item(self, item: Any, **_: Any) -> None:
        """Drop an item from the opt-out registry once it left the pipelines."""
        if self._opted_out.get(id(item)) is item:
            del self._opted_out[id(item)]

    # -- signals --------------------------------------------------------------------------
    def spider_idle(self) -> None:
        """Domains that never completed their sample are cleaned by the fallback from now on."""
        for domain, state in list(self.domains.items()):
            if state.status == SAMPLING:
                self.use_fallback(domain, reason="sample never completed")

    def spider_closed(self) -> None:
        """Stop watching and polling, release anything left, and record the share of text removed."""
        self.watcher.stop()
        self.poller.stop()
        self.release_all()
        self.sync.close()
        total = self.stats.get_value(keys.CHARS_TOTAL, 0)
        if total:
            self.stats.set_value(keys.REMOVED_SHARE, round(self.stats.get_value(keys.CHARS_REMOVED, 0) / total, 4))
