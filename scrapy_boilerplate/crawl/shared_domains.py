"""What a shared store's other workers change: their models, samples and re-fits."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy_boilerplate.crawl.adoption import SHARED
from scrapy_boilerplate.crawl.domain import DomainStatus
from scrapy_boilerplate.crawl.persistence import PollResult

if TYPE_CHECKING:
    from scrapy_boilerplate.crawl.learner_parts import LearnerParts


class SharedStoreDomains:
    """What a shared store's other workers change: their models, samples and re-fits."""

    def apply_poll(self: LearnerParts, result: PollResult) -> None:
        """Act on what the poller found for one domain (reactor thread)."""
        state = self.domains[result.domain]
        if result.newer is not None:
            self._adopt(result.domain, state, result.newer, SHARED)
        elif result.revision is not None:
            state.revision = result.revision
        elif result.state is not None and self.sync.needs_fit(
            result.state, state.learned.entry if state.learned else None
        ):
            self._sample_complete(result.domain, state, fit_here=True)

    def reset_shared_samples(self: LearnerParts) -> None:
        """The shared store was lost: domains still sampling start a sample of their own."""
        self.poller.stop()
        for state in self.domains.values():
            if state.model is None or state.status is not DomainStatus.READY:
                state.sample_reopened()

    def waiting_for_others(self: LearnerParts) -> dict[str, Any]:
        """Domains whose model may come from another worker: domain -> the store entry in use (or None)."""
        return {
            domain: (state.learned.entry if state.learned else None)
            for domain, state in self.domains.items()
            if domain not in self.fits and (state.model is None or state.status is not DomainStatus.READY)
        }

    def ready_to_recheck(self: LearnerParts) -> dict[str, Any]:
        """Domains with a model another worker may re-fit: domain -> (revision, entry in use)."""
        return {
            domain: (state.revision, state.learned.entry)
            for domain, state in self.domains.items()
            if state.status is DomainStatus.READY and domain not in self.fits and state.learned is not None
        }
