"""Watch a shared (Redis) model store for what other workers did: completed samples, fits, re-fits.

Every ``BOILERPLATE_STORE_POLL`` seconds one look, in a worker thread: domains waiting for a model
pick it up as soon as another worker stored it (or take over the fit once the sample is complete
and the fit lock free, e.g. after the fitter died); every ``READY_POLL_EVERY`` looks, domains with
a model notice another worker's re-fit.  Results are applied on the reactor thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.utils.defer import deferred_from_coro
from twisted.internet.task import LoopingCall

from scrapy_boilerplate.crawl.persistence import PollResult
from scrapy_boilerplate.crawl.threads import run_in_thread
from scrapy_boilerplate.store import StoreError

if TYPE_CHECKING:
    from scrapy_boilerplate.crawl.learner import BoilerplateLearner

# Ready domains (other workers' re-fits) are looked at once in this many polls.
READY_POLL_EVERY = 5


class SharedStorePoller:
    """The learner's periodic look at a shared store."""

    def __init__(self, learner: BoilerplateLearner, interval: float) -> None:
        self.learner = learner
        self.interval = interval
        self._loop = LoopingCall(self.tick)
        self._ticks = 0
        self._busy = False
        self._pending: set[Any] = set()

    def start(self, **_: Any) -> None:
        """Start looking (connected to ``spider_opened``) if the store is shared."""
        if self.learner.sync.shared and not self._loop.running:
            self._loop.start(self.interval, now=False)

    def stop(self) -> None:
        """Stop looking."""
        if self._loop.running:
            self._loop.stop()

    def tick(self) -> None:
        """One look, unless the previous one is still running."""
        if self._busy:
            return
        self._ticks += 1
        waiting = self.learner.waiting_for_others()
        ready = self.learner.ready_to_recheck() if self._ticks % READY_POLL_EVERY == 0 else {}
        if not waiting and not ready:
            return
        self._busy = True
        look = deferred_from_coro(self._look(waiting, ready))
        self._pending.add(look)
        look.addBoth(lambda _: self._pending.discard(look))

    async def _look(self, waiting: dict[str, Any], ready: dict[str, Any]) -> None:
        sync = self.learner.sync
        try:
            results: list[PollResult] = await run_in_thread(sync.poll, waiting, ready)
        except StoreError as exc:
            if sync.go_local("polling the shared store", exc):
                self.learner.reset_shared_samples()
            return
        finally:
            self._busy = False
        for result in results:
            self.learner.apply_poll(result)
