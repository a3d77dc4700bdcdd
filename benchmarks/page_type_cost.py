"""What telling a page's type costs beside cleaning it, with trafilatura as the peer, in one run.

Each page is parsed once (a fresh :class:`Page`) and cleaned by ``fusion`` fitted on nothing (the
single-page regime), parsing included; its type is then told from the same parsed page, as
``extract`` and a crawl do.  Prints the median and the total time of each step per page and the
type's share of a clean.

    python benchmarks/page_type_cost.py ../shared/datasets/wcxb [--every 4]
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
from scrapy_boilerplate.pagetype.classify import PageTypeClassifier


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--every", type=int, default=1, help="time every N-th page only")
    args = parser.parse_args()
    import trafilatura

    model = create_model("fusion").fit([])
    classifier = PageTypeClassifier()
    assert classifier.weights.trees  # read before the timing starts, as a run reads them once
    times: dict[str, list[float]] = {"fusion clean": [], "page type": [], "trafilatura": []}
    count = 0
    for site in find_sites(args.data_dir):
        for path in site.pages:
            count += 1
            if count % args.every:
                continue
            try:
                loaded = load_page(path)
            except (OSError, ValueError):
                continue
            page = Page(loaded.html, loaded.url)
            started = time.perf_counter()
            model.clean(page)
            times["fusion clean"].append(time.perf_counter() - started)
            started = time.perf_counter()
            classifier.classify(page)
            times["page type"].append(time.perf_counter() - started)
            started = time.perf_counter()
            trafilatura.extract(loaded.html)
            times["trafilatura"].append(time.perf_counter() - started)
    print(
        f"{len(times['page type'])} pages of {args.data_dir}; ms per page (the type told from the clean's parsed page)"
    )
    for label, values in times.items():
        print(
            f"  {label:<13} median {statistics.median(values) * 1000:8.2f}   mean {statistics.fmean(values) * 1000:8.2f}"
        )
    clean, told, peer = (sum(values) for values in times.values())
    print(
        f"  page type / fusion clean: {told / clean:.2f} of the total time, median page {statistics.median(t / c for t, c in zip(times['page type'], times['fusion clean'], strict=True)):.2f}"
    )
    print(
        f"  (fusion clean + page type) / trafilatura: {(clean + told) / peer:.2f}; fusion clean alone: {clean / peer:.2f}"
    )


if __name__ == "__main__":
    main()
