"""What the learner knows of one domain: its status, its sample so far and the model that cleans it."""

from __future__ import annotations

from dataclasses import dataclass, field

from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.store.sharing import Learned

SAMPLING, FITTING, READY, FALLBACK = "sampling", "fitting", "ready", "fallback"


@dataclass
class DomainState:
    """One domain: sampling until a model is fitted here, loaded from the store, or shared by another worker."""

    status: str = SAMPLING
    urls: set[str] = field(default_factory=set)  # pages offered to the current sample
    sampled: int = 0  # pages this process added to the current sample
    model: SiteModel | None = None
    prepared: dict[str, tuple[str, CleanedPage]] = field(default_factory=dict)
    learned: Learned | None = None  # the model with its stored entry and drift fingerprint
    resampling: bool = False  # the template drifted: a new sample is being taken, the old model serves
    sample_full: bool = False  # the current (shared) sample has all its pages: stop offering
    fitting: bool = False  # a fit of this domain runs in this process
    sampling_closed: bool = False  # the fit failed or the domain was evicted: never sample it again
    revision: object = None  # the store revision of the model in use (shared stores)
