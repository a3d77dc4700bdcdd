"""The page-type weights file: versioned JSON with the types, the feature columns, the word
evidence's weights and one tree ensemble per type (the same flat tree format as ``fusion``'s,
evaluated with numpy).

Loading refuses another format or version, a type list or statistics list other than this
release's, and malformed trees; the shipped file sits beside this module and is read once per
process.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.fusion.trees import TreeEnsemble
from scrapy_boilerplate.models.weights_file import read_weights_document
from scrapy_boilerplate.pagetype.evidence import WordEvidence
from scrapy_boilerplate.pagetype.features import feature_matrix, feature_names
from scrapy_boilerplate.pagetype.labels import PAGE_TYPES
from scrapy_boilerplate.pagetype.signals import PageSignals

FORMAT = "scrapy-boilerplate/page-type-weights"
VERSION = 1
SHIPPED = Path(__file__).with_name("weights.json")
MAX_VOCABULARY = 4096


@dataclass(frozen=True)
class PageTypeWeights:
    """One tree ensemble per type of :data:`PAGE_TYPES` over :func:`feature_names` columns; a
    page's type scores are the ensembles' raw scores, its probabilities their softmax."""

    vocabulary: list[str]
    evidence: WordEvidence
    trees: list[TreeEnsemble]
    training: dict[str, Any] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The feature columns, in order."""
        return feature_names(self.vocabulary)

    def features(self, signals: Sequence[PageSignals]) -> np.ndarray:
        """The feature rows of pages' signals."""
        evidence = np.array([self.evidence.columns(page.words) for page in signals]).reshape(len(signals), -1)
        return feature_matrix(signals, self.vocabulary, evidence)

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """P(type) of every row of ``features``, shape (rows, types)."""
        scores = np.stack([ensemble.raw_scores(features) for ensemble in self.trees], axis=1)
        scores = np.exp(scores - scores.max(axis=1, keepdims=True))
        return scores / scores.sum(axis=1, keepdims=True)

    def to_json(self) -> dict[str, Any]:
        """The JSON document (keys sorted by the writer, so equal weights give equal bytes)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "types": list(PAGE_TYPES),
            "features": self.names,
            "vocabulary": self.vocabulary,
            "evidence": self.evidence.to_json(),
            "training": self.training,
            "trees": [ensemble.to_json() for ensemble in self.trees],
        }

    def dumps(self) -> bytes:
        """UTF-8 JSON bytes, the same for the same weights."""
        return (json.dumps(self.to_json(), sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")

    @classmethod
    def from_json(cls, document: Any) -> PageTypeWeights:
        """Weights from :meth:`to_json` output, refusing another format, version, type or feature list."""
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise ModelFormatError("not a page-type weights file")
        if document.get("version") != VERSION:
            raise ModelFormatError(
                f"page-type weights version {document.get('version')!r} is not supported (this release reads {VERSION})"
            )
        if document.get("types") != list(PAGE_TYPES):
            raise ModelFormatError("page-type weights tell other types than this release knows")
        vocabulary = document.get("vocabulary")
        if not isinstance(vocabulary, list) or not all(isinstance(word, str) for word in vocabulary):
            raise ModelFormatError("page-type weights lack their vocabulary")
        if len(vocabulary) > MAX_VOCABULARY:
            raise ModelFormatError(f"page-type weights hold {len(vocabulary)} words, over {MAX_VOCABULARY}")
        names = feature_names(vocabulary)
        if document.get("features") != names:
            raise ModelFormatError("page-type weights were trained on other features than this release computes")
        trees = document.get("trees")
        if not isinstance(trees, list) or len(trees) != len(PAGE_TYPES):
            raise ModelFormatError(f"page-type weights need one tree ensemble per type ({len(PAGE_TYPES)})")
        training = document.get("training", {})
        return cls(
            vocabulary,
            WordEvidence.from_json(document.get("evidence")),
            [TreeEnsemble.from_json(ensemble, len(names)) for ensemble in trees],
            training if isinstance(training, dict) else {},
        )


_CACHE: dict[str, PageTypeWeights] = {}
_LOCK = threading.Lock()


def load_page_type_weights(path: str | Path | None = None) -> PageTypeWeights:
    """The weights in ``path`` (the shipped file when None), read once per process and path."""
    where = Path(path) if path is not None else SHIPPED
    key = str(where.resolve())
    with _LOCK:
        weights = _CACHE.get(key)
        if weights is None:
            weights = _CACHE[key] = PageTypeWeights.from_json(read_weights_document(where, "page-type weights"))
        return weights
