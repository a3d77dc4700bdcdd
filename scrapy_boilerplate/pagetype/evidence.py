"""What each kind of word says about the type: one linear score per kind of word and type.

Many words each tell a little (``path:threads``, ``role:price``, ``label:reply``); trees split on a
few of them at a time, so each kind's words are first weighed together: a page's score for a type
is the kind's bias plus the weights of the words the page has, and the kind's softmax over the
types is a column per type for the trees.  The weights are learned (a logistic regression per kind:
``training.evidence``) and stored in the weights file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.pagetype.labels import PAGE_TYPES
from scrapy_boilerplate.pagetype.signals import KINDS, word_kind


def evidence_names() -> list[str]:
    """The columns the evidence gives, in order: ``evidence:<kind>:<type>`` per kind, then type."""
    return [f"evidence:{kind}:{label}" for kind in KINDS for label in PAGE_TYPES]


@dataclass(frozen=True)
class KindWeights:
    """One kind's words, their weight for each type (words x types) and the types' biases."""

    words: list[str]
    weights: np.ndarray
    bias: np.ndarray
    _row: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_row", {word: row for row, word in enumerate(self.words)})

    def scores(self, words: Mapping[str, float]) -> np.ndarray:
        """The page's raw score for each type: the bias plus the weights of its words."""
        rows = [row for row in map(self._row.get, words) if row is not None]
        return self.bias + self.weights[rows].sum(axis=0)

    def margins(self, words: Iterable[str], column: int) -> list[tuple[float, str]]:
        """For each of ``words`` this kind weighs: its weight for type ``column`` above its mean
        weight over the types, and the word."""
        out = []
        for word in words:
            row = self._row.get(word)
            if row is not None:
                out.append((float(self.weights[row, column] - self.weights[row].mean()), word))
        return out

    def to_json(self) -> dict[str, Any]:
        """The words, their weights and the biases as JSON lists."""
        return {"words": self.words, "weights": self.weights.tolist(), "bias": self.bias.tolist()}

    @classmethod
    def from_json(cls, data: Any) -> KindWeights:
        """One kind's weights from :meth:`to_json` output, checked."""
        try:
            words = list(data["words"])
            weights = np.asarray(data["weights"], dtype=np.float64).reshape(len(words), len(PAGE_TYPES))
            bias = np.asarray(data["bias"], dtype=np.float64)
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFormatError(f"page-type word weights are malformed: {exc}") from exc
        if not all(isinstance(word, str) for word in words) or bias.shape != (len(PAGE_TYPES),):
            raise ModelFormatError("page-type word weights need string words and one bias per type")
        if not (np.isfinite(weights).all() and np.isfinite(bias).all()):
            raise ModelFormatError("page-type word weights must be finite")
        return cls(words, weights, bias)


@dataclass(frozen=True)
class WordEvidence:
    """The weights of every kind of word (:data:`~scrapy_boilerplate.pagetype.signals.KINDS`)."""

    kinds: dict[str, KindWeights]

    def columns(self, words: Mapping[str, float]) -> np.ndarray:
        """The page's softmax over the types for each kind, flat (:func:`evidence_names` order)."""
        by_kind: dict[str, dict[str, float]] = {kind: {} for kind in KINDS}
        for word, value in words.items():
            kind = word_kind(word)
            if kind:
                by_kind[kind][word] = value
        out = []
        for kind in KINDS:
            scores = self.kinds[kind].scores(by_kind[kind])
            scores = np.exp(scores - scores.max())
            out.append(scores / scores.sum())
        return np.concatenate(out)

    def to_json(self) -> dict[str, Any]:
        """Every kind's weights, by kind."""
        return {kind: self.kinds[kind].to_json() for kind in KINDS}

    @classmethod
    def from_json(cls, data: Any) -> WordEvidence:
        """The evidence from :meth:`to_json` output, refusing another list of kinds."""
        if not isinstance(data, dict) or sorted(data) != sorted(KINDS):
            raise ModelFormatError(f"page-type weights need word weights for the kinds {', '.join(KINDS)}")
        return cls({kind: KindWeights.from_json(data[kind]) for kind in KINDS})
