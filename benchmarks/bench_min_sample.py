"""How few sample pages still beat the fallback: the default of BOILERPLATE_MIN_SAMPLE_SIZE.

``python benchmarks/bench_min_sample.py DATA_DIR [--model SPEC] [--fallback SPEC] [--sizes 1,2,3,4,5]
[--subsets 3] [--folds DIR]``

At a graceful stop a domain's sample is often partial: k pages of the BOILERPLATE_SAMPLE_SIZE it
needs.  Its waiting items are mostly the items of those very pages, so they get either the model
fitted on the k pages or the fallback.  For every site of DATA_DIR with at least 5 gold pages (the
site-level sites; ``_unknown*`` folders never) and every k, the model is fitted on the site's first
k pages and on ``--subsets - 1`` seeded random sets of k pages, and each fit is scored on

- ``sample``: the k pages it was fitted on (what the waiting items get), and
- ``site``: every gold page of the site (what the domain's later items would get),

against the fallback on the same pages.  Prints the mean page F1 of each, the difference, and the
share of (site, subset) fits that score below the fallback on their sample pages.  A learned
model (``fusion``) is scored with the ``--folds`` weights that never saw the site, when given.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gold_sites import GoldSite, gold_sites  # noqa: E402

from scrapy_boilerplate.evaluation.heldout import HeldOut  # noqa: E402
from scrapy_boilerplate.evaluation.metric import score_text  # noqa: E402
from scrapy_boilerplate.models.spec import ModelSpec  # noqa: E402
from scrapy_boilerplate.page import Page  # noqa: E402


@dataclass
class Tally:
    """Page F1 sums for one k: the model and the fallback, on the sample pages and on the site's pages."""

    sample: list[float] = field(default_factory=list)
    sample_fallback: list[float] = field(default_factory=list)
    site: list[float] = field(default_factory=list)
    site_fallback: list[float] = field(default_factory=list)
    fits: int = 0
    worse: int = 0


def samples(n_pages: int, k: int, subsets: int, seed: int) -> list[list[int]]:
    """Page indices of the first k pages, then of ``subsets - 1`` seeded random sets of k."""
    chosen = [list(range(k))]
    rng = random.Random(seed)
    for _ in range(subsets - 1):
        chosen.append(sorted(rng.sample(range(n_pages), k)))
    return chosen


def f1(model: object, page: Page, gold: str) -> float:
    return score_text(model.clean(Page(page.html, page.url)).text, gold).f1  # type: ignore[attr-defined]


def measure(sites: list[GoldSite], spec: HeldOut, fallback: HeldOut, sizes: list[int], subsets: int) -> dict:
    """k -> :class:`Tally` over every site with at least k gold pages."""
    tallies = {k: Tally() for k in sizes}
    for n, entry in enumerate(sites):
        pages = entry.pages
        base = fallback.spec_for(entry.site).create().fit([])
        fallback_f1 = [f1(base, page, gold) for page, gold in pages]
        site_spec = spec.spec_for(entry.site)
        for k in sizes:
            if len(pages) < k:
                continue
            tally = tallies[k]
            for chosen in samples(len(pages), k, subsets, seed=n):
                model = site_spec.create().fit([Page(pages[i][0].html, pages[i][0].url) for i in chosen])
                scores = [f1(model, page, gold) for page, gold in pages]
                on_sample = [scores[i] for i in chosen]
                base_sample = [fallback_f1[i] for i in chosen]
                tally.sample += on_sample
                tally.sample_fallback += base_sample
                tally.site += scores
                tally.site_fallback += fallback_f1
                tally.fits += 1
                tally.worse += sum(on_sample) < sum(base_sample) - 1e-9
    return tallies


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", type=Path)
    parser.add_argument(
        "--model", default=None, help="site model spec (default: the crawl's BOILERPLATE_MODEL default)"
    )
    parser.add_argument("--fallback", default=None, help="fallback spec (default: the crawl's fallback default)")
    parser.add_argument("--sizes", default="1,2,3,4,5", help="comma-separated k")
    parser.add_argument("--subsets", type=int, default=3, help="samples per site and k: the first k pages, then random")
    parser.add_argument("--folds", type=Path, default=None, help="fold weights of a learned model (train --folds-dir)")
    args = parser.parse_args()
    from scrapy_boilerplate.crawl.config import DEFAULT_FALLBACK_MODEL, DEFAULT_MODEL

    spec = HeldOut(ModelSpec.parse(args.model or DEFAULT_MODEL), args.folds)
    fallback = HeldOut(ModelSpec.parse(args.fallback or DEFAULT_FALLBACK_MODEL), args.folds)
    sizes = [int(k) for k in args.sizes.split(",")]
    sites = gold_sites(args.data_dir)
    tallies = measure(sites, spec, fallback, sizes, args.subsets)
    print(
        f"model {spec.label} fitted on k pages against the fallback {fallback.label}: mean page F1 over "
        f"{len(sites)} sites of {args.data_dir} with at least 5 gold pages, {args.subsets} samples per site and k"
    )
    print(
        f"{'k':>3} {'fits':>5} {'sample F1':>10} {'fallback':>9} {'gain':>7} "
        f"{'site F1':>8} {'fallback':>9} {'gain':>7} {'fits below fallback':>20}"
    )
    for k, t in tallies.items():
        sample, sample_base, site, site_base = (
            mean(t.sample),
            mean(t.sample_fallback),
            mean(t.site),
            mean(t.site_fallback),
        )
        print(
            f"{k:>3} {t.fits:>5} {sample:>10.3f} {sample_base:>9.3f} {sample - sample_base:>+7.3f} "
            f"{site:>8.3f} {site_base:>9.3f} {site - site_base:>+7.3f} {t.worse / max(t.fits, 1):>19.0%}"
        )
    for note in {spec.note(), fallback.note()} - {""}:
        print(note)


if __name__ == "__main__":
    main()
