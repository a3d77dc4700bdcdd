"""The pipeline's second step: an item's page cleaned by the model its release carries, or the fallback.

Cheapest first: the fit's own clean of a sample page (:mod:`sample_cleans`), then the clean of its
page that another item of it made or is making (a listing page's items share their response, see
:mod:`pagecleans`), then a clean now, where it costs least
(:class:`~scrapy_boilerplate.crawl.cleaner.Cleaner`).  One page in N of a site is measured for drift
on the same parsed tree (:mod:`scrapy_boilerplate.drift`).  A failing site model falls back; an
output without a word is replaced by the page's longest prose block (:mod:`scrapy_boilerplate.rescue`),
and the record fields asked for are read (:mod:`finishing`), in the call that cleans, from the tree the
clean parsed, once per page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from scrapy.http import Response

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.cleaner import Cleaner
from scrapy_boilerplate.crawl.events import SiteKey
from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.crawl.finishing import CleanedItem, CleanFinisher
from scrapy_boilerplate.crawl.holding import Release, ToFallback, WithModel
from scrapy_boilerplate.crawl.itempages import ItemPage
from scrapy_boilerplate.crawl.pagecleans import PageCleans
from scrapy_boilerplate.crawl.sample_cleans import SampleCleans
from scrapy_boilerplate.drift import DriftWatch, Fingerprint
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page

logger = logging.getLogger(__name__)


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
        finisher: CleanFinisher | None = None,
    ) -> None:
        """``fallback_for(key)``: the single-page model of ``key``'s domain; ``resample(key, url, html,
        response)`` offers a page cleaned by ``key``'s model to the site's new sample when it samples
        again after a template change; ``finisher`` reads the record fields the crawl asks for, with
        each clean (default: none)."""
        self.cleaner = cleaner
        self.fallback_for = fallback_for
        self.sample_cleans = sample_cleans
        self.drift = drift
        self.resample = resample
        self.stats = stats
        self.finisher = finisher or CleanFinisher()
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
            if kept is not None:  # its fields were read by the fit; the page is parsed only for a rescue
                item = self.finisher.finish(kept.cleaned, page.parsed or Page(page.html, page.url), kept.fields)
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
        """Clean the page now (measured for drift when due), finished on the tree the clean parsed (the
        one parsed to tell the page's template, if it was)."""
        parsed = page.parsed or Page(page.html, page.url)
        if model is not None and (fingerprint := self.drift.due(key, model)):
            return await self._measure(key, model, fingerprint, parsed)
        item = await self._clean(key, model, parsed, reason)
        if model is not None and item is not None and item.reason is None:
            self.drift.covered(key, model, item.model_clean)  # a model with rules: its coverage tells drift
        return item

    async def _clean(
        self, key: SiteKey, model: SiteModel | None, page: Page, reason: FallbackReason | None
    ) -> CleanedItem | None:
        """Clean with ``model`` (None: the fallback of ``key``'s domain); a failing site model falls
        back, then gives up.

        Returns the finished clean (None when every model failed), with why the fallback made it."""
        fallback = self.fallback_for(key)
        candidates = [model] if model is not None else []
        for candidate in [*candidates, fallback]:
            try:
                item = await self.cleaner.run(candidate, self.finisher.clean, candidate, page)
                return replace(item, reason=reason) if candidate is fallback and reason is not None else item
            except Exception as exc:  # degrade, never crash: the item goes on
                self.stats.inc_value(keys.ERRORS.format(kind=type(exc).__name__))
                logger.warning("boilerplate: %s could not clean %s: %r", candidate.name, page.url, exc)
                reason = FallbackReason.MODEL_ERROR if reason is None else reason
        return None

    async def _measure(
        self, key: SiteKey, model: SiteModel, fingerprint: Fingerprint, page: Page
    ) -> CleanedItem | None:
        """Clean with the site's model and feed the drift watch; any error takes the usual path."""
        try:
            item, removed, unseen = await self.cleaner.run(model, self.finisher.measure, model, page, fingerprint)
        except Exception:  # _clean retries, counts and falls back as for any item
            return await self._clean(key, model, page, None)
        self.drift.observe(key, model, removed, unseen)
        return item

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
