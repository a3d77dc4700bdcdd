"""Fits run one at a time, in the order their samples filled.

A fit is CPU work in the reactor's thread pool.  Python runs one thread at a time, so fits running
side by side finish no sooner than one after the other; they only take turns on the GIL with each
other and with the reactor, each turn a context switch, and hold their samples' parsed pages in
memory together.  One at a time, a fit competes only with the reactor, and a domain's items wait
for its own fit plus those queued before it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from scrapy.utils.defer import deferred_from_coro


class FitQueue:
    """Runs ``fit(domain)`` for each submitted domain, one at a time, first submitted first."""

    def __init__(self, fit: Callable[[str], Awaitable[None]]) -> None:
        self._fit = fit
        self._queue: deque[str] = deque()
        self._running: str | None = None
        self._pending: set[Any] = set()  # the running fit's Deferred, kept referenced

    def __contains__(self, domain: str) -> bool:
        """True while ``domain``'s fit is queued or running."""
        return domain == self._running or domain in self._queue

    def __len__(self) -> int:
        return len(self._queue) + (self._running is not None)

    def submit(self, domain: str) -> None:
        """Queue a fit of ``domain`` (once: a domain queued or fitting is not queued again)."""
        if domain in self:
            return
        self._queue.append(domain)
        self._start_next()

    def _start_next(self) -> None:
        if self._running is not None or not self._queue:
            return
        self._running = self._queue.popleft()
        fit = deferred_from_coro(self._run(self._running))
        self._pending.add(fit)
        fit.addBoth(lambda _: self._pending.discard(fit))

    async def _run(self, domain: str) -> None:
        try:
            await self._fit(domain)
        finally:
            self._running = None
            self._start_next()
