"""The pipeline's second step: an item's page cleaned by the model its release carries, or the fallback.

Cheapest first: the fit's own clean of a sample page (:mod:`sample_cleans`), then the clean of its
page that another item of it made or is making (a listing page's items share their response, see
:mod:`pagecleans`), then a clean now, where it costs least
(:class:`~scrapy_boilerplate.crawl.cleaner.Cleaner`).  One page in N of a site is measured for drift
on the same parsed tree (:mod:`scrapy_boilerplate.drift`).  A failing site model falls back; an
output without a word is replaced by the page's longest prose block (:mod:`scrapy_boilerplate.rescue`),
read from the tree the clean parsed, once per page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from scrapy.http import Response

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.cleaner import Cleaner
from scrapy_boilerplate.crawl.events import SiteKey
from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.crawl.holding import Release, ToFallback, WithModel
from scrapy_boilerplate.crawl.itempages import ItemPage
from scrapy_boilerplate.crawl.pagecleans import PageCleans
from scrapy_boilerplate.crawl.sample_cleans import SampleCleans
from scrapy_boilerplate.drift import DriftWatch, Fingerprint, clean_and_measure
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.pagetype.tell import tell_page_type
from scrapy_boilerplate.rescue import MIN_WORDS, prose_rescue

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CleanedItem:
    """An item's clean: its page cleaned, why the fallback made it (None: the site's model did), and
    whether the longest prose block stands in for an output without a word."""

    cleaned: CleanedPage
    reason: FallbackReason | None
    rescued: bool = False


class ItemCleaning:
    """Cleans each item's page (see the module docstring), keeping the caches that spare cleans."""

    def __init__(
        self,
        cleaner: Cleaner,
        fallback_for: Callable[[SiteKey], SiteModel],
        sample_cleans: SampleCleans,
        drift: DriftWatch,
        resample: Callable[[SiteKey, str, str, Response | None], None],
        stats: Any,
    ) -> None:
        """``fallback_for(key)``: the single-page model of ``key``'s domain; ``resample(key, url, html,
        response)`` offers a page cleaned by ``key``'s model to the site's new sample when it samples
        again after a template change."""
        self.cleaner = cleaner
        self.fallback_for = fallback_for
        self.sample_cleans = sample_cleans
        self.drift = drift
        self.resample = resample
        self.stats = stats
        self._rescued_sites: set[SiteKey] = set()
        self.page_cleans: PageCleans[CleanedItem | None] = PageCleans()

    async def clean(self, key: SiteKey, page: ItemPage, release: Release) -> CleanedItem | None:
        """``page`` (of site ``key``) cleaned as ``release`` says; None when every model failed on it."""
        model = release.stored.model if isinstance(release, WithModel) else None
        reason = release.reason if isinstance(release, ToFallback) else None
        cleaned = await self._cleaned(key, page, model, reason)
        if model is not None:
            self.resample(key, page.url, page.html, page.response)
        if cleaned is not None and cleaned.rescued:
            self._report_rescue(cleaned.cleaned, key, page.url)
        return cleaned

    async def _cleaned(
        self, key: SiteKey, page: ItemPage, model: SiteModel | None, reason: FallbackReason | None
    ) -> CleanedItem | None:
        """The clean (see the module docstring); the fallback's reason is the item's own, else the clean's."""
        cleaner = model or self.fallback_for(key)
        if model is not None:
            kept = self.sample_cleans.take(key, page.url, page.html)
            if kept is not None:
                item = self._rescued(kept, None, page, None)
                if page.response is not None:
                    self.page_cleans.keep(page.response, cleaner, item)
                return item
        if page.response is None:
            return await self._fresh(key, page, model, reason)
        shared = await self.page_cleans.share(page.response, cleaner, lambda: self._fresh(key, page, model, reason))
        return replace(shared, reason=reason) if shared is not None and reason is not None else shared

    async def _fresh(
        self, key: SiteKey, page: ItemPage, model: SiteModel | None, reason: FallbackReason | None
    ) -> CleanedItem | None:
        """Clean the page now (measured for drift when due), the prose rescue read from the tree it
        parsed, and the page's type told from that tree if an item field asks for it."""
        parsed = page.parsed or Page(page.html, page.url)
        if model is not None and (fingerprint := self.drift.due(key, model)):
            cleaned, reason = await self._measure(key, model, fingerprint, parsed)
        else:
            cleaned, reason = await self._clean(key, model, parsed, reason)
            if model is not None and reason is None and cleaned is not None:
                self.drift.covered(key, model, cleaned)  # a model with rules: its coverage tells drift
        if cleaned is None:
            return None
        item = self._rescued(cleaned, reason, page, parsed)
        return replace(item, cleaned=item.cleaned.with_page_type(partial(tell_page_type, parsed)))

    async def _clean(
        self, key: SiteKey, model: SiteModel | None, page: Page, reason: FallbackReason | None
    ) -> tuple[CleanedPage | None, FallbackReason | None]:
        """Clean with ``model`` (None: the fallback of ``key``'s domain); a failing site model falls
        back, then gives up.

        Returns the cleaned page (None when every model failed) and, if the fallback made it, why."""
        fallback = self.fallback_for(key)
        candidates = [model] if model is not None else []
        for candidate in [*candidates, fallback]:
            try:
                cleaned = await self.cleaner.clean(candidate, page)
                return cleaned, reason if candidate is fallback else None
            except Exception as exc:  # degrade, never crash: the item goes on
                self.stats.inc_value(keys.ERRORS.format(kind=type(exc).__name__))
                logger.warning("boilerplate: %s could not clean %s: %r", candidate.name, page.url, exc)
                reason = FallbackReason.MODEL_ERROR if reason is None else reason
        return None, None

    async def _measure(
        self, key: SiteKey, model: SiteModel, fingerprint: Fingerprint, page: Page
    ) -> tuple[CleanedPage | None, FallbackReason | None]:
        """Clean with the site's model and feed the drift watch; any error takes the usual path."""
        try:
            cleaned, unseen = await self.cleaner.run(model, clean_and_measure, model, page, fingerprint)
        except Exception:  # _clean retries, counts and falls back as for any item
            return await self._clean(key, model, page, None)
        self.drift.observe(key, model, cleaned.removed_share, unseen)
        return cleaned, None

    def _rescued(
        self, cleaned: CleanedPage, reason: FallbackReason | None, page: ItemPage, parsed: Page | None
    ) -> CleanedItem:
        """``cleaned``, or the page's longest prose block when the model kept no text of it (see
        :mod:`scrapy_boilerplate.rescue`), read from ``parsed`` when a clean parsed the page."""
        if len(cleaned.text.split(None, MIN_WORDS)) >= MIN_WORDS:  # the usual case: nothing to read
            return CleanedItem(cleaned, reason)
        rescued = prose_rescue(cleaned, parsed or Page(page.html, page.url))
        return CleanedItem(rescued or cleaned, reason, rescued is not None)

    def _report_rescue(self, rescued: CleanedPage, key: SiteKey, url: str) -> None:
        """Count an item that got the prose block; say it once per site."""
        self.stats.inc_value(keys.ITEMS_RESCUED)
        if key not in self._rescued_sites:
            self._rescued_sites.add(key)
            logger.info(
                "boilerplate: %s kept no text of %s; the item gets the page's longest prose block "
                "instead (%d characters; the model field says so)",
                rescued.model,
                url,
                len(rescued.text),
            )
