"""Fitting a domain's sample (run by the fit queue) and putting the model to use."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.domain import DomainState, DomainStatus
from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.store import StoreError
from scrapy_boilerplate.store.sharing import BUSY, FITTED, INCOMPLETE, FitOutcome, Learned

if TYPE_CHECKING:
    from scrapy_boilerplate.crawl.learner_parts import LearnerParts

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


class FitAndAdopt:
    """Fitting a domain's sample (run by the fit queue) and putting the model to use."""

    def fit_partial(self: LearnerParts, domain: str) -> None:
        """Queue a fit of ``domain``'s sample as it is (see :mod:`stopping`); its items keep waiting."""
        state = self.state(domain)
        self.sampling.done(domain)
        if state.status is DomainStatus.SAMPLING:
            state.sample_filled()
        self._partial.add(domain)
        self.fits.submit(domain)

    async def _fit(self: LearnerParts, domain: str) -> None:
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

    async def _fit_sample(self: LearnerParts, domain: str, partial: bool = False) -> FitOutcome:
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

    def _adopt(
        self: LearnerParts, domain: str, state: DomainState, learned: Learned, source: str, seconds: float = 0.0
    ) -> None:
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

    def _log_adoption(
        self: LearnerParts, domain: str, learned: Learned, source: str, seconds: float, replaced: bool
    ) -> None:
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
