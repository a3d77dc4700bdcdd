"""The item pipeline: clean each item's page with its domain's model (or the fallback).

An item's page is the response that produced it (linked by the spider middleware, when the item
does not carry the HTML field), or the HTML and URL fields of the item itself.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from itemadapter import ItemAdapter
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem
from scrapy.http import Response, TextResponse
from scrapy.utils.defer import maybe_deferred_to_future

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.cleaner import Cleaner
from scrapy_boilerplate.crawl.components import require_learner
from scrapy_boilerplate.crawl.domain import domain_of
from scrapy_boilerplate.crawl.drift import clean_and_measure
from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.crawl.itemfields import ItemFields, item_classes_named_by, unwritable_item_classes
from scrapy_boilerplate.crawl.itempages import OPTED_OUT
from scrapy_boilerplate.crawl.learner import BoilerplateLearner
from scrapy_boilerplate.crawl.middleware import sample_skip_reason
from scrapy_boilerplate.crawl.pagecleans import PageCleans
from scrapy_boilerplate.html import decode_html
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.rescue import MIN_WORDS, RESCUE_MARK, prose_rescue
from scrapy_boilerplate.store.sharing import Learned

logger = logging.getLogger(__name__)

FALLBACK_MARK = " (fallback)"  # appended to the model name in the model field
TAKEN_OVER = "boilerplate: another worker took this item over while it waited here; that worker exports it"

# A page starts with "<" after an optional BOM and blank space (matched in place: no stripped copy).
_MARKUP_START = re.compile("[\ufeff \t\r\n]*<")


def skip_reason(html: Any, max_bytes: int) -> str | None:
    """Why an HTML field value cannot be cleaned, or None when it can (checked per item, without copying the page)."""
    if not isinstance(html, str) or not html or html.isspace():
        return "no_html"
    if len(html) > max_bytes:
        return "too_large"
    if _MARKUP_START.match(html) is None:
        return "not_html"
    return None


@dataclass(frozen=True)
class ItemPage:
    """The page an item is cleaned from: its HTML, URL, size in Scrapy's scraper slot, and response."""

    html: str
    url: str
    size: int
    response: Response | None = None


