"""The Redis store, for crawls whose workers run on several machines (scrapy-redis).

Layout, with ``P`` the key prefix (default ``boilerplate``) and names URL-quoted:

- ``P:models:<spider>``: hash, domain -> record bytes (the same record as the directory store);
- ``P:meta:<spider>``: hash, domain -> the record's metadata without baseline signatures, for cheap listing;
- ``P:revision:<spider>``: hash, domain -> counter bumped on every put and delete;
- ``P:spiders``: set of spiders that have models.

A put or delete changes all of them in one MULTI/EXEC transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from scrapy_boilerplate.store.base import ModelStore, StatsLike, StoreError, check_name
from scrapy_boilerplate.store.record import StoreEntry, decode_entry

if TYPE_CHECKING:
    import redis

DEFAULT_PREFIX = "boilerplate"


def redis_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean "Redis failed" (connection, timeout, server error)."""
    import redis

    return (redis.RedisError, OSError)


def key(prefix: str, kind: str, *names: str) -> str:
    """``prefix:kind:name...`` with every name quoted, so ':' in a name cannot collide."""
    return ":".join([prefix, kind, *(quote(name, safe=".-_") for name in names)])


def _text(value: bytes | str) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _summary(data: bytes) -> bytes:
    """Metadata JSON of a record for listing: the entry with its size, signatures left out."""
    entry = decode_entry(data)
    meta = entry.to_json()
    if meta["baseline"] is not None:
        meta["baseline"]["signatures"] = []
    meta["size"] = entry.size
    return json.dumps(meta, separators=(",", ":")).encode("utf-8")


class RedisStore(ModelStore):
    """Models in Redis, shared by every worker of a distributed crawl."""

    def __init__(
        self, client: redis.Redis, prefix: str = DEFAULT_PREFIX, stats: StatsLike | None = None, location: str = "redis"
    ) -> None:
        super().__init__(stats)
        self.client = client
        self.prefix = prefix
        self._location = location

    @classmethod
    def from_url(
        cls, url: str, prefix: str = DEFAULT_PREFIX, stats: StatsLike | None = None, **params: Any
    ) -> RedisStore:
        """A store on the server at ``url`` (``redis://host:port/db``); ``params`` go to redis-py."""
        from scrapy_boilerplate.store.connection import redis_from_url

        return cls(redis_from_url(url, **params), prefix, stats, location=url)

    @property
    def location(self) -> str:
        """The URL (or ``redis``) the store was opened with."""
        return self._location

    def _call(self, what: str, function, *args):
        try:
            return function(*args)
        except redis_errors() as exc:
            raise StoreError(f"redis {what} failed on {self._location}: {exc}", what) from exc

    def _read(self, spider: str, domain: str) -> bytes | None:
        return self._call("read", self.client.hget, key(self.prefix, "models", spider), domain)

    def _load_entry(self, spider: str, domain: str) -> StoreEntry | None:
        summary = self._call("read", self.client.hget, key(self.prefix, "meta", spider), domain)
        if summary is None:
            return None
        try:
            data = json.loads(_text(summary))
            return StoreEntry.from_json(data, int(data.get("size", 0)))
        except (ValueError, AttributeError, TypeError):
            return super()._load_entry(spider, domain)  # fall back to the record itself

    def _write(self, spider: str, domain: str, data: bytes) -> None:
        def transaction() -> None:
            pipe = self.client.pipeline(transaction=True)
            pipe.hset(key(self.prefix, "models", spider), domain, data)
            pipe.hset(key(self.prefix, "meta", spider), domain, _summary(data))
            pipe.hincrby(key(self.prefix, "revision", spider), domain, 1)
            pipe.sadd(key(self.prefix, "spiders"), spider)
            pipe.execute()

        self._call("write", transaction)

    def _delete(self, spider: str, domain: str) -> bool:
        def transaction() -> list[Any]:
            pipe = self.client.pipeline(transaction=True)
            pipe.hdel(key(self.prefix, "models", spider), domain)
            pipe.hdel(key(self.prefix, "meta", spider), domain)
            pipe.hincrby(key(self.prefix, "revision", spider), domain, 1)
            return pipe.execute()

        return bool(self._call("delete", transaction)[0])

    def _keys(self, spider: str | None) -> Iterator[tuple[str, str]]:
        if spider is not None:
            spiders = [spider]
        else:
            spiders = [_text(s) for s in self._call("list", self.client.smembers, key(self.prefix, "spiders"))]
        for name in sorted(spiders):
            for domain in self._call("list", self.client.hkeys, key(self.prefix, "meta", name)):
                yield name, _text(domain)

    def revision(self, spider: str, domain: str) -> int:
        """A counter that changes whenever ``domain``'s model is replaced or deleted (cheap to poll)."""
        value = self._call(
            "read",
            self.client.hget,
            key(self.prefix, "revision", check_name("spider", spider)),
            check_name("domain", domain),
        )
        return int(value) if value is not None else 0

    def revisions(self, spider: str, domains: Sequence[str]) -> dict[str, object]:
        """Revisions of several domains in one ``HMGET``."""
        if not domains:
            return {}
        name = key(self.prefix, "revision", check_name("spider", spider))
        values = self._call("read", self.client.hmget, name, [check_name("domain", d) for d in domains])
        return {domain: int(value) if value is not None else 0 for domain, value in zip(domains, values, strict=False)}

    def check(self, writing: bool = False) -> None:
        """Raise :class:`StoreError` when the server does not answer."""
        self._call("connect", self.client.ping)

    def close(self) -> None:
        """Close the connection pool."""
        self.client.close()
