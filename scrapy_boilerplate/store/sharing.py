"""One crawl's side of the shared model life cycle: load, sample, fit once, store, notice drift.

Scrapy-free, so the same steps serve a one-process crawl (directory store, in-process
coordination) and every worker of a distributed one (Redis store and coordination):

1. ``load``: a stored model, so an incremental crawl cleans from its first page;
2. ``offer``: a page joins the domain's shared sample (never beyond ``sample_size``);
3. ``fit``: under the fit lock, fit on everybody's sample pages, store, close the sample
   (or load the model another worker stored meanwhile);
4. ``watch`` the model in use, ``observe`` cleaned pages: on drift, open a new sample generation
   while the old model keeps serving, and the next ``fit`` replaces it.

``fit`` blocks (CPU and I/O): the crawl runs it in a worker thread.  The drift monitor is not
thread-safe: ``watch`` and ``observe`` belong to the crawl's own thread.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store.base import ModelStore, StoreError
from scrapy_boilerplate.store.coordination import Coordinator, LocalCoordinator, SampleOffer, SampleState
from scrapy_boilerplate.store.drift import Drift, DriftMonitor, fit_baseline
from scrapy_boilerplate.store.fingerprint import Fingerprint
from scrapy_boilerplate.store.record import StoredModel, StoreEntry

logger = logging.getLogger(__name__)

FITTED, LOADED, BUSY, INCOMPLETE = "fitted", "loaded", "busy", "incomplete"

Cleans = dict[str, tuple[str, CleanedPage]]  # url -> (html, clean) of a fit's sample pages


def _same_page(known: Page | None, url: str, html: str) -> Page:
    """``known`` (maybe parsed already) if it is this very sample page, else a new page."""
    return known if known is not None and known.html == html else Page(html, url)


@dataclass(frozen=True)
class Learned:
    """A usable model of one domain and what the crawl needs around it."""

    model: SiteModel
    entry: StoreEntry
    fingerprint: Fingerprint | None

    @classmethod
    def from_stored(cls, stored: StoredModel) -> Learned:
        """Wrap a model read from the store."""
        baseline = stored.entry.baseline
        fingerprint = Fingerprint(baseline.signatures, baseline.unseen_share) if baseline is not None else None
        return cls(stored.model, stored.entry, fingerprint)


@dataclass(frozen=True)
class FitOutcome:
    """What :meth:`SharedLearning.fit` did: ``fitted`` here, ``loaded`` another's, ``busy``, ``incomplete``.

    ``store_error`` is the failure that kept a model fitted here from being stored (it is used all the same);
    ``sample_cleans`` are the fitted model's cleans of its sample pages: url -> (html, clean).
    """

    status: str
    learned: Learned | None = None
    stored: bool = False
    store_error: StoreError | None = None
    sample_cleans: dict[str, tuple[str, CleanedPage]] = field(default_factory=dict)


class SharedLearning:
    """The model life cycle of one spider's domains over a store and a coordinator."""

    def __init__(
        self,
        store: ModelStore,
        coordinator: Coordinator,
        spider: str,
        spec: ModelSpec,
        sample_size: int,
        lock_ttl: float,
        monitor: DriftMonitor | None = None,
        keep_cleaned_html: bool = True,
    ) -> None:
        self.store = store
        self.coordinator = coordinator
        self.spider = spider
        self.spec = spec
        self._spec_params = spec.create().get_params()  # what a stored model must match to be used
        self.sample_size = sample_size
        self.lock_ttl = lock_ttl
        self.monitor = monitor
        # Whether the cleans of the sample pages keep their cleaned HTML (a crawl without
        # BOILERPLATE_CLEANED_HTML_FIELD never reads it, and serialising costs each sample page a
        # trip through libxml2's serialiser, which hands the GIL to the reactor and back).
        self.keep_cleaned_html = keep_cleaned_html

    def load(self, domain: str) -> Learned | None:
        """The stored model of ``domain`` (``None`` if absent or unusable)."""
        stored = self.store.get(self.spider, domain)
        if stored is None:
            return None
        if not self.matches_spec(stored):
            logger.info(
                "boilerplate: stored %s model of %s is not BOILERPLATE_MODEL %s; re-learning it",
                stored.entry.model,
                domain,
                self.spec.label,
            )
            return None
        return Learned.from_stored(stored)

    def matches_spec(self, stored: StoredModel) -> bool:
        """True when ``stored`` was fitted with this crawl's model and parameters (else it is re-learned)."""
        return stored.model.name == self.spec.name and stored.model.get_params() == self._spec_params

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

    def fit(self, domain: str, parsed: Sequence[Page] = ()) -> FitOutcome:
        """Fit ``domain`` on the shared sample unless another worker is at it or already did.

        ``parsed`` may hold sample pages already parsed (by :meth:`local_sample`'s caller, on the
        reactor thread); a page is used only if the sample still holds the same URL and HTML.
        """
        lock = self.coordinator.acquire_fit_lock(self.spider, domain, self.lock_ttl)
        if lock is None:
            return FitOutcome(BUSY)
        with lock:
            state = self.coordinator.state(self.spider, domain)
            if state.closed:
                return self._closed_sample(domain, state)
            known = {page.url: page for page in parsed}
            pages = [_same_page(known.get(url), url, html) for url, html in self.coordinator.pages(self.spider, domain)]
            if len(pages) < self.sample_size:
                return FitOutcome(INCOMPLETE)
            learned, cleans, store_error = self._fit_and_store(domain, pages, state.generation)
            if store_error is None:  # otherwise leave the sample open: another worker fits and stores it
                self.coordinator.finish_sample(self.spider, domain, state.generation)
        return FitOutcome(FITTED, learned, store_error is None, store_error, cleans)

    def fit_partial(self, domain: str, parsed: Sequence[Page] = (), min_pages: int = 1) -> FitOutcome:
        """Fit ``domain`` on its sample as it is, at least ``min_pages`` pages (the crawl is stopping).

        No lock, nothing stored, and the sample stays open: the model serves this crawl's waiting
        items only, while the next crawl (or another worker) goes on filling the sample.
        """
        state = self.coordinator.state(self.spider, domain)
        known = {page.url: page for page in parsed}
        pages = [_same_page(known.get(url), url, html) for url, html in self.coordinator.pages(self.spider, domain)]
        if len(pages) < min_pages:
            return FitOutcome(INCOMPLETE)
        learned, _, cleans = self._fit_pages(domain, pages, state.generation)
        return FitOutcome(FITTED, learned, sample_cleans=cleans)

    def _closed_sample(self, domain: str, state: SampleState) -> FitOutcome:
        """The sample was fitted already: load that model, or sample again if it is gone (deleted, corrupt)."""
        entry = self.store.entry(self.spider, domain)
        stored = self.store.get(self.spider, domain)
        if stored is not None and entry is not None and entry.generation >= state.generation:
            return FitOutcome(LOADED, Learned.from_stored(stored))
        self.coordinator.restart_sample(self.spider, domain, max(state.generation, entry.generation if entry else 0))
        return FitOutcome(INCOMPLETE)

    def _fit_and_store(
        self, domain: str, pages: list[Page], generation: int
    ) -> tuple[Learned, Cleans, StoreError | None]:
        """The model fitted on ``pages``, its cleans of them, and the error that kept it out of the
        store (None once stored).

        A model that cannot be stored is used all the same; the next crawl re-learns it."""
        learned, stored, cleans = self._fit_pages(domain, pages, generation)
        try:
            return replace(learned, entry=self.store.put(stored)), cleans, None
        except StoreError as exc:
            return learned, cleans, exc

    def _fit_pages(self, domain: str, pages: list[Page], generation: int) -> tuple[Learned, StoredModel, Cleans]:
        """The model fitted on ``pages``, its store record, and its cleans of them."""
        model = self.spec.create().fit(pages)
        cleaned = [model.clean(page) for page in pages]
        baseline = fit_baseline(model, pages, cleaned)
        stored = StoredModel.new(self.spider, domain, model, len(pages), baseline, generation)
        # The sample's cleans serve their items, which never carry decisions (they are for the
        # inspection report): drop them.  Unread, they would keep each page's parsed tree (~0.5 MB on
        # dragnet pages) alive until its item comes; read, they cost style_tree ~0.26 M
        # instructions a page (naming every region by path), 5 M per fitted domain.  ``replace``
        # reads the cleaned HTML, so a model's deferred serialisation is made here and no tree stays.
        cleans = {page.url: (page.html, self._kept(c)) for page, c in zip(pages, cleaned, strict=False)}
        fingerprint = Fingerprint(baseline.signatures, baseline.unseen_share)
        return Learned(model, stored.entry, fingerprint), stored, cleans

    def _kept(self, cleaned: CleanedPage) -> CleanedPage:
        if self.keep_cleaned_html:
            return replace(cleaned, decisions=())
        return replace(cleaned, decisions=(), html="")

    def newer(self, domain: str, known: StoreEntry | None) -> Learned | None:
        """The stored model of ``domain`` if it is newer than ``known`` (another worker's fit)."""
        entry = self.store.entry(self.spider, domain)
        if entry is None or (
            known is not None and (entry.generation, entry.fitted_at) <= (known.generation, known.fitted_at)
        ):
            return None
        return self.load(domain)

    @staticmethod
    def unseen_share(learned: Learned, page: Page) -> float | None:
        """Share of ``page`` in regions the model's sample never showed (CPU: run beside cleaning)."""
        return learned.fingerprint.unseen(page) if learned.fingerprint is not None else None

    def observe(self, domain: str, removed_share: float, unseen_share: float | None, learned: Learned) -> Drift | None:
        """Feed one cleaned page's figures to the drift monitor; on drift, open a new sample generation."""
        if self.monitor is None or unseen_share is None:
            return None
        drift = self.monitor.observe(domain, removed_share, unseen_share)
        if drift is not None:
            restarted = self.coordinator.restart_sample(self.spider, domain, learned.entry.generation)
            logger.info(
                "boilerplate: %s changed its template (%s); %s",
                domain,
                drift.describe(),
                "re-sampling" if restarted is not None else "another worker is re-sampling",
            )
        return drift

    def watch(self, domain: str, learned: Learned) -> None:
        """Start watching ``domain`` for drift against ``learned`` (call where the model is put to use)."""
        if self.monitor is not None and learned.entry.baseline is not None:
            self.monitor.watch(domain, learned.entry.baseline)
