"""Domains with no model coming: counted, logged, their waiting items released."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import scrapy_boilerplate.crawl.stats as keys
from scrapy_boilerplate.crawl.domain import DomainState, DomainStatus
from scrapy_boilerplate.crawl.fallback import FallbackReason

if TYPE_CHECKING:
    from scrapy_boilerplate.crawl.learner_parts import LearnerParts

logger = logging.getLogger(__name__)


class DomainFallback:
    """Domains with no model coming: counted, logged, their waiting items released."""

    def _domain_falls_back(self: LearnerParts, domain: str, state: DomainState, reason: FallbackReason) -> None:
        """``domain`` has no model coming for now: count it and let its waiting items go on."""
        self.stats.inc_value(keys.DOMAINS_FALLBACK)
        logger.info(
            "boilerplate: %s has no site model (%s, %d pages sampled here); cleaning it with %s",
            domain,
            reason.what,
            state.sampled,
            self.config.fallback.label,
        )
        self.hold.release_domain(domain, reason)

    def stop_waiting(self: LearnerParts, domain: str, state: DomainState, reason: FallbackReason) -> None:
        """``domain``'s waiting items go on with the fallback for ``reason``; if it was sampling, its
        later items too (it goes on sampling)."""
        if state.fall_back(reason):
            self.sampling.done(domain)
            self._domain_falls_back(domain, state, reason)
        else:
            self.hold.release_domain(domain, reason)

    def release_unfinished(self: LearnerParts) -> None:
        """The crawl went quiet: domains still sampling fall back and their items go on."""
        for domain in self.hold.domains():
            state = self.state(domain)
            if state.status is DomainStatus.SAMPLING:
                self.stop_waiting(domain, state, FallbackReason.SAMPLE_NOT_FILLED)

    def release_all(self: LearnerParts) -> None:
        """The spider is closing: let every waiting item go on with the fallback."""
        self.hold.release_all(FallbackReason.CLOSING)
