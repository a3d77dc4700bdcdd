"""The ``scrapy-boilerplate`` command: ``extract`` cleans saved sites, ``bench`` scores models, ``inspect`` shows why.

Help texts are plain text: argparse prints them as written, so they carry no reStructuredText.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy_boilerplate.corpus import find_sites, page_name
from scrapy_boilerplate.models.registry import available_models
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.progress import Progress, wants_progress
from scrapy_boilerplate.store.cli import add_models_parser, run_models

if TYPE_CHECKING:
    from scrapy_boilerplate.models.base import CleanedPage
    from scrapy_boilerplate.offline import PageOutcome

logger = logging.getLogger("scrapy_boilerplate")

DEFAULT_SAMPLE_SIZE = 20
DESCRIPTION = (
    "Learn each site's template from a sample of its pages and strip the boilerplate: clean saved sites, "
    "score models against gold text, see what a model removed and why, manage the models a crawl stored. "
    "Each command's --help says more."
)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _model_spec(text: str) -> ModelSpec:
    try:
        return ModelSpec.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _model_specs(text: str) -> list[ModelSpec]:
    return [_model_spec(part) for part in text.split(",") if part.strip()]


def _existing_dir(text: str) -> Path:
    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is not a directory")
    return path


def _command(sub: argparse._SubParsersAction, name: str, summary: str) -> argparse.ArgumentParser:
    """A sub-command whose own --help starts with the summary the command list shows."""
    return sub.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ".")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    parser = argparse.ArgumentParser(prog="scrapy-boilerplate", description=DESCRIPTION)
    parser.add_argument("-v", "--verbose", action="store_true", help="log every skipped page and fit")
    sub = parser.add_subparsers(dest="command", required=True)
    models = ", ".join(available_models())

    extract = _command(sub, "extract", "fit one model per site and write each page's main text")
    extract.add_argument(
        "--model",
        type=_model_spec,
        default=ModelSpec("fusion"),
        help=f"NAME or NAME:param=value[:...]; one of {models} (default fusion)",
    )
    extract.add_argument(
        "--sample-size",
        type=_positive_int,
        default=DEFAULT_SAMPLE_SIZE,
        help=f"pages per site to fit on, first in file-name order (default {DEFAULT_SAMPLE_SIZE})",
    )
    extract.add_argument(
        "--format",
        choices=("text", "markdown", "json"),
        default="text",
        help="what each page's file holds: text (<page>.txt, the default), markdown (<page>.md: headings, "
        "lists, tables, code; needs the markdown extra) or json (<page>.json: url, text, markdown, title, "
        "author, published, language, page_type and the model that cleaned it; needs the markdown extra)",
    )
    extract.add_argument(
        "in_dir", type=_existing_dir, help="directory of sites (each folder of *.html or *.html.gz pages is a site)"
    )
    extract.add_argument("out_dir", type=Path, help="where OUT_DIR/<site>/<page>.txt (.md, .json) files are written")
    extract.add_argument("-q", "--quiet", action="store_true", help="no progress line on the terminal")

    bench = _command(sub, "bench", "score models (and other extractors) against the gold .txt beside each page")
    bench.add_argument(
        "--model",
        type=_model_specs,
        required=True,
        metavar="SPECS",
        help="comma-separated model specs, e.g. pvalue,pvalue:variant=paper",
    )
    bench.add_argument(
        "--compare",
        default="",
        metavar="PEERS",
        help="comma-separated other extractors to score alongside: trafilatura, readability (these two need "
        "the bench extra), everything (all visible text)",
    )
    bench.add_argument(
        "--sample-size",
        type=_positive_int,
        default=DEFAULT_SAMPLE_SIZE,
        help=f"pages per site to fit on, first in file-name order (default {DEFAULT_SAMPLE_SIZE})",
    )
    bench.add_argument(
        "--predictions",
        type=Path,
        default=None,
        help="also write every prediction under this directory (one folder per model)",
    )
    bench.add_argument(
        "--folds",
        type=_existing_dir,
        default=None,
        help="score a learned model (fusion) on each site with the fold weights trained without it "
        "(written by train --folds K --folds-dir DIR): cross-validated figures",
    )
    bench.add_argument("--md", type=Path, default=None, help="also write the table as Markdown")
    bench.add_argument("--json", type=Path, default=None, help="also write the figures as JSON")
    bench.add_argument("-q", "--quiet", action="store_true", help="no progress line on the terminal")
    bench.add_argument(
        "data_dir", type=_existing_dir, help="directory of sites: DATA_DIR/<site>/<page>.html with <page>.txt gold"
    )

    from scrapy_boilerplate.inspection.command import add_arguments

    inspect = _command(sub, "inspect", "write an HTML report of what a model kept and removed on one page")
    inspect.add_argument(
        "--model",
        type=_model_spec,
        default=ModelSpec("fusion"),
        help=f"NAME or NAME:param=value[:...]; one of {models} (default fusion)",
    )
    inspect.add_argument(
        "--sample-size",
        type=_positive_int,
        default=DEFAULT_SAMPLE_SIZE,
        help=f"pages of SITE_DIR to fit on, first in file-name order (default {DEFAULT_SAMPLE_SIZE})",
    )
    add_arguments(inspect)
    add_models_parser(sub)
    from scrapy_boilerplate.models.fusion.training.command import add_parser as add_train_parser

    add_train_parser(sub)
    from scrapy_boilerplate.pagetype.training.command import add_parser as add_train_page_types_parser

    add_train_page_types_parser(sub)
    return parser


def run_extract(args: argparse.Namespace) -> int:
    """Clean every page of every site under ``in_dir`` into ``out_dir``."""
    from scrapy_boilerplate.markdown import INSTALL_HINT, markdown_available
    from scrapy_boilerplate.offline import process_site
    from scrapy_boilerplate.records import FORMATS
    from scrapy_boilerplate.rescue import prose_rescue

    if args.format != "text" and not markdown_available():
        print(f"extract: --format {args.format}: {INSTALL_HINT}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    sites = find_sites(args.in_dir)
    progress = Progress(
        "extract",
        len(sites),
        sum(len(site.pages) for site in sites),
        wants_progress(sys.stderr, args.quiet),
        sys.stderr,
    )
    pages = failures = rescues = 0
    for site in sites:
        outcome = process_site(site, args.model, args.sample_size, progress.page_done)
        progress.site_done()
        target_dir = args.out_dir / site.relative
        target_dir.mkdir(parents=True, exist_ok=True)
        for page in outcome.pages:
            rescued = prose_rescue(page.cleaned, page.page) if page.cleaned and page.page else None
            rescues += rescued is not None
            content = _page_file(args.format, page, rescued or page.cleaned)
            (target_dir / (page_name(page.path) + FORMATS[args.format])).write_text(content, encoding="utf-8")
        pages += len(outcome.pages)
        failures += outcome.failures
        logger.info(
            "%s: %s fitted on %d pages in %.0f ms, %d pages",
            site.relative,
            outcome.model,
            outcome.sample_pages,
            outcome.fit_seconds * 1000,
            len(outcome.pages),
        )
    progress.close()
    print(
        f"extract: {len(sites)} sites, {pages} pages, {failures} failures, "
        f"{rescues} given their longest prose paragraph (the model kept no text), "
        f"{time.perf_counter() - started:.1f} s (model {args.model.label})"
    )
    return 0


def _page_file(output_format: str, outcome: PageOutcome, cleaned: CleanedPage | None) -> str:
    """What ``extract --format output_format`` writes for one page (empty text for a failed page)."""
    from scrapy_boilerplate.models.base import CleanedPage
    from scrapy_boilerplate.page import Page
    from scrapy_boilerplate.records import render

    page = outcome.page
    if page is None or cleaned is None:
        cleaned = CleanedPage("", "<div></div>", "", 0, 0)
        page = page or Page("", outcome.path.resolve().as_uri())
    return render(output_format, page, cleaned)


def run_bench(args: argparse.Namespace) -> int:
    """Score each model and peer and print the side-by-side table."""
    from scrapy_boilerplate.evaluation.bench import count_lost, format_markdown, format_table, run_isolated
    from scrapy_boilerplate.evaluation.breakdown import breakdown_markdown, breakdowns, format_breakdown
    from scrapy_boilerplate.evaluation.manifest import page_labels
    from scrapy_boilerplate.evaluation.peers import PEERS, PeerUnavailableError, load_peer

    peers = [name.strip() for name in args.compare.split(",") if name.strip()]
    unknown = [name for name in peers if name not in PEERS]
    if unknown:
        print(f"bench: unknown peer(s) {unknown}; choose from {', '.join(PEERS)}", file=sys.stderr)
        return 2
    try:
        for name in peers:  # before any model runs: a missing peer would only show after them
            load_peer(name)
    except PeerUnavailableError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    rows = []
    show = wants_progress(sys.stderr, args.quiet)
    for spec in args.model:
        rows.append(
            run_isolated("model", args.data_dir, spec.label, args.sample_size, args.predictions, show, args.folds)
        )
    for name in peers:
        rows.append(run_isolated("peer", args.data_dir, name, args.sample_size, args.predictions, show))
    count_lost(rows)
    tables = breakdowns(rows, page_labels(args.data_dir))
    print("\n\n".join([format_table(rows), *map(format_breakdown, tables)]))
    if args.md:
        markdown = [format_markdown(rows), *map(breakdown_markdown, tables)]
        args.md.write_text("\n".join(markdown), encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps([asdict(row) for row in rows], indent=1), encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script and of ``python -m scrapy_boilerplate``."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    if args.command == "extract":
        return run_extract(args)
    if args.command == "inspect":
        from scrapy_boilerplate.inspection.command import run_inspect

        return run_inspect(args)
    if args.command == "models":
        return run_models(args)
    if args.command == "train":
        from scrapy_boilerplate.models.fusion.training.command import run_train

        return run_train(args)
    if args.command == "train-page-types":
        from scrapy_boilerplate.pagetype.training.command import run_train_page_types

        return run_train_page_types(args)
    return run_bench(args)


if __name__ == "__main__":
    sys.exit(main())
