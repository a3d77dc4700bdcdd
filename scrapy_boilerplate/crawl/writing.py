"""The pipeline's third step: an item's clean written into its fields, counted and reported."""

from __future__ import annotations

from typing import Any

from itemadapter import ItemAdapter

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.config import BoilerplateConfig
from scrapy_boilerplate.crawl.events import SiteKey
from scrapy_boilerplate.crawl.fallback import FallbackReport
from scrapy_boilerplate.crawl.item_cleaning import CleanedItem
from scrapy_boilerplate.crawl.itemfields import ItemFields
from scrapy_boilerplate.crawl.itempages import ItemPage
from scrapy_boilerplate.crawl.templating import key_domain
from scrapy_boilerplate.metadata import FIELDS as METADATA_FIELDS
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.records import extra_fields
from scrapy_boilerplate.rescue import RESCUE_MARK

FALLBACK_MARK = " (fallback)"  # appended to the model name in the model field
SINGLE_PAGE_MARK = " (single page)"  # the same, where the page's template has no fit: no failure


def _page_of(page: ItemPage, names: list[str], cleaned: CleanedPage) -> Page:
    """The page the metadata and the page type are read from (parsed only when a metadata field is
    asked for, or the page type and the clean does not carry it)."""
    wants_type = "page_type" in names and not cleaned.has_page_type
    if not wants_type and not any(name in METADATA_FIELDS for name in names):
        return Page("", page.url)
    return page.parsed or Page(page.html, page.url)  # the tree parsed to tell the page's template, if it was


class ItemWriter:
    """Writes the text (and optionally the cleaned HTML and the model's name) into each item."""

    def __init__(self, config: BoilerplateConfig, stats: Any, report: FallbackReport) -> None:
        self.config = config
        self.stats = stats
        self.report = report

    def write(self, adapter: ItemAdapter, key: SiteKey, item: CleanedItem, page: ItemPage) -> None:
        """Write ``item``'s clean of ``page`` into the item of ``adapter`` (of site ``key``), count it,
        report a fallback."""
        cleaned, reason = item.cleaned, item.reason
        mark = "" if reason is None else FALLBACK_MARK if reason.failure else SINGLE_PAGE_MARK
        label = cleaned.model + mark + (RESCUE_MARK if item.rescued else "")
        values: dict[str, Any] = {self.config.text_field: cleaned.text}
        if self.config.cleaned_html_field:
            values[self.config.cleaned_html_field] = cleaned.html
        if self.config.model_field:
            values[self.config.model_field] = label
        if self.config.record_fields:
            values.update(self._record_values(cleaned, page))
        ItemFields.set_many(adapter, values)
        if self.config.drop_html:
            ItemFields.drop(adapter, self.config.html_field)
        if reason is None:  # the fallback's items are counted apart, by reason (FallbackReport)
            self.stats.inc_value(keys.ITEMS_CLEANED.format(model=cleaned.model))
        self.stats.inc_value(keys.CHARS_TOTAL, cleaned.total_chars)
        self.stats.inc_value(keys.CHARS_REMOVED, cleaned.removed_chars)
        self.report.cleaned(label, key_domain(key), reason)

    def _record_values(self, cleaned: CleanedPage, page: ItemPage) -> dict[str, Any]:
        """The Markdown, metadata and page type fields asked for, by item field; each counted as
        written or empty (None: the page states no such thing)."""
        names = [name for name, _ in self.config.record_fields]
        found = extra_fields(_page_of(page, names, cleaned), cleaned, names)
        values: dict[str, Any] = {}
        for name, field in self.config.record_fields:
            value = found.get(name)
            values[field] = value
            self.stats.inc_value(keys.FIELDS.format(field=name, outcome="written" if value is not None else "empty"))
        if found.get("page_type") is not None:
            self.stats.inc_value(keys.PAGE_TYPES.format(type=found["page_type"]))
        return values
