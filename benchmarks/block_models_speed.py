"""Speed of the block models: fit of a 20-page sample and clean time per page (medians).

Usage: PYTHONPATH=. python benchmarks/block_models_speed.py DATA_DIR [--min-pages 10] [--specs ...]

For every site with at least ``--min-pages`` pages: fit on its first 20 pages (or all it has),
freshly read so parsing is included as in a crawl, then clean every page of the site twice:
freshly read (parsing included) and again (tree already parsed: the model's own cost).  Fit
times are reported for the sites whose sample has the full 20 pages, and per sample page for
all.  Targets: fit <= 1 s for 20 pages, clean <= 5 ms per page (median).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from scrapy_boilerplate.corpus import find_sites
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.offline import load_page

SAMPLE = 20
DEFAULT_SPECS = "block_dup,block_dup:variant=paper,entropy,entropy:variant=paper"


def site_paths(data_dir: Path, min_pages: int) -> list[list[Path]]:
    """Page paths of the sites with at least ``min_pages`` pages."""
    return [list(site.pages) for site in find_sites(data_dir) if len(site.pages) >= min_pages]


def measure(spec: ModelSpec, sites: list[list[Path]]) -> tuple[list[float], list[float], list[float], list[float]]:
    """(fit seconds of full 20-page samples, fit seconds per sample page, clean seconds per page
    with parsing, without parsing)."""
    fits, per_page, cold, warm = [], [], [], []
    for paths in sites:
        sample = [load_page(p) for p in paths[:SAMPLE]]
        started = time.perf_counter()
        model = spec.create().fit(sample)
        elapsed = time.perf_counter() - started
        per_page.append(elapsed / len(sample))
        if len(sample) == SAMPLE:
            fits.append(elapsed)
        for path in paths:
            page = load_page(path)
            started = time.perf_counter()
            model.clean(page)
            cold.append(time.perf_counter() - started)
            started = time.perf_counter()
            model.clean(page)
            warm.append(time.perf_counter() - started)
    return fits, per_page, cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--min-pages", type=int, default=10)
    parser.add_argument("--specs", default=DEFAULT_SPECS)
    args = parser.parse_args()
    sites = site_paths(args.data_dir, args.min_pages)
    full = sum(1 for s in sites if len(s) >= SAMPLE)
    print(
        f"{len(sites)} sites with >= {args.min_pages} pages ({full} with >= {SAMPLE}), "
        f"{sum(len(s) for s in sites)} pages cleaned per model\n"
    )
    print(
        f"| model | fit ms, {SAMPLE}-page sample (max) | fit ms per sample page | "
        "clean ms/page median, parse included | parse excluded |"
    )
    print("|---|---:|---:|---:|---:|")
    for text in args.specs.split(","):
        fits, per_page, cold, warm = measure(ModelSpec.parse(text), sites)
        full_fit = f"{max(fits) * 1000:.1f}" if fits else "-"
        print(
            f"| {text} | {full_fit} | {statistics.median(per_page) * 1000:.2f} "
            f"| {statistics.median(cold) * 1000:.2f} | {statistics.median(warm) * 1000:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
