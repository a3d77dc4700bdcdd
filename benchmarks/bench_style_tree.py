"""Speed and size of the ``style_tree`` model: fit time, clean time per page, bytes per fitted SST.

Prints, for each variant: the median time to fit a 20-page sample, the median clean time per page,
and the size of the saved model as the sample grows from 20 to 200 pages (it must stay bounded).
Synthetic sites (:mod:`scrapy_boilerplate.testing.synthetic`) are always measured; with ``--data DIR`` the
real sites of a corpus are measured too (fit on each site's first 20 pages, clean all its pages).

    PYTHONPATH=. python benchmarks/bench_style_tree.py [--data ../shared/datasets/dragnet]

Timings are wall-clock on whatever else the machine is doing: compare figures from one run.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from corpus_pages import fresh, seconds, site_pages

from scrapy_boilerplate.models import create_model, dump_model
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

VARIANTS = ("improved", "paper")
SAMPLE = 20
GROWTH = (20, 50, 100, 200)
SITES = ("alpha.example", "beta.example", "gamma.example")


def synthetic_pages(site: str, n: int) -> list[Page]:
    return [Page(s.html, s.url) for s in make_site(site, n, seed=11)]


def fit_ms(variant: str, pages: list[Page]) -> float:
    return seconds(create_model("style_tree", variant=variant).fit, [fresh(page) for page in pages]) * 1000


def clean_ms(model, pages: list[Page]) -> list[float]:
    return [seconds(model.clean, fresh(page)) * 1000 for page in pages]


def synthetic_report(variant: str) -> None:
    fits, cleans, sizes = [], [], {n: [] for n in GROWTH}
    for site in SITES:
        pages = synthetic_pages(site, max(GROWTH) + 50)
        fits += [fit_ms(variant, pages[:SAMPLE]) for _ in range(3)]
        model = create_model("style_tree", variant=variant).fit(pages[:SAMPLE])
        cleans += clean_ms(model, pages[SAMPLE : SAMPLE + 50])
        for n in GROWTH:
            sizes[n].append(len(dump_model(create_model("style_tree", variant=variant).fit(pages[:n]))))
    growth = "  ".join(f"{n}p: {statistics.median(sizes[n]):.0f} B" for n in GROWTH)
    print(
        f"synthetic  {variant:<9} fit {SAMPLE} pages: median {statistics.median(fits):.1f} ms | "
        f"clean: median {statistics.median(cleans):.2f} ms/page | saved SST by sample size: {growth}"
    )


def real_report(variant: str, data_dir: Path) -> None:
    fits, cleans, sizes = [], [], []
    for _, pages in site_pages(data_dir):
        if not pages:
            continue
        model = create_model("style_tree", variant=variant)
        fits.append(seconds(model.fit, pages[:SAMPLE]) * 1000)
        cleans += clean_ms(model, pages)
        sizes.append(len(dump_model(model)))
    print(
        f"real       {variant:<9} {len(fits)} sites | fit: median {statistics.median(fits):.1f} ms, "
        f"max {max(fits):.0f} ms | clean: median {statistics.median(cleans):.2f} ms/page | "
        f"saved SST: median {statistics.median(sizes) / 1024:.1f} KB, max {max(sizes) / 1024:.1f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, help="a corpus of saved sites to measure too")
    args = parser.parse_args()
    for variant in VARIANTS:
        synthetic_report(variant)
    if args.data:
        for variant in VARIANTS:
            real_report(variant, args.data)


if __name__ == "__main__":
    main()
