"""Sampling and fitting shared by every worker of a distributed crawl, atomically on Redis.

Per (spider, domain), with ``P`` the key prefix:

- ``P:sample:<spider>:<domain>``: hash ``generation``, ``count``, ``closed``.  ``count`` is the
  sample-slot counter: a Lua script increments it only while it is below the sample size, so
  however many workers offer pages at once the sample never overshoots;
- ``P:pages:<spider>:<domain>``: hash slot -> page (JSON url + html), so any worker's page counts;
- ``P:urls:<spider>:<domain>``: set of sampled URLs (a page counts once);
- ``P:lock:<spider>:<domain>``: the fit lock, ``SET NX PX`` with a random token, released by a
  compare-and-delete script so a worker whose lock expired cannot release its successor's.
"""

from __future__ import annotations

import json
import uuid
from typing import TYPE_CHECKING, Any

from scrapy_boilerplate.store.base import StoreError
from scrapy_boilerplate.store.coordination import Coordinator, FitLock, SampleOffer, SampleState
from scrapy_boilerplate.store.redis_backend import DEFAULT_PREFIX, key, redis_errors

if TYPE_CHECKING:
    import redis
    from redis.commands.core import Script
    from redis.typing import EncodableT

_OFFER = """
local n = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
local g = tonumber(redis.call('HGET', KEYS[1], 'generation') or '0')
if redis.call('HGET', KEYS[1], 'closed') == '1' or n >= tonumber(ARGV[1])
   or redis.call('SISMEMBER', KEYS[3], ARGV[2]) == 1 then
  return {0, n, g}
end
n = redis.call('HINCRBY', KEYS[1], 'count', 1)
redis.call('HSET', KEYS[2], n, ARGV[3])
redis.call('SADD', KEYS[3], ARGV[2])
return {1, n, g}
"""

_FINISH = """
if tonumber(redis.call('HGET', KEYS[1], 'generation') or '0') ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'closed', 1)
redis.call('DEL', KEYS[2], KEYS[3])
return 1
"""

_RESTART = """
local g = tonumber(redis.call('HGET', KEYS[1], 'generation') or '0')
if g > tonumber(ARGV[1]) then return -1 end
local new = tonumber(ARGV[1]) + 1
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], 'generation', new, 'count', 0, 'closed', 0)
return new
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class _RedisLock(FitLock):
    def __init__(self, coordinator: RedisCoordinator, name: str, token: str) -> None:
        self._coordinator, self._name, self._token = coordinator, name, token
        self._released = False

    def release(self) -> bool:
        if self._released:
            return False
        self._released = True
        return bool(
            self._coordinator._run(
                "release the fit lock", self._coordinator._release, [self._name], [self._token], step="lock"
            )
        )


LOCK_OWNER_END = "/"  # a fit lock's token: the owner's name, this, a random part


class RedisCoordinator(Coordinator):
    """The coordination primitives on a Redis server (use the store's client and prefix)."""

    def __init__(self, client: redis.Redis, prefix: str = DEFAULT_PREFIX) -> None:
        self.client = client
        self.prefix = prefix
        self.lock_owner = ""  # the worker's name, leading each fit lock's token (see held_items)
        self._offer = client.register_script(_OFFER)
        self._finish = client.register_script(_FINISH)
        self._restart = client.register_script(_RESTART)
        self._release = client.register_script(_RELEASE)

    def _keys(self, spider: str, domain: str) -> list[str]:
        return [key(self.prefix, kind, spider, domain) for kind in ("sample", "pages", "urls")]

    # Any: a Lua script's reply is what that script returns (here a list of integers or an integer).
    def _run(self, what: str, script: Script, keys: list[str], args: list[EncodableT], step: str = "sample") -> Any:
        try:
            return script(keys=keys, args=args)
        except redis_errors() as exc:
            raise StoreError(f"redis: cannot {what}: {exc}", step) from exc

    def offer(self, spider: str, domain: str, url: str, html: str, size: int) -> SampleOffer:
        payload = json.dumps({"url": url, "html": html}, ensure_ascii=False)
        accepted, count, generation = self._run(
            "offer a sample page", self._offer, self._keys(spider, domain), [size, url, payload.encode("utf-8")]
        )
        return SampleOffer(bool(accepted), int(count), int(generation))

    def state(self, spider: str, domain: str) -> SampleState:
        try:
            generation, count, closed = self.client.hmget(
                self._keys(spider, domain)[0], ["generation", "count", "closed"]
            )
        except redis_errors() as exc:
            raise StoreError(f"redis: cannot read the sample state: {exc}", "sample") from exc
        return SampleState(int(generation or 0), int(count or 0), closed == b"1")

    def pages(self, spider: str, domain: str) -> list[tuple[str, str]]:
        try:
            stored = self.client.hgetall(self._keys(spider, domain)[1])
        except redis_errors() as exc:
            raise StoreError(f"redis: cannot read the sample pages: {exc}", "sample") from exc
        out = []
        for _, payload in sorted(stored.items(), key=lambda item: int(item[0])):
            page = json.loads(payload)
            out.append((page["url"], page["html"]))
        return out

    def finish_sample(self, spider: str, domain: str, generation: int) -> None:
        self._run("close the sample", self._finish, self._keys(spider, domain), [generation])

    def restart_sample(self, spider: str, domain: str, generation: int) -> int | None:
        new = int(self._run("restart the sample", self._restart, self._keys(spider, domain), [generation]))
        return None if new < 0 else new

    def acquire_fit_lock(self, spider: str, domain: str, ttl: float) -> FitLock | None:
        name, token = key(self.prefix, "lock", spider, domain), f"{self.lock_owner}{LOCK_OWNER_END}{uuid.uuid4().hex}"
        try:
            acquired = self.client.set(name, token, nx=True, px=max(int(ttl * 1000), 1))
        except redis_errors() as exc:
            raise StoreError(f"redis: cannot take the fit lock: {exc}", "lock") from exc
        return _RedisLock(self, name, token) if acquired else None
