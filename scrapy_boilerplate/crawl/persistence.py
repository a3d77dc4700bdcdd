"""The learner's link to the model store (``BOILERPLATE_STORE``): persistent, shared, re-learned models.

Every store call that can block (a fit, a Redis poll) runs in the reactor's thread pool; the
learner applies the results on the reactor thread.  Every store failure (disk, network) is
counted under ``boilerplate/store/errors`` and the first of each step (read, write, lock...)
logged: the step goes on without the store (no stored model, a model kept in memory only), and
where that is not enough (a shared sample, a fit) the crawl goes on as if there were no store.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from scrapy.crawler import Crawler

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.config import BoilerplateConfig
from scrapy_boilerplate.crawl.errors import bad_configuration, fail_crawl
from scrapy_boilerplate.crawl.site_fit import FitOutcome, SampleFitter
from scrapy_boilerplate.crawl.site_rules import SiteSpecs
from scrapy_boilerplate.crawl.templating import TEMPLATE_MARK, key_domain
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store import (
    LocalCoordinator,
    MemoryStore,
    ModelStore,
    RedisStore,
    SampleOffer,
    SampleState,
    SpiderStore,
    StoreError,
    coordinator_for,
    store_from_settings,
)
from scrapy_boilerplate.store.jobdir import JobDirCoordinator
from scrapy_boilerplate.store.record import StoredModel, StoreEntry

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PollResult:
    """What a poll found for one domain: a newer stored model, the shared sample's state, the revision."""

    domain: str
    newer: StoredModel | None
    state: SampleState | None = None
    revision: object = None


