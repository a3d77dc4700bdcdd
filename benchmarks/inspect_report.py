"""How fast the inspection report is built, how big it gets, and how well the model's decisions explain it.

    PYTHONPATH=. python benchmarks/inspect_report.py --model pvalue [--max-sites N] DATA_DIR

For every page of every site (fitted as ``extract`` does) it builds the report, reads it back
from its markup and prints: report ms/page and summary ms/site (medians), report size against
the page's size, the pages whose marked-kept text is not token for token the output (should be
0), the output words the report could not place on their page, the share of visible text an
explicit decision explains, and the share on which the model's decisions and its output part
ways.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from scrapy_boilerplate.corpus import find_sites
from scrapy_boilerplate.inspection import mark_page, read_report, summarize_site
from scrapy_boilerplate.inspection.explain import decision_views
from scrapy_boilerplate.inspection.report import render_report
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.offline import process_site
from scrapy_boilerplate.tokenize import tokenize


def _page_figures(marked, report: str, figures: Counter) -> None:
    shown = read_report(report)
    figures["pages"] += 1
    figures["unequal"] += not (shown.kept_is_output() and shown.output == tokenize(marked.cleaned.text))
    figures["output words"] += len(shown.output)
    figures["unplaced"] += len(shown.unplaced)
    segments = marked.all_segments()
    figures["chars"] += sum(s.chars for s in segments)
    figures["explained"] += sum(s.chars for s in segments if s.decision is not None)
    figures["disagreeing"] += sum(v.disagreeing_chars for v in decision_views(marked))


def main() -> None:
    """Run over DATA_DIR and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=ModelSpec.parse, default=ModelSpec("pvalue"))
    parser.add_argument("--sample-size", type=int, default=20)
    parser.add_argument("--max-sites", type=int, default=None)
    parser.add_argument("data_dir", type=Path)
    args = parser.parse_args()

    report_ms, summary_ms, size_ratio = [], [], []
    figures: Counter = Counter()
    sites = find_sites(args.data_dir)[: args.max_sites]
    for site in sites:
        outcome = process_site(site, args.model, args.sample_size)
        done = [(o.page, o.cleaned) for o in outcome.pages if o.page is not None and o.cleaned is not None]
        started = time.perf_counter()
        summary = summarize_site(args.model.label, outcome.sample_pages, done)
        summary_ms.append((time.perf_counter() - started) * 1000)
        for page, cleaned in done:
            started = time.perf_counter()
            marked = mark_page(page, cleaned)
            report = render_report(marked, summary)
            report_ms.append((time.perf_counter() - started) * 1000)
            size_ratio.append(len(report) / max(len(page.html), 1))
            _page_figures(marked, report, figures)
    chars = max(figures["chars"], 1)
    print(f"model {args.model.label}: {len(sites)} sites, {figures['pages']} pages")
    print(f"report ms/page: median {statistics.median(report_ms):.1f}, max {max(report_ms):.0f}")
    print(f"summary ms/site (up to 40 pages): median {statistics.median(summary_ms):.1f}, max {max(summary_ms):.0f}")
    print(f"report size / page size: median {statistics.median(size_ratio):.2f}")
    print(f"pages whose kept text is not the output token for token: {figures['unequal']}")
    print(f"output words not placed on their page: {figures['unplaced']} of {figures['output words']}")
    print(f"visible text an explicit decision explains: {figures['explained'] / chars:.1%}")
    disagreeing = figures["disagreeing"]
    print(
        f"visible text where the decisions and the output part ways: {disagreeing / chars:.2%} ({disagreeing:,} characters)"
    )


if __name__ == "__main__":
    main()
