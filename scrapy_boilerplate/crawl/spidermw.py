"""Spider middleware: tells the pipeline which page cleans each item, and which items opted out.

Item pipelines never see the response; ``process_spider_output(response, result)`` has both.  An
item that does not carry the HTML field is linked to its response (see :mod:`itempages`), so a
spider can yield ``{"url": response.url, "title": ...}`` and get ``text``.  Items of a request with
``meta["dont_clean_boilerplate"]`` are marked to pass untouched.  Items are passed on in order and
unchanged.

Once a callback has yielded everything, a response whose domain's items wait for its model is
pinned by Scrapy until they leave the pipeline, and with it the parsel selector the spider used
(an lxml tree of several times the page).  The middleware drops that cached selector then: the
page's bytes and text stay, and a later ``response.css`` would parse again.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

from itemadapter import ItemAdapter, is_item
from scrapy.crawler import Crawler
from scrapy.http import Response, TextResponse

from scrapy_boilerplate.crawl.components import require_learner
from scrapy_boilerplate.crawl.config import DONT_CLEAN_META
from scrapy_boilerplate.crawl.domain import domain_of
from scrapy_boilerplate.crawl.itempages import ItemPages


def _opted_out(response: Response) -> bool:
    try:
        return bool(response.meta.get(DONT_CLEAN_META))
    except AttributeError:  # a response built without a request has no meta
        return False


def forget_selector(response: Response) -> None:
    """Drop the parsel selector Scrapy caches on ``response`` (``response.selector`` makes it anew)."""
    with contextlib.suppress(AttributeError):  # not a TextResponse, or a Scrapy without that cache
        response._cached_selector = None  # type: ignore[attr-defined]


class BoilerplateSpiderMiddleware:
    """Links each item without HTML to its response; marks the items of opted-out responses."""

    def __init__(
        self,
        pages: ItemPages,
        html_field: str,
        items_wait: Callable[[str], bool] | None = None,
        key_of: Callable[[str], str | None] = domain_of,
    ) -> None:
        """``items_wait(key)``: True while the items of the site ``key`` wait for its model;
        ``key_of(url)``: the site key of the page at ``url`` (None: not known yet)."""
        self.pages = pages
        self.html_field = html_field
        self.items_wait = items_wait or (lambda domain: False)
        self.key_of = key_of

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateSpiderMiddleware:
        """Needs the learner extension (the add-on enables both)."""
        learner = require_learner(crawler, cls.__name__)
        return cls(learner.item_pages, learner.config.html_field, learner.book.items_wait, learner.templates.known)

    def process_spider_output(self, response: Response, result: Iterable[Any], spider: Any = None) -> Iterable[Any]:
        """Sync callbacks."""
        note = self._noter(response)
        for output in result:
            if is_item(output):
                note(output)
            yield output
        self._done(response)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Any = None
    ) -> AsyncIterator[Any]:
        """Async callbacks (every callback's output, in Scrapy 2.13+)."""
        note = self._noter(response)
        async for output in result:
            if is_item(output):
                note(output)
            yield output
        self._done(response)

    def _done(self, response: Response) -> None:
        """The callback yielded everything: a response kept for waiting items keeps no parsed tree."""
        if not isinstance(response, TextResponse) or _opted_out(response):
            return
        key = self.key_of(response.url)
        if key is not None and self.items_wait(key):
            forget_selector(response)

    def _noter(self, response: Response) -> Any:
        """What to record for each item of ``response``."""
        if _opted_out(response):
            return self.pages.opt_out
        if not isinstance(response, TextResponse):
            return _nothing
        html_field, link = self.html_field, self.pages.link

        def link_if_without_html(item: Any) -> None:
            if ItemAdapter(item).get(html_field) in (None, ""):
                link(item, response)

        return link_if_without_html


def _nothing(item: Any) -> None:
    return None
