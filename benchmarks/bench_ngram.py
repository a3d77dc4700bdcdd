"""Speed and memory of the ``ngram`` model: FindOptimal on ~3.2 MB, fit on 20 pages, clean per page.

Targets (issue 4): FindOptimal on a 3.2 MB sample (76 pages of ~42 KB, the paper's WPOST size)
<= 2 s with peak memory <= 20x the input; fit of a 20-page sample <= 2 s; clean <= 5 ms/page
(median).  Pages are synthetic unless a data directory of ``*.html`` files is given::

    PYTHONPATH=. python benchmarks/bench_ngram.py [DATA_DIR]
"""

from __future__ import annotations

import statistics
import sys
import time
import tracemalloc
from pathlib import Path

from scrapy_boilerplate.models.ngram.corpus import build_corpus
from scrapy_boilerplate.models.ngram.counting import NGramCounter
from scrapy_boilerplate.models.ngram.find_optimal import AlternationTables, find_optimal_fast
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

SAMPLE_PAGES = 76
PAGE_BYTES = 42_000
FIT_PAGES = 20
WPOST_N = 24  # n of the paper's cut point on its 3.2 MB WPOST sample


def _mega_menu(site: str) -> str:
    """A large shared navigation block, as real news templates have."""
    sections = [f"{a}-{b}" for a in ("world", "local", "sport", "money", "arts", "tech", "life") for b in range(24)]
    links = "".join(
        f'<li class="menu-item menu-{s}"><a href="https://{site}/section/{s}/" '
        f'data-track="nav|{s}">{s.replace("-", " ").title()}</a></li>'
        for s in sections
    )
    return f'<nav class="mega-menu" role="navigation"><ul>{links}</ul></nav>'


def synthetic_pages(n_pages: int = SAMPLE_PAGES, page_bytes: int = PAGE_BYTES) -> list[str]:
    """``n_pages`` pages of one site, each padded to about ``page_bytes`` with template and article."""
    site = "bench.example"
    pages = make_site(site, n_pages, seed=7)
    extra = make_site("text.example", n_pages * 8, seed=8)
    menu = _mega_menu(site)
    out = []
    for i, page in enumerate(pages):
        html = page.html.replace("<body>", "<body>" + menu, 1)
        j = 0
        while len(html.encode("utf-8")) < page_bytes:
            paragraph = extra[(i * 8 + j) % len(extra)].article_text.replace("\n\n", "</p><p>")
            html = html.replace("</div></article>", f"<p>{paragraph}</p></div></article>", 1)
            j += 1
        out.append(html)
    return out


def read_pages(folder: Path, n_pages: int) -> list[str]:
    """The first ``n_pages`` ``*.html`` files under ``folder`` (recursively), decoded."""
    paths = sorted(folder.rglob("*.html"))[:n_pages]
    return [Page.from_bytes(path.read_bytes()).html for path in paths]


def bench_find_optimal(pages: list[str]) -> None:
    size = sum(len(p.encode("utf-8")) for p in pages)
    tracemalloc.start()
    started, cpu = time.perf_counter(), time.process_time()
    corpus = build_corpus(pages)
    cut = find_optimal_fast(corpus)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"find_optimal: {len(pages)} pages, {size / 1e6:.2f} MB -> cut (n={cut.n}, a={cut.a}), "
        f"alternation {cut.alternation}, {seconds:.2f} s wall, {cpu:.2f} s CPU (target <= 2 s), "
        f"peak {peak / 1e6:.1f} MB = {peak / size:.1f}x input (target <= 20x)"
    )


def bench_walk_to(pages: list[str], n_final: int = WPOST_N) -> None:
    """The work of a walk that ends at n = ``n_final`` (the paper's WPOST cut is (24, 10)):
    alternation tables for every n up to ``n_final + 1``, whatever the sample's own optimum."""
    size = sum(len(p.encode("utf-8")) for p in pages)
    tracemalloc.start()
    started, cpu = time.perf_counter(), time.process_time()
    tables = AlternationTables(NGramCounter(build_corpus(pages)))
    tables.get(n_final + 1)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"walk to n={n_final}: tables for n = 2..{n_final + 1} in {seconds:.2f} s wall, {cpu:.2f} s CPU "
        f"({cpu / n_final * 1000:.0f} ms CPU per n), peak {peak / 1e6:.1f} MB = {peak / size:.1f}x input"
    )


def bench_model(spec: str, pages: list[str]) -> None:
    from scrapy_boilerplate.models.spec import ModelSpec

    sample = [Page(p) for p in pages[:FIT_PAGES]]
    started = time.process_time()
    model = ModelSpec.parse(spec).create().fit(sample)
    fit_seconds = time.process_time() - started
    times = []
    for html in pages[FIT_PAGES:] or pages:
        page = Page(html)
        started = time.process_time()
        model.clean(page)
        times.append(time.process_time() - started)
    print(
        f"{spec}: fit {len(sample)} pages {fit_seconds:.2f} s CPU (target <= 2 s), "
        f"clean median {statistics.median(times) * 1000:.1f} ms CPU/page (target <= 5 ms, parsing included)"
    )


def main(argv: list[str]) -> None:
    pages = read_pages(Path(argv[1]), SAMPLE_PAGES) if len(argv) > 1 else synthetic_pages()
    print(
        f"CPU times are this process's own (the machine is shared); input: {'synthetic' if len(argv) < 2 else argv[1]}"
    )
    bench_find_optimal(pages)
    bench_walk_to(pages)
    for spec in ("ngram", "ngram:variant=paper"):
        try:
            bench_model(spec, pages)
        except ValueError as exc:  # the model is not registered yet
            print(f"{spec}: skipped ({exc})")


if __name__ == "__main__":
    main(sys.argv)
