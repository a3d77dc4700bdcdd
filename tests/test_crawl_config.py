"""Settings are read and validated in one place; the add-on registers components without overriding."""

from __future__ import annotations

import json
import logging

import pytest
from helpers.crawl_models import Broken, CommonBlocks, PinnedBlocks
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from scrapy_boilerplate.crawl import Addon, BoilerplateLearner, BoilerplatePipeline
from scrapy_boilerplate.crawl.config import DEFAULT_FALLBACK_MODEL, DEFAULT_MODEL, SETTINGS, BoilerplateConfig
from scrapy_boilerplate.crawl.errors import STARTUP_ERROR_LOGGERS, BadSettingError, fail_crawl
from scrapy_boilerplate.crawl.middleware import BoilerplateSamplingMiddleware
from scrapy_boilerplate.crawl.spidermw import BoilerplateSpiderMiddleware
from scrapy_boilerplate.models.registry import registry


@pytest.fixture
def test_models():
    """Register the test-only models for one test (kept out of the model-contract suite)."""
    with registry.registered(CommonBlocks), registry.registered(Broken):
        yield


def config(**values) -> BoilerplateConfig:
    return BoilerplateConfig.from_settings(Settings(values))


def test_defaults_are_the_documented_public_names():
    cfg = config()
    assert cfg.model.name == DEFAULT_MODEL
    assert cfg.fallback.name == DEFAULT_FALLBACK_MODEL
    assert (cfg.html_field, cfg.url_field, cfg.text_field) == ("html", "url", "text")
    assert cfg.sample_size == SETTINGS["BOILERPLATE_SAMPLE_SIZE"].default
    assert cfg.hold_max_bytes < Settings().getint("SCRAPER_SLOT_MAX_ACTIVE_SIZE")


def test_disabled_plugin_is_not_configured():
    with pytest.raises(NotConfigured):
        config(BOILERPLATE_ENABLED=False)


@pytest.mark.parametrize(
    "name, value",
    [
        ("BOILERPLATE_SAMPLE_SIZE", 0),
        ("BOILERPLATE_SAMPLE_SIZE", "many"),
        ("BOILERPLATE_MODEL", "no_such_model"),
        ("BOILERPLATE_MODEL", "pvalue:bogus_param=1"),
        ("BOILERPLATE_FALLBACK_MODEL", "no_such_model"),
        ("BOILERPLATE_TEXT_FIELD", ""),
        ("BOILERPLATE_TEXT_FIELD", None),  # a required field cannot be switched off
        ("BOILERPLATE_HTML_FIELD", None),
        ("BOILERPLATE_MODEL_FIELD", " "),  # an optional one is a name or unset
        ("BOILERPLATE_HOLD_TIMEOUT", -1),
        ("BOILERPLATE_HOLD_MAX_BYTES", 4_000_000),
        ("BOILERPLATE_MAX_PAGE_BYTES", 0),
    ],
)
def test_a_bad_value_names_its_setting(name, value):
    with pytest.raises(ValueError, match=name):
        config(**{name: value})


def test_any_registered_model_is_usable_by_name(test_models):
    cfg = config(BOILERPLATE_MODEL="test_common_blocks:share=0.8")
    assert cfg.model.create().share == 0.8


def test_fallback_must_clean_without_a_sample(test_models):
    with pytest.raises(ValueError, match="BOILERPLATE_FALLBACK_MODEL.*single-page"):
        config(BOILERPLATE_FALLBACK_MODEL="test_broken")


def test_optional_output_fields_can_be_switched_off():
    cfg = config(BOILERPLATE_MODEL_FIELD=None, BOILERPLATE_CLEANED_HTML_FIELD="clean_html")
    assert cfg.output_fields == ("text", "clean_html")


def _components(settings: Settings) -> dict[str, dict]:
    names = ("EXTENSIONS", "DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES", "ITEM_PIPELINES")
    return {name: settings.getdict(name) for name in names}


