"""Generate the demo corpus: three sites with realistic templates around public-domain prose.

``python example_project/make_corpus.py [OUT]`` writes ``OUT/<site>/article/N.html`` and the
gold article text ``N.txt`` (default OUT: ``example_project/demo/corpus``).  Templates come from
:mod:`scrapy_boilerplate.testing.synthetic` (header, navigation, cookie banner, sidebar, related articles,
comments, footer); article bodies are windows of the passages in ``demo/public_domain.txt``.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from scrapy_boilerplate.testing.localsite import write_linked_site

HERE = Path(__file__).resolve().parent
TEXTS = HERE / "demo" / "public_domain.txt"
CORPUS = HERE / "demo" / "corpus"
# Two sites large enough for a site model, one smaller than the sample (cleaned by the fallback).
SITES = {"harbor-gazette.example": 40, "field-notes.example": 30, "tiny-press.example": 8}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def read_passages(path: Path = TEXTS) -> list[list[str]]:
    """Each ``## Title`` block of the text file as a list of sentences."""
    passages: list[list[str]] = []
    current: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            if current:
                passages.append(current)
            current = []
        elif line.strip():
            current.extend(SENTENCE_END.split(line.strip()))
    if current:
        passages.append(current)
    return passages


def prose(passages: list[list[str]]):
    """A ``paragraphs(rng, i)`` callback: 2-4 paragraphs of consecutive sentences of one passage."""

    def paragraphs(rng: random.Random, i: int) -> list[str]:
        sentences = passages[rng.randrange(len(passages))]
        count = rng.randint(4, min(9, len(sentences)))
        start = rng.randint(0, len(sentences) - count)
        window = sentences[start : start + count]
        cuts = sorted(rng.sample(range(1, count), min(count - 1, rng.randint(1, 3))))
        return [" ".join(window[a:b]) for a, b in zip([0, *cuts], [*cuts, count], strict=False)]

    return paragraphs


def make_corpus(out: Path = CORPUS) -> dict[str, int]:
    """Write every demo site under ``out``; returns pages per site."""
    passages = read_passages()
    for seed, (site, n_pages) in enumerate(SITES.items()):
        write_linked_site(out / site, site, n_pages, seed=seed, paragraphs=prose(passages))
    return dict(SITES)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS
    print(make_corpus(target))
