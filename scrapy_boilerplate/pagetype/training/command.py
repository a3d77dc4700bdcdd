"""``scrapy-boilerplate train-page-types``: fit the page-type classifier on labelled pages."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

DESCRIPTION = """Fit the page-type classifier on pages whose type is known.

DATA_DIR holds the pages and a manifest.json whose pages[] give each page's path (the file
without .html; .html.gz is read too), site, url, page_type and gold_empty (a page with no main
content), as the WCXB data set has it. The same pages give the same bytes.

--folds K first cross-validates grouped by site: each page is told by weights trained without its
site, and the accuracy, each type's recall and precision and the confusion matrix are printed."""


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
    train.add_argument(
        "--folds", type=int, default=0, help="first cross-validate with this many folds grouped by site, and print it"
    )
    train.add_argument("-q", "--quiet", action="store_true", help="no progress line on the terminal")


def run_train_page_types(args: argparse.Namespace) -> int:
    """Read the labelled pages, fit the classifier, write its weights."""
    try:
        import lightgbm  # noqa: F401
        import scipy  # noqa: F401
    except ImportError:
        print(
            "train-page-types: LightGBM or SciPy is not installed; pip install 'scrapy-boilerplate-learner[train]'",
            file=sys.stderr,
        )
        return 2
    from scrapy_boilerplate.pagetype.training.dataset import labelled_pages, manifest_entries
    from scrapy_boilerplate.pagetype.training.fit import train_page_types
    from scrapy_boilerplate.progress import Progress, wants_progress

    if args.folds == 1 or args.folds < 0:
        print("train-page-types: --folds needs K >= 2", file=sys.stderr)
        return 2
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
    if args.folds:
        from scrapy_boilerplate.pagetype.training.crossval import confusion, held_out_probabilities, report_lines

        told = held_out_probabilities(pages, args.folds).argmax(axis=1)
        matrix = confusion([page.label for page in pages], told)
        print("\n".join(report_lines(matrix, len({page.site for page in pages}))))
    weights = train_page_types(pages)
    args.output.write_bytes(weights.dumps())
    print(
        f"train-page-types: {len(pages)} pages of {len({page.site for page in pages})} sites, "
        f"{time.perf_counter() - started:.0f} s; wrote {args.output}"
    )
    return 0
