"""A template's fit waits for its first item: templates whose pages yield none cost no fit.

A domain's home page and listing pages are templates of their own; they fill samples like any other
(the sampling middleware cannot know which pages a spider yields items from), but nothing needs
their fit.  So a fit that is due is queued once the template has had an item in the pipeline (or
has one waiting); until then it is parked, and run when the first item comes.
"""

from __future__ import annotations

from collections.abc import Callable

from scrapy_boilerplate.crawl.events import FitJob, SiteKey


class FitGate:
    """Queues each due fit of a template with items, parks the others until their first item."""

    def __init__(self, submit: Callable[[FitJob], None], waiting: Callable[[SiteKey], int]) -> None:
        """``submit(job)`` queues a fit; ``waiting(key)``: how many items of ``key`` wait."""
        self.submit = submit
        self.waiting = waiting
        self._with_items: set[SiteKey] = set()  # templates whose pages have yielded items
        self._parked: dict[SiteKey, FitJob] = {}  # fits due of templates without items yet

    def due(self, job: FitJob) -> None:
        """``job`` is due: queued, unless its template has had no item yet (a partial fit at a stop
        is for waiting items: always queued)."""
        if job.partial or job.key in self._with_items or self.waiting(job.key):
            self.submit(job)
        else:
            self._parked[job.key] = job

    def item_arrived(self, key: SiteKey) -> None:
        """An item of ``key`` reached the pipeline: its template's parked fit runs now."""
        if key not in self._with_items:
            self._with_items.add(key)
            job = self._parked.pop(key, None)
            if job is not None:
                self.submit(job)

    @property
    def parked(self) -> int:
        """Templates with a full sample that no item asked a fit of."""
        return len(self._parked)
