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
from pathlib import Path

from corpus_pages import EveryNth, fresh, parsed, seconds, site_pages

from scrapy_boilerplate.models import create_model


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
    picks = EveryNth(args.every)
    for _, pages in site_pages(args.data_dir):
        for size in fits:
            if len(pages) >= size:
                fits[size].append(seconds(create_model("fusion", **params).fit, parsed(pages[:size])))
        model = create_model("fusion", **params).fit(parsed(pages[: args.sample_size]))
        for page in pages:
            if not picks():
                continue
            times["fusion site"].append(seconds(model.clean, fresh(page)))
            times["fusion single"].append(seconds(single.clean, fresh(page)))
            times["trafilatura"].append(seconds(trafilatura.extract, page.html))
            times["readability"].append(seconds(lambda html: Document(html).summary(html_partial=True), page.html))
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
