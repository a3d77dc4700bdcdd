"""The add-on: ``ADDONS = {"scrapy_boilerplate.Addon": 500}`` enables every component."""

from __future__ import annotations

from scrapy.settings import BaseSettings

from scrapy_boilerplate.crawl.config import SCRAPY_SLOT_DEFAULT, SETTINGS
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
        """Add each component unless the user already lists it (at any position, even disabled), and
        make room in Scrapy's scraper slot for the items that wait for their site model (unless
        BOILERPLATE_ENABLED is False)."""
        for name, cls, order in COMPONENTS:
            settings.setdefault_in_component_priority_dict(name, cls, order)
        if not settings.getbool("BOILERPLATE_ENABLED", True):
            return  # the components stand down: nothing will wait, Scrapy's slot stays as it was
        slot_size = scraper_slot_size(settings)
        if slot_size is not None:
            settings.set("SCRAPER_SLOT_MAX_ACTIVE_SIZE", slot_size, priority="addon")


def scraper_slot_size(settings: BaseSettings) -> int | None:
    """Scrapy's default room for the responses being scraped, plus the hold's byte cap (waiting
    items pin their responses there); None for an unusable cap, which the learner then reports.
    ``settings.set`` at "addon" priority leaves a user's value."""
    name = "BOILERPLATE_HOLD_MAX_BYTES"
    try:
        hold = settings.getint(name, SETTINGS[name].default)
    except ValueError:
        return None
    return SCRAPY_SLOT_DEFAULT + max(hold, 0)
