"""Bounded holding of items that wait for their domain's model.

Each held item pins its response in the scraper slot until it leaves the pipelines
(scrapy/core/scraper.py:82 and :95), and the engine stops pulling requests once the slot holds
more than SCRAPER_SLOT_MAX_ACTIVE_SIZE bytes (scrapy/core/engine.py:374).  So holding is capped in
items and bytes well below that budget, every item has a deadline, and whoever owns the queue
releases items when the crawl goes quiet or closes (``spider_idle`` never fires while anything is
held: scrapy/core/engine.py:438).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from twisted.internet.defer import Deferred

# Why a held item was released; the pipeline cleans it with the site model only after MODEL.
MODEL = "model"
DEADLINE = "deadline"
QUIET = "quiet"
NO_MODEL = "no_model"  # the fit failed, or the domain gave up its sample
CLOSING = "closing"

# Scrapy counts at least this many bytes per response (scrapy/core/scraper.py:65).
MIN_HELD_BYTES = 1024


@dataclass(eq=False)
class _Held:
    domain: str
    size: int
    deferred: Deferred[str] = field(default_factory=Deferred)
    timer: Any = None


class HoldQueue:
    """Items waiting per domain; ``hold`` returns a Deferred fired with the release reason."""

    def __init__(self, max_items: int, max_bytes: int, timeout: float, call_later: Callable[..., Any]) -> None:
        self.max_items = max_items
        self.max_bytes = max_bytes
        self.timeout = timeout
        self._call_later = call_later
        self._by_domain: dict[str, list[_Held]] = {}
        self.count = 0
        self.bytes = 0

    def hold(self, domain: str, size: int) -> Deferred[str] | None:
        """Hold one item of ``size`` HTML bytes; None when a cap would be exceeded."""
        size = max(size, MIN_HELD_BYTES)
        if self.count + 1 > self.max_items or self.bytes + size > self.max_bytes:
            return None
        held = _Held(domain, size)
        held.timer = self._call_later(self.timeout, self._release_one, held, DEADLINE)
        self._by_domain.setdefault(domain, []).append(held)
        self.count += 1
        self.bytes += size
        return held.deferred

    def domains(self) -> list[str]:
        """Domains that have held items."""
        return list(self._by_domain)

    def release_domain(self, domain: str, reason: str) -> int:
        """Release every item held for ``domain``; returns how many."""
        waiting = list(self._by_domain.get(domain, ()))
        for held in waiting:
            self._release_one(held, reason)
        return len(waiting)

    def release_all(self, reason: str) -> int:
        """Release every held item; returns how many."""
        return sum(self.release_domain(domain, reason) for domain in self.domains())

    def _release_one(self, held: _Held, reason: str) -> None:
        waiting = self._by_domain.get(held.domain)
        if not waiting or held not in waiting:
            return
        waiting.remove(held)
        if not waiting:
            del self._by_domain[held.domain]
        self.count -= 1
        self.bytes -= held.size
        if held.timer is not None and held.timer.active():
            held.timer.cancel()
        held.deferred.callback(reason)
