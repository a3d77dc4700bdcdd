"""Test helpers that work on every supported Scrapy (2.13 to the newest)."""

from __future__ import annotations

import inspect
from typing import Any

import scrapy
from scrapy.crawler import Crawler
from scrapy.utils.test import get_crawler


def opened_crawler(settings: dict[str, Any] | None = None) -> Crawler:
    """A test crawler whose stats are open, as during a crawl.

    ``StatsCollector.open_spider`` takes the spider on Scrapy 2.13 and 2.14 and none after.
    """
    crawler = get_crawler(settings_dict=settings or {})
    spider_param = inspect.signature(crawler.stats.open_spider).parameters.get("spider")
    if spider_param is not None and spider_param.default is inspect.Parameter.empty:
        crawler.stats.open_spider(scrapy.Spider("test"))
    else:
        crawler.stats.open_spider()
    return crawler
