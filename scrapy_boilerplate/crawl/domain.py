"""One domain's place in the learning life cycle: an explicit state machine.

::

    SAMPLING --sample_filled--> FITTING --adopt--> READY --drifted--> RESAMPLING
       |  ^                        |                 ^                    |
       |  +------reopened----------+                 |             sample_filled
    fall_back / give_up                              |                    v
       v                                             +------adopt---- REFITTING
    FALLBACK (still samples) / CLOSED (never samples again)

Items of a domain wait for its model only while it is SAMPLING (once a page was offered) or
FITTING; with a model (READY, RESAMPLING, REFITTING) they are cleaned at once, and without one
(FALLBACK, CLOSED) the fallback cleans them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from scrapy_boilerplate.crawl.events import SiteKey
from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.models.base import SiteModel
from scrapy_boilerplate.store.record import StoredModel


def domain_of(url: str) -> str:
    """The domain key of ``url``: host plus explicit port, lower-cased, without credentials."""
    netloc = urlsplit(url).netloc
    return netloc.rpartition("@")[2].lower()


def site_key(url: str) -> SiteKey:
    """The site whose sample, fit and model serve the page at ``url``: its domain."""
    return domain_of(url)


class DomainStatus(enum.Enum):
    """Where a domain is in its life cycle (see the module docstring)."""

    SAMPLING = "sampling"  # collecting its first sample; its items wait
    FITTING = "fitting"  # sample complete, a fit (here or by another worker) pending; its items wait
    FALLBACK = "fallback"  # no model: items take the fallback; a sample that fills later still gets fitted
    CLOSED = "closed"  # no model and no more sampling (the fit failed, or the domain was evicted)
    READY = "ready"  # a model cleans its items
    RESAMPLING = "resampling"  # the template changed: a new sample is collected, the model keeps cleaning
    REFITTING = "refitting"  # the new sample is complete; its fit is pending, the model keeps cleaning


WITH_MODEL = frozenset({DomainStatus.READY, DomainStatus.RESAMPLING, DomainStatus.REFITTING})
COLLECTING = frozenset({DomainStatus.SAMPLING, DomainStatus.FALLBACK, DomainStatus.RESAMPLING})


class TransitionError(RuntimeError):
    """A transition that the domain's status does not allow (a bug, never a page's fault)."""


@dataclass(eq=False)
class DomainState:
    """A domain's status, its current sample's bookkeeping and its model in use."""

    status: DomainStatus = DomainStatus.SAMPLING
    urls: set[str] = field(default_factory=set)  # pages offered to the current sample
    sampled: int = 0  # pages this process added to the current sample
    in_use: StoredModel | None = None  # the model in use, with its store entry
    revision: object = None  # the store revision of the model in use (shared stores)
    fallback_reason: FallbackReason | None = None  # why the fallback cleans its items (FALLBACK, CLOSED)

    # -- questions -------------------------------------------------------------------------
    @property
    def model(self) -> SiteModel | None:
        """The site model in use, or None."""
        return self.in_use.model if self.in_use is not None else None

    @property
    def wants_pages(self) -> bool:
        """True while the domain collects a sample."""
        return self.status in COLLECTING

    @property
    def items_wait(self) -> bool:
        """True when an item of the domain should wait for its model (see the module docstring)."""
        return self.status is DomainStatus.FITTING or (self.status is DomainStatus.SAMPLING and bool(self.urls))

    # -- transitions -----------------------------------------------------------------------
    def sample_filled(self) -> bool:
        """The current sample has all its pages: a fit is due.  True when one is (a closed domain
        takes no fit, and a fit already due stays so)."""
        if self.status in (DomainStatus.SAMPLING, DomainStatus.FALLBACK):
            self._move(DomainStatus.FITTING)
        elif self.status in (DomainStatus.RESAMPLING, DomainStatus.READY):  # READY: another worker re-sampled
            self._move(DomainStatus.REFITTING)
        return self.status in (DomainStatus.FITTING, DomainStatus.REFITTING)

    def sample_reopened(self) -> None:
        """The sample needs more pages after all (the store re-opened it, or a shared store was lost).

        The pages offered so far stay known: their items, still on their way to the pipeline, wait
        for the model the refilled sample brings (a page is never downloaded twice to be offered again)."""
        self.sampled = 0
        if self.status is DomainStatus.FITTING:
            self._move(DomainStatus.SAMPLING if self.fallback_reason is None else DomainStatus.FALLBACK)
        elif self.status is DomainStatus.REFITTING:
            self._move(DomainStatus.RESAMPLING)

    def adopt(self, stored: StoredModel) -> None:
        """A model is ready (fitted here, stored before the crawl, or shared by another worker)."""
        self.in_use, self.fallback_reason = stored, None
        self._new_sample()
        self.revision = None
        self._move(DomainStatus.READY)

    def fall_back(self, reason: FallbackReason) -> bool:
        """A sampling domain's items take the fallback from now on; it goes on sampling, so a sample
        that fills later still gets its model.  False (nothing changes) in any other status."""
        if self.status is not DomainStatus.SAMPLING:
            return False
        self.fallback_reason = reason
        self._move(DomainStatus.FALLBACK)
        return True

    def give_up(self, reason: FallbackReason) -> bool:
        """Stop sampling for good (evicted, or the fit failed); a model in use keeps cleaning.
        True when the domain has no model, so its items now take the fallback."""
        self._new_sample()
        if self.status in WITH_MODEL:
            self._move(DomainStatus.READY)
            return False
        self.fallback_reason = reason
        self._move(DomainStatus.CLOSED)
        return True

    def drifted(self) -> None:
        """The template changed: collect a new sample while the model keeps cleaning."""
        if self.status is not DomainStatus.READY:
            raise TransitionError(f"only a ready domain can drift, not one in status {self.status.value}")
        self._new_sample()
        self._move(DomainStatus.RESAMPLING)

    def _new_sample(self) -> None:
        self.urls, self.sampled = set(), 0

    def _move(self, status: DomainStatus) -> None:
        self.status = status
