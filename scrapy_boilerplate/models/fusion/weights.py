"""The fusion weights file: versioned JSON with the feature names, role vocabulary and trees.

Loading checks that the file's feature list is the one this release computes, in the same order
(a file from another release, or trained with other features, is refused, not misread).  The
shipped file sits beside this module and is read once per process.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.fusion.page_features import PAGE_FEATURES
from scrapy_boilerplate.models.fusion.site_features import SITE_FEATURES
from scrapy_boilerplate.models.fusion.trees import TreeEnsemble

FORMAT = "scrapy-boilerplate/fusion-weights"
VERSION = 1
SHIPPED = Path(__file__).with_name("weights.json")
ROLE_PREFIX = "role_"
MAX_VOCABULARY = 64  # role words are bits of one 64-bit mask per block


def feature_names(vocabulary: list[str]) -> list[str]:
    """Every column the trees read, in order: page features, site features, role words."""
    return [*PAGE_FEATURES, *SITE_FEATURES, *(ROLE_PREFIX + word for word in vocabulary)]


@dataclass(frozen=True)
class FusionWeights:
    """Trees over :func:`feature_names` columns, the keep threshold on P(main content), and what
    they were trained on (site keys, for telling held-out pages from training pages)."""

    vocabulary: list[str]
    trees: TreeEnsemble
    threshold: float = 0.5
    trained_on: frozenset[str] = frozenset()
    training: dict[str, Any] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The feature columns, in order."""
        return feature_names(self.vocabulary)

    @property
    def vocabulary_bits(self) -> dict[str, int]:
        """Role word -> its bit in a block's role mask."""
        return {word: 1 << i for i, word in enumerate(self.vocabulary)}

    def to_json(self) -> dict[str, Any]:
        """The JSON document (keys sorted by the writer, so equal weights give equal bytes)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "features": self.names,
            "vocabulary": self.vocabulary,
            "threshold": self.threshold,
            "trained_on": sorted(self.trained_on),
            "training": self.training,
            "trees": self.trees.to_json(),
        }

    def dumps(self) -> bytes:
        """UTF-8 JSON bytes, the same for the same weights."""
        return (json.dumps(self.to_json(), sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")

    @classmethod
    def from_json(cls, document: Any) -> FusionWeights:
        """Weights from :meth:`to_json` output, refusing another format, version or feature list."""
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise ModelFormatError("not a fusion weights file")
        if document.get("version") != VERSION:
            raise ModelFormatError(
                f"fusion weights version {document.get('version')!r} is not supported (this release reads {VERSION})"
            )
        vocabulary = document.get("vocabulary")
        if not isinstance(vocabulary, list) or not all(isinstance(w, str) for w in vocabulary):
            raise ModelFormatError("fusion weights lack their role vocabulary")
        if len(vocabulary) > MAX_VOCABULARY:
            raise ModelFormatError(f"fusion weights hold {len(vocabulary)} role words, over {MAX_VOCABULARY}")
        names = feature_names(vocabulary)
        if document.get("features") != names:
            raise ModelFormatError("fusion weights were trained on other features than this release computes")
        threshold, trained_on = document.get("threshold"), document.get("trained_on", [])
        if not isinstance(threshold, (int, float)) or not 0.0 <= threshold <= 1.0:
            raise ModelFormatError("fusion weights lack a threshold within [0, 1]")
        if not isinstance(trained_on, list) or not all(isinstance(s, str) for s in trained_on):
            raise ModelFormatError("fusion weights have a malformed list of training sites")
        training = document.get("training", {})
        trees = TreeEnsemble.from_json(document.get("trees"), len(names))
        return cls(
            vocabulary, trees, float(threshold), frozenset(trained_on), training if isinstance(training, dict) else {}
        )


_CACHE: dict[str, FusionWeights] = {}
_LOCK = threading.Lock()


def load_weights(path: str | Path | None = None) -> FusionWeights:
    """The weights in ``path`` (the shipped file when None), read once per process and path."""
    if path is None:
        shipped = _CACHE.get("")  # the shipped file is found without resolving a path (70 us a call)
        if shipped is not None:
            return shipped
    where = Path(path) if path is not None else SHIPPED
    key = str(where.resolve())
    with _LOCK:
        weights = _CACHE.get(key)
        if weights is None:
            try:
                document = json.loads(where.read_bytes())
            except FileNotFoundError as exc:
                raise ModelFormatError(f"no fusion weights file at {where}") from exc
            except (OSError, ValueError) as exc:
                raise ModelFormatError(f"cannot read fusion weights {where}: {exc}") from exc
            weights = _CACHE[key] = FusionWeights.from_json(document)
        if path is None:
            _CACHE[""] = weights
        return weights
