"""Every site's state and the bound on sites sampling at once: the one place where a site's state changes.

Each site (a :data:`~scrapy_boilerplate.crawl.events.SiteKey`) is a
:class:`~scrapy_boilerplate.crawl.domain.DomainState` state machine.  Each change here does the
bookkeeping that goes with it (the sampling bound of :mod:`sampling`, the pages offered) and returns
the events it causes; it never releases items, counts stats or logs: the learner routes the events.
The questions the other parts ask (does an item of this site wait, which model is in use) are
answered here too.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from typing import Any

from scrapy_boilerplate.crawl.domain import DomainState, DomainStatus
from scrapy_boilerplate.crawl.events import (
    CleansByUrl,
    Event,
    Evicted,
    FellBack,
    FitDue,
    FitJob,
    ItemsReleased,
    ModelReady,
    ModelSource,
    PageOffered,
    SampleResumed,
    SiteKey,
)
from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.crawl.sampling import SamplingDomains
from scrapy_boilerplate.store.record import StoredModel


class SiteBook:
    """Every site's state and the sites with a partial sample (see the module docstring)."""

    def __init__(
        self,
        sample_size: int,
        max_sampling: int,
        shelve: Callable[[SiteKey, StoredModel], StoredModel] | None = None,
    ) -> None:
        """``shelve(key, stored)``: ``stored`` as the crawl keeps a model the store holds (see
        :mod:`~scrapy_boilerplate.crawl.shelf`); a model the store does not hold is kept as it is."""
        self.sample_size = sample_size
        self.shelve = shelve
        self._states: dict[SiteKey, DomainState] = {}
        self._sampling = SamplingDomains(max_sampling, sample_size)

    # -- questions ----------------------------------------------------------------------------
    def __contains__(self, key: SiteKey) -> bool:
        return key in self._states

    def status(self, key: SiteKey) -> DomainStatus | None:
        """Where ``key`` is in its life cycle (None: never seen)."""
        state = self._states.get(key)
        return state.status if state is not None else None

    def in_use(self, key: SiteKey) -> StoredModel | None:
        """The model that cleans ``key``'s items, with its store entry, or None."""
        state = self._states.get(key)
        return state.in_use if state is not None else None

    def items_wait(self, key: SiteKey) -> bool:
        """True when an item of ``key`` should wait for the site's model.

        The sampling middleware sees a response before the spider makes its items, so a site with
        no page offered to its sample yet (e.g. an item URL on another host) has no model coming.
        """
        state = self._states.get(key)
        return state is not None and state.items_wait

    def fallback_reason(self, key: SiteKey) -> FallbackReason:
        """Why an item of ``key`` that did not wait goes to the fallback."""
        state = self._states.get(key)
        if state is None or (state.fallback_reason is None and not state.urls and state.model is None):
            return FallbackReason.NOT_SAMPLED
        return state.fallback_reason or FallbackReason.SAMPLE_NOT_FILLED

    def ready(self, key: SiteKey) -> bool:
        """True when ``key``'s model cleans its items and no new sample of it is under way."""
        return self.status(key) is DomainStatus.READY

    def wants_pages(self, key: SiteKey) -> bool:
        """True while ``key`` collects a sample (its first, or a new one after a template change)."""
        state = self._states.get(key)
        return state is not None and state.wants_pages

    def offered(self, key: SiteKey, url: str) -> bool:
        """True when the page at ``url`` was offered to ``key``'s current sample."""
        state = self._states.get(key)
        return state is not None and url in state.urls

    def sampling(self, key: SiteKey) -> bool:
        """True while ``key`` has a partial sample here (it counts towards the sampling bound)."""
        return key in self._sampling

    def sample_pages(self, key: SiteKey) -> int:
        """How many pages ``key``'s current sample has (a full one while its fit is pending)."""
        if self.status(key) is DomainStatus.FITTING:
            return self.sample_size
        return self._sampling.pages(key)

    def without_model(self, busy: Container[SiteKey]) -> dict[SiteKey, Any]:
        """Sites whose model may come from another worker, but those in ``busy`` (fitting here):
        key -> the store entry of the model in use (or None)."""
        return {
            key: (state.in_use.entry if state.in_use else None)
            for key, state in self._states.items()
            if key not in busy and (state.model is None or state.status is not DomainStatus.READY)
        }

    def with_model(self, busy: Container[SiteKey]) -> dict[SiteKey, Any]:
        """Sites with a model another worker may re-fit, but those in ``busy``: key -> (store
        revision seen, store entry of the model in use)."""
        return {
            key: (state.revision, state.in_use.entry)
            for key, state in self._states.items()
            if state.status is DomainStatus.READY and key not in busy and state.in_use is not None
        }

    def resampling(self) -> list[tuple[SiteKey, int]]:
        """The sites collecting a new sample after a template change, with its pages so far."""
        return [
            (key, self._sampling.pages(key))
            for key, state in self._states.items()
            if state.status is DomainStatus.RESAMPLING
        ]

    # -- changes ------------------------------------------------------------------------------
    def open(self, key: SiteKey) -> None:
        """``key`` is seen for the first time: it starts sampling."""
        self._states.setdefault(key, DomainState())

    def adopt(
        self,
        key: SiteKey,
        stored: StoredModel,
        source: ModelSource,
        seconds: float = 0.0,
        saved: bool = False,
        sample_cleans: CleansByUrl | None = None,
    ) -> list[Event]:
        """``stored`` cleans ``key``'s items from now on (see :class:`ModelReady` for the rest)."""
        state = self._states[key]
        replaced = state.model is not None
        if self.shelve is not None and (saved or source in (ModelSource.STORED, ModelSource.SHARED)):
            stored = self.shelve(key, stored)
        state.adopt(stored)
        self._sampling.done(key)
        return [ModelReady(key, stored, source, replaced, seconds, saved, sample_cleans or {})]

    def resume(self, key: SiteKey, urls: Iterable[str]) -> list[Event]:
        """``key``'s sample was kept in JOBDIR by an earlier run (``urls``): go on filling it."""
        state = self._states[key]
        state.urls.update(urls)
        self._sampling.fed(key, len(state.urls))
        events: list[Event] = [SampleResumed(key)]
        if len(state.urls) >= self.sample_size:
            events += self.sample_complete(key, fit_here=True)
        return events

    def make_room(self, key: SiteKey) -> list[Event]:
        """Before ``key`` starts a partial sample, the sites that must give theirs up (see :mod:`sampling`)."""
        events: list[Event] = []
        for evicted in self._sampling.to_evict(key):
            events.append(Evicted(evicted))
            events += self._give_up(evicted, FallbackReason.EVICTED)
        return events

    def page_offered(self, key: SiteKey, url: str, accepted: bool, count: int | None) -> list[Event]:
        """A page of ``key`` was offered to its sample, which now has ``count`` pages (None: the
        sample lives in no store any more; it is counted here)."""
        state = self._states[key]
        state.urls.add(url)
        if count is None:
            self._sampling.fed(key, state.sampled)
            return []
        if accepted:
            state.sampled += 1
        self._sampling.fed(key, count)
        events: list[Event] = [PageOffered(key, accepted)]
        if count >= self.sample_size:
            events += self.sample_complete(key, fit_here=accepted)
        return events

    def sample_complete(self, key: SiteKey, fit_here: bool) -> list[Event]:
        """The (shared) sample is full: items wait for the fit, here (``fit_here``) or by another worker."""
        self._sampling.done(key)
        if self._states[key].sample_filled() and fit_here:
            return [FitDue(FitJob(key))]
        return []

    def fit_partial(self, key: SiteKey) -> list[Event]:
        """Fit ``key``'s sample as it is (the crawl is stopping); its items keep waiting."""
        state = self._states[key]
        self._sampling.done(key)
        if state.status is DomainStatus.SAMPLING:
            state.sample_filled()
        return [FitDue(FitJob(key, partial=True))]

    def fit_failed(self, key: SiteKey) -> list[Event]:
        """Fitting ``key`` failed: it samples no more; without a model, its items take the fallback."""
        return self._give_up(key, FallbackReason.FIT_FAILED)

    def sample_reopened(self, key: SiteKey) -> None:
        """``key``'s sample needs more pages after all (the store re-opened it)."""
        self._states[key].sample_reopened()

    def samples_lost(self) -> None:
        """The shared store was lost: sites still sampling start a sample of their own."""
        for state in self._states.values():
            if state.model is None or state.status is not DomainStatus.READY:
                state.sample_reopened()

    def stop_waiting(self, key: SiteKey, reason: FallbackReason) -> list[Event]:
        """``key``'s waiting items go on with the fallback for ``reason``; if it was sampling, its
        later items too (it goes on sampling)."""
        if self._states[key].fall_back(reason):
            self._sampling.done(key)
            return [FellBack(key, reason, self._states[key].sampled)]
        return [ItemsReleased(key, reason)]

    def unfilled_fall_back(self, keys: Iterable[SiteKey] | None = None) -> list[Event]:
        """The sites of ``keys`` (None: every site) still sampling fall back: their samples did not fill."""
        events: list[Event] = []
        for key in list(self._states) if keys is None else keys:
            if self.status(key) is DomainStatus.SAMPLING:
                events += self.stop_waiting(key, FallbackReason.SAMPLE_NOT_FILLED)
        return events

    def drifted(self, key: SiteKey) -> None:
        """``key``'s template changed: it collects a new sample while its model keeps cleaning."""
        self._states[key].drifted()

    def seen_revision(self, key: SiteKey, revision: object) -> None:
        """The store revision of ``key``'s model in use (shared stores: another worker's re-fit changes it)."""
        self._states[key].revision = revision

    def _give_up(self, key: SiteKey, reason: FallbackReason) -> list[Event]:
        state = self._states[key]
        self._sampling.done(key)
        return [FellBack(key, reason, state.sampled)] if state.give_up(reason) else []
