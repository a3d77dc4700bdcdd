"""Records of the items each worker holds, on the shared Redis server, so another can take them over.

An item that waits in a worker's pipeline exists only in that process.  If the worker dies
(SIGKILL, a lost machine), Scrapy-Redis's shared dupefilter has marked its page as seen, so no
worker fetches it again: the item is lost.  So each waiting item is recorded here first, and its
record removed when the item leaves the pipeline.  Per spider, with ``P`` the key prefix:

- ``P:held:<spider>:<worker>``: hash, record id -> record (bytes made by the crawl: the item and
  its page);
- ``P:alive:<spider>:<worker>``: the worker's heartbeat, a key that expires unless renewed;
- ``P:workers:<spider>``: set of the workers that beat (each joins it with every beat), so a worker
  that dies is found whether or not it held items;
- ``P:holders:<spider>``: set of the workers that have recorded items;
- ``P:taken:<spider>:<worker>``: set of the record ids of ``worker`` that another worker took over
  (kept for ``TAKEN_TTL`` seconds after the last take-over).

A dead worker's fit locks (``P:lock:<spider>:<domain>``, whose token starts with the worker's name)
are deleted by the worker that finds it dead among the workers, so its domains need not wait for the
locks' TTL, and the dead worker leaves the set (a worker that was only stalled joins again with its
next beat).

A worker whose heartbeat expired is taken for dead: another worker moves its records into its own
hash, at most ``limit`` at a time, with one Lua script that first checks the heartbeat, so a record
moves once, to one worker.  A worker removes a record only from its own hash, so whichever of the
two removes or takes the record first owns the item: a worker whose record was taken over (it
stalled past the timeout but lived) finds its id among its taken ones, and drops its copy.  A
record that is in neither place vanished with the server's data (a restart without persistence):
its item is this worker's to export.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy_boilerplate.store.base import StoreError
from scrapy_boilerplate.store.redis_backend import key, redis_errors
from scrapy_boilerplate.store.redis_coordination import LOCK_OWNER_END

if TYPE_CHECKING:
    import redis

STEP = "recovery"  # the store-failure step named in the crawl's log
TAKEN_TTL = 7 * 24 * 3600  # how long a worker taken for dead can still learn which items it lost
REMOVED, TAKEN_OVER, VANISHED = "removed", "taken_over", "vanished"

_CLAIM = """
if redis.call('EXISTS', KEYS[3]) == 1 then return {} end
local out, n, limit = {}, 0, tonumber(ARGV[1])
for _, id in ipairs(redis.call('HKEYS', KEYS[1])) do
  if n >= limit then break end
  redis.call('HSET', KEYS[2], id, redis.call('HGET', KEYS[1], id))
  redis.call('HDEL', KEYS[1], id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id)
  n = n + 1
end
if n > 0 then
  redis.call('SADD', KEYS[4], ARGV[3])
  for i = 1, #out, 2 do redis.call('SADD', KEYS[5], out[i]) end
  redis.call('EXPIRE', KEYS[5], tonumber(ARGV[4]))
