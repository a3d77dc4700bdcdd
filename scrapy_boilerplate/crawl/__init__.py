"""The live-crawl integration: sampling middleware, learner extension, cleaning pipeline, add-on."""

from scrapy_boilerplate.crawl.addon import Addon
from scrapy_boilerplate.crawl.config import DEFAULT_MODEL, DONT_CLEAN_META, SETTINGS, BoilerplateConfig
from scrapy_boilerplate.crawl.learner import BoilerplateLearner
from scrapy_boilerplate.crawl.middleware import BoilerplateSamplingMiddleware
from scrapy_boilerplate.crawl.pipeline import BoilerplatePipeline
from scrapy_boilerplate.crawl.spidermw import BoilerplateSpiderMiddleware

__all__ = [
    "Addon",
    "BoilerplateConfig",
    "BoilerplateLearner",
    "BoilerplatePipeline",
    "BoilerplateSamplingMiddleware",
    "BoilerplateSpiderMiddleware",
    "DEFAULT_MODEL",
    "DONT_CLEAN_META",
    "SETTINGS",
]
