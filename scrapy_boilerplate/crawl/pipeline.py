"""The item pipeline: clean each item's page with its site's model (or the fallback).

An item's page is the response that produced it (linked by the spider middleware, when the item
does not carry the HTML field), or the HTML and URL fields of the item itself.  A usable page goes
through three steps: wait for its site's model (:mod:`waiting`), clean (:mod:`item_cleaning`), write
the item (:mod:`writing`).  Anything unusable passes on untouched, its reason counted.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from itemadapter import ItemAdapter
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem
from scrapy.http import TextResponse

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.components import require_learner
from scrapy_boilerplate.crawl.events import SiteKey
from scrapy_boilerplate.crawl.item_steps import ItemSteps
from scrapy_boilerplate.crawl.itemfields import ItemFields, item_classes_named_by, unwritable_item_classes
from scrapy_boilerplate.crawl.itempages import OPTED_OUT, ItemPage
from scrapy_boilerplate.crawl.page_checks import skip_reason
from scrapy_boilerplate.html import decode_html
from scrapy_boilerplate.page import Page

logger = logging.getLogger(__name__)

TAKEN_OVER = "boilerplate: another worker took this item over while it waited here; that worker exports it"


class BoilerplatePipeline:
    """Writes the main text (and optionally cleaned HTML and the model name) into each item."""

    def __init__(self, steps: ItemSteps, spidercls: type | None = None) -> None:
        """``spidercls``: the crawl's spider class, whose item classes are checked at once (see
        :meth:`report_unwritable_item_classes`)."""
        self.steps = steps
        self.config = steps.config
        self.stats = steps.stats
        self.pages = steps.pages
        self.recovery = steps.recovery
        self.fields = ItemFields(self.config.output_fields)
        self._reported_classes: set[type] = set()
        if spidercls is not None:
            self.report_unwritable_item_classes(spidercls)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplatePipeline:
        """Needs the learner extension (the add-on enables both), which builds the steps."""
        return cls(require_learner(crawler, cls.__name__).item_steps, crawler.spidercls)

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
        key, page = self._site_of(page)
        release = await self.steps.wait.release(key, page, item)
        cleaned = await self.steps.clean.clean(key, page, release)
        if cleaned is not None:
            self.steps.write.write(fields, key, cleaned)
        return item

    def _site_of(self, page: ItemPage) -> tuple[SiteKey, ItemPage]:
        """The site key of ``page`` ("" without a URL).  A page parsed here to tell its template keeps
        the tree for its clean, unless its item is going to wait (a waiting item keeps no tree)."""
        if not page.url:
            return "", page
        key = self.steps.templates.known(page.url)
        if key is not None:
            return key, page
        parsed = Page(page.html, page.url)
        key = self.steps.templates.key(parsed)
        return key, page if self.steps.wait.waits(key) else replace(page, parsed=parsed)

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
