"""The paper's FindOptimal as written (Figs. 2 and 3), in plain Python: the reference.

"A preprocessing method for Web mining": documents are plain strings; a cut point (n, a)
marks as useless every n-gram whose frequency is in the top a percent of the distinct
n-grams; the range string holds 0 under useless n-grams and 1 elsewhere; the alternation
count is the number of 0/1 boundaries summed over documents.  FindOptimal walks from (2, 1)
to (n, a+1) or (n+1, a) while that lowers the count.

This module is slow (a dict of n-grams per n) and exists to pin the semantics down: the fast
implementation (:mod:`scrapy_boilerplate.models.ngram.find_optimal`) must agree with it exactly.
Choices the paper leaves open, made identically in both:

- n-grams never cross document boundaries (the count is defined per document);
- ``countsort`` breaks frequency ties by first occurrence (documents in order);
- the top a percent of D distinct n-grams are the first ``a * D // 100`` of them;
- with ``delimiters``, an n-gram holding ``<`` or ``>`` anywhere but at its ends is not an
  n-gram at all (the paper's future-work idea).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scrapy_boilerplate.models.ngram.cut_point import CutPoint, fig3_walk

DELIMITERS = frozenset("<>")
_SPACES_RE = re.compile(r"[\t\n\r\f\v ]+")


@dataclass(frozen=True)
class RangeScores:
    """Per-character agreement of a range string with a correct string (section 4.1)."""

    accuracy: float
    recall: float
    precision: float


def preprocess(text: str) -> str:
    """The paper's only preprocessing: tabs and newlines become a space, runs of spaces collapse."""
    return _SPACES_RE.sub(" ", text)


def is_ngram(gram: str, delimiters: bool) -> bool:
    """False for a delimiter-aware n-gram with ``<`` or ``>`` strictly inside it."""
    return not delimiters or not DELIMITERS.intersection(gram[1:-1])


def countsort(docs: Sequence[str], n: int, delimiters: bool = False) -> list[tuple[str, int]]:
    """All n-grams of ``docs`` with their counts, most frequent first (ties: first occurrence)."""
    counts: dict[str, int] = {}
    for doc in docs:
        for i in range(len(doc) - n + 1):
            gram = doc[i : i + n]
            if is_ngram(gram, delimiters):
                counts[gram] = counts.get(gram, 0) + 1
    return sorted(counts.items(), key=lambda item: -item[1])


def top_share(ranked: Sequence[tuple[str, int]], a: int) -> set[str]:
    """W: the first a percent of the ranked n-grams."""
    return {gram for gram, _ in ranked[: a * len(ranked) // 100]}


def range_string(x: str, useless: set[str] | frozenset[str]) -> str:
    """r_x(W): '0' under every occurrence of every string of W in x, '1' elsewhere."""
    marks = ["1"] * len(x)
    for v in useless:
        start = x.find(v)
        while start >= 0 and v:
            marks[start : start + len(v)] = "0" * len(v)
            start = x.find(v, start + 1)
    return "".join(marks)


def boundaries(r: str) -> int:
    """Number of boundaries between different values on a range string."""
    return sum(1 for left, right in zip(r, r[1:], strict=False) if left != right)


def alternation(docs: Sequence[str], ranked: Sequence[tuple[str, int]], a: int) -> int:
    """A_D(n, a): boundaries of the range strings of the top a percent n-grams, summed over docs."""
    useless = top_share(ranked, a)
    return sum(boundaries(range_string(doc, useless)) for doc in docs)


def find_optimal(docs: Sequence[str], delimiters: bool = False) -> CutPoint:
    """Fig. 3 with the paper's own countsort and alternation count (the reference implementation)."""
    ranked: dict[int, list[tuple[str, int]]] = {}

    def count(n: int, a: int) -> int:
        if n not in ranked:
            ranked[n] = countsort(docs, n, delimiters)
        return alternation(docs, ranked[n], a)

    return fig3_walk(count, max((len(doc) for doc in docs), default=0))


def range_scores(r: str, correct: str) -> RangeScores:
    """Accuracy [c^r]_0/|r| (agreeing positions), recall [c&r]_1/[c]_1, precision [c&r]_1/[r]_1."""
    if len(r) != len(correct):
        raise ValueError(f"range string and correct string differ in length: {len(r)} != {len(correct)}")
    agree = sum(1 for x, y in zip(r, correct, strict=False) if x == y)
    both = sum(1 for x, y in zip(r, correct, strict=False) if x == y == "1")
    ones_c, ones_r = correct.count("1"), r.count("1")
    return RangeScores(
        accuracy=agree / len(r) if r else 1.0,
        recall=both / ones_c if ones_c else 1.0,
        precision=both / ones_r if ones_r else 1.0,
    )
