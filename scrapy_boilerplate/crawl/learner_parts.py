"""What the learner's parts (its mixins: :mod:`sample_intake`, :mod:`adoption`,
:mod:`shared_domains`, :mod:`domain_fallback`) use of its state and of one another: their self type."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy.statscollectors import StatsCollector
    from twisted.internet.interfaces import IDelayedCall

    from scrapy_boilerplate.crawl.config import BoilerplateConfig
    from scrapy_boilerplate.crawl.domain import DomainState
    from scrapy_boilerplate.crawl.fallback import FallbackReason
    from scrapy_boilerplate.crawl.fitting import FitQueue, FitRunner
    from scrapy_boilerplate.crawl.holding import HoldQueue
    from scrapy_boilerplate.crawl.persistence import ModelSync
    from scrapy_boilerplate.crawl.polling import SharedStorePoller
    from scrapy_boilerplate.crawl.sampling import SamplingDomains
    from scrapy_boilerplate.store.sharing import FitOutcome, Learned


class LearnerParts(Protocol):
    """The learner as its parts see it (:class:`~scrapy_boilerplate.crawl.learner.BoilerplateLearner`)."""

    _call_later: Callable[..., IDelayedCall]
    _partial: set[str]
    config: BoilerplateConfig
    domains: dict[str, DomainState]
    fit_runner: FitRunner
    fits: FitQueue
    hold: HoldQueue
    poller: SharedStorePoller
    sampling: SamplingDomains
    stats: StatsCollector
    sync: ModelSync

    def _adopt(self, domain: str, state: DomainState, learned: Learned, source: str, seconds: float = 0.0) -> None: ...

    def _domain_falls_back(self, domain: str, state: DomainState, reason: FallbackReason) -> None: ...

    async def _fit_sample(self, domain: str, partial: bool = False) -> FitOutcome: ...

    def _log_adoption(self, domain: str, learned: Learned, source: str, seconds: float, replaced: bool) -> None: ...

    def _make_room_for(self, domain: str) -> None: ...

    def _sample_complete(self, domain: str, state: DomainState, fit_here: bool) -> None: ...

    def reset_shared_samples(self) -> None: ...

    def state(self, domain: str) -> DomainState: ...

    def stop_waiting(self, domain: str, state: DomainState, reason: FallbackReason) -> None: ...
