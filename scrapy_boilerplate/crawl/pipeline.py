"""The item pipeline: clean each item's HTML with its domain's model (or the fallback)."""

from __future__ import annotations

import logging
import re
from typing import Any

from itemadapter import ItemAdapter
from scrapy.crawler import Crawler
from scrapy.utils.defer import maybe_deferred_to_future

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.cleaner import Cleaner
from scrapy_boilerplate.crawl.components import require_learner
from scrapy_boilerplate.crawl.holding import MODEL
from scrapy_boilerplate.crawl.itemfields import ItemFields, item_classes_named_by, unwritable_item_classes
from scrapy_boilerplate.crawl.learner import BoilerplateLearner, domain_of
from scrapy_boilerplate.html import decode_html
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store.sharing import Learned, SharedLearning

logger = logging.getLogger(__name__)

FALLBACK_MARK = " (fallback)"  # appended to the model name in the model field


def clean_and_measure(model: SiteModel, html: str, url: str, learned: Learned) -> tuple[CleanedPage, float | None]:
    """Clean one page and measure its unseen share for drift on the same parsed tree (thread-safe)."""
    page = Page(html, url)
    return model.clean(page), SharedLearning.unseen_share(learned, page)


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


class BoilerplatePipeline:
    """Writes the main text (and optionally cleaned HTML and the model name) into each item."""

    def __init__(self, learner: BoilerplateLearner, spidercls: type | None = None) -> None:
        """``spidercls``: the crawl's spider class, whose item classes are checked at once (see
        :meth:`report_unwritable_item_classes`)."""
        self.learner = learner
        self.config = learner.config
        self.stats = learner.stats
        self.fields = ItemFields(self.config.output_fields)
        self.cleaner = Cleaner(self.config.clean_in_thread, self.config.inline_clean_ms)
        self._reported_classes: set[type] = set()
        self.count = learner.count
        self._cleaned_keys: dict[str, str] = {}  # model name -> its items/cleaned key
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
        """Clean ``item`` in place and return it; anything unusable passes on untouched."""
        fields = self.fields.adapt(item)
        if fields is None:
            return item
        if self.learner.is_opted_out(item):
            return self._skip(item, "opt_out")
        if self.fields.missing_outputs(item):
            return self._undeclared(item)
        html = fields.get(self.config.html_field)
        if isinstance(html, bytes):
            if len(html) > self.config.max_page_bytes:  # the limit is in bytes: judged before decoding
                return self._skip(item, "too_large")
            html = decode_html(html)
        reason = skip_reason(html, self.config.max_page_bytes)
        if reason is not None:
            return self._skip(item, reason)
        url = fields.get(self.config.url_field)
        url = url if isinstance(url, str) else ""
        domain = domain_of(url) if url else ""
        model = await self._model_for(domain, len(html)) if domain else None
        prepared = self.learner.take_prepared(domain, url, html) if model is not None else None
        if prepared is None and model is not None and (learned := self.learner.drift_due(domain, model)):
            cleaned, fallback = await self._measure(domain, learned, html, url)
        else:
            cleaned, fallback = (prepared, False) if prepared is not None else await self._clean(model, html, url)
        if cleaned is not None:
            self._write(fields, cleaned, fallback)
        return item

    async def _model_for(self, domain: str, size: int) -> SiteModel | None:
        """The domain's model, waiting for it (bounded) while the domain is still sampling."""
        model = self.learner.model_for(domain)
        if model is not None or not self.learner.should_hold(domain):
            return model
        held = self.learner.hold.hold(domain, size)
        if held is None:
            self.count(keys.ITEMS_HOLD_FULL)
            return None
        self.count(keys.ITEMS_HELD)
        reason = await maybe_deferred_to_future(held)
        self.count(keys.ITEMS_RELEASED.format(reason=reason))
        return self.learner.model_for(domain) if reason == MODEL else None

    async def _clean(self, model: SiteModel | None, html: str, url: str) -> tuple[CleanedPage | None, bool]:
        """Clean with ``model`` (None: the fallback); a failing site model falls back, then gives up.

        Returns the cleaned page (None when every model failed) and whether the fallback made it.
        """
        candidates = [model] if model is not None else []
        for candidate in [*candidates, self.learner.fallback]:
            try:
                cleaned = await self.cleaner.clean(candidate, html, url)
                return cleaned, candidate is self.learner.fallback
            except Exception as exc:  # degrade, never crash: the item goes on
                self.count(keys.ERRORS.format(kind=type(exc).__name__))
                logger.warning("boilerplate: %s could not clean %s: %r", candidate.name, url, exc)
        return None, False

    async def _measure(self, domain: str, learned: Learned, html: str, url: str) -> tuple[CleanedPage | None, bool]:
        """Clean with the domain's model and feed the drift monitor; any error takes the usual path."""
        try:
            cleaned, unseen = await self.cleaner.run(
                learned.model, clean_and_measure, learned.model, html, url, learned
            )
        except Exception:  # noqa: BLE001 - _clean retries, counts and falls back as for any item
            return await self._clean(learned.model, html, url)
        self.learner.observe(domain, learned, cleaned.removed_share, unseen)
        return cleaned, False

    def _write(self, fields: ItemAdapter, cleaned: CleanedPage, fallback: bool) -> None:
        values: dict[str, Any] = {self.config.text_field: cleaned.text}
        if self.config.cleaned_html_field:
            values[self.config.cleaned_html_field] = cleaned.html
        if self.config.model_field:
            values[self.config.model_field] = cleaned.model + (FALLBACK_MARK if fallback else "")
        self.fields.set_many(fields, values)
        inc = self.count
        key = self._cleaned_keys.get(cleaned.model)
        if key is None:
            key = self._cleaned_keys[cleaned.model] = keys.ITEMS_CLEANED.format(model=cleaned.model)
        inc(key)
        if fallback:
            inc(keys.ITEMS_FALLBACK)
        inc(keys.CHARS_TOTAL, cleaned.total_chars)
        inc(keys.CHARS_REMOVED, cleaned.removed_chars)

    def _skip(self, item: Any, reason: str) -> Any:
        self.count(keys.ITEMS_SKIPPED.format(reason=reason))
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
