"""The store's crawl settings: defaults, validation naming the setting, and the store a crawler opens."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from scrapy_boilerplate.crawl.config import SETTINGS, BoilerplateConfig
from scrapy_boilerplate.crawl.learner import drift_monitor
from scrapy_boilerplate.crawl.persistence import StoreSession
from scrapy_boilerplate.store import DirectoryStore, RedisStore


def config(**values) -> BoilerplateConfig:
    return BoilerplateConfig.from_settings(Settings(values))


def test_store_and_drift_defaults_are_the_documented_ones():
    cfg = config()
    assert cfg.store is None and cfg.store_prefix == SETTINGS["BOILERPLATE_STORE_PREFIX"].default
    assert (cfg.drift_enabled, cfg.drift_window, cfg.drift_tolerance, cfg.drift_every) == (
        SETTINGS["BOILERPLATE_DRIFT_ENABLED"].default,
        SETTINGS["BOILERPLATE_DRIFT_WINDOW"].default,
        SETTINGS["BOILERPLATE_DRIFT_TOLERANCE"].default,
        SETTINGS["BOILERPLATE_DRIFT_EVERY"].default,
    )
    assert cfg.fit_lock_ttl == SETTINGS["BOILERPLATE_FIT_LOCK_TTL"].default


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("BOILERPLATE_STORE", "s3://bucket/models", "unsupported store"),
        ("BOILERPLATE_STORE", 42, "directory path or a redis:// URL"),
        ("BOILERPLATE_STORE_PREFIX", "  ", "non-empty string"),
        ("BOILERPLATE_FIT_LOCK_TTL", 0, "positive number"),
        ("BOILERPLATE_STORE_POLL", -1, "positive number"),
        ("BOILERPLATE_DRIFT_WINDOW", 0, "positive integer"),
        ("BOILERPLATE_DRIFT_TOLERANCE", 1.5, "share of page text"),
        ("BOILERPLATE_DRIFT_EVERY", 0, "positive integer"),
    ],
)
def test_a_bad_store_or_drift_setting_is_refused_naming_it(name, value, message):
    with pytest.raises(ValueError, match=f"{name}=.*{message}"):
        config(**{name: value})


def test_the_crawler_opens_the_store_the_settings_name(tmp_path: Path):
    settings = config(BOILERPLATE_STORE=str(tmp_path / "m"))
    session = StoreSession(settings, get_crawler(settings_dict={"BOILERPLATE_STORE": str(tmp_path / "m")}))
    assert isinstance(session.store, DirectoryStore) and session.store.root == tmp_path / "m"
    assert not session.shared and session.persistent and drift_monitor(settings) is not None


def test_a_redis_store_is_shared(redis_url):
    redis_settings = {"BOILERPLATE_STORE": redis_url, "BOILERPLATE_DRIFT_ENABLED": False}
    shared = StoreSession(config(**redis_settings), get_crawler(settings_dict=redis_settings))
    assert isinstance(shared.store, RedisStore) and shared.shared and drift_monitor(config(**redis_settings)) is None
