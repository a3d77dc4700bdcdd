"""What ``inspect`` reports on: a page of a saved site (fitted as ``extract`` does) or a crawl's URL
with the model the crawl stored, and the warnings the report's header gives about them."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scrapy_boilerplate.corpus import Site, find_sites
from scrapy_boilerplate.inspection.marks import mark_page
from scrapy_boilerplate.inspection.stored import StoredModelNotFound, find_stored
from scrapy_boilerplate.inspection.summary import SiteSummary, largest_removed, summarize_site
from scrapy_boilerplate.models.base import CleanedPage, ModelFormatError
from scrapy_boilerplate.offline import SiteOutcome, load_page, process_site
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store import StoreError

MIN_SITE_PAGES = 3  # fewer pages cannot tell what repeats (the template) from what does not
NAMES_LISTED = 3


class InspectError(Exception):
    """A user error: bad paths, no stored model, an unreadable page."""


@dataclass
class Target:
    """The page, its cleaned result, the site's summary, the page's label and the header's warnings."""

    page: Page
    cleaned: CleanedPage
    summary: SiteSummary
    label: str
    warnings: list[str] = field(default_factory=list)


def site_of(site_dir: Path) -> Site:
    """The site made of the pages (``*.html``, ``*.html.gz``) directly inside ``site_dir``."""
    for site in find_sites(site_dir):
        if site.relative == Path("."):
            return site
    raise InspectError(f"{site_dir} holds no *.html or *.html.gz page directly")


def _page_path(site_dir: Path, page: str) -> Path:
    for candidate in (Path(page), site_dir / page):
        if candidate.is_file():
            return candidate
    raise InspectError(f"page {page} not found (as given or inside {site_dir})")


def _load(path: Path, url: str | None) -> Page:
    try:
        page = load_page(path)
    except (OSError, ValueError) as exc:
        raise InspectError(f"cannot read {path}: {exc}") from None
    return Page(page.html, url) if url else page


def few_pages_warning(pages: int | None) -> list[str]:
    """The warning for a model fitted on fewer than ``MIN_SITE_PAGES`` pages."""
    if pages is None or pages >= MIN_SITE_PAGES:
        return []
    fitted = "no page" if pages == 0 else "1 page" if pages == 1 else f"{pages} pages"
    return [
        f"The model was fitted on {fitted}: what repeats across a site (its template) cannot be told "
        f"from fewer than {MIN_SITE_PAGES}, so a site model's removals here are guesswork"
    ]


def _left_out_warnings(outcome: SiteOutcome, page_path: Path) -> list[str]:
    left_out: Sequence[tuple[Path, str]] = outcome.left_out
    if not left_out:
        return []
    warnings = [f"This page was left out of the fit: {why}" for path, why in left_out if path.resolve() == page_path]
    names = ", ".join(f"{path.name} ({why})" for path, why in left_out[:NAMES_LISTED])
    more = f" and {len(left_out) - NAMES_LISTED} more" if len(left_out) > NAMES_LISTED else ""
    return [*warnings, f"The fit left out {len(left_out)} of the site's pages: {names}{more}"]


def from_site(args: argparse.Namespace) -> Target:
    """A page of a saved site, cleaned by the model fitted on the site."""
    if len(args.paths) != 2:
        raise InspectError("give SITE_DIR and PAGE (or --from-crawl URL)")
    site_dir = Path(args.paths[0])
    if not site_dir.is_dir():
        raise InspectError(f"{site_dir} is not a directory")
    page_path = _page_path(site_dir, args.paths[1]).resolve()
    outcome = process_site(site_of(site_dir), args.model, args.sample_size)
    cleaned_pages = [(o.page, o.cleaned) for o in outcome.pages if o.page is not None and o.cleaned is not None]
    target = next((o for o in outcome.pages if o.path.resolve() == page_path), None)
    if target is not None and target.error is not None:
        raise InspectError(f"cannot clean {page_path}: {target.error}")
    if target is not None and target.page is not None and target.cleaned is not None:
        page, cleaned = target.page, target.cleaned
    elif outcome.fitted is not None:
        page = _load(page_path, None)
        cleaned = outcome.fitted.clean(page)
    else:
        raise InspectError(f"no model was fitted on {site_dir}")
    warnings = []
    model = args.model.label
    if outcome.fit_error is not None:
        model = f"{outcome.model} (fallback: {args.model.label} failed to fit)"
        warnings.append(
            f"{args.model.label} failed to fit on this site ({outcome.fit_error}); {outcome.model} cleaned it"
        )
    warnings += _left_out_warnings(outcome, page_path) + few_pages_warning(outcome.sample_pages)
    sample = [path.name for path in outcome.sample]
    summary = summarize_site(model, outcome.sample_pages, cleaned_pages, sample)
    inside = page_path.parent == site_dir.resolve()
    label = f"{site_dir.resolve().name}/{page_path.name}" if inside else str(args.paths[1])
    return Target(page, cleaned, summary, label, warnings)


def from_crawl(args: argparse.Namespace) -> Target:
    """A crawl's URL (or a saved copy of it), cleaned by the model the crawl stored for its site."""
    if len(args.paths) > 1:
        raise InspectError("with --from-crawl give at most one PAGE: a saved copy of the URL")
    try:
        stored = find_stored(args.store, args.prefix, args.from_crawl, args.spider)
    except (StoredModelNotFound, ModelFormatError, StoreError, ImportError, OSError, ValueError) as exc:
        raise InspectError(str(exc)) from None
    if args.paths:
        page = _load(Path(args.paths[0]), args.from_crawl)
    else:
        from scrapy_boilerplate.inspection.fetch import fetch_page

        try:
            page = fetch_page(args.from_crawl)
        except (OSError, ValueError) as exc:
            raise InspectError(f"cannot fetch {args.from_crawl}: {exc}") from None
    cleaned = stored.model.clean(page)
    label = f"{stored.model.name} (stored in {stored.location})"
    summary = SiteSummary(label, stored.sample_pages, 1, None, largest_removed([mark_page(page, cleaned)]), (), 1)
    return Target(page, cleaned, summary, args.from_crawl, few_pages_warning(stored.sample_pages))
