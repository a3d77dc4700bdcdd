"""Clean and fit time of ``fusion`` against trafilatura and readability-lxml, in one run.

Every clean starts from the decoded HTML (a fresh :class:`Page`), so parsing is included, as it is
in the peers' time.  Site regime: the model is fitted on the site's first ``--sample-size`` pages
(parsed before the timed fit, as a crawl parses its sample) and cleans every page; single-page
regime: fitted on nothing.  Fits are timed on sites of at least ``--sample-size`` pages and of
exactly 5 (cut to 5 when larger).

    python benchmarks/fusion_speed.py ../shared/datasets/dragnet [--every 2] [--weights FILE]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from scrapy_boilerplate.corpus import find_sites
from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.offline import load_page
from scrapy_boilerplate.page import Page


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.2f}" if values else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--sample-size", type=int, default=20)
    parser.add_argument("--every", type=int, default=1, help="time every N-th page only")
    parser.add_argument("--weights", default=None, help="a weights file (default: the shipped one)")
    args = parser.parse_args()
    import trafilatura
    from readability import Document

    params = {"weights": args.weights} if args.weights else {}
    times: dict[str, list[float]] = {"fusion site": [], "fusion single": [], "trafilatura": [], "readability": []}
    fits: dict[int, list[float]] = {args.sample_size: [], 5: []}
    single = create_model("fusion", **params).fit([])
    count = 0
    for site in find_sites(args.data_dir):
        pages = []
        for path in site.pages:
            try:
                pages.append(load_page(path))
            except (OSError, ValueError):
                continue
        for size in fits:
            if len(pages) >= size:
                sample = [Page(p.html, p.url).parse() for p in pages[:size]]
                started = time.perf_counter()
                create_model("fusion", **params).fit(sample)
                fits[size].append(time.perf_counter() - started)
        model = create_model("fusion", **params).fit([Page(p.html, p.url).parse() for p in pages[: args.sample_size]])
        for page in pages:
            count += 1
            if count % args.every:
                continue
            for label, clean in (("fusion site", model.clean), ("fusion single", single.clean)):
                fresh = Page(page.html, page.url)
                started = time.perf_counter()
                clean(fresh)
                times[label].append(time.perf_counter() - started)
            started = time.perf_counter()
            trafilatura.extract(page.html)
            times["trafilatura"].append(time.perf_counter() - started)
            started = time.perf_counter()
            Document(page.html).summary(html_partial=True)
            times["readability"].append(time.perf_counter() - started)
    print(f"{len(times['trafilatura'])} pages of {args.data_dir}; median ms per page, parsing included")
    for label, values in times.items():
        print(f"  clean {label:<14} {_ms(values):>8}")
    ratio = statistics.median(times["fusion site"]) / statistics.median(times["trafilatura"])
    print(f"  fusion site / trafilatura: {ratio:.2f}")
    for size, values in fits.items():
        worst = f"{max(values) * 1000:.0f}" if values else "-"
        print(f"  fit on {size:>2} pages: median {_ms(values)} ms, max {worst} ms ({len(values)} sites)")


if __name__ == "__main__":
    main()
