"""Inline cleans gathered into short batches and run back to back on the reactor thread.

In a crawl, Scrapy's own work between two items evicts the model's code and data from the CPU
caches, so a clean run alone costs about three times what the same clean costs right after
another one (docs/perf.md, "Cold cleans").  Holding an item for a moment (at most
``BOILERPLATE_CLEAN_BATCH_WAIT``, 0.1 s) until more have arrived lets the cleans of a batch share
warm caches.  Each batch is run when it is
full or when its window ends, whichever comes first, so an item never waits longer than the
window, and the crawl cannot go idle (nor close) while items wait: they are in the pipelines.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet.defer import Deferred
from twisted.python.failure import Failure

from scrapy_boilerplate.crawl.holding import MIN_HELD_BYTES as MIN_PAGE_BYTES  # Scrapy's floor per response


class CleanBatch:
    """Runs submitted calls in batches of up to ``size`` calls or ``max_bytes`` of pages, at most
    ``window`` seconds after the first call."""

    def __init__(self, size: int, window: float, call_later: Callable[..., Any], max_bytes: int = 1_250_000,
                 on_batch: Callable[[int], object] | None = None) -> None:
        self.size = size
        self.window = window
        self.max_bytes = max_bytes
        self._bytes = 0
        self._call_later = call_later
        self._on_batch = on_batch  # told each batch's size (stats)
        self._pending: list[tuple[Callable[..., Any], tuple[Any, ...], Deferred[Any]]] = []
        self._timer: Any = None
        self.batches = 0  # batches run so far
        self.calls = 0  # calls run so far

    def __len__(self) -> int:
        return len(self._pending)

    def submit(self, nbytes: int, function: Callable[..., Any], *args: Any) -> Deferred[Any]:
        """Queue ``function(*args)`` for a page of ``nbytes``; the Deferred fires with its result (or
        failure) once its batch ran."""
        deferred: Deferred[Any] = Deferred()
        self._pending.append((function, args, deferred))
        self._bytes += max(nbytes, MIN_PAGE_BYTES)
        if len(self._pending) >= self.size or self._bytes >= self.max_bytes:
            self.flush()
        elif self._timer is None:
            self._timer = self._call_later(self.window, self._window_ended)
        return deferred

    def _window_ended(self) -> None:
        self._timer = None
        self.flush()

    def flush(self) -> None:
        """Run every queued call now, then fire their Deferreds (results only after the whole batch)."""
        if self._timer is not None:
            if self._timer.active():
                self._timer.cancel()
            self._timer = None
        pending, self._pending, self._bytes = self._pending, [], 0
        if not pending:
            return
        outcomes: list[tuple[bool, Any]] = []
        for function, args, _ in pending:
            try:
                outcomes.append((True, function(*args)))
            except Exception:  # noqa: BLE001 - handed to the waiting item, which decides
                outcomes.append((False, Failure()))
        self.batches += 1
        self.calls += len(pending)
        if self._on_batch is not None:
            self._on_batch(len(pending))
        for (_, _, deferred), (ok, outcome) in zip(pending, outcomes):
            if ok:
                deferred.callback(outcome)
            else:
                deferred.errback(outcome)
