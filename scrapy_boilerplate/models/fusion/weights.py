"""The fusion weights file: versioned JSON naming the features it reads, the site parts, and the trees.

Version 2 names each feature with its columns, in the order of the trees' columns, and the site
models a fit must run for them; loading finds each feature in the registry (:mod:`.features`) and
refuses, with a ``ModelFormatError`` that says why, a feature this release does not compute,
columns other than the ones it computes, or a file of another format or version.  A version 1 file
(one flat list of columns: the block cues, the site features, the role words, as the release that
wrote it computed them) is read by splitting that list into the registered features.  The shipped
file sits beside this module and is read once per process.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.fusion.decide import PROSE_CUES
from scrapy_boilerplate.models.fusion.features import FEATURES
from scrapy_boilerplate.models.fusion.layout import FeatureLayout
from scrapy_boilerplate.models.fusion.registry import FeatureRegistry, LearnedFeature
from scrapy_boilerplate.models.fusion.roles import PREFIX
from scrapy_boilerplate.models.fusion.trees import TreeEnsemble
from scrapy_boilerplate.models.weights_file import read_weights_document

FORMAT = "scrapy-boilerplate/fusion-weights"
VERSION = 2
SHIPPED = Path(__file__).with_name("weights.json")
_VERSION_1_FEATURES = ("block_cues", "site_pages", "style_tree", "block_dup", "entropy", "role_words")


@dataclass(frozen=True)
class FusionWeights:
    """Trees over the :attr:`layout`'s columns, the keep threshold on P(main content), and what
    they were trained on (site keys, for telling held-out pages from training pages)."""

    layout: FeatureLayout
    trees: TreeEnsemble
    threshold: float = 0.5
    trained_on: frozenset[str] = frozenset()
    training: dict[str, Any] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The feature columns, in order."""
        return self.layout.names

    def to_json(self) -> dict[str, Any]:
        """The JSON document (keys sorted by the writer, so equal weights give equal bytes)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "features": self.layout.to_json(),
            "parts": self.layout.parts,
            "threshold": self.threshold,
            "trained_on": sorted(self.trained_on),
            "training": self.training,
            "trees": self.trees.to_json(),
        }

    def dumps(self) -> bytes:
        """UTF-8 JSON bytes, the same for the same weights."""
        return (json.dumps(self.to_json(), sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")

    @classmethod
    def from_json(cls, document: Any, registry: FeatureRegistry = FEATURES) -> FusionWeights:
        """Weights from :meth:`to_json` output (or a version 1 file), refusing another format or
        version, and features or columns this release does not compute."""
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise ModelFormatError("not a fusion weights file")
        version = document.get("version")
        if version == 1:
            document = _from_version_1(document, registry)
        elif version != VERSION:
            raise ModelFormatError(
                f"fusion weights version {version!r} is not supported (this release reads {VERSION} and 1)"
            )
        layout = FeatureLayout.from_json(document.get("features"), registry)
        if document.get("parts", layout.parts) != layout.parts:
            raise ModelFormatError(
                f"fusion weights name site parts {document.get('parts')!r}, their features read {layout.parts}"
            )
        missing = [name for name in PROSE_CUES if name not in layout.names]
        if missing:
            raise ModelFormatError(f"fusion weights lack the columns {missing} that the threshold stage reads")
        threshold, trained_on = document.get("threshold"), document.get("trained_on", [])
        if not isinstance(threshold, (int, float)) or not 0.0 <= threshold <= 1.0:
            raise ModelFormatError("fusion weights lack a threshold within [0, 1]")
        if not isinstance(trained_on, list) or not all(isinstance(s, str) for s in trained_on):
            raise ModelFormatError("fusion weights have a malformed list of training sites")
        training = document.get("training", {})
        trees = TreeEnsemble.from_json(document.get("trees"), len(layout.names))
        return cls(
            layout, trees, float(threshold), frozenset(trained_on), training if isinstance(training, dict) else {}
        )


def _from_version_1(document: dict[str, Any], registry: FeatureRegistry) -> dict[str, Any]:
    """A version 1 document with its flat column list split into the features of that release."""
    columns, vocabulary = document.get("features"), document.get("vocabulary")
    if not isinstance(columns, list) or not isinstance(vocabulary, list):
        raise ModelFormatError("fusion weights (version 1) lack their features or role vocabulary")
    entries, start = [], 0
    for name in _VERSION_1_FEATURES:
        feature = registry.get(name)
        if feature is None:
            raise ModelFormatError(f"fusion weights (version 1) read the feature {name!r}, which this release lacks")
        width = len(vocabulary) if isinstance(feature, LearnedFeature) else len(feature.columns)
        entries.append({"name": name, "columns": columns[start : start + width]})
        start += width
    if start != len(columns) or entries[-1]["columns"] != [PREFIX + str(word) for word in vocabulary]:
        raise ModelFormatError("fusion weights (version 1) were trained on other features than this release computes")
    return {**document, "features": entries}


_CACHE: dict[tuple[str, int], FusionWeights] = {}
_LOCK = threading.Lock()


def load_weights(path: str | Path | None = None) -> FusionWeights:
    """The weights in ``path`` (the shipped file when None), read once per process, path and set of
    registered features (a feature registered or removed since may change what the file reads)."""
    generation = FEATURES.generation
    if path is None:
        shipped = _CACHE.get(("", generation))  # the shipped file is found without resolving a path (70 us a call)
        if shipped is not None:
            return shipped
    where = Path(path) if path is not None else SHIPPED
    key = (str(where.resolve()), generation)
    with _LOCK:
        weights = _CACHE.get(key)
        if weights is None:
            for stale in [known for known in _CACHE if known[1] != generation]:
                del _CACHE[stale]
            weights = _CACHE[key] = FusionWeights.from_json(read_weights_document(where, "fusion weights"))
        if path is None:
            _CACHE[("", generation)] = weights
        return weights
