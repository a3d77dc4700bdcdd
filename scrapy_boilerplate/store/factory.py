"""Open a store from a URI or a directory, or from a crawl's settings.

``BOILERPLATE_STORE`` (and ``--store`` on the command line) takes:

- a path or ``file://`` URL: a :class:`DirectoryStore`;
- ``redis://``, ``rediss://`` or ``unix://`` URL: a :class:`RedisStore` on that server;
- ``redis``: a :class:`RedisStore` on the server named by scrapy-redis's ``REDIS_*`` settings;
- unset: the ``boilerplate`` folder of the project's data path, unless the crawl runs on the
  scrapy-redis scheduler, where every worker must share one store, so Redis is used.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from scrapy_boilerplate.store.base import ModelStore, StatsLike
from scrapy_boilerplate.store.coordination import Coordinator, LocalCoordinator
from scrapy_boilerplate.store.directory import DirectoryStore, default_directory
from scrapy_boilerplate.store.redis_backend import DEFAULT_PREFIX, RedisStore

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

REDIS_SCHEMES = ("redis", "rediss", "unix")
SCRAPY_REDIS_SCHEDULER = "scrapy_redis.scheduler.Scheduler"


def is_redis_uri(uri: str) -> bool:
    """True if ``uri`` names a Redis server rather than a directory."""
    return uri == "redis" or urlsplit(uri).scheme in REDIS_SCHEMES


def check_location(uri: str) -> None:
    """Raise ``ValueError`` (or ``ImportError`` for Redis without redis-py) if ``uri`` cannot name a store."""
    if not uri:
        raise ValueError("store location is empty")
    if is_redis_uri(uri):
        try:
            import redis  # noqa: F401 - only checking that it is installed
        except ImportError:
            raise ImportError("a Redis store needs redis-py: pip install 'scrapy-boilerplate-learner[redis]'") from None
    elif "://" in uri and not uri.startswith("file://"):
        raise ValueError(f"unsupported store {uri!r}: use a directory, file://, redis://, rediss:// or unix://")


def open_store(uri: str, stats: StatsLike | None = None, prefix: str = DEFAULT_PREFIX) -> ModelStore:
    """A store for a directory path, ``file://`` URL or Redis URL (``redis`` alone means localhost)."""
    check_location(uri)
    if uri == "redis":
        uri = "redis://localhost:6379/0"
    if is_redis_uri(uri):
        return RedisStore.from_url(uri, prefix, stats)
    if uri.startswith("file://"):
        return DirectoryStore(Path(unquote(urlsplit(uri).path)), stats)
    return DirectoryStore(Path(uri), stats)


def uses_scrapy_redis(settings: BaseSettings) -> bool:
    """True when the crawl schedules through scrapy-redis (its workers share one queue)."""
    scheduler = settings.get("SCHEDULER")
    if isinstance(scheduler, type):
        scheduler = f"{scheduler.__module__}.{scheduler.__qualname__}"
    return scheduler == SCRAPY_REDIS_SCHEDULER


def store_from_settings(settings: BaseSettings, stats: StatsLike | None = None) -> ModelStore:
    """The store ``BOILERPLATE_STORE`` names (see the module docstring); Redis keys start with
    ``BOILERPLATE_STORE_PREFIX`` (default ``boilerplate``)."""
    from scrapy_boilerplate.store.connection import redis_from_settings

    uri = settings.get("BOILERPLATE_STORE") or ""
    prefix = settings.get("BOILERPLATE_STORE_PREFIX") or DEFAULT_PREFIX
    if uri == "redis" or (not uri and uses_scrapy_redis(settings)):
        url, client = redis_from_settings(settings)
        return RedisStore(client, prefix, stats, location=url)
    if not uri:
        return DirectoryStore(default_directory(), stats)
    if is_redis_uri(uri):
        from scrapy_boilerplate.store.connection import redis_from_url

        return RedisStore(redis_from_url(uri, **settings.getdict("REDIS_PARAMS")), prefix, stats, location=uri)
    return open_store(uri, stats, prefix)


def coordinator_for(store: ModelStore) -> Coordinator:
    """Shared coordination on the store's Redis server, or in-process bookkeeping for a directory."""
    if isinstance(store, RedisStore):
        from scrapy_boilerplate.store.redis_coordination import RedisCoordinator

        return RedisCoordinator(store.client, store.prefix)
    return LocalCoordinator()
