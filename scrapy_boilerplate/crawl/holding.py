"""Items that wait in the pipeline for their domain's model: bounded, each with a deadline.

An item waits inside the pipeline's ``process_item``; until it leaves, Scrapy's scraper slot
counts its response (at least 1,024 bytes) towards SCRAPER_SLOT_MAX_ACTIVE_SIZE, past which the
engine stops pulling requests.  So the hold is capped in bytes (and items), the add-on raises that
Scrapy setting by the hold's byte cap (so waiting items never stop the crawl), and every item has a
deadline: ``timeout`` seconds without its domain's model coming closer (the owner calls
:meth:`HoldQueue.progressed` on each new sample page and each fit done ahead of the domain's own).
Not since the item started waiting: Scrapy's default scheduler takes the domains of a broad crawl
in turn, so each domain's sample fills over most of the crawl.  Whoever owns the queue releases a
domain's items when its model is ready or when it falls back, and every item when the crawl goes
quiet or closes (``spider_idle`` never fires while anything waits).

A :data:`Release` says how the items leave: :class:`WithModel` (the site's model is ready, and the
release carries it) or :class:`ToFallback` (why the fallback cleans them).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from twisted.internet.defer import Deferred

from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.store.record import StoredModel

# Scrapy's scraper slot counts at least this many bytes per response.
MIN_HELD_BYTES = 1024


@dataclass(frozen=True)
class WithModel:
    """The site's model is ready: it cleans the item."""

    stored: StoredModel

    @property
    def key(self) -> str:
        """The name of this release in the stats."""
        return "model"


@dataclass(frozen=True)
class ToFallback:
    """No site model for the item: the fallback cleans it, for ``reason``."""

    reason: FallbackReason

    @property
    def key(self) -> str:
        """The name of this release in the stats."""
        return self.reason.key


Release = WithModel | ToFallback


@dataclass(eq=False)
class _Held:
    domain: str
    size: int
    since: float
    deferred: Deferred[Release] = field(default_factory=Deferred)
    timer: Any = None


class HoldQueue:
    """Items waiting per domain; ``hold`` returns a Deferred fired with the :data:`Release`."""

    def __init__(
        self,
        max_items: int,
        max_bytes: int,
        timeout: float,
        call_later: Callable[..., Any],
        clock: Callable[[], float] = time.monotonic,
        on_deadline: Callable[[str], None] | None = None,
    ) -> None:
        """``on_deadline(domain)`` is called when an item of ``domain`` reaches its deadline, and may
        release the domain's items itself (with a reason of its own); an item it leaves is released
        for the deadline."""
        self.on_deadline = on_deadline or (lambda domain: None)
        self.max_items = max_items
        self.max_bytes = max_bytes
        self.timeout = timeout
        self._call_later = call_later
        self._clock = clock
        self._by_domain: dict[str, list[_Held]] = {}
        self._progress: dict[str, float] = {}  # domain with waiting items -> when its model last came closer
        self.count = 0
        self.bytes = 0

    def hold(self, domain: str, size: int) -> Deferred[Release] | None:
        """Hold one item whose response has ``size`` bytes; None when a cap would be exceeded."""
        size = max(size, MIN_HELD_BYTES)
        if self.count + 1 > self.max_items or self.bytes + size > self.max_bytes:
            return None
        held = _Held(domain, size, self._clock())
        held.timer = self._call_later(self.timeout, self._deadline, held)
        self._by_domain.setdefault(domain, []).append(held)
        self.count += 1
        self.bytes += size
        return held.deferred

    def progressed(self, domains: Iterable[str]) -> None:
        """The models of ``domains`` came closer: their waiting items' deadlines start again."""
        now = self._clock()
        for domain in domains:
            if domain in self._by_domain:
                self._progress[domain] = now

    def domains(self) -> list[str]:
        """Domains that have waiting items."""
        return list(self._by_domain)

    def waiting(self, domain: str) -> int:
        """How many items of ``domain`` wait."""
        return len(self._by_domain.get(domain, ()))

    def release_domain(self, domain: str, release: Release) -> int:
        """Release every item waiting for ``domain``; returns how many."""
        waiting = list(self._by_domain.get(domain, ()))
        for held in waiting:
            self._release_one(held, release)
        return len(waiting)

    def release_all(self, release: Release) -> int:
        """Release every waiting item; returns how many."""
        return sum(self.release_domain(domain, release) for domain in self.domains())

    def _deadline(self, held: _Held) -> None:
        """``held``'s timer: release it, unless its domain progressed since (then wait on from there)."""
        last = max(held.since, self._progress.get(held.domain, held.since))
        remaining = last + self.timeout - self._clock()
        if remaining > 0:
            held.timer = self._call_later(remaining, self._deadline, held)
        else:
            self.on_deadline(held.domain)
            self._release_one(held, ToFallback(FallbackReason.DEADLINE))

    def _release_one(self, held: _Held, release: Release) -> None:
        waiting = self._by_domain.get(held.domain)
        if not waiting or held not in waiting:
            return
        waiting.remove(held)
        if not waiting:
            del self._by_domain[held.domain]
            self._progress.pop(held.domain, None)
        self.count -= 1
        self.bytes -= held.size
        if held.timer is not None and held.timer.active():
            held.timer.cancel()
        held.deferred.callback(release)
