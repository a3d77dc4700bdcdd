"""One spider's models and samples on a store and a coordinator: what every worker reads and writes.

Scrapy-free, so the same steps serve a one-process crawl (directory store, in-process
coordination) and every worker of a distributed one (Redis store and coordination):

1. ``load``: a stored model, so an incremental crawl cleans from its first page;
2. ``offer``: a page joins the domain's shared sample (never beyond ``sample_size``);
3. under the ``fit_lock``, the fitter (the crawl's) reads ``sample_pages``, ``save``\\ s the model
   and closes the sample (``finish_sample``), or finds it closed and loads the model another worker
   stored meanwhile (``closed_sample``);
4. ``newer`` picks up another worker's fit; on drift ``restart_sample`` opens a new sample
   generation while the old model keeps serving, and the next fit replaces it.

Every call may block on I/O (a Redis round trip): the crawl runs the fit's in a worker thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store.base import ModelStore
from scrapy_boilerplate.store.coordination import Coordinator, FitLock, LocalCoordinator, SampleOffer, SampleState
from scrapy_boilerplate.store.record import StoredModel, StoreEntry

logger = logging.getLogger(__name__)


def _same_page(known: Page | None, url: str, html: str) -> Page:
    """``known`` (maybe parsed already) if it is this very sample page, else a new page."""
    return known if known is not None and known.html == html else Page(html, url)


class SpiderStore:
    """The stored models and shared samples of one spider's domains (see the module docstring)."""

    def __init__(
        self,
        store: ModelStore,
        coordinator: Coordinator,
        spider: str,
        spec: ModelSpec,
        sample_size: int,
        lock_ttl: float,
        spec_for: Callable[[str], ModelSpec] | None = None,
    ) -> None:
        """``spec``: the crawl's model (a stored model of another is not used); ``lock_ttl``: seconds a
        worker may hold a domain's fit lock; ``spec_for(domain)``: the spec of a domain whose model
        differs (e.g. the user's pinned selectors as a parameter), ``spec`` by default."""
        self.store = store
        self.coordinator = coordinator
        self.spider = spider
        self.spec = spec
        self.spec_for = spec_for  # None: ``spec`` for every domain
        self._params: dict[str, dict[str, Any]] = {}  # a spec's label -> what a stored model must match
        self.sample_size = sample_size
        self.lock_ttl = lock_ttl

    def load(self, domain: str) -> StoredModel | None:
        """The stored model of ``domain`` (``None`` if absent or unusable)."""
        stored = self.store.get(self.spider, domain)
        if stored is None:
            return None
        if not self.matches_spec(stored, domain):
            logger.info(
                "boilerplate: stored %s model of %s is not BOILERPLATE_MODEL %s; re-learning it",
                stored.entry.model,
                domain,
                self.spec.label,
            )
            return None
        return stored

    def matches_spec(self, stored: StoredModel, domain: str = "") -> bool:
        """True when ``stored`` was fitted with this crawl's model and parameters for ``domain`` (else
        it is re-learned)."""
        spec = self.spec_for(domain) if domain and self.spec_for else self.spec
        params = self._params.get(spec.label)
        if params is None:
            params = self._params[spec.label] = spec.create().get_params()
        return stored.model.name == spec.name and stored.model.get_params() == params

    def offer(self, domain: str, page: Page) -> SampleOffer:
        """Offer a page to ``domain``'s shared sample."""
        return self.coordinator.offer(self.spider, domain, page.url, page.html, self.sample_size)

    def state(self, domain: str) -> SampleState:
        """``domain``'s shared sample state."""
        return self.coordinator.state(self.spider, domain)

    def needs_fit(self, state: SampleState, known: StoreEntry | None) -> bool:
        """True when a domain's sample is complete (or closed) and no model fitted on it is known here."""
        fitted = known is not None and known.generation >= state.generation
        return not fitted and (state.closed or state.count >= self.sample_size)

    def local_sample(self, domain: str) -> list[Page]:
        """The pages of ``domain``'s sample as unparsed pages when the sample lives in this process,
        else none (reading a shared sample is network I/O: the fit does it, in its thread)."""
        if not isinstance(self.coordinator, LocalCoordinator):
            return []
        return [Page(html, url) for url, html in self.coordinator.pages(self.spider, domain)]

    def sample_pages(self, domain: str, parsed: Sequence[Page] = ()) -> list[Page]:
        """Every page of ``domain``'s sample, whichever worker added it; a page of ``parsed`` (maybe
        parsed already) stands in for the sample's page when its URL and HTML are the same."""
        known = {page.url: page for page in parsed}
        return [_same_page(known.get(url), url, html) for url, html in self.coordinator.pages(self.spider, domain)]

    def fit_lock(self, domain: str) -> FitLock | None:
        """``domain``'s fit lock for ``lock_ttl`` seconds, or None while another worker holds it."""
        return self.coordinator.acquire_fit_lock(self.spider, domain, self.lock_ttl)

    def closed_sample(self, domain: str, state: SampleState) -> StoredModel | None:
        """The model a closed sample was fitted into; if it is gone (deleted, corrupt), the sample
        is opened again and None returned."""
        entry = self.store.entry(self.spider, domain)
        stored = self.store.get(self.spider, domain)
        if stored is not None and entry is not None and entry.generation >= state.generation:
            return stored
        self.coordinator.restart_sample(self.spider, domain, max(state.generation, entry.generation if entry else 0))
        return None

    def save(self, stored: StoredModel) -> StoredModel:
        """Store ``stored``; returns it with the entry the store wrote."""
        return StoredModel(self.store.put(stored), stored.model)

    def finish_sample(self, domain: str, generation: int) -> None:
        """``domain``'s sample ``generation`` was fitted and stored: drop its pages, keep it closed."""
        self.coordinator.finish_sample(self.spider, domain, generation)

    def restart_sample(self, domain: str, generation: int) -> int | None:
        """Open the sample generation after ``generation`` (the template changed); None when another
        worker already did."""
        return self.coordinator.restart_sample(self.spider, domain, generation)

    def newer(self, domain: str, known: StoreEntry | None) -> StoredModel | None:
        """The stored model of ``domain`` if it is newer than ``known`` (another worker's fit)."""
        entry = self.store.entry(self.spider, domain)
        if entry is None or (
            known is not None and (entry.generation, entry.fitted_at) <= (known.generation, known.fitted_at)
        ):
            return None
        return self.load(domain)
