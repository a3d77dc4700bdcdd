"""Shared fixtures: synthetic multi-page sites written to disk, a Redis server, scrapy-redis crawl settings."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from scrapy_boilerplate.testing.synthetic import SyntheticPage, make_site


def write_site(root: Path, site: str, pages: list[SyntheticPage], gold: bool = True) -> Path:
    """Write pages as ``root/site/NN.html`` (+ gold ``NN.txt``) and return the site folder."""
    folder = root / site
    folder.mkdir(parents=True, exist_ok=True)
    for i, page in enumerate(pages):
        (folder / f"{i:02d}.html").write_text(page.html, encoding="utf-8")
        if gold:
            (folder / f"{i:02d}.txt").write_text(page.article_text, encoding="utf-8")
    return folder


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """Two synthetic sites of 6 pages each under ``tmp_path/corpus``."""
    root = tmp_path / "corpus"
    write_site(root, "news.example", make_site("news.example", 6, seed=1))
    write_site(root, "blog.example", make_site("blog.example", 6, seed=2))
    return root


REDIS_TEST_PORT = 6390


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory):
    """A real Redis server on port 6390, started for the session (tests skip if redis-server is absent)."""
    from helpers.store_support import running_redis

    with running_redis(REDIS_TEST_PORT, tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def redis_crawl(redis_url):
    """Settings for workers of one scrapy-redis crawl on the test server; its keys are removed after."""
    pytest.importorskip("scrapy_redis", reason="scrapy-redis is not installed (it is in the test extra)")
    import redis

    prefix = f"test-{uuid.uuid4().hex}"
    yield {
        "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        "SCHEDULER_PERSIST": True,  # a worker that finishes first must not flush the shared queue
        "SCHEDULER_QUEUE_KEY": f"{prefix}:%(spider)s:requests",
        "SCHEDULER_DUPEFILTER_KEY": f"{prefix}:%(spider)s:dupefilter",
        "REDIS_URL": redis_url,
        "BOILERPLATE_STORE": "redis",
        "BOILERPLATE_STORE_PREFIX": prefix,
        "BOILERPLATE_STORE_POLL": 0.2,
        "BOILERPLATE_MODEL": "test_stored_blocks",
        "BOILERPLATE_SAMPLE_SIZE": 10,
    }
    client = redis.Redis.from_url(redis_url)
    for name in client.scan_iter(f"{prefix}:*"):
        client.delete(name)
    client.close()


def pytest_configure(config: pytest.Config) -> None:
    """Install Scrapy's default (asyncio) reactor before any test: ``get_crawler()`` needs one on
    Scrapy 2.13 and 2.14, and later versions find the same one."""
    from scrapy.utils.reactor import install_reactor, is_reactor_installed

    if not is_reactor_installed():
        install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")


REPOSITORY = Path(__file__).resolve().parent.parent
DEV_DATA_VARIABLE = "SCRAPY_BOILERPLATE_DATASETS"


@pytest.fixture(scope="session")
def dev_data() -> Path:
    """The development data (real pages with gold text): ``$SCRAPY_BOILERPLATE_DATASETS``, by default
    ``../shared/datasets`` from the repository; tests that need it skip where it is absent (CI)."""
    path = REPOSITORY / os.environ.get(DEV_DATA_VARIABLE, "../shared/datasets")
    if not path.is_dir():
        pytest.skip(f"no development data at {path} (set {DEV_DATA_VARIABLE} to its folder)")
    return path.resolve()
