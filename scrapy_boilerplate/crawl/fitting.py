"""Fits run one at a time, in the order their samples filled, on the reactor thread when short.

Python runs one thread at a time, so fits side by side finish no sooner than one after the other;
they only take turns on the GIL with each other and with the reactor, each turn a context switch,
and hold their samples' parsed pages in memory together.  So the queue runs one fit at a time.

A fit in the thread pool competes for the GIL with a busy reactor: a 3-page fit that takes 30 ms of
CPU took 0.1-1.5 s there, and its domain's items waited that long; on 300 domains the queue of such
fits outlasted the items' deadline.  A pause of the crawl of a fraction of a second costs it less.  A fit whose expected CPU time
(the mean per sample page of the fits so far, times its pages) is under ``INLINE_FIT_SECONDS`` runs
on the reactor thread, a short pause of the crawl instead; longer ones (large samples, slow models),
the first one of a crawl (its cost is unknown) and every fit on a shared store (network I/O) run in
the pool.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from scrapy.utils.defer import deferred_from_coro
from twisted.internet.defer import Deferred, succeed

from scrapy_boilerplate.crawl.cleaner import timed_call
from scrapy_boilerplate.crawl.events import FitJob, SiteKey
from scrapy_boilerplate.crawl.persistence import StoreSession
from scrapy_boilerplate.crawl.site_fit import FitOutcome
from scrapy_boilerplate.crawl.threads import next_reactor_turn, run_in_thread
from scrapy_boilerplate.page import Page

INLINE_FIT_SECONDS = 0.25
# Weight of the newest fit in the running mean of fit CPU per sample page.
MEAN_WEIGHT = 0.2
# A sample fitted in the pool is parsed first on the reactor thread (see parse_in_slices), a turn of
# the reactor after each this many seconds of parsing; pages longer than this many characters are
# left to the fit thread.
PARSE_SLICE_SECONDS = 0.005
REACTOR_PARSE_MAX_CHARS = 500_000


class FitQueue:
    """Runs ``run(job)`` for each submitted :class:`FitJob`, one at a time, first submitted first."""

    def __init__(
        self, run: Callable[[FitJob], Awaitable[None]], moved: Callable[[list[SiteKey]], None] | None = None
    ) -> None:
        """``moved(keys)`` is called after each fit with the sites whose fits are still queued or running."""
        self._run_job = run
        self._moved = moved or (lambda keys: None)
        self._queue: deque[FitJob] = deque()
        self._running: FitJob | None = None
        self._keys: set[SiteKey] = set()  # the sites of the jobs queued or running
        self._pending: set[Any] = set()  # the running fit's Deferred, kept referenced
        self._waiters: list[Deferred[None]] = []  # fired once no fit is queued or running

    def __contains__(self, key: object) -> bool:
        """True while a fit of the site ``key`` is queued or running."""
        return key in self._keys

    def __len__(self) -> int:
        return len(self._queue) + (self._running is not None)

    def submit(self, job: FitJob) -> None:
        """Queue ``job`` (once: a site queued or fitting is not queued again)."""
        if job.key in self._keys:
            return
        self._keys.add(job.key)
        self._queue.append(job)
        self._start_next()

    def finished(self) -> Deferred[None]:
        """A Deferred fired once no fit is queued or running (at once when none is)."""
        if not len(self):
            return succeed(None)
        waiter: Deferred[None] = Deferred()
        self._waiters.append(waiter)
        return waiter

    def _start_next(self) -> None:
        if self._running is not None:
            return
        if not self._queue:
            waiters, self._waiters = self._waiters, []
            for waiter in waiters:
                waiter.callback(None)
            return
        self._running = self._queue.popleft()
        fit = deferred_from_coro(self._run(self._running))
        self._pending.add(fit)
        fit.addBoth(lambda _: self._pending.discard(fit))

    async def _run(self, job: FitJob) -> None:
        try:
            await self._run_job(job)
        finally:
            self._running = None
            self._keys.discard(job.key)
            self._start_next()
            self._moved([*([self._running.key] if self._running else []), *(queued.key for queued in self._queue)])


class FitRunner:
    """Runs one fit where it costs least (see the module docstring), learning the fits' cost."""

    def __init__(self, session: StoreSession) -> None:
        self.session = session
        self.per_page: float | None = None  # mean CPU seconds of fitting per sample page

    def runs_inline(self, pages: int) -> bool:
        """True when a fit of a local sample of ``pages`` pages runs on the reactor thread."""
        return (
            not self.session.shared
            and pages > 0
            and self.per_page is not None
            and self.per_page * pages <= INLINE_FIT_SECONDS
        )

    async def fit(self, domain: str, min_pages: int | None = None) -> FitOutcome:
        """Fit ``domain``'s sample (with ``min_pages``: as it is, if it has that many; see
        :meth:`StoreSession.fit_partial`); exceptions (a model's, the store's) propagate."""
        pages = self.session.local_sample(domain)
        fit, args = (self.session.fit, ()) if min_pages is None else (self.session.fit_partial, (min_pages,))
        if self.runs_inline(len(pages)):
            outcome, seconds = timed_call(fit, domain, pages, *args)
        else:
            await parse_in_slices(pages)
            outcome, seconds = await run_in_thread(timed_call, fit, domain, pages, *args)
        if pages:
            per_page = seconds / len(pages)
            mean = self.per_page
            self.per_page = per_page if mean is None else mean + MEAN_WEIGHT * (per_page - mean)
        return outcome


async def parse_in_slices(pages: list[Page]) -> None:
    """Parse a sample on the reactor thread, a few milliseconds at a time, before a fit in the pool.

    lxml's parser releases the GIL while it runs: in the fit thread, each parse would hand the GIL
    to the reactor thread and back, two context switches a parse.  Parsed here, a sample costs the
    reactor what parsing its pages for cleaning would; the fit then reads the trees (lxml allows
    reading a tree in another thread).
    """
    slice_end = time.perf_counter() + PARSE_SLICE_SECONDS
    for page in pages:
        if len(page.html) > REACTOR_PARSE_MAX_CHARS:
            continue  # parsed by the fit, in its thread: no long stall of the crawl
        if time.perf_counter() > slice_end:
            await next_reactor_turn()
            slice_end = time.perf_counter() + PARSE_SLICE_SECONDS
        page.parse()
