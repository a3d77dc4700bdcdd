"""Watch a shared (Redis) model store for what other workers did: completed samples, fits, re-fits.

Every ``BOILERPLATE_STORE_POLL`` seconds one look, in a worker thread: domains waiting for a model
pick it up as soon as another worker stored it (or take over the fit once the sample is complete
and the fit lock free, e.g. after the fitter died); every ``READY_POLL_EVERY`` looks, domains with
a model notice another worker's re-fit.  Results are applied on the reactor thread.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

from scrapy.utils.defer import deferred_from_coro

from scrapy_boilerplate.crawl.book import SiteBook
from scrapy_boilerplate.crawl.clock import Clock, looping_call
from scrapy_boilerplate.crawl.events import Event, ModelSource, SiteKey
from scrapy_boilerplate.crawl.persistence import PollResult, StoreSession
from scrapy_boilerplate.crawl.threads import run_in_thread
from scrapy_boilerplate.store import StoreError

# Ready sites (other workers' re-fits) are looked at once in this many polls.
READY_POLL_EVERY = 5


class SharedStorePoller:
    """The periodic look at a shared store; what it finds changes the sites in ``book`` (to ``emit``)."""

    def __init__(
        self,
        book: SiteBook,
        session: StoreSession,
        fitting: Container[SiteKey],
        emit: Callable[[list[Event]], None],
        on_store_lost: Callable[[], None],
        clock: Clock,
    ) -> None:
        """``fitting``: the sites fitting here (the fit queue), which wait for no other worker."""
        self.book = book
        self.session = session
        self.fitting = fitting
        self.emit = emit
        self.on_store_lost = on_store_lost
        self._loop = looping_call(self.tick, clock)
        self._ticks = 0
        self._busy = False
        self._pending: set[Any] = set()

    def start(self, interval: float) -> None:
        """Look every ``interval`` seconds, if the store is shared."""
        if self.session.shared and not self._loop.running:
            self._loop.start(interval, now=False)

    def stop(self) -> None:
        """Stop looking."""
        if self._loop.running:
            self._loop.stop()

    def tick(self) -> None:
        """One look, unless the previous one is still running."""
        if self._busy:
            return
        self._ticks += 1
        waiting = self.book.without_model(self.fitting)
        ready = self.book.with_model(self.fitting) if self._ticks % READY_POLL_EVERY == 0 else {}
        if not waiting and not ready:
            return
        self._busy = True
        look = deferred_from_coro(self._look(waiting, ready))
        self._pending.add(look)
        look.addBoth(lambda _: self._pending.discard(look))

    async def _look(self, waiting: dict[str, Any], ready: dict[str, Any]) -> None:
        try:
            results: list[PollResult] = await run_in_thread(self.session.poll, waiting, ready)
        except StoreError as exc:
            if self.session.go_local("polling the shared store", exc):
                self.on_store_lost()
            return
        finally:
            self._busy = False
        for result in results:
            self._apply(result)

    def _apply(self, result: PollResult) -> None:
        """Act on what the look found for one site (reactor thread)."""
        key = result.domain
        if result.newer is not None:
            self.emit(self.book.adopt(key, result.newer, ModelSource.SHARED))
        elif result.revision is not None:
            self.book.seen_revision(key, result.revision)
        elif result.state is not None:
            in_use = self.book.in_use(key)
            if self.session.needs_fit(result.state, in_use.entry if in_use else None):
                self.emit(self.book.sample_complete(key, fit_here=True))