def test_addon_adds_the_four_components():
    plain, with_addon = Settings(), Settings()
    Addon().update_settings(with_addon)
    added = {name: set(after) - set(_components(plain)[name]) for name, after in _components(with_addon).items()}
    assert added == {
        "EXTENSIONS": {BoilerplateLearner},
        "DOWNLOADER_MIDDLEWARES": {BoilerplateSamplingMiddleware},
        "SPIDER_MIDDLEWARES": {BoilerplateSpiderMiddleware},
        "ITEM_PIPELINES": {BoilerplatePipeline},
    }


def test_addon_keeps_what_the_user_set():
    settings = Settings(
        {
            "ITEM_PIPELINES": {"scrapy_boilerplate.crawl.BoilerplatePipeline": 900},
            "DOWNLOADER_MIDDLEWARES": {"scrapy_boilerplate.crawl.BoilerplateSamplingMiddleware": None},
        }
    )
    Addon().update_settings(settings)
    assert settings.getdict("ITEM_PIPELINES") == {"scrapy_boilerplate.crawl.BoilerplatePipeline": 900}
    disabled = {"scrapy_boilerplate.crawl.BoilerplateSamplingMiddleware": None}
    assert settings.getdict("DOWNLOADER_MIDDLEWARES") == disabled


def test_addon_is_importable_from_the_package_root():
    import scrapy_boilerplate

    assert scrapy_boilerplate.Addon is Addon


def one_line_filters() -> list[logging.Filter]:
    """The filters that rewrite a bad setting's start-up records, on the loggers Scrapy reports them through."""
    return [
        found
        for name in STARTUP_ERROR_LOGGERS
        for found in logging.getLogger(name).filters
        if type(found).__name__ == "_OneLineFilter"
    ]


def test_reading_a_bad_setting_leaves_logging_alone_until_the_error_fails_a_crawl():
    installed = one_line_filters()  # an earlier test's crawl may have installed them: start without
    for name in STARTUP_ERROR_LOGGERS:
        for found in installed:
            logging.getLogger(name).removeFilter(found)
    try:
        with pytest.raises(BadSettingError) as raised:
            BoilerplateConfig.from_settings(Settings({"BOILERPLATE_SAMPLE_SIZE": 0}))
        assert one_line_filters() == []  # a caller that catches the error keeps its logging as it was
        assert fail_crawl(get_crawler(), raised.value) is raised.value
        assert len(one_line_filters()) == len(STARTUP_ERROR_LOGGERS)
    finally:
        for name in STARTUP_ERROR_LOGGERS:
            for found in one_line_filters():
                logging.getLogger(name).removeFilter(found)
            for found in installed:
                logging.getLogger(name).addFilter(found)


def test_site_rules_are_read_from_the_settings_or_a_file_and_checked(tmp_path):
    rules = {"Shop.Example": {"boilerplate": [".related"]}}
    with registry.registered(PinnedBlocks):
        pinned = {"BOILERPLATE_MODEL": "test_pinned_blocks", "BOILERPLATE_FALLBACK_MODEL": "test_pinned_blocks"}
        assert config(BOILERPLATE_SITE_RULES=rules, **pinned).site_rules == {
            "shop.example": {"content": [], "boilerplate": [".related"]}
        }
        path = tmp_path / "rules.json"
        path.write_text(json.dumps(rules))
        assert (
            config(BOILERPLATE_SITE_RULES=str(path), **pinned).site_rules
            == config(BOILERPLATE_SITE_RULES=rules, **pinned).site_rules
        )
        with pytest.raises(BadSettingError, match="bad CSS selector 'p\\['"):
            config(BOILERPLATE_SITE_RULES={"a.example": {"content": ["p["]}}, **pinned)
        with pytest.raises(BadSettingError, match="'content' and 'boilerplate'"):
            config(BOILERPLATE_SITE_RULES={"a.example": {"keep": ["p"]}}, **pinned)
    with pytest.raises(BadSettingError, match="BOILERPLATE_MODEL pvalue takes no pinned selectors"):
        config(BOILERPLATE_SITE_RULES=rules, BOILERPLATE_MODEL="pvalue", BOILERPLATE_FALLBACK_MODEL="pvalue")
