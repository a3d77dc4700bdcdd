"""What a change of a site's state means for the rest of the crawl: the events the site book returns.

:class:`~scrapy_boilerplate.crawl.book.SiteBook` is the one place a site's state changes; each change
returns the events it causes, and the learner routes them: to the hold (a site's waiting items leave),
the stats and the log, and to the part that acts on them (the fit queue takes a :class:`FitDue`, the
drift watch and the kept sample cleans a :class:`ModelReady`).

Everything is keyed by a :data:`SiteKey`: what has one sample, one fit and one model.  Today that is
the domain (:func:`~scrapy_boilerplate.crawl.domain.site_key`); a key made of a domain and a page template would key the same
bookkeeping per template.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.store.record import StoredModel

# What has one sample, one fit and one model (today the domain: see domain.site_key); opaque elsewhere.
SiteKey = str

# A fit's own cleans of its sample pages: url -> (the page's HTML, its clean), for those pages' items.
CleansByUrl = Mapping[str, tuple[str, CleanedPage]]


class ModelSource(enum.Enum):
    """Where a site's model in use comes from."""

    FITTED = "fitted"  # fitted here on a full sample
    PARTIAL = "partial"  # fitted here on the sample as it was when the crawl stopped (not stored)
    STORED = "stored"  # stored before the crawl
    SHARED = "shared"  # fitted by another worker


@dataclass(frozen=True)
class FitJob:
    """One fit to run: the site, and whether its sample is taken as it is (a graceful stop)."""

    key: SiteKey
    partial: bool = False


@dataclass(frozen=True)
class ModelReady:
    """A model is in use for ``key``: its waiting items go on with it.  ``seconds``, ``saved`` and
    ``sample_cleans`` describe a fit made here (its time, whether the store kept it, its own cleans
    of its sample pages)."""

    key: SiteKey
    stored: StoredModel
    source: ModelSource
    replaced: bool
    seconds: float = 0.0
    saved: bool = False
    sample_cleans: CleansByUrl = field(default_factory=dict)


@dataclass(frozen=True)
class FellBack:
    """``key`` has no model coming for now: the fallback cleans its items (``sampled``: pages sampled here)."""

    key: SiteKey
    reason: FallbackReason
    sampled: int


@dataclass(frozen=True)
class ItemsReleased:
    """The items waiting for ``key``'s model go on with the fallback; the site's state is unchanged."""

    key: SiteKey
    reason: FallbackReason


@dataclass(frozen=True)
class FitDue:
    """A fit is due: queue ``job``."""

    job: FitJob


@dataclass(frozen=True)
class PageOffered:
    """A page was offered to ``key``'s (shared) sample, which grew here when ``accepted``: its model came closer."""

    key: SiteKey
    accepted: bool


@dataclass(frozen=True)
class Evicted:
    """``key`` gave up its partial sample to make room for another site's."""

    key: SiteKey


@dataclass(frozen=True)
class Drifted:
    """``key``'s template changed: it samples again while its model keeps cleaning."""

    key: SiteKey


@dataclass(frozen=True)
class SampleResumed:
    """``key`` goes on with the partial sample an earlier run kept in JOBDIR."""

    key: SiteKey


@dataclass(frozen=True)
class FitFailed:
    """Fitting ``key``'s model raised ``error`` (a model's bug: the site degrades, never the crawl)."""

    key: SiteKey
    error: Exception


Event = ModelReady | FellBack | ItemsReleased | FitDue | PageOffered | Evicted | Drifted | SampleResumed | FitFailed
