"""How fast the inspection report is built, how big it gets, and how well it agrees with the model.

    PYTHONPATH=. python benchmarks/inspect_report.py --model pvalue [--max-sites N] DATA_DIR

For every page of every site (fitted as ``extract`` does) it builds the report and prints:
report ms/page and summary ms/site (medians), report size against the page's size, the
share of visible text that an explicit decision covers (the rest is inferred) or keeps while
the model's text lacks it, and the
agreement between the text the report shows as kept and the model's output (token F1), and
the share of visible text that ``chars:`` ranges can reach (located in ``page.html``).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from scrapy_boilerplate.corpus import find_sites
from scrapy_boilerplate.evaluation.metric import score_text
from scrapy_boilerplate.inspection import build_report, summarize_site, walk
from scrapy_boilerplate.inspection.coverage import Text
from scrapy_boilerplate.models.base import CleanedPage, Decision
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.offline import process_site


def _shown(page, cleaned) -> tuple[str, int, int, int]:
    """Text shown as kept, and characters: covered by a decision, kept by one but missing, all."""
    kept, covered, missing, total = [], 0, 0, 0
    for event in walk(page, cleaned):
        if isinstance(event, Text) and event.text.strip():
            chars = len(event.text.strip())
            total += chars
            covered += chars if event.verdict.decision is not None else 0
            missing += chars if event.verdict.missing else 0
            if event.verdict.kept:
                kept.append(event.text)
    return " ".join(kept), covered, missing, total


def _located(page) -> tuple[int, int]:
    """Characters of visible text that a ``chars:`` range over the whole page finds (located, all)."""
    whole = CleanedPage("", "", "probe", 0, 0, None, (Decision(f"chars:0-{len(page.html)}", True, 0, "all"),))
    found = total = 0
    for event in walk(page, whole):
        if isinstance(event, Text) and event.text.strip():
            total += len(event.text.strip())
            found += len(event.text.strip()) if event.verdict.decision is not None else 0
    return found, total


def main() -> None:
    """Run over DATA_DIR and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=ModelSpec.parse, default=ModelSpec("pvalue"))
    parser.add_argument("--sample-size", type=int, default=20)
    parser.add_argument("--max-sites", type=int, default=None)
    parser.add_argument("data_dir", type=Path)
    args = parser.parse_args()

    report_ms, summary_ms, size_ratio, agreement = [], [], [], []
    covered = missing = total = failures = pages = located = located_total = 0
    sites = find_sites(args.data_dir)[: args.max_sites]
    for site in sites:
        outcome = process_site(site, args.model, args.sample_size)
        done = [(o.page, o.cleaned) for o in outcome.pages if o.page is not None and o.cleaned is not None]
        started = time.perf_counter()
        summary = summarize_site(args.model.label, outcome.sample_pages, done)
        summary_ms.append((time.perf_counter() - started) * 1000)
        for page, cleaned in done:
            pages += 1
            try:
                started = time.perf_counter()
                report = build_report(page, cleaned, summary)
                report_ms.append((time.perf_counter() - started) * 1000)
            except Exception as exc:  # count and go on: the figure to fix is the failure count
                failures += 1
                print(f"FAILED {page.url}: {exc!r}")
                continue
            size_ratio.append(len(report) / max(len(page.html), 1))
            kept, page_covered, page_missing, page_total = _shown(page, cleaned)
            covered, missing, total = covered + page_covered, missing + page_missing, total + page_total
            agreement.append(score_text(kept, cleaned.text).f1)
            page_located, page_all = _located(page)
            located, located_total = located + page_located, located_total + page_all
    print(f"model {args.model.label}: {len(sites)} sites, {pages} pages, {failures} failures")
    print(f"report ms/page: median {statistics.median(report_ms):.1f}, max {max(report_ms):.0f}")
    print(f"summary ms/site (all its pages): median {statistics.median(summary_ms):.1f}, max {max(summary_ms):.0f}")
    print(f"report size / page size: median {statistics.median(size_ratio):.2f}")
    print(f"visible text covered by an explicit decision: {covered / max(total, 1):.1%}")
    print(f"visible text kept by a decision but missing from the model's text: {missing / max(total, 1):.1%}")
    print(f"visible text located in page.html for chars: ranges: {located / max(located_total, 1):.1%}")
    print(
        f"kept-in-report vs model text, token F1: mean {statistics.mean(agreement):.3f}, "
        f"pages >= 0.99: {sum(f >= 0.99 for f in agreement) / len(agreement):.1%}"
    )


if __name__ == "__main__":
    main()