class StoreSession:
    """The crawl's model store and sample coordinator, its fits, and its accounting of their failures."""

    def __init__(self, config: BoilerplateConfig, crawler: Crawler) -> None:
        self.stats = crawler.stats
        self._logged_steps: set[str] = set()
        spider = getattr(crawler.spidercls, "name", None) or "default"
        configured = store_from_settings(crawler.settings, crawler.stats)
        self.location = configured.location  # the configured store's, kept after going on without it
        self.store = self._usable(configured, spider, config.store_required, crawler)
        self.coordinator = coordinator_for(self.store)
        jobdir = crawler.settings.get("JOBDIR")
        if jobdir and isinstance(self.coordinator, LocalCoordinator):  # a shared sample lives on its server
            self.coordinator = JobDirCoordinator(jobdir, spider, partial(self.failed, "keeping samples in JOBDIR"))
        self.specs = SiteSpecs(config.model, config.fallback, config.site_rules)
        self.samples = SpiderStore(
            self.store,
            self.coordinator,
            spider,
            config.model,
            config.sample_size,
            config.fit_lock_ttl,
            self.specs.spec,
        )
        self.fitter = SampleFitter(
            config.model,
            config.cleaned_html_field is not None,
            config.drift_enabled,
            self.specs.spec,
            fields=config.record_names,
        )
        self._stored_names: dict[str, list[str]] | None = None  # domain -> its stored template keys

    def _usable(self, store: ModelStore, spider: str, required: bool, crawler: Crawler) -> ModelStore:
        """``store`` when it can be used now; else one line says so and the crawl stops (``required``)
        or goes on with models in memory only, as it does when the store fails later."""
        try:
            store.check(writing=True)
        except StoreError as exc:
            store.close()
            reason = exc.__cause__ or exc
            if required:
                raise fail_crawl(
                    crawler,
                    bad_configuration(
                        f"model store {store.location} cannot be used ({reason}); the crawl stops "
                        "because BOILERPLATE_STORE_REQUIRED is True"
                    ),
                ) from None
            self.stats.inc_value(keys.STORE_ERRORS)
            logger.warning(
                "boilerplate: model store %s cannot be used (%s): models of spider %r will not be stored%s "
                "(BOILERPLATE_STORE_REQUIRED = True stops the crawl instead)",
                store.location,
                reason,
                spider,
                "; this worker samples and fits on its own" if isinstance(store, RedisStore) else "",
            )
            return MemoryStore(self.stats)
        logger.info("boilerplate: models of spider %r persist in %s", spider, store.location)
        return store

    @property
    def shared(self) -> bool:
        """True when other processes share the samples and models (a Redis store)."""
        return not isinstance(self.coordinator, LocalCoordinator)

    @property
    def persistent(self) -> bool:
        """False once the crawl went on without its store (models then live in memory only)."""
        return not isinstance(self.store, MemoryStore)

    def go_local(self, what: str, exc: StoreError) -> bool:
        """The store failed where the crawl cannot do without it: go on as if there were none.

        The store is replaced by one in memory; a shared store's coordination (samples, fit locks)
        is replaced too, so this worker samples and fits on its own.  Returns True when that
        happened to a shared store (the caller then re-samples what was shared); a local sample
        is kept, so the caller can fit it again at once."""
        self.failed(what, exc)
        if not self.persistent:
            return False
        shared, old = self.shared, self.samples
        self.store = MemoryStore(self.stats)
        if shared:
            self.coordinator = LocalCoordinator()
        self.samples = SpiderStore(
            self.store, self.coordinator, old.spider, old.spec, old.sample_size, old.lock_ttl, old.spec_for
        )
        logger.warning(
            "boilerplate: continuing without the %smodel store: this worker samples and fits on its own, "
            "and its models are not kept",
            "shared " if shared else "",
        )
        return shared

    def failed(self, what: str, exc: StoreError) -> None:
        """Count a store failure; log the first of each step (read, write, lock...) (reactor thread)."""
        self.stats.inc_value(keys.STORE_ERRORS)
        step = getattr(exc, "step", "read")
        if step in self._logged_steps:
            return
        self._logged_steps.add(step)
        logger.warning(
            "boilerplate: model store %s failed (%s step) while %s: %s; the crawl goes on without it there "
            "(further %s failures are only counted, in %s)",
            self.location,
            step,
            what,
            exc,
            step,
            keys.STORE_ERRORS,
        )

    def stored_templates(self, domain: str) -> list[tuple[str, frozenset[int]]]:
        """The templates of ``domain`` the store holds models of: (site key, structure signature).

        The store's names are listed once, at the first call (a template another worker stores
        later is learned here anew); a failing store has none."""
        if self._stored_names is None:
            try:
                names = self.store.names(self.samples.spider)
            except StoreError as exc:
                self.failed("listing the stored templates", exc)
                names = []
            self._stored_names = {}
            for name in names:
                if TEMPLATE_MARK in name:
                    self._stored_names.setdefault(key_domain(name), []).append(name)
        found: list[tuple[str, frozenset[int]]] = []
        for key in self._stored_names.pop(domain, []):
            try:
                entry = self.store.entry(self.samples.spider, key)
            except StoreError as exc:
                self.failed(f"reading the stored templates of {domain}", exc)
                return found
            if entry is not None and entry.template:
                found.append((key, entry.template))
        return found

    def load(self, domain: str) -> StoredModel | None:
        """The stored model of ``domain``, or None (absent, unusable, or the store failed)."""
        try:
            stored = self.samples.load(domain)
        except StoreError as exc:
            self.failed(f"loading the model of {domain}", exc)
            return None
        if stored is not None:
            self.stats.inc_value(keys.STORE_LOADED)
        return stored

    def reload(self, key: str) -> StoredModel | None:
        """The stored model of ``key`` again, for a model dropped from memory (may run in a thread)."""
        try:
            return self.samples.load(key)
        except StoreError as exc:
            self.failed(f"reloading the model of {key}", exc)
            return None

    def offer(self, domain: str, page: Page) -> SampleOffer | None:
        """Offer a page to the domain's (shared) sample; None if the store failed (see :meth:`go_local`)."""
        try:
            return self.samples.offer(domain, page)
        except StoreError as exc:
            self.go_local(f"sharing a sample page of {domain}", exc)
            return None

    def fit(self, domain: str, parsed: Sequence[Page] = ()) -> FitOutcome:
        """Fit ``domain``'s sample (blocking: run it in a thread); see :meth:`SampleFitter.fit`."""
        return self.fitter.fit(self.samples, domain, parsed)

    def fit_partial(self, domain: str, parsed: Sequence[Page], min_pages: int) -> FitOutcome:
        """Fit ``domain``'s sample as it is (blocking); see :meth:`SampleFitter.fit_partial`."""
        return self.fitter.fit_partial(self.samples, domain, parsed, min_pages)

    def open_samples(self) -> list[str]:
        """Domains with an open sample in this process (restored from ``JOBDIR`` at start)."""
        if not isinstance(self.coordinator, LocalCoordinator):
            return []
        return self.coordinator.open_samples(self.samples.spider)

    def sample_urls(self, domain: str) -> list[str]:
        """The URLs in ``domain``'s sample when it lives in this process (else none)."""
        return [page.url for page in self.samples.local_sample(domain)]

    def local_sample(self, domain: str) -> list[Page]:
        """``domain``'s sample pages when the sample lives in this process (else none)."""
        return self.samples.local_sample(domain)

    def needs_fit(self, state: SampleState, known: StoreEntry | None) -> bool:
        """True when a shared sample is complete and no model fitted on it is known here."""
        return self.samples.needs_fit(state, known)

    def restart_sample(self, domain: str, generation: int) -> int | None:
        """Open the sample generation after ``generation`` (the template changed); None when another worker did."""
        return self.samples.restart_sample(domain, generation)

    def drop_sample(self, domain: str) -> None:
        """Free an evicted domain's sample pages when they live in this process (a shared sample stays)."""
        if not self.shared:
            self.samples.finish_sample(domain, self.samples.state(domain).generation)

    def poll(
        self, waiting: dict[str, StoreEntry | None], ready: dict[str, tuple[object, StoreEntry]]
    ) -> list[PollResult]:
        """Blocking (run it in a thread).  For each waiting domain: a newer stored model, or else its
        shared sample state.  For ready domains (domain -> (known revision, entry in use)): the
        current revision, and the stored model when it changed to a newer one (another worker's re-fit)."""
        results = []
        for domain, known in waiting.items():
            newer = self.samples.newer(domain, known)
            results.append(PollResult(domain, newer, None if newer else self.samples.state(domain)))
        revisions = self.store.revisions(self.samples.spider, list(ready)) if ready else {}
        for domain, revision in revisions.items():
            known_revision, entry = ready[domain]
            newer = self.samples.newer(domain, entry) if revision != known_revision else None
            results.append(PollResult(domain, newer, None, revision))
        return results

    def close(self) -> None:
        """Release the store's connections."""
        self.store.close()
