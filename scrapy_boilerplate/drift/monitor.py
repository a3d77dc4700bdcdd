"""Template drift: notice when a domain's pages stop looking like the sample its model was fitted on.

Per domain the monitor keeps the last ``window`` pages' *removed share* (text the model cut) and
*unseen share* (text in template regions the sample never showed, see
:mod:`~scrapy_boilerplate.drift.fingerprint`).  When a full window's mean departs from the
fit-time baseline by more than ``tolerance`` (removed share either way, unseen share upwards),
the domain has drifted: the crawl re-samples and re-fits while the old model keeps cleaning.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from scrapy_boilerplate.drift.fingerprint import Fingerprint
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store.record import Baseline

DEFAULT_WINDOW = 20  # pages: enough that one odd page (a gallery, an index) does not trip it
DEFAULT_TOLERANCE = 0.25  # share of page text: template variants within a site stay well inside this
# Pages per measured page: the unseen share costs about 40% of a pvalue clean (benchmarks/store_bench.py),
# so by default one page in four is measured; a redesign is then noticed within window * every pages.
DEFAULT_EVERY = 4


def fit_baseline(
    model: SiteModel, sample: list[Page], cleaned: list[CleanedPage] | None = None, fingerprint: bool = True
) -> Baseline:
    """The baseline of a model just fitted on ``sample``: its mean removed share, and what later pages
    are compared with: the mean coverage of its rules where its cleans report one (a page its rules
    cover poorly is of another template), else the sample's fingerprint (``fingerprint`` False: none,
    for a crawl that watches no drift).

    ``cleaned`` may pass the model's output on ``sample`` when the caller already has it.
    """
    cleans = cleaned if cleaned is not None else [model.clean(p) for p in sample]
    shares = [c.removed_share for c in cleans]
    removed = min(max(sum(shares) / len(shares) if shares else 0.0, 0.0), 1.0)
    coverages = [c.coverage for c in cleans if c.coverage is not None]
    if cleans and len(coverages) == len(cleans):
        return Baseline(removed, 0.0, frozenset(), min(max(sum(coverages) / len(coverages), 0.0), 1.0))
    if not fingerprint:
        return Baseline(removed, 0.0)
    found = Fingerprint.of(sample)
    return Baseline(removed, min(max(found.unseen_share, 0.0), 1.0), found.signatures)


@dataclass(frozen=True)
class Drift:
    """Why a domain drifted: the window's means against the baseline."""

    removed_share: float
    unseen_share: float
    baseline: Baseline
    coverage: float | None = None

    def describe(self) -> str:
        """One log-friendly line."""
        if self.coverage is not None and self.baseline.coverage is not None:
            return (
                f"its rules cover {self.coverage:.0%} of the blocks (fit {self.baseline.coverage:.0%}), "
                f"removed share {self.removed_share:.2f} (fit {self.baseline.removed_share:.2f})"
            )
        return (
            f"removed share {self.removed_share:.2f} (fit {self.baseline.removed_share:.2f}), "
            f"unseen share {self.unseen_share:.2f} (fit {self.baseline.unseen_share:.2f})"
        )


class _Window:
    def __init__(self, baseline: Baseline, size: int) -> None:
        self.baseline = baseline
        self.seen = 0
        self.removed: deque[float] = deque(maxlen=size)
        self.unseen: deque[float] = deque(maxlen=size)
        self.coverage: deque[float] = deque(maxlen=size)


class DriftMonitor:
    """Running per-domain cleaning figures compared with each model's fit-time baseline."""

    def __init__(
        self,
        window: int = DEFAULT_WINDOW,
        tolerance: float = DEFAULT_TOLERANCE,
        every: int = DEFAULT_EVERY,
        warmup: int = 0,
    ) -> None:
        """``warmup``: cleaned pages of a domain before its first measured one.  A template rarely
        changes right after its sample was taken, and a site that ends sooner never fills a window:
        measuring its pages would cost a parse and a fingerprint each for nothing."""
        if window < 1:
            raise ValueError(f"drift window must be >= 1 page, got {window}")
        if not 0.0 < tolerance <= 1.0:
            raise ValueError(f"drift tolerance must be a share in (0, 1], got {tolerance}")
        if every < 1:
            raise ValueError(f"drift every must be >= 1 (measure one page in every N), got {every}")
        self.window = window
        self.tolerance = tolerance
        self.every = every
        self.warmup = warmup
        self._domains: dict[str, _Window] = {}

    def watch(self, domain: str, baseline: Baseline) -> None:
        """Start (or restart) watching ``domain`` against a new model's ``baseline``."""
        self._domains[domain] = _Window(baseline, self.window)

    def forget(self, domain: str) -> None:
        """Stop watching ``domain`` (e.g. while it is being re-sampled)."""
        self._domains.pop(domain, None)

    def watching(self, domain: str) -> bool:
        """True if ``domain`` has a baseline to compare with."""
        return domain in self._domains

    def due(self, domain: str) -> bool:
        """Count one cleaned page of ``domain``; True when this one should be measured and observed."""
        window = self._domains.get(domain)
        if window is None:
            return False
        window.seen += 1
        return window.seen > self.warmup and window.seen % self.every == 0

    def observe(
        self, domain: str, removed_share: float, unseen_share: float, coverage: float | None = None
    ) -> Drift | None:
        """Record one cleaned page (``coverage``: the share of its blocks the model's rules decided,
        for a model with rules); returns a :class:`Drift` (and stops watching) once it departs."""
        window = self._domains.get(domain)
        if window is None:
            return None
        window.removed.append(removed_share)
        window.unseen.append(unseen_share)
        if coverage is not None:
            window.coverage.append(coverage)
        if len(window.removed) < self.window:
            return None
        removed = sum(window.removed) / len(window.removed)
        unseen = sum(window.unseen) / len(window.unseen)
        base = window.baseline
        if base.coverage is not None and len(window.coverage) >= self.window:
            covered = sum(window.coverage) / len(window.coverage)
            if base.coverage - covered > self.tolerance or abs(removed - base.removed_share) > self.tolerance:
                self.forget(domain)
                return Drift(removed, unseen, base, covered)
            return None
        if abs(removed - base.removed_share) > self.tolerance or unseen - base.unseen_share > self.tolerance:
            self.forget(domain)
            return Drift(removed, unseen, base)
        return None
