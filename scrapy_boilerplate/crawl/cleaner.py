"""Where an item is cleaned: on the reactor thread, or in the thread pool when the model is slow.

A thread hand-off is not free: the item goes through the pool's queue, the result comes back
through the reactor's waker, and the two threads then take turns on the GIL.  On the benchmark
crawl (docs/crawl.md, "Performance") that cost more CPU than ``pvalue``'s own cleaning.  A thread
only pays off when a clean is long enough to stall the crawl, so each model's cleans are timed
(CPU time of the cleaning thread) and a model whose mean stays under
``BOILERPLATE_INLINE_CLEAN_MS`` is run inline.  Inline cleans are timed one in ``TIMED_EVERY``:
reading the thread's CPU clock around every clean cost as much as a fast model's clean in the
benchmark crawl (docs/perf.md).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from scrapy_boilerplate.crawl.threads import run_in_thread
from scrapy_boilerplate.models.base import SiteModel

T = TypeVar("T")

# Cleans of a model not timed this many times yet go to the thread pool (the safe side).
WARMUP_CLEANS = 10
# Weight of the newest clean in the running mean: a model that turns slow (bigger pages) leaves
# the reactor within a few dozen items.
MEAN_WEIGHT = 0.05
# Once a model runs inline, one clean in this many is timed (every clean in the pool is); a model
# that turns slow still leaves the reactor within a few hundred items.
TIMED_EVERY = 8


def timed_call(function: Callable[..., T], *args: Any) -> tuple[T, float]:
    """Call ``function``; also return the CPU seconds the calling thread spent (GIL waits excluded)."""
    return timed_on(time.thread_time, function, *args)


def timed_on(clock: Callable[[], float], function: Callable[..., T], *args: Any) -> tuple[T, float]:
    """Call ``function``; also return the seconds ``clock`` moved meanwhile."""
    started = clock()
    result = function(*args)
    return result, clock() - started


class Cleaner:
    """Runs each clean inline or in the thread pool, learning each model's mean clean time."""

    def __init__(
        self,
        in_thread: bool,
        inline_below_ms: float,
        cpu_clock: Callable[[], float] = time.thread_time,
        hand_off: Callable[..., Awaitable[Any]] = run_in_thread,
    ) -> None:
        """``cpu_clock``: the cleaning thread's CPU time in seconds; ``hand_off(function, *args)``: runs
        a clean in the thread pool (a test passes its own of each)."""
        self.in_thread = in_thread
        self.inline_below = inline_below_ms / 1000.0
        self.cpu_clock = cpu_clock
        self.hand_off = hand_off
        self._means: dict[str, tuple[int, float]] = {}  # model name -> (cleans timed, mean seconds)
        self._inline_calls: dict[str, int] = {}  # model name -> inline cleans since the last timed one

    def runs_inline(self, model: SiteModel) -> bool:
        """True when ``model``'s next clean runs on the calling (reactor) thread."""
        if not self.in_thread:
            return True
        count, mean = self._means.get(model.name, (0, 0.0))
        return count >= WARMUP_CLEANS and mean < self.inline_below

    async def run(self, model: SiteModel, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)``, a clean by ``model`` (with what follows it on the same tree), where
        it costs least; exceptions propagate."""
        if not self.in_thread:
            return function(*args)  # nothing to decide: no timing
        if self.runs_inline(model):
            if not self._timed_inline(model.name):
                return function(*args)
            result, seconds = timed_on(self.cpu_clock, function, *args)
        else:
            result, seconds = await self.hand_off(timed_on, self.cpu_clock, function, *args)
        self._record(model.name, seconds)
        return result

    def _timed_inline(self, name: str) -> bool:
        """True for the one inline clean in ``TIMED_EVERY`` that is timed."""
        calls = self._inline_calls.get(name, 0) + 1
        self._inline_calls[name] = 0 if calls >= TIMED_EVERY else calls
        return calls >= TIMED_EVERY

    def _record(self, name: str, seconds: float) -> None:
        count, mean = self._means.get(name, (0, 0.0))
        weight = max(1.0 / (count + 1), MEAN_WEIGHT)  # a plain mean over the first cleans
        mean += weight * (seconds - mean)
        self._means[name] = (count + 1, mean)
