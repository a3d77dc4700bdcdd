"""Spider middleware: items from requests with ``meta["dont_clean_boilerplate"]`` skip cleaning.

Item pipelines never see the response (scrapy/core/scraper.py:496-506), so the opt-out is read
here, where ``process_spider_output(response, result)`` has both, and handed to the pipeline.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from typing import Any

from itemadapter import is_item
from scrapy.crawler import Crawler
from scrapy.http import Response

from scrapy_boilerplate.crawl.components import require_learner
from scrapy_boilerplate.crawl.config import DONT_CLEAN_META
from scrapy_boilerplate.crawl.learner import BoilerplateLearner


def _opted_out(response: Response) -> bool:
    try:
        return bool(response.meta.get(DONT_CLEAN_META))
    except AttributeError:  # a response built without a request has no meta
        return False


class BoilerplateSpiderMiddleware:
    """Marks the items of opted-out responses for the pipeline; passes everything on in order."""

    def __init__(self, learner: BoilerplateLearner) -> None:
        self.learner = learner

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateSpiderMiddleware:
        """Needs the learner extension (the add-on enables both)."""
        return cls(require_learner(crawler, cls.__name__))

    def process_spider_output(self, response: Response, result: Iterable[Any], spider: Any = None) -> Iterable[Any]:
        """Sync callbacks."""
        opted_out = _opted_out(response)
        for output in result:
            if opted_out and is_item(output):
                self.learner.mark_opt_out(output)
            yield output

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Any = None
    ) -> AsyncIterator[Any]:
        """Async callbacks (every callback's output, in Scrapy 2.13+)."""
        if not _opted_out(response):  # the usual case: pass everything on, checking nothing per output
            async for output in result:
                yield output
            return
        async for output in result:
            if is_item(output):
                self.learner.mark_opt_out(output)
            yield output
