"""``scrapy-boilerplate inspect``: fit on a saved site (or load a crawl's stored model) and write a report."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from scrapy_boilerplate.inspection.marks import mark_page
from scrapy_boilerplate.inspection.report import render_report
from scrapy_boilerplate.inspection.summary import removed_share
from scrapy_boilerplate.inspection.target import InspectError, from_crawl, from_site


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``inspect`` options (the model and sample-size options are added by the CLI)."""
    parser.add_argument(
        "--from-crawl",
        metavar="URL",
        default=None,
        help="report on URL with the model a crawl stored for its site",
    )
    parser.add_argument(
        "--store",
        default=None,
        metavar="STORE",
        help="the crawl's model store, a directory or redis:// URL (default: BOILERPLATE_STORE of the Scrapy "
        "project here, as for the models command)",
    )
    parser.add_argument(
        "--prefix", default=None, help="Redis key prefix of the store (default: BOILERPLATE_STORE_PREFIX)"
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


def check_output(path: Path) -> None:
    """Refuse an output path that cannot be a report file, before any work is done."""
    if path.is_dir():
        raise InspectError(f"-o {path} is a folder; give the report's file name, e.g. -o {path / 'report.html'}")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise InspectError(f"cannot write {path}: {folder} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InspectError(f"cannot write {path}: {folder} is not writable")


def _write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InspectError(f"cannot write {path}: {exc.strerror or exc}") from None


def run_inspect(args: argparse.Namespace) -> int:
    """Write the report; user errors print one line to stderr and return 2."""
    try:
        check_output(args.output)
        target = from_crawl(args) if args.from_crawl else from_site(args)
        marked = mark_page(target.page, target.cleaned)
        _write(args.output, render_report(marked, target.summary, target.label, target.warnings))
    except InspectError as exc:
        print(f"inspect: {exc}", file=sys.stderr)
        return 2
    print(
        f"inspect: wrote {args.output} ({target.summary.model}: {removed_share(marked):.0%} of the page removed, "
        f"{len(target.cleaned.decisions)} decisions)"
    )
    return 0
