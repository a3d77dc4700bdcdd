"""Crawl article pages from one or more seed URLs; each item is cleaned from the response that yielded it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import scrapy
from scrapy.http import Response, TextResponse


class ArticlesSpider(scrapy.Spider):
    """``scrapy crawl articles -a seeds=URL[,URL...] -O items.jsonl``"""

    name = "articles"

    def __init__(self, seeds: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seeds = [url for url in seeds.split(",") if url]

    async def start(self) -> AsyncIterator[scrapy.Request]:
        for url in self.seeds:
            yield scrapy.Request(url)

    def parse(self, response: Response) -> Iterator[Any]:
        if not isinstance(response, TextResponse):
            return  # a PDF, an image, an archive: no page and no links
        # scrapy-boilerplate cleans the item from this response and writes "text" and "boilerplate_model".
        yield {"url": response.url, "title": response.css("title::text").get()}
        yield from response.follow_all(css="a[href*='/article/']")
