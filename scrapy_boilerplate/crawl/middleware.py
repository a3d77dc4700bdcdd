"""Downloader middleware: copy HTML responses of domains still sampling into their sample.

It never holds a response: a response awaited in a downloader middleware keeps its request in
the downloader's active set, which stops the whole crawl once CONCURRENT_REQUESTS are held, and
keeps the page's links from the spider.  It only records the page and returns.
"""

from __future__ import annotations

from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import Response, TextResponse

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.components import require_learner
from scrapy_boilerplate.crawl.config import DONT_CLEAN_META
from scrapy_boilerplate.crawl.domain import site_key
from scrapy_boilerplate.crawl.page_checks import sample_skip_reason
from scrapy_boilerplate.crawl.sampler import Sampler
from scrapy_boilerplate.page import Page


class BoilerplateSamplingMiddleware:
    """Feeds the sites' samples; returns every response unchanged and at once."""

    def __init__(self, sampler: Sampler, max_bytes: int, stats: Any) -> None:
        self.sampler = sampler
        self.max_bytes = max_bytes
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateSamplingMiddleware:
        """Needs the learner extension (the add-on enables both), which holds the sampler."""
        learner = require_learner(crawler, cls.__name__)
        return cls(learner.sampler, learner.config.max_page_bytes, learner.stats)

    def process_response(self, request: Request, response: Response, spider: Any = None) -> Response:
        """Sample ``response`` when its domain still needs pages; always return it untouched."""
        if request.meta.get(DONT_CLEAN_META):
            return response
        key = site_key(response.url)
        if not self.sampler.wants(key):
            return response
        reason = sample_skip_reason(response, self.max_bytes)
        if reason is not None:
            self.stats.inc_value(keys.SAMPLE_SKIPPED.format(reason=reason))
            return response
        assert isinstance(response, TextResponse)  # typing: checked by sample_skip_reason
        self.sampler.offer(key, Page.from_response(response))
        return response
