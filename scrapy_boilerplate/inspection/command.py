"""``scrapy-boilerplate inspect``: fit on a saved site (or load a crawl's stored model) and write a report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scrapy_boilerplate.corpus import Site, find_sites
from scrapy_boilerplate.inspection.report import build_report
from scrapy_boilerplate.inspection.stored import StoredModelNotFound, load_stored, stored_model_path
from scrapy_boilerplate.inspection.summary import SiteSummary, largest_removed, summarize_site
from scrapy_boilerplate.models.base import CleanedPage, ModelFormatError
from scrapy_boilerplate.offline import load_page, process_site
from scrapy_boilerplate.page import Page


class InspectError(Exception):
    """A user error: bad paths, no stored model, an unreadable page."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``inspect`` options (the model and sample-size options are added by the CLI)."""
    parser.add_argument(
        "--from-crawl",
        metavar="URL",
        default=None,
        help="report on URL with the model a crawl stored for its site (needs --store)",
    )
    parser.add_argument(
        "--store", type=Path, default=None, metavar="DIR", help="model store of the crawl: DIR/<spider>/<domain>.json"
    )
    parser.add_argument(
        "--spider", default=None, metavar="NAME", help="the spider whose stored model to use (default: the only one)"
    )
    parser.add_argument("-o", "--output", type=Path, required=True, help="the HTML report to write")
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="SITE_DIR PAGE",
        help="the saved site and one of its pages; with --from-crawl, an optional saved copy of URL",
    )


def site_of(site_dir: Path) -> Site:
    """The site made of the ``*.html`` files directly inside ``site_dir``."""
    for site in find_sites(site_dir):
        if site.relative == Path("."):
            return site
    raise InspectError(f"{site_dir} holds no *.html page directly")


def _page_path(site_dir: Path, page: str) -> Path:
    for candidate in (Path(page), site_dir / page):
        if candidate.is_file():
            return candidate
    raise InspectError(f"page {page} not found (as given or inside {site_dir})")


def _from_site(args: argparse.Namespace) -> tuple[Page, CleanedPage, SiteSummary, str]:
    if len(args.paths) != 2:
        raise InspectError("give SITE_DIR and PAGE (or --from-crawl URL --store DIR)")
    site_dir = Path(args.paths[0])
    if not site_dir.is_dir():
        raise InspectError(f"{site_dir} is not a directory")
    page_path = _page_path(site_dir, args.paths[1])
    outcome = process_site(site_of(site_dir), args.model, args.sample_size)
    cleaned_pages = [(o.page, o.cleaned) for o in outcome.pages if o.page is not None and o.cleaned is not None]
    target = next((o for o in outcome.pages if o.path.resolve() == page_path.resolve()), None)
    if target is not None and target.error is not None:
        raise InspectError(f"cannot clean {page_path}: {target.error}")
    if target is not None and target.page is not None and target.cleaned is not None:
        page, cleaned = target.page, target.cleaned
    else:
        page = _load(page_path, None)
        cleaned = outcome.fitted.clean(page)
    label = (
        args.model.label
        if outcome.fit_error is None
        else f"{outcome.model} (fallback: {args.model.label} failed to fit)"
    )
    return page, cleaned, summarize_site(label, outcome.sample_pages, cleaned_pages), str(page_path)


def _load(path: Path, url: str | None) -> Page:
    try:
        page = load_page(path)
    except (OSError, ValueError) as exc:
        raise InspectError(f"cannot read {path}: {exc}") from None
    return Page(page.html, url) if url else page


def _from_crawl(args: argparse.Namespace) -> tuple[Page, CleanedPage, SiteSummary, str]:
    if args.store is None:
        raise InspectError("--from-crawl needs --store DIR (the crawl's model store)")
    if len(args.paths) > 1:
        raise InspectError("with --from-crawl give at most one PAGE: a saved copy of the URL")
    try:
        stored = load_stored(stored_model_path(args.store, args.from_crawl, args.spider))
    except (StoredModelNotFound, ModelFormatError, OSError, ValueError) as exc:
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
    label = f"{stored.model.name} (stored in {stored.path})"
    summary = SiteSummary(label, stored.sample_pages, 1, None, largest_removed([(page, cleaned)]))
    return page, cleaned, summary, args.from_crawl


def run_inspect(args: argparse.Namespace) -> int:
    """Write the report; user errors print one line to stderr and return 2."""
    try:
        page, cleaned, summary, label = _from_crawl(args) if args.from_crawl else _from_site(args)
    except InspectError as exc:
        print(f"inspect: {exc}", file=sys.stderr)
        return 2
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(build_report(page, cleaned, summary, label), encoding="utf-8")
    print(
        f"inspect: wrote {args.output} ({summary.model}: {cleaned.removed_share:.0%} of the page removed, "
        f"{len(cleaned.decisions)} decisions)"
    )
    return 0
