"""Template drift during a crawl: which pages to measure, the one measure, and what a drift noticed does.

When a model is put to use for a site, :meth:`DriftWatch.watch` takes its fit-time baseline (the
share of text the model removed from its sample, and the sample's fingerprint, or, for a model with
rules, the share of the sample's blocks its rules decided).  One cleaned page in N of the site is
then measured (:meth:`DriftWatch.due`): :func:`clean_and_measure` cleans it and measures its unseen
share on the same parsed tree, and :meth:`DriftWatch.observe` feeds both shares to the
:class:`~scrapy_boilerplate.drift.monitor.DriftMonitor`.  A model whose cleans say how much its rules
covered needs no fingerprint: every cleaned page is observed (:meth:`DriftWatch.covered`), and a
window of pages the rules cover poorly is a template change.  On drift the site's shared sample
is restarted in the store (once, whichever worker notices first) and ``on_drift(key)`` makes the
site sample again while its model keeps cleaning; the next fit replaces the model.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from scrapy_boilerplate.drift.fingerprint import Fingerprint
from scrapy_boilerplate.drift.monitor import DriftMonitor
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store.base import StoreError
from scrapy_boilerplate.store.record import StoredModel

logger = logging.getLogger(__name__)


def clean_and_measure(model: SiteModel, page: Page, fingerprint: Fingerprint) -> tuple[CleanedPage, float]:
    """Clean ``page`` and measure its unseen share (text in regions the sample never showed) on the
    same parsed tree (thread-safe)."""
    return model.clean(page), fingerprint.unseen(page)


@dataclass(frozen=True)
class _Watched:
    model: SiteModel  # the model in use whose pages are measured
    fingerprint: Fingerprint | None  # its sample's template regions (None: its rules' coverage tells)
    generation: int  # the sample generation it was fitted on


class DriftWatch:
    """Each site's model in use against its fit (see the module docstring); keyed by the site's key."""

    def __init__(
        self,
        monitor: DriftMonitor | None,
        ready: Callable[[str], bool],
        restart_sample: Callable[[str, int], int | None],
        on_store_error: Callable[[str, StoreError], None],
        on_drift: Callable[[str], None],
    ) -> None:
        """``monitor`` None: drift is not watched.  ``ready(key)``: the site's model cleans and no new
        sample is under way.  ``restart_sample(key, generation)`` opens the next sample generation in
        the store (None when another worker did); a :class:`StoreError` it raises goes to
        ``on_store_error(what, error)``."""
        self.monitor = monitor
        self.ready = ready
        self.restart_sample = restart_sample
        self.on_store_error = on_store_error
        self.on_drift = on_drift
        self._watched: dict[str, _Watched] = {}

    def watch(self, key: str, stored: StoredModel) -> None:
        """``stored`` was just put to use for ``key``: its pages are compared with its fit from now on."""
        baseline = stored.entry.baseline
        if self.monitor is None or baseline is None:
            self._watched.pop(key, None)
            return
        fingerprint = None if baseline.coverage is not None else Fingerprint(baseline.signatures, baseline.unseen_share)
        self._watched[key] = _Watched(stored.model, fingerprint, stored.entry.generation)
        self.monitor.watch(key, baseline)

    def due(self, key: str, model: SiteModel) -> Fingerprint | None:
        """The fingerprint to measure this page of ``key`` with, if it should be measured (one in N;
        never for a model whose rules' coverage tells, see :meth:`covered`)."""
        watched = self._watched.get(key)
        if self.monitor is None or watched is None or watched.model is not model or not self.ready(key):
            return None
        if watched.fingerprint is None:
            return None
        return watched.fingerprint if self.monitor.due(key) else None

    def covered(self, key: str, model: SiteModel, cleaned: CleanedPage) -> None:
        """A page of ``key`` cleaned by ``model``, whose rules decided ``cleaned.coverage`` of its blocks:
        observed on every page (it costs nothing more); a page the rules cover poorly is another
        template, and a window of them is a template change."""
        watched = self._watched.get(key)
        if watched is None or watched.fingerprint is not None or cleaned.coverage is None:
            return
        self.observe(key, model, cleaned.removed_share, 0.0, cleaned.coverage)

    def observe(
        self, key: str, model: SiteModel, removed_share: float, unseen_share: float, coverage: float | None = None
    ) -> None:
        """One page of ``key`` cleaned by ``model`` and measured; on drift, the site samples again."""
        watched = self._watched.get(key)
        if self.monitor is None or watched is None or watched.model is not model or not self.ready(key):
            return  # the model changed meanwhile, or a new sample is under way
        drift = self.monitor.observe(key, removed_share, unseen_share, coverage)
        if drift is None:
            return
        del self._watched[key]
        try:
            restarted = self.restart_sample(key, watched.generation)
        except StoreError as exc:
            self.on_store_error(f"restarting the sample of {key} after a template change", exc)
            return
        logger.info(
            "boilerplate: %s changed its template (%s); %s",
            key,
            drift.describe(),
            "re-sampling" if restarted is not None else "another worker is re-sampling",
        )
        self.on_drift(key)
