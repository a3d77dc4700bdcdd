"""The add-on: ``ADDONS = {"scrapy_boilerplate.Addon": 500}`` enables every component."""

from __future__ import annotations

from scrapy.settings import BaseSettings

from scrapy_boilerplate.crawl.learner import BoilerplateLearner
from scrapy_boilerplate.crawl.middleware import BoilerplateSamplingMiddleware
from scrapy_boilerplate.crawl.pipeline import BoilerplatePipeline
from scrapy_boilerplate.crawl.spidermw import BoilerplateSpiderMiddleware

# Positions: sampling sees responses after decompression (590), redirects (600) and retries (550);
# cleaning runs before typical user pipelines (300), so they see the text.
COMPONENTS: tuple[tuple[str, type, int], ...] = (
    ("EXTENSIONS", BoilerplateLearner, 500),
    ("DOWNLOADER_MIDDLEWARES", BoilerplateSamplingMiddleware, 540),
    ("SPIDER_MIDDLEWARES", BoilerplateSpiderMiddleware, 550),
    ("ITEM_PIPELINES", BoilerplatePipeline, 200),
)


class Addon:
    """Registers the components at "addon" priority, never overriding what the user set."""

    def update_settings(self, settings: BaseSettings) -> None:
        """Add each component unless the user already lists it (at any position, even disabled)."""
        for name, cls, order in COMPONENTS:
            settings.setdefault_in_component_priority_dict(name, cls, order)
