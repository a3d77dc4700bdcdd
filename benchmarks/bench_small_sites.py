"""Sites of only five pages: does learning a site model ever leave a small site worse off than ``pvalue``?

For every site of the data set with at least ``--pages`` gold pages, keep its first ``--pages`` pages
only (as if the site were that small), fit each model on them with the default sample size, clean
them, and print the mean token F1 per model over those pages, plus the sites where a model falls
below ``pvalue``.

    PYTHONPATH=. python benchmarks/bench_small_sites.py ../shared/datasets/dragnet \\
        --models style_tree,style_tree:variant=paper,pvalue
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gold_sites import gold_sites

from scrapy_boilerplate.cli import DEFAULT_SAMPLE_SIZE
from scrapy_boilerplate.evaluation.metric import score_text
from scrapy_boilerplate.models.spec import ModelSpec


def small_sites(data_dir: Path, n_pages: int) -> list[tuple[str, list]]:
    """(site, [(page, gold text)]) for the first ``n_pages`` gold pages of every site-level site."""
    return [(entry.site.name, entry.pages) for entry in gold_sites(data_dir, n_pages)]


def site_f1(spec: ModelSpec, pages: list, sample_size: int) -> float:
    """Mean F1 of ``spec`` fitted and run on ``pages`` alone."""
    model = spec.create().fit([page for page, _ in pages][:sample_size])
    return sum(score_text(model.clean(page).text, gold).f1 for page, gold in pages) / len(pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--models", default="style_tree,style_tree:variant=paper,pvalue")
    parser.add_argument("--pages", type=int, default=5)
    parser.add_argument("--sample-size", type=int, default=DEFAULT_SAMPLE_SIZE)
    args = parser.parse_args()
    specs = [ModelSpec.parse(text) for text in args.models.split(",")]
    sites = small_sites(args.data_dir, args.pages)
    scores = {spec.label: {name: site_f1(spec, pages, args.sample_size) for name, pages in sites} for spec in specs}
    n_pages = sum(len(pages) for _, pages in sites)
    weights = {name: len(pages) / n_pages for name, pages in sites}
    print(f"{len(sites)} sites cut to their first {args.pages} pages ({n_pages} pages), sample size {args.sample_size}")
    print(f"{'model':<28} {'mean F1':>8} {'sites below pvalue':>19}")
    base = scores.get("pvalue")
    for label, per_site in scores.items():
        mean = sum(f1 * weights[name] for name, f1 in per_site.items())
        below = "-" if base is None or label == "pvalue" else str(sum(per_site[s] < base[s] - 1e-9 for s in per_site))
        print(f"{label:<28} {mean:>8.3f} {below:>19}")


if __name__ == "__main__":
    main()
