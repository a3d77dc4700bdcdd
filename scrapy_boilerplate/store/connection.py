"""Redis connections, configured the way scrapy-redis configures its own.

A distributed crawl already names its Redis server in scrapy-redis's settings (``REDIS_URL``,
or ``REDIS_HOST``/``REDIS_PORT``/``REDIS_DB``, plus ``REDIS_PARAMS``); reading the same settings
means one place to point every worker at the server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import redis
    from scrapy.settings import BaseSettings

# scrapy-redis's own connection defaults (scrapy_redis/defaults.py), so both clients behave alike.
DEFAULT_PARAMS: dict[str, Any] = {"socket_timeout": 30, "socket_connect_timeout": 30, "retry_on_timeout": True}
_SETTINGS_PARAMS = {"REDIS_URL": "url", "REDIS_HOST": "host", "REDIS_PORT": "port", "REDIS_DB": "db"}
# Parameters that would change what the client returns; the store needs raw bytes.
_IGNORED_PARAMS = frozenset({"decode_responses", "encoding", "redis_cls"})


def redis_from_url(url: str, **params: Any) -> redis.Redis:
    """A client for ``url`` (``redis://``, ``rediss://`` or ``unix://``) that returns bytes."""
    try:
        import redis
    except ImportError as exc:
        raise ImportError("a Redis store needs redis-py: pip install 'scrapy-boilerplate-learner[redis]'") from exc

    options = {**DEFAULT_PARAMS, **{k: v for k, v in params.items() if k not in _IGNORED_PARAMS}}
    return redis.Redis.from_url(url, **options)


def redis_params_from_settings(settings: BaseSettings) -> tuple[str, dict[str, Any]]:
    """(URL, client parameters) from scrapy-redis's settings; ``redis://localhost:6379/0`` by default."""
    params = dict(settings.getdict("REDIS_PARAMS"))
    for setting, name in _SETTINGS_PARAMS.items():
        value = settings.get(setting)
        if value:
            params[name] = value
    url = params.pop("url", None)
    if url is None:
        host, port, db = params.pop("host", "localhost"), int(params.pop("port", 6379)), int(params.pop("db", 0))
        url = f"redis://{host}:{port}/{db}"
    return str(url), params


def redis_from_settings(settings: BaseSettings) -> tuple[str, redis.Redis]:
    """(URL, client) for the server that scrapy-redis's settings name."""
    url, params = redis_params_from_settings(settings)
    return url, redis_from_url(url, **params)
