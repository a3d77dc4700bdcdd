"""What the add-on changes in a crawler's settings, compared with the same crawler without it."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware
from scrapy.downloadermiddlewares.redirect import RedirectMiddleware
from scrapy.downloadermiddlewares.retry import RetryMiddleware
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings
from scrapy.utils.misc import load_object
from scrapy.utils.test import get_crawler

from scrapy_boilerplate.crawl import BoilerplateLearner, BoilerplatePipeline
from scrapy_boilerplate.crawl.middleware import BoilerplateSamplingMiddleware
from scrapy_boilerplate.crawl.spidermw import BoilerplateSpiderMiddleware

ADDON = {"ADDONS": {"scrapy_boilerplate.Addon": 500}}
CRAWL_DOC = Path(__file__).resolve().parent.parent / "docs" / "crawl.md"
COMPONENT_SETTINGS = ("EXTENSIONS", "DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES", "ITEM_PIPELINES")


def settings_of(**values) -> Settings:
    """A crawler's settings after its add-ons ran (``values`` at project priority, as in settings.py)."""
    return get_crawler(settings_dict=values).settings


def slot_size(settings: Settings) -> int:
    return settings.getint("SCRAPER_SLOT_MAX_ACTIVE_SIZE")


def manual_enablement() -> dict[str, dict[str, int]]:
    """The component settings that docs/crawl.md gives as equivalent to the add-on."""
    text = CRAWL_DOC.read_text(encoding="utf-8")
    found = re.findall(r'^(\w+) = \{"(scrapy_boilerplate\.crawl\.\w+)": (\d+)\}$', text, re.MULTILINE)
    return {name: {path: int(order)} for name, path, order in found}


def merged_orders(settings: Settings, name: str) -> dict[type, int]:
    """Every component of ``name`` (Scrapy's own included) by class, with its order; disabled ones left out."""
    return {load_object(path): order for path, order in settings.getwithbase(name).items() if order is not None}


@pytest.mark.parametrize("hold", [None, 20_000_000])
def test_the_addon_raises_the_scraper_slot_by_the_hold_size(hold):
    user = {} if hold is None else {"BOILERPLATE_HOLD_MAX_BYTES": hold}
    without = settings_of(**user)
    with_addon = settings_of(**ADDON, **user)
    expected_hold = 100_000_000 if hold is None else hold  # the documented default, docs/settings.md
    assert slot_size(with_addon) == slot_size(without) + expected_hold


@pytest.mark.parametrize("users_size", [7_000_000, 5_000_000, 400_000_000])
def test_the_addon_leaves_a_users_own_scraper_slot_size_alone(users_size):
    settings = settings_of(**ADDON, SCRAPER_SLOT_MAX_ACTIVE_SIZE=users_size)
    assert slot_size(settings) == users_size


def test_a_disabled_plugin_leaves_the_scraper_slot_as_scrapy_has_it():
    disabled = {"BOILERPLATE_ENABLED": False}
    assert slot_size(settings_of(**ADDON, **disabled)) == slot_size(settings_of(**disabled))


def test_with_the_addon_the_learner_keeps_the_whole_hold_and_says_nothing(caplog):
    with caplog.at_level(logging.WARNING):
        crawler = get_crawler(settings_dict=ADDON)  # makes the crawl's extensions: the learner reads its settings
        assert crawler.get_extension(BoilerplateLearner) is not None
        assert not [r for r in caplog.records if "SCRAPER_SLOT_MAX_ACTIVE_SIZE" in r.getMessage()]
        crawler = get_crawler(settings_dict=manual_enablement())
        assert crawler.get_extension(BoilerplateLearner) is not None
    # without the add-on the slot stays Scrapy's: the hold shrinks, and the log says how to fix it
    warnings = [r.getMessage() for r in caplog.records if "SCRAPER_SLOT_MAX_ACTIVE_SIZE" in r.getMessage()]
    assert len(warnings) == 1 and "enable the add-on" in warnings[0]


def test_the_addon_adds_the_components_the_docs_list_for_manual_enablement():
    documented = manual_enablement()
    assert set(documented) == set(COMPONENT_SETTINGS)
    with_addon, without = settings_of(**ADDON), settings_of()
    for name in COMPONENT_SETTINGS:
        added = {
            cls: order
            for cls, order in merged_orders(with_addon, name).items()
            if cls not in merged_orders(without, name)
        }
        assert added == {load_object(path): order for path, order in documented[name].items()}, name


def test_sampling_sees_responses_after_decompression_redirects_and_retries():
    orders = merged_orders(settings_of(**ADDON), "DOWNLOADER_MIDDLEWARES")
    # process_response runs from the highest order down: the sampler must come after these three
    for earlier in (HttpCompressionMiddleware, RedirectMiddleware, RetryMiddleware):
        assert orders[BoilerplateSamplingMiddleware] < orders[earlier], earlier.__name__


def test_cleaning_runs_before_typical_user_pipelines():
    orders = merged_orders(settings_of(**ADDON), "ITEM_PIPELINES")
    assert orders[BoilerplatePipeline] == 200  # docs/crawl.md: users' pipelines at 300 see the text


@pytest.mark.parametrize(
    "component", [BoilerplateLearner, BoilerplateSamplingMiddleware, BoilerplateSpiderMiddleware, BoilerplatePipeline]
)
def test_every_component_stands_down_when_the_plugin_is_disabled(component):
    crawler = get_crawler(settings_dict={**ADDON, "BOILERPLATE_ENABLED": False})
    with pytest.raises(NotConfigured):
        component.from_crawler(crawler)
