"""What follows a page's clean, on the tree the clean parsed: the prose rescue and the record fields.

The record fields a crawl asks for (Markdown, title, author, date, language, page type, see
:func:`~scrapy_boilerplate.records.extra_fields`) are read in the same call as the clean, so they
run where the clean runs (the cleaner's thread when the clean is threaded, the fit's for a sample
page) and read the tree the clean parsed: an opt-in field costs no second parse of the page and no
CPU on the reactor thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.drift import Fingerprint, clean_and_measure
from scrapy_boilerplate.metadata import FIELDS as METADATA_FIELDS
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.records import extra_fields
from scrapy_boilerplate.rescue import prose_rescue


@dataclass(frozen=True)
class CleanedItem:
    """An item's clean: its page cleaned, why the fallback made it (None: the site's model did),
    whether the longest prose block stands in for an output without a word (``replaced``: the
    model's own clean it stands in for), and the record fields asked for (record field name ->
    value, None where the page states no such thing)."""

    cleaned: CleanedPage
    reason: FallbackReason | None
    rescued: bool = False
    fields: Mapping[str, Any] = field(default_factory=dict)
    replaced: CleanedPage | None = None

    @property
    def model_clean(self) -> CleanedPage:
        """The model's own clean of the page (before a rescue), for the drift watch."""
        return self.replaced or self.cleaned


class CleanFinisher:
    """Cleans a page and finishes the clean: the prose rescue, then the record fields ``names``."""

    def __init__(self, names: tuple[str, ...] = ()) -> None:
        self.names = names
        # metadata and the page type read the page's shared tree: parsed before the clean, a model
        # that edits a tree of its own (ngram) copies it instead of parsing the page a second time
        self._reads_tree = any(name in METADATA_FIELDS or name == "page_type" for name in names)

    def clean(self, model: SiteModel, page: Page) -> CleanedItem:
        """``model``'s clean of ``page``, finished; exceptions of the model propagate."""
        if self._reads_tree:
            page.parse()
        return self.finish(model.clean(page), page)

    def measure(self, model: SiteModel, page: Page, fingerprint: Fingerprint) -> tuple[CleanedItem, float, float]:
        """``model``'s clean of ``page``, finished, with the share of text it removed and the page's
        unseen share for the drift watch (see :func:`~scrapy_boilerplate.drift.clean_and_measure`)."""
        if self._reads_tree:
            page.parse()
        cleaned, unseen = clean_and_measure(model, page, fingerprint)
        return self.finish(cleaned, page), cleaned.removed_share, unseen

    def finish(self, cleaned: CleanedPage, page: Page, fields: Mapping[str, Any] | None = None) -> CleanedItem:
        """``cleaned`` (or the page's longest prose block, see :mod:`~scrapy_boilerplate.rescue`) with
        its record fields; ``fields``: those already read for ``cleaned`` (a fit's clean of a sample
        page), used unless the rescue replaced it."""
        rescued = prose_rescue(cleaned, page)  # reads the tree only for an output without a word
        if rescued is not None:
            return CleanedItem(rescued, None, True, extra_fields(page, rescued, self.names), cleaned)
        return CleanedItem(cleaned, None, False, extra_fields(page, cleaned, self.names) if fields is None else fields)
