"""One fit job, from the fit queue to the site's events: the model is put to use, or the site samples on.

The fit runs where it costs least (:class:`~scrapy_boilerplate.crawl.fitting.FitRunner`).  A model
fitted here, or loaded because another worker fitted the same shared sample first, is adopted; a
sample the store re-opened samples on; a fit that raises degrades its site to the fallback, never
the crawl.  When the store fails, the fit goes on without it: a sample of this process is fitted
again at once, a shared one is lost (the site samples again, here).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from scrapy_boilerplate.crawl.book import SiteBook
from scrapy_boilerplate.crawl.events import Event, FitFailed, FitJob, ModelSource
from scrapy_boilerplate.crawl.fitting import FitRunner
from scrapy_boilerplate.crawl.persistence import StoreSession
from scrapy_boilerplate.crawl.site_fit import BUSY, FITTED, INCOMPLETE, FitOutcome
from scrapy_boilerplate.store import StoreError


class FitHandler:
    """Runs each fit job (see the module docstring); its changes go to ``emit``."""

    def __init__(
        self,
        runner: FitRunner,
        book: SiteBook,
        session: StoreSession,
        emit: Callable[[list[Event]], None],
        on_store_lost: Callable[[], None],
        min_pages: int,
    ) -> None:
        """``min_pages``: the fewest pages a partial job's sample may be fitted on."""
        self.runner = runner
        self.book = book
        self.session = session
        self.emit = emit
        self.on_store_lost = on_store_lost
        self.min_pages = min_pages

    async def run(self, job: FitJob) -> None:
        """Fit ``job``'s sample (run by the fit queue) and adopt the model."""
        started = time.perf_counter()
        try:
            outcome = await self._fit(job)
        except Exception as exc:  # a model bug degrades this site to the fallback, never the crawl
            self.emit([FitFailed(job.key, exc), *self.book.fit_failed(job.key)])
            return
        seconds = time.perf_counter() - started
        if outcome.store_error is not None:
            self.session.failed(f"storing the model of {job.key}", outcome.store_error)
        if outcome.stored is not None:
            source = (
                ModelSource.PARTIAL
                if job.partial
                else ModelSource.FITTED
                if outcome.status == FITTED
                else ModelSource.SHARED
            )
            saved = outcome.saved and self.session.persistent
            self.emit(self.book.adopt(job.key, outcome.stored, source, seconds, saved, outcome.sample_cleans))
        elif outcome.status != BUSY:  # the sample was re-opened: keep collecting
            self.book.sample_reopened(job.key)

    async def _fit(self, job: FitJob) -> FitOutcome:
        min_pages = self.min_pages if job.partial else None
        try:
            return await self.runner.fit(job.key, min_pages)
        except StoreError as exc:
            if self.session.go_local(f"fitting the model of {job.key}", exc):
                self.on_store_lost()
                return FitOutcome(INCOMPLETE)
            return await self.runner.fit(job.key, min_pages)
