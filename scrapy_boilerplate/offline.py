"""Fit and clean saved sites: the engine behind the ``extract``, ``bench`` and ``inspect`` commands."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from scrapy_boilerplate.corpus import Site, read_page_bytes
from scrapy_boilerplate.html import looks_binary, raw_text
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
    sample: list[Path] = field(default_factory=list)  # the pages fitted on, in the order the model saw them
    left_out: list[tuple[Path, str]] = field(default_factory=list)  # pages the fit passed over, and why

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


NO_TEXT = "no visible text"


def has_visible_text(page: Page) -> bool:
    """True when the page shows any text (an empty page shows nothing that repeats): text anywhere
    but in the head, after ``</body>`` too, where broken markup leaves some."""
    tree = page.tree
    if (tree.text or "").strip():
        return True
    return any((child.tag != "head" and raw_text(child).strip()) or (child.tail or "").strip() for child in tree)


def _sample(pages: dict[Path, Page | str], sample_size: int) -> tuple[list[Path], list[tuple[Path, str]]]:
    """The first ``sample_size`` readable pages with text, and the pages passed over before it filled."""
    sample: list[Path] = []
    left_out: list[tuple[Path, str]] = []
    for path, page in pages.items():
        if len(sample) >= sample_size:
            break
        if isinstance(page, str):
            left_out.append((path, page))
        elif has_visible_text(page):
            sample.append(path)
        else:
            logger.warning("leaving %s out of the fit: %s", path, NO_TEXT)
            left_out.append((path, NO_TEXT))
    return sample, left_out


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
    """Fit ``spec`` on the site's first ``sample_size`` readable pages with text, then clean every page.

    ``on_page`` is called after each page (cleaned or failed), e.g. to draw progress.
    """
    pages: dict[Path, Page | str] = {}
    for path in site.pages:
        try:
            pages[path] = load_page(path)
        except (OSError, ValueError) as exc:
            logger.warning("skipping %s: %s", path, exc)
            pages[path] = str(exc)
    sample_paths, left_out = _sample(pages, sample_size)
    sample = [page for path in sample_paths if isinstance(page := pages[path], Page)]
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
    return SiteOutcome(site, model.name, len(sample), fit_seconds, outcomes, fit_error, model, sample_paths, left_out)
