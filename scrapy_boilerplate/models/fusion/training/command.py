"""``scrapy-boilerplate train``: fit the fusion weights on gold-annotated sites.

``-o FILE`` writes weights trained on every site; ``--folds K --folds-dir DIR`` writes K fold
weights, each trained without one K-th of the sites (grouped by site), for ``bench --folds DIR``
to score every site with weights that never saw it.
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from pathlib import Path

DEFAULT_SAMPLE_SIZE = 20
DESCRIPTION = """Fit the fusion model's weights on sites whose pages have gold text.

-o FILE writes weights trained on every site; --folds K --folds-dir DIR writes K fold weights,
each trained without one K-th of the sites (grouped by site), for bench --folds DIR to score
every site with weights that never saw it."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The ``train`` sub-command's arguments."""
    train = sub.add_parser(
        "train",
        help="train the fusion model's weights on pages with gold text (needs the train extra)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    train.add_argument("data_dir", type=Path, help="directory of sites whose pages have gold .txt files beside them")
    train.add_argument("-o", "--output", type=Path, default=None, help="write weights trained on every site here")
    train.add_argument("--folds", type=int, default=0, help="also write this many cross-validation fold weights")
    train.add_argument("--folds-dir", type=Path, default=None, help="where fold-K.json files go (with --folds)")
    train.add_argument(
        "--sample-size",
        type=int,
        default=DEFAULT_SAMPLE_SIZE,
        help=f"pages per site the site models are fitted on, first in file-name order (default {DEFAULT_SAMPLE_SIZE})",
    )
    train.add_argument("-q", "--quiet", action="store_true", help="no progress line on the terminal")


def fold_of(site: str, folds: int) -> int:
    """The fold a site belongs to: a stable hash of its key, so a site never moves between runs."""
    return zlib.crc32(site.encode("utf-8")) % folds


def run_train(args: argparse.Namespace) -> int:
    """Extract labelled rows once, then fit the requested weights."""
    if args.output is None and not args.folds:
        print("train: nothing to write: give -o FILE and/or --folds K --folds-dir DIR", file=sys.stderr)
        return 2
    if args.folds and (args.folds < 2 or args.folds_dir is None):
        print("train: --folds needs K >= 2 and --folds-dir DIR", file=sys.stderr)
        return 2
    if not args.data_dir.is_dir():
        print(f"train: {args.data_dir} is not a directory", file=sys.stderr)
        return 2
    try:
        import lightgbm  # noqa: F401
    except ImportError:
        print("train: LightGBM is not installed; pip install 'scrapy-boilerplate-learner[train]'", file=sys.stderr)
        return 2
    from scrapy_boilerplate.corpus import find_sites
    from scrapy_boilerplate.models.fusion.layout import FeatureLayout
    from scrapy_boilerplate.models.fusion.training.dataset import corpus_rows
    from scrapy_boilerplate.models.fusion.training.fit import train_weights
    from scrapy_boilerplate.progress import Progress, wants_progress

    started = time.perf_counter()
    sites = find_sites(args.data_dir)
    progress = Progress("train", len(sites), 0, wants_progress(sys.stderr, args.quiet), sys.stderr)
    layout = FeatureLayout.for_training()  # every registered feature
    rows = corpus_rows(sites, args.sample_size, layout, progress.site_done)
    progress.close()
    if not rows:
        print(f"train: no page under {args.data_dir} has a gold .txt file beside it", file=sys.stderr)
        return 2
    written = []
    if args.output is not None:
        args.output.write_bytes(train_weights(rows, layout).dumps())
        written.append(str(args.output))
    if args.folds:
        args.folds_dir.mkdir(parents=True, exist_ok=True)
        for fold in range(args.folds):
            kept = [page for page in rows if fold_of(page.site, args.folds) != fold]
            target = args.folds_dir / f"fold-{fold}.json"
            target.write_bytes(train_weights(kept, layout).dumps())
            written.append(str(target))
    n_sites = len({page.site for page in rows})
    print(
        f"train: {len(rows)} pages of {n_sites} sites, {time.perf_counter() - started:.0f} s; wrote {', '.join(written)}"
    )
    return 0
