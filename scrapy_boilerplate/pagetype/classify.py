"""Telling a page's type: its signals, the feature row, the trees' probabilities, and why.

``classify_page(page)`` gives the most probable type and every type's probability; ``explain``
names the signals that pushed the page towards its type most (the trees' path contributions,
with the words behind each kind's evidence).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scrapy_boilerplate.models.base import PageType
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.pagetype.evidence import KindWeights
from scrapy_boilerplate.pagetype.labels import PAGE_TYPES
from scrapy_boilerplate.pagetype.signals import PageSignals, read_signals, word_kind
from scrapy_boilerplate.pagetype.weights import PageTypeWeights, load_page_type_weights

EXPLAINED_SIGNALS = 5
EXPLAINED_WORDS = 3


def page_type_of(probabilities: Sequence[float]) -> PageType:
    """The type of highest probability (the first in :data:`PAGE_TYPES` order on a tie) and every
    type's probability, from probabilities in :data:`PAGE_TYPES` order."""
    values = [float(value) for value in probabilities]
    best = max(range(len(values)), key=values.__getitem__)
    return PageType(PAGE_TYPES[best], dict(zip(PAGE_TYPES, values, strict=True)))


@dataclass(frozen=True)
class TypeSignal:
    """One reason for a page's type: a feature, its value on the page, how far it moved the type's
    score (log-odds), and for a word evidence column the page's words that weigh most for it."""

    feature: str
    value: float
    contribution: float
    words: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line for a report: ``evidence:address:forum (path:threads, host:forum) +1.32``."""
        if self.feature.startswith("word:"):
            shown = self.feature[len("word:") :] + ("" if self.value == 1 else f" x{self.value:g}")
        elif self.feature.startswith("evidence:"):
            shown = f"{self.feature} ({', '.join(self.words) or 'no telling word'})"
        else:
            shown = f"{self.feature} = {self.value:.4g}"
        return f"{shown} {self.contribution:+.2f}"


class PageTypeClassifier:
    """The page-type classifier over a weights file (the shipped one when ``weights`` is None)."""

    def __init__(self, weights: str | Path | None = None) -> None:
        self.weights_path = weights

    @property
    def weights(self) -> PageTypeWeights:
        """The weights in use (read once per process and file)."""
        return load_page_type_weights(self.weights_path)

    def classify(self, page: Page) -> PageType:
        """``page``'s type and every type's probability."""
        return self.classify_signals(read_signals(page))

    def classify_signals(self, signals: PageSignals) -> PageType:
        """The type of a page from its signals (read once, e.g. for a report that also explains)."""
        weights = self.weights
        return page_type_of(weights.probabilities(weights.features([signals]))[0])

    def explain(self, signals: PageSignals, label: str, top: int = EXPLAINED_SIGNALS) -> list[TypeSignal]:
        """The ``top`` signals that raised ``label``'s score most on this page, strongest first."""
        weights = self.weights
        row = weights.features([signals])
        contributions, _ = weights.trees[PAGE_TYPES.index(label)].contributions(row)
        names = weights.names
        order = [int(i) for i in np.argsort(-contributions[0], kind="stable")[:top] if contributions[0][i] > 0]
        return [
            TypeSignal(names[i], float(row[0][i]), float(contributions[0][i]), self._words_for(names[i], signals))
            for i in order
        ]

    def _words_for(self, feature: str, signals: PageSignals) -> tuple[str, ...]:
        """For an evidence column, the page's words of that kind weighing most for its type."""
        if not feature.startswith("evidence:"):
            return ()
        _, kind, label = feature.split(":", 2)
        return telling_words(self.weights.evidence.kinds[kind], signals, kind, label)


def telling_words(weights: KindWeights, signals: PageSignals, kind: str, label: str) -> tuple[str, ...]:
    """The page's words of ``kind`` whose weight for ``label`` most exceeds their mean weight."""
    words = (word for word in signals.words if word_kind(word) == kind)
    margins = sorted((-margin, word) for margin, word in weights.margins(words, PAGE_TYPES.index(label)) if margin > 0)
    return tuple(word for _, word in margins[:EXPLAINED_WORDS])


def classify_page(page: Page, weights: str | Path | None = None) -> PageType:
    """``page``'s type with the given weights (the shipped ones when None)."""
    return PageTypeClassifier(weights).classify(page)


def explain_page_type(page: Page, top: int = EXPLAINED_SIGNALS) -> tuple[PageType, list[TypeSignal]]:
    """``page``'s type and the ``top`` signals that raised it most (for a report)."""
    classifier = PageTypeClassifier()
    signals = read_signals(page)
    told = classifier.classify_signals(signals)
    return told, classifier.explain(signals, told.label, top)