class BoilerplatePipeline:
    """Writes the main text (and optionally cleaned HTML and the model name) into each item."""

    def __init__(self, learner: BoilerplateLearner, spidercls: type | None = None) -> None:
        """``spidercls``: the crawl's spider class, whose item classes are checked at once (see
        :meth:`report_unwritable_item_classes`)."""
        self.learner = learner
        self.config = learner.config
        self.stats = learner.stats
        self.pages = learner.item_pages
        self.report = learner.report
        self.recovery = learner.recovery
        self.fields = ItemFields(self.config.output_fields)
        self.cleaner = Cleaner(self.config.clean_in_thread, self.config.inline_clean_ms)
        self._reported_classes: set[type] = set()
        self._rescued_domains: set[str] = set()
        self.page_cleans: PageCleans[tuple[CleanedPage | None, FallbackReason | None]] = PageCleans()
        if spidercls is not None:
            self.report_unwritable_item_classes(spidercls)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplatePipeline:
        """Needs the learner extension (the add-on enables both)."""
        return cls(require_learner(crawler, cls.__name__), crawler.spidercls)

    def report_unwritable_item_classes(self, spidercls: type) -> None:
        """Log an error at start-up for each item class the spider names (see
        :func:`item_classes_named_by`) that holds the HTML field but not the fields written here:
        its items would pass on uncleaned.  The crawl goes on (the spider may never yield it)."""
        found = unwritable_item_classes(
            item_classes_named_by(spidercls), self.config.html_field, self.config.output_fields
        )
        for item_class, missing in found.items():
            self._report_undeclared(
                item_class,
                missing,
                f"{spidercls.__name__} names it and it has the "
                f"{self.config.html_field!r} field, so its items would pass on uncleaned.",
            )

    async def process_item(self, item: Any, spider: Any = None) -> Any:
        """Clean ``item`` in place and return it; anything unusable passes on untouched.

        An item recorded for recovery (it waited, on a shared store) has its record removed as it
        leaves; if another worker took the record over meanwhile, that worker exports the item and
        it is dropped here."""
        try:
            return await self._process(item)
        finally:
            if self.recovery.has_record(item) and not await self.recovery.release(item):
                raise DropItem(TAKEN_OVER, log_level="INFO")

    async def _process(self, item: Any) -> Any:
        fields = self.fields.adapt(item)
        if fields is None:
            return item
        linked, response = self.pages.take(item)
        if linked and response is OPTED_OUT:
            return self._skip(item, "opt_out")
        if self.fields.missing_outputs(item):
            return self._undeclared(item)
        page = self._page_of(fields, response)
        if isinstance(page, str):
            return self._skip(item, page)
        domain = domain_of(page.url) if page.url else ""
        model, reason = await self._model_for(domain, page, item)
        cleaned, reason = await self._cleaned(domain, page, model, reason)
        if model is not None and self.learner.drift.resampling(domain):
            self._offer_to_new_sample(domain, page)
        if cleaned is not None:
            rescued = self._rescued(cleaned, page, domain)
            self._write(fields, rescued or cleaned, domain, reason, rescued is not None)
        return item

    def _rescued(self, cleaned: CleanedPage, page: ItemPage, domain: str) -> CleanedPage | None:
        """The page's longest prose block when the model kept no text of it (see
        :mod:`scrapy_boilerplate.rescue`); said once per domain."""
        if len(cleaned.text.split(None, MIN_WORDS)) >= MIN_WORDS:  # the usual case: no parse here
            return None
        rescued = prose_rescue(cleaned, Page(page.html, page.url))
        if rescued is not None:
            self.stats.inc_value(keys.ITEMS_RESCUED)
            if domain not in self._rescued_domains:
                self._rescued_domains.add(domain)
                logger.info(
                    "boilerplate: %s kept no text of %s; the item gets the page's longest prose block "
                    "instead (%d characters; the model field says so)",
                    cleaned.model,
                    page.url,
                    len(rescued.text),
                )
        return rescued

    def _offer_to_new_sample(self, domain: str, page: ItemPage) -> None:
        """A page of a domain that may be re-sampling after a template change (see :mod:`drift`)."""
        if page.response is None or sample_skip_reason(page.response, self.config.max_page_bytes) is None:
            self.learner.drift.offer_page(domain, page.url, page.html)

    def _page_of(self, fields: ItemAdapter, response: TextResponse | None) -> ItemPage | str:
        """The page that cleans the item, or why there is none (a skip reason)."""
        if response is not None:
            if len(response.body) > self.config.max_page_bytes:
                return "too_large"
            html = response.text
            return skip_reason(html, self.config.max_page_bytes) or ItemPage(
                html, response.url, len(response.body), response
            )
        value = fields.get(self.config.html_field)
        if isinstance(value, bytes):
            if len(value) > self.config.max_page_bytes:  # the limit is in bytes: judged before decoding
                return "too_large"
            value = decode_html(value)
        reason = skip_reason(value, self.config.max_page_bytes)
        if reason is not None:
            return reason
        assert isinstance(value, str)  # typing: checked by skip_reason
        url = fields.get(self.config.url_field)
        return ItemPage(value, url if isinstance(url, str) else "", len(value))

    async def _model_for(
        self, domain: str, page: ItemPage, item: Any
    ) -> tuple[SiteModel | None, FallbackReason | None]:
        """The domain's model, waiting for it (bounded, ``item`` recorded for recovery) while the
        domain is still sampling; without one, why the fallback cleans the item."""
        if not domain:
            return None, FallbackReason.NO_URL
        model = self.learner.model_for(domain)
        if model is not None:
            return model, None
        if not self.learner.should_hold(domain):
            return None, self.learner.fallback_reason(domain)
        held = self.learner.hold.hold(domain, page.size)
        if held is None:
            return None, FallbackReason.HOLD_FULL
        self.stats.inc_value(keys.ITEMS_HELD)
        await self.recovery.record(item, page.url, page.html if page.response is not None else None)
        release = await maybe_deferred_to_future(held)
        self.stats.inc_value(keys.ITEMS_RELEASED.format(reason=release.key if release else "model"))
        model = self.learner.model_for(domain) if release is None else None
        return model, (release or FallbackReason.SAMPLE_NOT_FILLED) if model is None else None

    async def _cleaned(
        self, domain: str, page: ItemPage, model: SiteModel | None, reason: FallbackReason | None
    ) -> tuple[CleanedPage | None, FallbackReason | None]:
        """The cleaned page: from the fit's own clean of a sample page, from the clean of its page
        that another item of it made (a listing page's items share their page), or cleaned now."""
        cleaner = model or self.learner.fallback
        if model is not None:
            prepared = self.learner.take_prepared(domain, page.url, page.html)
            if prepared is not None:
                if page.response is not None:
                    self.page_cleans.keep(page.response, cleaner, (prepared, None))
                return prepared, None
        if page.response is None:
            return await self._fresh_clean(domain, page, model, reason)
        cleaned, shared_reason = await self.page_cleans.share(
            page.response, cleaner, lambda: self._fresh_clean(domain, page, model, reason)
        )
        return (
            cleaned,
            reason if reason is not None else shared_reason,
        )  # an item's own fallback reason, else the clean's

    async def _fresh_clean(
        self, domain: str, page: ItemPage, model: SiteModel | None, reason: FallbackReason | None
    ) -> tuple[CleanedPage | None, FallbackReason | None]:
        """Clean the page now: measured for drift when due, else plainly."""
        if model is not None and (learned := self.learner.drift.due(domain, model)):
            return await self._measure(domain, learned, page)
        return await self._clean(model, page, reason)

    async def _clean(
        self, model: SiteModel | None, page: ItemPage, reason: FallbackReason | None
    ) -> tuple[CleanedPage | None, FallbackReason | None]:
        """Clean with ``model`` (None: the fallback); a failing site model falls back, then gives up.

        Returns the cleaned page (None when every model failed) and, if the fallback made it, why."""
        candidates = [model] if model is not None else []
        for candidate in [*candidates, self.learner.fallback]:
            try:
                cleaned = await self.cleaner.clean(candidate, page.html, page.url)
                return cleaned, reason if candidate is self.learner.fallback else None
            except Exception as exc:  # degrade, never crash: the item goes on
                self.stats.inc_value(keys.ERRORS.format(kind=type(exc).__name__))
                logger.warning("boilerplate: %s could not clean %s: %r", candidate.name, page.url, exc)
                reason = FallbackReason.MODEL_ERROR if reason is None else reason
        return None, None

    async def _measure(
        self, domain: str, learned: Learned, page: ItemPage
    ) -> tuple[CleanedPage | None, FallbackReason | None]:
        """Clean with the domain's model and feed the drift monitor; any error takes the usual path."""
        try:
            cleaned, unseen = await self.cleaner.run(
                learned.model, clean_and_measure, learned.model, page.html, page.url, learned
            )
        except Exception:  # _clean retries, counts and falls back as for any item
            return await self._clean(learned.model, page, None)
        self.learner.drift.observe(domain, learned, cleaned.removed_share, unseen)
        return cleaned, None

    def _write(
        self, fields: ItemAdapter, cleaned: CleanedPage, domain: str, reason: FallbackReason | None, rescued: bool
    ) -> None:
        label = cleaned.model + (FALLBACK_MARK if reason is not None else "") + (RESCUE_MARK if rescued else "")
        values: dict[str, Any] = {self.config.text_field: cleaned.text}
        if self.config.cleaned_html_field:
            values[self.config.cleaned_html_field] = cleaned.html
        if self.config.model_field:
            values[self.config.model_field] = label
        self.fields.set_many(fields, values)
        if self.config.drop_html:
            self.fields.drop(fields, self.config.html_field)
        self.stats.inc_value(keys.ITEMS_CLEANED.format(model=cleaned.model))
        self.stats.inc_value(keys.CHARS_TOTAL, cleaned.total_chars)
        self.stats.inc_value(keys.CHARS_REMOVED, cleaned.removed_chars)
        self.report.cleaned(label, domain, reason)

    def _skip(self, item: Any, reason: str) -> Any:
        self.stats.inc_value(keys.ITEMS_SKIPPED.format(reason=reason))
        return item

    def _undeclared(self, item: Any) -> Any:
        self._report_undeclared(type(item), self.fields.missing_outputs(item), "Its items pass on uncleaned.")
        return self._skip(item, "undeclared_field")

    def _report_undeclared(self, item_class: type, missing: tuple[str, ...], consequence: str) -> None:
        """One error per item class that lacks output fields, whether found at start-up or on an item;
        ``consequence`` is the sentence that ends it."""
        if item_class in self._reported_classes:
            return
        self._reported_classes.add(item_class)
        logger.error(
            "boilerplate: %s does not declare the field(s) %s that the pipeline writes; "
            "declare them or change BOILERPLATE_TEXT_FIELD / BOILERPLATE_CLEANED_HTML_FIELD / "
            "BOILERPLATE_MODEL_FIELD. %s",
            item_class.__name__,
            ", ".join(missing),
            consequence,
        )
