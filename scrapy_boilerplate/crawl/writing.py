"""The pipeline's third step: an item's clean written into its fields, counted and reported."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from itemadapter import ItemAdapter

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.config import BoilerplateConfig
from scrapy_boilerplate.crawl.events import SiteKey
from scrapy_boilerplate.crawl.fallback import FallbackReport
from scrapy_boilerplate.crawl.finishing import CleanedItem
from scrapy_boilerplate.crawl.itemfields import ItemFields
from scrapy_boilerplate.crawl.templating import key_domain
from scrapy_boilerplate.rescue import RESCUE_MARK

FALLBACK_MARK = " (fallback)"  # appended to the model name in the model field
SINGLE_PAGE_MARK = " (single page)"  # the same, where the page's template has no fit: no failure


class ItemWriter:
    """Writes the text (and optionally the cleaned HTML and the model's name) into each item."""

    def __init__(self, config: BoilerplateConfig, stats: Any, report: FallbackReport) -> None:
        self.config = config
        self.stats = stats
        self.report = report

    def write(self, adapter: ItemAdapter, key: SiteKey, item: CleanedItem) -> None:
        """Write ``item``'s clean into the item of ``adapter`` (of site ``key``), count it, report a
        fallback."""
        cleaned, reason = item.cleaned, item.reason
        mark = "" if reason is None else FALLBACK_MARK if reason.failure else SINGLE_PAGE_MARK
        label = cleaned.model + mark + (RESCUE_MARK if item.rescued else "")
        values: dict[str, Any] = {self.config.text_field: cleaned.text}
        if self.config.cleaned_html_field:
            values[self.config.cleaned_html_field] = cleaned.html
        if self.config.model_field:
            values[self.config.model_field] = label
        if self.config.record_fields:
            values.update(self._record_values(item.fields))
        ItemFields.set_many(adapter, values)
        if self.config.drop_html:
            ItemFields.drop(adapter, self.config.html_field)
        if reason is None:  # the fallback's items are counted apart, by reason (FallbackReport)
            self.stats.inc_value(keys.ITEMS_CLEANED.format(model=cleaned.model))
        self.stats.inc_value(keys.CHARS_TOTAL, cleaned.total_chars)
        self.stats.inc_value(keys.CHARS_REMOVED, cleaned.removed_chars)
        self.report.cleaned(label, key_domain(key), reason)

    def _record_values(self, found: Mapping[str, Any]) -> dict[str, Any]:
        """The Markdown, metadata and page type fields asked for (read with the clean, see
        :mod:`finishing`), by item field; each counted as written or empty (None: the page states
        no such thing)."""
        values: dict[str, Any] = {}
        for name, field in self.config.record_fields:
            value = found.get(name)
            values[field] = value
            self.stats.inc_value(keys.FIELDS.format(field=name, outcome="written" if value is not None else "empty"))
        if found.get("page_type") is not None:
            self.stats.inc_value(keys.PAGE_TYPES.format(type=found["page_type"]))
        return values
