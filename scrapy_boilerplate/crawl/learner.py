"""The learner: per-domain samples and models, fitted off the reactor thread (a Scrapy extension).

The sampling middleware feeds it pages, the pipeline asks it for a domain's model and holds items
in its :class:`HoldQueue` until the model is ready.  A watcher releases held items when the crawl
goes quiet or starts closing, because ``spider_idle`` never fires while an item is held.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.utils.defer import deferred_from_coro

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.config import BoilerplateConfig, fitted_fallback
from scrapy_boilerplate.crawl.holding import CLOSING, MODEL, QUIET, HoldQueue
from scrapy_boilerplate.crawl.quiet import QuietWatcher
from scrapy_boilerplate.crawl.threads import run_in_thread
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.page import Page

logger = logging.getLogger(__name__)

SAMPLING, FITTING, READY, FALLBACK = "sampling", "fitting", "ready", "fallback"
# Cleaned sample pages are kept this long after a fit for the held items of those pages.
PREPARED_TTL_SECONDS = 30.0


def domain_of(url: str) -> str:
    """The domain key of ``url``: host plus explicit port, lower-cased, without credentials."""
    netloc = urlsplit(url).netloc
    return netloc.rpartition("@")[2].lower()


@dataclass
class DomainState:
    """One domain: its sample while sampling, its model once fitted."""

    status: str = SAMPLING
    pages: list[Page] = field(default_factory=list)
    urls: set[str] = field(default_factory=set)
    model: SiteModel | None = None
    fit_failed: bool = False
    prepared: dict[str, tuple[str, CleanedPage]] = field(default_factory=dict)


@dataclass(frozen=True)
class FitResult:
    """What a fit in the thread pool gives back."""

    model: SiteModel
    seconds: float
    prepared: dict[str, tuple[str, CleanedPage]]
    removed_share: float


def fit_sample(spec: ModelSpec, pages: Sequence[Page]) -> FitResult:
    """Fit ``spec`` on ``pages`` and clean them (runs in a worker thread: touches no shared state)."""
    started = time.perf_counter()
    model = spec.create().fit(pages)
    prepared: dict[str, tuple[str, CleanedPage]] = {}
    for page in pages:
        try:
            prepared[page.url] = (page.html, model.clean(page))
        except Exception:  # one bad page: its item is cleaned again later, and errors are counted there
            continue
    total = sum(c.total_chars for _, c in prepared.values())
    removed = sum(c.removed_chars for _, c in prepared.values())
    return FitResult(model, time.perf_counter() - started, prepared, removed / total if total else 0.0)


class BoilerplateLearner:
    """Extension owning every domain's sample and model, the hold queue and the quiet watcher."""

    def __init__(self, config: BoilerplateConfig, crawler: Crawler) -> None:
        from twisted.internet import reactor  # imported late: the crawler installs the reactor

        self._call_later = reactor.callLater
        self.config = config
        self.crawler = crawler
        self.stats = crawler.stats
        self.fallback = fitted_fallback(config)
        self.hold = HoldQueue(config.hold_max_items, config.hold_max_bytes, config.hold_timeout,
                              self._call_later)
        self.domains: dict[str, DomainState] = {}
        self.watcher = QuietWatcher(crawler, self, config.quiet_seconds)
        self._opted_out: dict[int, Any] = {}
        self._fits: set[Any] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateLearner:
        """Build from settings (NotConfigured when disabled) and connect the signals."""
        learner = cls(BoilerplateConfig.from_settings(crawler.settings), crawler)
        crawler.signals.connect(learner.watcher.start, signal=signals.spider_opened)
        crawler.signals.connect(learner.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(learner.spider_closed, signal=signals.spider_closed)
        for signal in (signals.item_scraped, signals.item_dropped, signals.item_error):
            crawler.signals.connect(learner.forget_item, signal=signal)
        return learner

    # -- sampling ------------------------------------------------------------------------
    def state(self, domain: str) -> DomainState:
        """The state of ``domain``, created on first sight."""
        return self.domains.setdefault(domain, DomainState())

    def wants_sample(self, domain: str) -> bool:
        """True while ``domain`` still collects its sample."""
        state = self.domains.get(domain)
        return state is None or (state.status in (SAMPLING, FALLBACK) and state.model is None and not state.fit_failed)

    def add_sample(self, domain: str, page: Page) -> None:
        """Add one page to ``domain``'s sample; starts the fit when the sample is complete."""
        state = self.state(domain)
        if not self.wants_sample(domain) or page.url in state.urls:
            return
        state.pages.append(page)
        state.urls.add(page.url)
        self.stats.inc_value(keys.SAMPLE_PAGES)
        if len(state.pages) >= self.config.sample_size:
            state.status = FITTING
            fit = deferred_from_coro(self._fit(domain, state))
            self._fits.add(fit)
            fit.addBoth(lambda _: self._fits.discard(fit))

    async def _fit(self, domain: str, state: DomainState) -> None:
        pages, state.pages = state.pages, []
        try:
            result = await run_in_thread(fit_sample, self.config.model, pages)
        except Exception as exc:  # a model bug degrades this domain to the fallback, never the crawl
            self.stats.inc_value(keys.ERRORS.format(kind=type(exc).__name__))
            logger.warning("boilerplate: fitting %s on %s failed (%r); cleaning it with %s",
                           self.config.model.label, domain, exc, self.config.fallback.label)
            state.fit_failed = True
            self.use_fallback(domain, reason="fit failed")
            return
        state.model, state.status, state.prepared = result.model, READY, result.prepared
        self.stats.inc_value(keys.MODELS_FITTED)
        self.stats.inc_value(keys.FIT_SECONDS, round(result.seconds, 3))
        logger.info("boilerplate: fitted %s for %s on %d pages in %.2f s; it removes %.0f%% of the text",
                    self.config.model.label, domain, len(pages), result.seconds, 100 * result.removed_share)
        self._release(domain, MODEL)
        self._call_later(PREPARED_TTL_SECONDS, state.prepared.clear)

    # -- models for the pipeline ---------------------------------------------------------
    def model_for(self, domain: str) -> SiteModel | None:
        """The fitted site model of ``domain``, or None."""
        state = self.domains.get(domain)
        return state.model if state is not None else None

    def should_hold(self, domain: str) -> bool:
        """True when an item of ``domain`` should wait for the domain's model."""
        return self.state(domain).status in (SAMPLING, FITTING)

    def take_prepared(self, domain: str, url: str, html: str) -> CleanedPage | None:
        """The cleaning already done during the fit for this very page, if any."""
        state = self.domains.get(domain)
        if state is None or url not in state.prepared:
            return None
        sampled_html, cleaned = state.prepared.pop(url)
        return cleaned if sampled_html == html else None

    def use_fallback(self, domain: str, reason: str) -> None:
        """Clean ``domain`` with the fallback from now on (its sampling may still complete later)."""
        state = self.state(domain)
        if state.status == FALLBACK:
            return
        state.status = FALLBACK
        self.stats.inc_value(keys.DOMAINS_FALLBACK)
        logger.info("boilerplate: %s has no site model (%s, %d pages sampled); cleaning it with %s",
                    domain, reason, len(state.pages), self.config.fallback.label)
        self._release(domain, QUIET)

    def _release(self, domain: str, reason: str) -> None:
        self.hold.release_domain(domain, reason)  # the pipeline counts releases by reason

    def release_unfinished(self, reason: str) -> None:
        """The crawl went quiet: domains still sampling fall back and their items go on."""
        for domain in self.hold.domains():
            if self.state(domain).status == SAMPLING:
                self.use_fallback(domain, reason=reason)

    def release_all(self) -> None:
        """The spider is closing: let every held item go on with the fallback."""
        self.hold.release_all(CLOSING)

    # -- opt-out registry (spider middleware -> pipeline) --------------------------------
    def mark_opt_out(self, item: Any) -> None:
        """Remember that ``item`` came from a request with ``dont_clean_boilerplate``."""
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
        """Stop watching, release anything left, and record the share of text removed."""
        self.watcher.stop()
        self.release_all()
        total = self.stats.get_value(keys.CHARS_TOTAL, 0)
        if total:
            self.stats.set_value(keys.REMOVED_SHARE, round(self.stats.get_value(keys.CHARS_REMOVED, 0) / total, 4))
