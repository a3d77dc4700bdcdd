"""Filling each domain's sample: pages offered, resumed samples, eviction."""

from __future__ import annotations

from typing import TYPE_CHECKING

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.domain import DomainState, DomainStatus
from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.page import Page

if TYPE_CHECKING:
    from scrapy_boilerplate.crawl.learner_parts import LearnerParts


class SampleIntake:
    """Filling each domain's sample: pages offered, resumed samples, eviction."""

    def _resume_sample(self: LearnerParts, domain: str, state: DomainState) -> None:
        """``domain``'s sample was kept in JOBDIR by an earlier run: go on filling it."""
        state.urls.update(self.sync.sample_urls(domain))
        self.stats.inc_value(keys.SAMPLE_RESUMED)
        self.sampling.fed(domain, len(state.urls))
        if len(state.urls) >= self.config.sample_size:
            self._sample_complete(domain, state, fit_here=True)

    def wants_sample(self: LearnerParts, domain: str) -> bool:
        """True while ``domain`` collects a sample (its first, or a new one after a template change)."""
        return self.state(domain).wants_pages

    def add_sample(self: LearnerParts, domain: str, page: Page) -> None:
        """Offer one page to ``domain``'s (possibly shared) sample; queues the fit when it completes it."""
        state = self.state(domain)
        if not state.wants_pages or page.url in state.urls:
            return
        if domain not in self.sampling:
            self._make_room_for(domain)
        offer = self.sync.offer(domain, page)
        if offer is None:  # the shared store is gone: sample again, in this process
            self.reset_shared_samples()
            offer = self.sync.offer(domain, page)
        state.urls.add(page.url)
        if offer is None:
            self.sampling.fed(domain, state.sampled)
            return
        if offer.accepted:
            state.sampled += 1
            self.stats.inc_value(keys.SAMPLE_PAGES)
        self.sampling.fed(domain, offer.count)
        self.hold.progressed((domain,))
        if offer.count >= self.config.sample_size:
            self._sample_complete(domain, state, fit_here=offer.accepted)

    def _sample_complete(self: LearnerParts, domain: str, state: DomainState, fit_here: bool) -> None:
        """The (shared) sample is full: items wait for the fit, here or by another worker."""
        self.sampling.done(domain)
        if state.sample_filled() and fit_here:
            self.fits.submit(domain)

    def _make_room_for(self: LearnerParts, domain: str) -> None:
        """Bound sample memory: past BOILERPLATE_MAX_SAMPLING_DOMAINS, evict (see :mod:`sampling`)."""
        for evicted in self.sampling.to_evict(domain):
            self.stats.inc_value(keys.DOMAINS_EVICTED)
            self.sync.drop_sample(evicted)
            state = self.state(evicted)
            if state.give_up(FallbackReason.EVICTED):
                self._domain_falls_back(evicted, state, FallbackReason.EVICTED)

    def sample_pages(self: LearnerParts, domain: str) -> int:
        """How many pages ``domain``'s current sample has (a full one while its fit is pending)."""
        if self.state(domain).status is DomainStatus.FITTING:
            return self.config.sample_size
        return self.sampling.pages(domain)
