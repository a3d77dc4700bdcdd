"""Notice when the crawl is quiet for ``BOILERPLATE_QUIET_SECONDS`` or is closing: its waiting items then go on.

``spider_idle`` cannot tell: the engine is not idle while items wait in the pipelines, and
``spider_closed`` comes only after they left.  So a looping call asks :mod:`engine_state`, a few
times per quiet period.  The crawl is quiet once every look for ``quiet_seconds`` found nothing but
waiting items, and at least one look per quarter of the period did: after a stall of the reactor
(a long garbage collection, a slow clean on its thread), the first look sees the engine as the stall
left it, before the responses that came meanwhile reach their callbacks, so it counts as one look,
not as the whole stall.
"""

from __future__ import annotations

from collections.abc import Callable, Sized

from scrapy_boilerplate.crawl.clock import Clock, looping_call
from scrapy_boilerplate.crawl.engine_state import EngineView

# How often the engine is looked at, as a share of the quiet period.
TICKS_PER_QUIET_PERIOD = 4


class QuietWatcher:
    """Calls ``on_quiet()`` when the crawl is quiet for ``quiet_seconds``, ``on_closing()`` on each look
    while it closes."""

    def __init__(
        self,
        engine: EngineView,
        waiting: Callable[[], int],
        fitting: Sized,
        on_quiet: Callable[[], None],
        on_closing: Callable[[], None],
        clock: Clock,
    ) -> None:
        """``waiting()``: how many items wait in the hold; ``fitting``: the fits queued or running."""
        self.engine = engine
        self.waiting = waiting
        self.fitting = fitting
        self.on_quiet = on_quiet
        self.on_closing = on_closing
        self.clock = clock
        self.quiet_seconds = 0.0
        self._loop = looping_call(self.tick, clock)
        self._quiet_since: float | None = None
        self._quiet_looks = 0  # looks in a row that found the crawl quiet

    def start(self, quiet_seconds: float) -> None:
        """Start looking, a few times per ``quiet_seconds``."""
        self.quiet_seconds = quiet_seconds
        if not self._loop.running:
            self._loop.start(quiet_seconds / TICKS_PER_QUIET_PERIOD, now=False)

    def stop(self) -> None:
        """Stop looking."""
        if self._loop.running:
            self._loop.stop()

    def tick(self) -> None:
        """One look at the engine."""
        if self.engine.closing():
            self.on_closing()
            return
        waiting = self.waiting()
        if not waiting or len(self.fitting) or not self.engine.only_items_left(waiting):
            self._quiet_since, self._quiet_looks = None, 0
            return
        now = self.clock.seconds()
        self._quiet_looks += 1
        if self._quiet_since is None:
            self._quiet_since = now
        elif now - self._quiet_since >= self.quiet_seconds and self._quiet_looks > TICKS_PER_QUIET_PERIOD:
            self._quiet_since, self._quiet_looks = None, 0
            self.on_quiet()
