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
from scrapy_boilerplate.crawl.domain import domain_of
from scrapy_boilerplate.crawl.page_checks import sample_skip_reason
from scrapy_boilerplate.crawl.sampler import Sampler
from scrapy_boilerplate.crawl.templating import PageTemplates
from scrapy_boilerplate.page import Page


class BoilerplateSamplingMiddleware:
    """Feeds the sites' samples; returns every response unchanged and at once."""

    def __init__(self, sampler: Sampler, templates: PageTemplates, max_bytes: int, stats: Any) -> None:
        self.sampler = sampler
        self.templates = templates
        self.max_bytes = max_bytes
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateSamplingMiddleware:
        """Needs the learner extension (the add-on enables both), which holds the sampler."""
        learner = require_learner(crawler, cls.__name__)
        return cls(learner.sampler, learner.templates, learner.config.max_page_bytes, learner.stats)

    def process_response(self, request: Request, response: Response, spider: Any = None) -> Response:
        """Sample ``response`` when its template still needs pages; always return it untouched.

        The page's template is found here (a parse of the page) only while its domain may still
        sample: a domain whose every template has its model costs no parse here."""
        if request.meta.get(DONT_CLEAN_META):
            return response
        key = self.templates.known(response.url)
        if not (self.sampler.wants(key) if key is not None else self.sampler.may_want(domain_of(response.url))):
            return response
        reason = sample_skip_reason(response, self.max_bytes)
        if reason is not None:
            if key is None or self.sampler.wants(key):
                self.stats.inc_value(keys.SAMPLE_SKIPPED.format(reason=reason))
            return response
        assert isinstance(response, TextResponse)  # typing: checked by sample_skip_reason
        page = Page.from_response(response)
        if key is None:
            key = self.templates.key(page)
        if self.sampler.wants(key):
            self.sampler.offer(key, Page(page.html, page.url))  # the sample keeps the text, not the tree
        return response
