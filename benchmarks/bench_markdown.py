"""Markdown of cleaned pages: how much of ``text`` it keeps and what it costs beside a clean.

    PYTHONPATH=. python benchmarks/bench_markdown.py ../shared/datasets/{dragnet,cleaneval,chaos,readability} \\
        /work/data/wcxb

Each site is fitted on its first ``--sample-size`` pages, as ``scrapy-boilerplate extract`` does,
and every page is cleaned again from its HTML.  Per page, in CPU seconds: the clean, parsing
included (what a crawl pays per item), the structure-keeping HTML (``CleanedPage.html``, read
after the clean), and each converter on that HTML.  Fidelity is the
share of ``text``'s word tokens (the project's tokeniser, multisets) found in the Markdown, over the
whole set and on its worst page.  Costs are ratios to the clean, measured in the same run.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from scrapy_boilerplate.corpus import find_sites
from scrapy_boilerplate.markdown import to_markdown
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.offline import process_site
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.tokenize import tokenize


def _markdownify() -> Callable[[str], str]:
    from markdownify import markdownify

    return lambda html: markdownify(html, heading_style="ATX", bullets="-")


CONVERTERS: dict[str, Callable[[], Callable[[str], str]]] = {
    "html-to-markdown": lambda: to_markdown,
    "markdownify": _markdownify,
}


@dataclass
class ConverterFigures:
    """One converter on one set: seconds, text tokens found, the worst page's share."""

    seconds: float = 0.0
    found: int = 0
    worst: float = 1.0
    below: int = 0  # pages under 99 % of their tokens


@dataclass
class SetFigures:
    """One data set: pages, clean and HTML seconds, text tokens, and each converter's figures."""

    pages: int = 0
    clean: float = 0.0
    html: float = 0.0
    tokens: int = 0
    converters: dict[str, ConverterFigures] = field(default_factory=dict)


def _found(text_tokens: Counter[str], markdown: str) -> int:
    markdown_tokens = Counter(tokenize(markdown))
    return sum(min(count, markdown_tokens[token]) for token, count in text_tokens.items())


def measure_set(
    data_dir: Path, spec: ModelSpec, sample_size: int, converters: dict[str, Callable[[str], str]]
) -> SetFigures:
    """Clean every page of ``data_dir`` and convert it with each converter."""
    figures = SetFigures(converters={name: ConverterFigures() for name in converters})
    for site in find_sites(data_dir):
        fitted = process_site(site, spec, sample_size)
        for outcome in fitted.pages:
            if outcome.cleaned is None or outcome.page is None or fitted.fitted is None:
                continue
            page = Page(outcome.page.html, outcome.page.url)
            started = time.process_time()
            cleaned = fitted.fitted.clean(page)
            figures.clean += time.process_time() - started
            figures.pages += 1
            started = time.process_time()
            html = cleaned.html
            figures.html += time.process_time() - started
            text_tokens = Counter(tokenize(cleaned.text))
            total = sum(text_tokens.values())
            figures.tokens += total
            for name, convert in converters.items():
                started = time.process_time()
                markdown = convert(html)
                own = figures.converters[name]
                own.seconds += time.process_time() - started
                found = _found(text_tokens, markdown)
                own.found += found
                if total:
                    own.worst = min(own.worst, found / total)
                    own.below += found < 0.99 * total
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data_dirs", nargs="+", type=Path)
    parser.add_argument("--model", default="fusion")
    parser.add_argument("--sample-size", type=int, default=20)
    parser.add_argument("--converters", default=",".join(CONVERTERS))
    args = parser.parse_args()
    converters = {name: CONVERTERS[name]() for name in args.converters.split(",")}
    spec = ModelSpec.parse(args.model)
    print(f"model {spec.label}; cost: CPU seconds as a share of the clean's (parsing included)")
    for convert in converters.values():
        convert("<div><p>warm up</p></div>")  # a converter's set-up is no page's cost
    print(
        "| set | pages | html / clean | converter | convert / clean | html + convert / clean | tokens kept | worst page | pages < 99% |"
    )
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|")
    for data_dir in args.data_dirs:
        figures = measure_set(data_dir, spec, args.sample_size, converters)
        clean = figures.clean or 1.0
        for name, own in figures.converters.items():
            kept = own.found / figures.tokens if figures.tokens else 1.0
            print(
                f"| {data_dir.name} | {figures.pages} | {figures.html / clean:.3f} | {name} | {own.seconds / clean:.3f} "
                f"| {(figures.html + own.seconds) / clean:.3f} | {kept:.4%} | {own.worst:.3f} | {own.below} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
