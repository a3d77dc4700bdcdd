"""How the middlewares and the pipeline find the one learner of their crawler."""

from __future__ import annotations

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from scrapy_boilerplate.crawl.errors import bad_configuration, fail_crawl
from scrapy_boilerplate.crawl.learner import BoilerplateLearner

LEARNER_PATH = "scrapy_boilerplate.crawl.BoilerplateLearner"


def require_learner(crawler: Crawler, component: str) -> BoilerplateLearner:
    """The crawler's learner extension; NotConfigured when the plugin is off, an error when missing."""
    if not crawler.settings.getbool("BOILERPLATE_ENABLED", True):
        raise NotConfigured("BOILERPLATE_ENABLED is False")
    learner = crawler.get_extension(BoilerplateLearner)
    if learner is None:
        raise fail_crawl(
            crawler,
            bad_configuration(
                f"{component} needs the {LEARNER_PATH} extension: add it to EXTENSIONS "
                f'or enable the add-on with ADDONS = {{"scrapy_boilerplate.Addon": 500}}'
            ),
        )
    return learner
