"""Choosing the words the trees read as columns: those whose presence best tells the types apart.

A word must show on pages of :data:`MIN_SITES` sites or more (a site's own class names or path
words never qualify); among those, each kind of word keeps its :data:`WORDS_PER_KIND` of highest
information gain about the type (role attributes name many things on every page: without a
share per kind they would crowd out the rarer address and structured-data words).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scrapy_boilerplate.pagetype.labels import PAGE_TYPES
from scrapy_boilerplate.pagetype.signals import KINDS, word_kind
from scrapy_boilerplate.pagetype.training.dataset import LabelledPage

MIN_SITES = 5
WORDS_PER_KIND = 24


def _entropy(counts: np.ndarray) -> np.ndarray:
    """Entropy (nats) of each row of type counts."""
    totals = counts.sum(axis=1, keepdims=True)
    shares = np.divide(counts, totals, out=np.zeros_like(counts), where=totals > 0)
    logs = np.log(shares, out=np.zeros_like(shares), where=shares > 0)
    return -(shares * logs).sum(axis=1)


def information_gain(present: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """Information gain about the type of each word's presence: ``present`` holds per word
    (rows) the pages of each type that have it, ``totals`` the pages of each type."""
    absent = totals[None, :] - present
    conditional = (present.sum(axis=1) * _entropy(present) + absent.sum(axis=1) * _entropy(absent)) / totals.sum()
    return np.asarray(_entropy(totals[None, :])[0] - conditional)


@dataclass
class WordCounts:
    """Pages of each type (``totals``) and, per candidate word seen on :data:`MIN_SITES` sites or
    more, the pages of each type that have it (``present``, rows in the order of ``words``)."""

    totals: np.ndarray
    words: list[str]
    present: np.ndarray

    def of_kind(self, kind: str) -> WordCounts:
        """The counts of one kind's words."""
        rows = [row for row, word in enumerate(self.words) if word_kind(word) == kind]
        return WordCounts(self.totals, [self.words[row] for row in rows], self.present[rows])

    def best(self, size: int) -> list[int]:
        """The rows of the ``size`` words of highest information gain, in row order."""
        gain = information_gain(self.present, self.totals) if self.words else np.zeros(0)
        return sorted(sorted(range(len(self.words)), key=lambda i: (-gain[i], self.words[i]))[:size])


def count_words(pages: Sequence[LabelledPage]) -> WordCounts:
    """How many pages of each type have each candidate word (words of known kinds only)."""
    index = {label: i for i, label in enumerate(PAGE_TYPES)}
    with_word: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(len(PAGE_TYPES)))
    sites: dict[str, set[str]] = defaultdict(set)
    totals = np.zeros(len(PAGE_TYPES))
    for page in pages:
        label = index[page.label]
        totals[label] += 1
        for word in page.signals.words:
            if word_kind(word):
                with_word[word][label] += 1
                sites[word].add(page.site)
    words = sorted(word for word in with_word if len(sites[word]) >= MIN_SITES)
    present = np.array([with_word[word] for word in words]).reshape(len(words), len(PAGE_TYPES))
    return WordCounts(totals, words, present)


def select_vocabulary(counts: WordCounts, per_kind: int = WORDS_PER_KIND) -> list[str]:
    """The words of highest information gain of each kind, up to ``per_kind`` each, sorted."""
    chosen: list[str] = []
    for kind in KINDS:
        of_kind = counts.of_kind(kind)
        chosen.extend(of_kind.words[row] for row in of_kind.best(per_kind))
    return sorted(chosen)
