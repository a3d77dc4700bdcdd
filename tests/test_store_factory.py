"""Which store a crawl's settings (``BOILERPLATE_STORE`` and scrapy-redis's ``REDIS_*``) open."""

from __future__ import annotations

import importlib.util
import uuid
from pathlib import Path

import pytest
from scrapy.settings import Settings

from scrapy_boilerplate import Page, create_model
from scrapy_boilerplate.store import (
    DirectoryStore,
    LocalCoordinator,
    RedisStore,
    StoredModel,
    check_location,
    coordinator_for,
    open_store,
    store_from_settings,
)
from scrapy_boilerplate.store.redis_coordination import RedisCoordinator
from scrapy_boilerplate.testing.synthetic import make_site


def test_the_default_store_is_a_directory_in_the_scrapy_data_path(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SCRAPY_SETTINGS_MODULE", raising=False)
    store = store_from_settings(Settings())
    assert isinstance(store, DirectoryStore)
    assert store.root == Path(".scrapy") / "boilerplate"  # beside Scrapy's .scrapy/httpcache
    assert isinstance(coordinator_for(store), LocalCoordinator)


def test_paths_and_file_urls_open_directories(tmp_path: Path):
    assert store_from_settings(Settings({"BOILERPLATE_STORE": str(tmp_path / "m")})).root == tmp_path / "m"
    assert open_store(f"file://{tmp_path}/m2").root == tmp_path / "m2"
    with pytest.raises(ValueError, match="unsupported store"):
        open_store("s3://bucket/models")
    with pytest.raises(ValueError, match="empty"):
        check_location("")
    if importlib.util.find_spec("redis") is not None:
        check_location("redis://localhost:6379/0")  # well-formed: nothing is contacted
    else:
        with pytest.raises(ImportError, match="scrapy-boilerplate\\[redis\\]"):
            check_location("redis://localhost:6379/0")


def _round_trip(store: RedisStore) -> None:
    pages = [Page(s.html, s.url) for s in make_site("r.example", 4, seed=2)]
    try:
        store.put(StoredModel.new("spider", "r.example", create_model("pvalue").fit(pages), 4))
        assert [e.domain for e in store.list("spider")] == ["r.example"]
    finally:
        for name in store.client.scan_iter(f"{store.prefix}:*"):
            store.client.delete(name)
        store.close()


def test_redis_alone_reuses_scrapy_redis_connection_settings(redis_url: str):
    host, port = redis_url.split("//")[1].split("/")[0].split(":")
    prefix = f"test-{uuid.uuid4().hex}"
    settings = Settings(
        {
            "BOILERPLATE_STORE": "redis",
            "REDIS_HOST": host,
            "REDIS_PORT": int(port),
            "REDIS_PARAMS": {"socket_timeout": 7},
            "BOILERPLATE_STORE_PREFIX": prefix,
        }
    )
    store = store_from_settings(settings)
    assert isinstance(store, RedisStore)
    assert store.location == f"redis://{host}:{port}/0" and store.prefix == prefix
    assert store.client.connection_pool.connection_kwargs["socket_timeout"] == 7
    assert isinstance(coordinator_for(store), RedisCoordinator)
    _round_trip(store)


def test_a_scrapy_redis_crawl_shares_the_redis_store_by_default(redis_url: str):
    settings = Settings(
        {
            "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
            "REDIS_URL": redis_url,
            "BOILERPLATE_STORE_PREFIX": f"test-{uuid.uuid4().hex}",
        }
    )
    store = store_from_settings(settings)
    assert isinstance(store, RedisStore) and store.location == redis_url
    _round_trip(store)


def test_an_explicit_redis_url_wins_and_keeps_redis_params(redis_url: str):
    settings = Settings(
        {
            "BOILERPLATE_STORE": redis_url,
            "REDIS_URL": "redis://elsewhere:1/0",
            "REDIS_PARAMS": {"socket_timeout": 9, "decode_responses": True},
            "BOILERPLATE_STORE_PREFIX": f"test-{uuid.uuid4().hex}",
        }
    )
    store = store_from_settings(settings)
    assert store.location == redis_url
    kwargs = store.client.connection_pool.connection_kwargs
    assert kwargs["socket_timeout"] == 9 and not kwargs.get("decode_responses")  # the store needs bytes
    _round_trip(store)
