"""Learners built in a test, without a crawl: their parts are reached as the crawl's components reach them."""

from __future__ import annotations

from typing import Any

from helpers.scrapy_compat import opened_crawler
from scrapy_boilerplate.crawl.config import BoilerplateConfig
from scrapy_boilerplate.crawl.events import ModelSource
from scrapy_boilerplate.crawl.learner import BoilerplateLearner
from scrapy_boilerplate.crawl.pipeline import BoilerplatePipeline
from scrapy_boilerplate.models.base import SiteModel
from scrapy_boilerplate.store.record import StoredModel


def make_learner(clock: Any = None, **settings: Any) -> BoilerplateLearner:
    """A learner of a test crawler with ``settings``; ``clock`` (e.g. ``twisted.internet.task.Clock``)
    times its parts instead of the reactor.  A domain is one template (one model, keyed by the domain,
    as :func:`use_model` puts it) unless the test sets BOILERPLATE_MAX_TEMPLATES."""
    crawler = opened_crawler({"BOILERPLATE_MAX_TEMPLATES": 1, **settings})
    return BoilerplateLearner(BoilerplateConfig.from_settings(crawler.settings), crawler, clock)


def use_model(learner: BoilerplateLearner, domain: str, model: SiteModel, pages: int = 6) -> StoredModel:
    """Put ``model`` (fitted on ``pages`` pages) to use for ``domain``, as a model stored before the crawl."""
    stored = StoredModel.new("test", domain, model, pages)
    learner.book.open(domain)
    learner.route(learner.book.adopt(domain, stored, ModelSource.STORED))
    return stored


def pipeline_of(learner: BoilerplateLearner, spidercls: type | None = None) -> BoilerplatePipeline:
    """The item pipeline of ``learner``'s crawl (``spidercls``: the crawl's spider class)."""
    return BoilerplatePipeline(learner.item_steps, spidercls)
