"""Fit and clean saved sites: the engine behind the ``extract``, ``bench`` and ``inspect`` commands."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from scrapy_boilerplate.corpus import Site, read_page_bytes
from scrapy_boilerplate.html import looks_binary
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.page import Page

logger = logging.getLogger(__name__)

FALLBACK_MODEL = "pvalue"


@dataclass
class PageOutcome:
    """What happened to one page: its cleaned result, or the reason it failed."""

    path: Path
    cleaned: CleanedPage | None
    error: str | None
    clean_seconds: float
    page: Page | None = None

    @property
    def text(self) -> str:
        """The main text; empty for a failed page."""
        return self.cleaned.text if self.cleaned is not None else ""


@dataclass
class SiteOutcome:
    """One site's fit and every page's outcome."""

    site: Site
    model: str
    sample_pages: int
    fit_seconds: float
    pages: list[PageOutcome]
    fit_error: str | None = None
    fitted: SiteModel | None = None

    @property
    def failures(self) -> int:
        """Pages that could not be read or cleaned."""
        return sum(1 for page in self.pages if page.error is not None)


def load_page(path: Path) -> Page:
    """Read and decode one saved page; raises ``OSError``/``ValueError`` for unusable files."""
    body = read_page_bytes(path)
    if looks_binary(body):
        raise ValueError("binary content, not HTML")
    return Page.from_bytes(body, url=path.resolve().as_uri())


def _fit(spec: ModelSpec, sample: list[Page], site: Site) -> tuple[SiteModel, float, str | None]:
    started = time.perf_counter()
    try:
        model = spec.create().fit(sample)
        return model, time.perf_counter() - started, None
    except Exception as exc:  # a model bug must not abort a run over hundreds of sites
        logger.warning("fitting %s on %s failed (%r); using %s", spec.label, site.relative, exc, FALLBACK_MODEL)
        return ModelSpec(FALLBACK_MODEL).create().fit([]), time.perf_counter() - started, repr(exc)


def process_site(
    site: Site, spec: ModelSpec, sample_size: int, on_page: Callable[[], None] | None = None
) -> SiteOutcome:
    """Fit ``spec`` on the site's first ``sample_size`` readable pages, then clean every page.

    ``on_page`` is called after each page (cleaned or failed), e.g. to draw progress.
    """
    pages: dict[Path, Page | str] = {}
    for path in site.pages:
        try:
            pages[path] = load_page(path)
        except (OSError, ValueError) as exc:
            logger.warning("skipping %s: %s", path, exc)
            pages[path] = str(exc)
    sample = [page for page in pages.values() if isinstance(page, Page)][:sample_size]
    model, fit_seconds, fit_error = _fit(spec, sample, site)
    outcomes = []
    for path, page in pages.items():
        if isinstance(page, str):
            outcomes.append(PageOutcome(path, None, page, 0.0))
            if on_page is not None:
                on_page()
            continue
        started = time.perf_counter()
        try:
            cleaned, error = model.clean(page), None
        except Exception as exc:  # one bad page never aborts the run
            logger.warning("cleaning %s failed: %r", path, exc)
            cleaned, error = None, repr(exc)
        outcomes.append(PageOutcome(path, cleaned, error, time.perf_counter() - started, page))
        if on_page is not None:
            on_page()
    return SiteOutcome(site, model.name, len(sample), fit_seconds, outcomes, fit_error, model)
