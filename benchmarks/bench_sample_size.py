"""Site-level quality of a model at several sample sizes, as a crawl would see it.

``python benchmarks/bench_sample_size.py DATA_DIR [--model SPEC] [--sizes 3,5,10,20] [--fallback SPEC]
[--min-pages 5]``

For each sample size N, every site's model is fitted on its first N pages and cleans all its pages
(``scrapy-boilerplate bench --sample-size N``).  Two figures over the pages of the sites with at
least ``--min-pages`` gold pages (5: the data set's site-level pages; ``_unknown*`` folders never):

- ``F1 fitted``: as ``bench`` reports it; a site of fewer than N pages is fitted on all it has.
- ``F1 crawl``: as a crawl gets it; a site of fewer than N pages never fills its sample, so the
  fallback model cleans its pages.

``--folds DIR`` scores a learned model (``fusion``) on each site with the weights trained without
it (``scrapy-boilerplate train --folds K --folds-dir DIR``).  ``--random-samples K`` fits each site (of at least N pages) on K seeded random subsets of N pages
instead of its first N, and reports the mean F1 over sites of the subsets' mean and of their worst.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scrapy_boilerplate.corpus import Site, find_sites  # noqa: E402
from scrapy_boilerplate.evaluation.bench import BenchRow, gold_path, run_model  # noqa: E402
from scrapy_boilerplate.models.spec import ModelSpec  # noqa: E402


def gold_pages(site: Site) -> int:
    return 0 if site.name.startswith("_unknown") else sum(gold_path(page).is_file() for page in site.pages)


def mean_f1(
    data_dir: Path, size: int, min_pages: int, model: BenchRow, fallback: BenchRow
) -> tuple[float, float, int, int]:
    """Mean F1 over the pages of sites with ``min_pages`` gold pages: fitted (as ``bench``), and as
    in a crawl (sites smaller than ``size`` take the fallback); the sites, and how many fill ``size``."""
    fitted, crawl, sites, full = [], [], 0, 0
    for site in find_sites(data_dir):
        if gold_pages(site) < min_pages:
            continue
        sites += 1
        fills = len(site.pages) >= size
        full += fills
        source = model if fills else fallback
        fitted += [model.page_f1[str(page)] for page in site.pages if str(page) in model.page_f1]
        crawl += [source.page_f1[str(page)] for page in site.pages if str(page) in source.page_f1]
    return sum(fitted) / len(fitted), sum(crawl) / len(crawl), sites, full


def random_sample_f1(data_dir: Path, spec: ModelSpec, size: int, min_pages: int, subsets: int) -> tuple[float, float]:
    """Mean over sites of (mean, worst) F1 over ``subsets`` random samples of ``size`` pages."""
    import random

    from scrapy_boilerplate.evaluation.metric import score_text
    from scrapy_boilerplate.page import Page

    means, worsts = [], []
    for site in find_sites(data_dir):
        if gold_pages(site) < max(min_pages, size):
            continue
        pages = [(path, path.read_bytes()) for path in site.pages]
        golds = {path: gold_path(path).read_text(errors="replace") for path, _ in pages if gold_path(path).is_file()}
        f1s = []
        for seed in range(subsets):
            sample = random.Random(seed).sample(pages, size)
            model = spec.create().fit([Page.from_bytes(body, path.as_uri()) for path, body in sample])
            scores = [
                score_text(model.clean(Page.from_bytes(body, path.as_uri())).text, golds[path]).f1
                for path, body in pages
                if path in golds
            ]
            f1s.append(sum(scores) / len(scores))
        means.append(sum(f1s) / len(f1s))
        worsts.append(min(f1s))
    return sum(means) / len(means), sum(worsts) / len(worsts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--model", default=None, help="model spec (default: the crawl's BOILERPLATE_MODEL default)")
    parser.add_argument("--fallback", default=None, help="fallback spec (default: the crawl's fallback default)")
    parser.add_argument("--sizes", default="3,5,10,20")
    parser.add_argument("--min-pages", type=int, default=5, help="score the sites with at least this many gold pages")
    parser.add_argument("--folds", type=Path, help="a learned model's cross-validation folds (train --folds-dir)")
    parser.add_argument("--random-samples", type=int, default=0, metavar="K", help="also fit on K random subsets")
    args = parser.parse_args()
    from scrapy_boilerplate.crawl.config import DEFAULT_FALLBACK_MODEL, DEFAULT_MODEL

    spec = ModelSpec.parse(args.model or DEFAULT_MODEL)
    fallback = run_model(
        args.data_dir, ModelSpec.parse(args.fallback or DEFAULT_FALLBACK_MODEL), 1, None, folds=args.folds
    )
    print(
        f"model {spec.label}, fallback {fallback.label}: mean page F1 over the sites with at least "
        f"{args.min_pages} gold pages ({args.data_dir})"
    )
    print(f"{'sample size':>11} {'F1 fitted':>10} {'F1 crawl':>9} {'sites filling the sample':>25}")
    for size in (int(s) for s in args.sizes.split(",")):
        row = run_model(args.data_dir, spec, size, None, folds=args.folds)
        fitted, crawl, sites, full = mean_f1(args.data_dir, size, args.min_pages, row, fallback)
        line = f"{size:>11} {fitted:>10.3f} {crawl:>9.3f} {full:>14} of {sites}"
        if args.random_samples:
            mean, worst = random_sample_f1(args.data_dir, spec, size, args.min_pages, args.random_samples)
            line += f"   {args.random_samples} random samples: mean {mean:.3f}, worst {worst:.3f}"
        print(line)


if __name__ == "__main__":
    main()
