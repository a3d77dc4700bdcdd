"""A crawl whose plugin keeps time by pages: its clock moves ``step`` seconds with each response.

With it, a crawl test says how long the site takes between pages, whatever the machine's load:
items' deadlines, the quiet period and the kept sample cleans all run on this clock, and nothing of
the plugin's happens between two pages.  Use :func:`page_clock_settings` in a crawl's settings.
"""

from __future__ import annotations

from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from twisted.internet.task import Clock

from scrapy_boilerplate.crawl import BoilerplateLearner
from scrapy_boilerplate.crawl.clock import Clock as ClockLike
from scrapy_boilerplate.crawl.config import BoilerplateConfig

STEP_SETTING = "TEST_SECONDS_PER_PAGE"


class PageClockLearner(BoilerplateLearner):
    """The plugin's learner on a :class:`~twisted.internet.task.Clock` moved by each response."""

    def __init__(self, config: BoilerplateConfig, crawler: Crawler, clock: ClockLike | None = None) -> None:
        self.page_clock = Clock()
        super().__init__(config, crawler, self.page_clock)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PageClockLearner:
        learner = super().from_crawler(crawler)
        assert isinstance(learner, PageClockLearner)
        step = crawler.settings.getfloat(STEP_SETTING)
        # a fit takes no site time on this clock: it runs on the reactor thread (as a short fit does), so
        # no page comes, and no item's deadline passes, while it runs
        learner.fit_runner.per_page = 0.0

        def page_came(**_: Any) -> None:
            learner.page_clock.advance(step)

        crawler.signals.connect(page_came, signal=signals.response_received, weak=False)
        return learner


def page_clock_settings(step: float) -> dict[str, Any]:
    """Settings that run the plugin on a clock that moves ``step`` seconds per response."""
    return {
        "EXTENSIONS": {"scrapy_boilerplate.crawl.BoilerplateLearner": None, "helpers.page_clock.PageClockLearner": 500},
        STEP_SETTING: step,
    }