end
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SREM', KEYS[4], ARGV[2]) end
return out
"""

_REMOVE = """
if redis.call('HDEL', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 0 end
return 2
"""
_OUTCOMES = {1: REMOVED, 0: TAKEN_OVER, 2: VANISHED}

_RELEASE_LOCK = """
local token = redis.call('GET', KEYS[1])
if token and string.sub(token, 1, #ARGV[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class HeldItemRecords:
    """One worker's view of the held-item records of one spider."""

    def __init__(self, client: redis.Redis, prefix: str, spider: str, worker: str) -> None:
        self.client = client
        self.prefix = prefix
        self.spider = spider
        self.worker = worker
        self._claim = client.register_script(_CLAIM)
        self._remove = client.register_script(_REMOVE)
        self._release_lock = client.register_script(_RELEASE_LOCK)

    def _held(self, worker: str) -> str:
        return key(self.prefix, "held", self.spider, worker)

    def _taken(self, worker: str) -> str:
        return key(self.prefix, "taken", self.spider, worker)

    def _alive(self, worker: str) -> str:
        return key(self.prefix, "alive", self.spider, worker)

    @property
    def _holders(self) -> str:
        return key(self.prefix, "holders", self.spider)

    @property
    def _workers(self) -> str:
        return key(self.prefix, "workers", self.spider)

    def put(self, record_id: str, data: bytes) -> None:
        """Record one held item (under this worker)."""
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(self._held(self.worker), record_id, data)
        pipe.sadd(self._holders, self.worker)
        self._run("record a held item", pipe.execute)

    def remove(self, record_id: str) -> str:
        """Remove this worker's record: ``removed``, ``taken_over`` (another worker took it over) or
        ``vanished`` (in neither place: the server lost it)."""
        keys = [self._held(self.worker), self._taken(self.worker)]
        return _OUTCOMES[int(self._run("remove a held item's record", self._remove, keys=keys, args=[record_id]))]

    def beat(self, timeout: float) -> None:
        """Renew this worker's heartbeat for ``timeout`` seconds (and be one of the workers)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.set(self._alive(self.worker), b"1", px=max(int(timeout * 1000), 1))
        pipe.sadd(self._workers, self.worker)
        self._run("renew the heartbeat", pipe.execute)

    def dead_workers(self) -> list[str]:
        """The other workers whose heartbeat expired, whether or not they hold items."""
        members = self._run("list the workers", self.client.smembers, self._workers)
        others = sorted(w for w in map(_text, members) if w != self.worker)
        if not others:
            return []
        pipe = self.client.pipeline(transaction=False)
        for worker in others:
            pipe.exists(self._alive(worker))
        alive = self._run("read heartbeats", pipe.execute)
        return [worker for worker, beating in zip(others, alive, strict=True) if not beating]

    def forget(self, dead: str) -> None:
        """``dead`` (whose heartbeat expired, its locks released) is no longer one of the workers."""
        self._run("forget a dead worker", self.client.srem, self._workers, dead)

    def holders(self) -> dict[str, bool]:
        """The other workers that hold recorded items: worker -> whether its heartbeat is alive."""
        workers = [_text(w) for w in self._run("list the workers holding items", self.client.smembers, self._holders)]
        others = [w for w in workers if w != self.worker]
        if not others:
            return {}
        pipe = self.client.pipeline(transaction=False)
        for worker in others:
            pipe.exists(self._alive(worker))
            pipe.hlen(self._held(worker))
        found = self._run("read heartbeats", pipe.execute)
        return {w: bool(found[2 * i]) for i, w in enumerate(others) if found[2 * i + 1]}

    def claim(self, dead: str, limit: int) -> list[tuple[str, bytes]]:
        """Move at most ``limit`` records of ``dead`` (whose heartbeat expired) to this worker."""
        keys = [self._held(dead), self._held(self.worker), self._alive(dead), self._holders, self._taken(dead)]
        args = [limit, dead, self.worker, TAKEN_TTL]
        flat = self._run("take over a dead worker's items", self._claim, keys=keys, args=args)
        return [(_text(flat[i]), flat[i + 1]) for i in range(0, len(flat), 2)]

    def release_locks(self, dead: str) -> int:
        """Delete the fit locks that ``dead`` (whose heartbeat expired) still holds; how many.  Its
        domains can then be fitted by a live worker at once, not after the locks' TTL."""
        pattern = key(self.prefix, "lock", self.spider) + ":*"
        names = self._run("list fit locks", lambda: list(self.client.scan_iter(pattern)))
        owner = dead + LOCK_OWNER_END
        return sum(
            int(self._run("release a dead worker's fit lock", self._release_lock, keys=[n], args=[owner]))
            for n in names
        )

    def leave(self) -> None:
        """This worker stops: its heartbeat goes, and so does its name if it holds nothing."""
        self._run("end the heartbeat", self.client.delete, self._alive(self.worker))
        self._run("leave the workers", self.client.srem, self._workers, self.worker)
        if not self._run("count held items", self.client.hlen, self._held(self.worker)):
            self._run("leave the holders", self.client.srem, self._holders, self.worker)

    def _run(self, what: str, call, *args, **kwargs):  # a redis-py call and its result
        try:
            return call(*args, **kwargs)
        except redis_errors() as exc:
            raise StoreError(f"redis: cannot {what}: {exc}", STEP) from exc


def _text(value: bytes | str) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value
