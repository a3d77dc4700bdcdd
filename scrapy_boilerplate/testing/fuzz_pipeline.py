"""The crawl's item pipeline under fuzzing: a real pipeline, its learner holding one fitted model."""

from __future__ import annotations

import inspect

from scrapy_boilerplate.models.base import SiteModel
from scrapy_boilerplate.testing.mutants import PageMutant


class PipelineProbe:
    """Pass mutant pages through :class:`~scrapy_boilerplate.crawl.pipeline.BoilerplatePipeline` as items."""

    def __init__(self, model: SiteModel, domain: str = "fuzz.example") -> None:
        import scrapy
        from scrapy.utils.test import get_crawler

        from scrapy_boilerplate.crawl.events import ModelSource
        from scrapy_boilerplate.crawl.learner import BoilerplateLearner
        from scrapy_boilerplate.crawl.pipeline import BoilerplatePipeline
        from scrapy_boilerplate.store.record import StoredModel

        settings = {"BOILERPLATE_CLEAN_IN_THREAD": False, "BOILERPLATE_HOLD_MAX_BYTES": 1_000_000}
        crawler = get_crawler(settings_dict=settings)
        # StatsCollector.open_spider requires the spider up to Scrapy 2.14, takes none after
        spider_param = inspect.signature(crawler.stats.open_spider).parameters.get("spider")
        if spider_param is not None and spider_param.default is inspect.Parameter.empty:
            crawler.stats.open_spider(scrapy.Spider("fuzz"))
        else:
            crawler.stats.open_spider()
        learner = BoilerplateLearner.from_crawler(crawler)
        learner.book.open(domain)
        learner.route(learner.book.adopt(domain, StoredModel.new("fuzz", domain, model, 1), ModelSource.STORED))
        self.pipeline = BoilerplatePipeline(learner.item_steps)
        self.url = f"http://{domain}/item"
        self.model = model

    def check(self, mutant: PageMutant, as_bytes: bool) -> str | None:
        """What went wrong with one item carrying ``mutant`` (as bytes, or decoded as a spider
        would), or None."""
        from scrapy_boilerplate.html import decode_html

        html: bytes | str = mutant.body if as_bytes else decode_html(mutant.body, mutant.content_type)
        item = {"url": self.url, "html": html}
        coroutine = self.pipeline.process_item(item)
        try:
            coroutine.send(None)
        except StopIteration as done:
            returned = done.value
        except Exception as exc:  # the pipeline must never raise
            return repr(exc)[:300]
        else:
            coroutine.close()
            return "the item waited although its domain has a model"
        if returned is not item:
            return f"returned {type(returned).__name__}, not the item"
        if "text" in item and not isinstance(item["text"], str):
            return f"text is {type(item['text']).__name__}"
        return None
