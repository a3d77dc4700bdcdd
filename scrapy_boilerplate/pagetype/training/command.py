"""``scrapy-boilerplate train-page-types``: fit the page-type classifier on labelled pages."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

DESCRIPTION = """Fit the page-type classifier on pages whose type is known.

DATA_DIR holds the pages and a manifest.json whose pages[] give each page's path (the file
without .html; .html.gz is read too), site, url, page_type and gold_empty (a page with no main
content), as the WCXB data set has it. The same pages give the same bytes."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The ``train-page-types`` sub-command's arguments."""
    train = sub.add_parser(
        "train-page-types",
        help="train the page-type classifier on pages of known type (needs the train extra)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    train.add_argument("data_dir", type=Path, help="directory of pages with a manifest.json giving their types")
    train.add_argument("-o", "--output", type=Path, required=True, help="where the weights file is written")
    train.add_argument("-q", "--quiet", action="store_true", help="no progress line on the terminal")


def run_train_page_types(args: argparse.Namespace) -> int:
    """Read the labelled pages, fit the classifier, write its weights."""
    try:
        import lightgbm  # noqa: F401
    except ImportError:
        print("train-page-types: LightGBM is not installed; pip install 'scrapy-boilerplate[train]'", file=sys.stderr)
        return 2
    from scrapy_boilerplate.pagetype.training.dataset import labelled_pages, manifest_entries
    from scrapy_boilerplate.pagetype.training.fit import train_page_types
    from scrapy_boilerplate.progress import Progress, wants_progress

    started = time.perf_counter()
    try:
        entries = manifest_entries(args.data_dir)
    except ValueError as exc:
        print(f"train-page-types: {exc}", file=sys.stderr)
        return 2
    progress = Progress("train-page-types", 0, len(entries), wants_progress(sys.stderr, args.quiet), sys.stderr)
    pages = list(labelled_pages(args.data_dir, progress.page_done))
    progress.close()
    if not pages:
        print(f"train-page-types: no page of {args.data_dir} has a known type", file=sys.stderr)
        return 2
    weights = train_page_types(pages)
    args.output.write_bytes(weights.dumps())
    print(
        f"train-page-types: {len(pages)} pages of {len({page.site for page in pages})} sites, "
        f"{time.perf_counter() - started:.0f} s; wrote {args.output}"
    )
    return 0
