"""The one place fusion's feature matrix is assembled: for inference, training and benchmarks alike.

A :class:`FeatureLayout` is a list of registered features, each bound to the columns a weights file
names for it, in the weights' order: the matrix's columns are :attr:`FeatureLayout.names`, the
columns the trees' split indices point into.  :meth:`FeatureLayout.compute` runs each feature once
on a page (a site feature only with site evidence); :meth:`FeatureLayout.matrix` lays what they gave
side by side, one row per block, a page-level feature's one row repeated for every block and a site
feature missing (NaN) without site evidence or when ``site`` is false (training's single-page
regime).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.fusion.features import FEATURES
from scrapy_boilerplate.models.fusion.inputs import PageInputs
from scrapy_boilerplate.models.fusion.registry import AnyFeature, Feature, FeatureRegistry, LearnedFeature

# What each feature gave on one page, by name (None: not computed, a site feature without evidence).
PageValues = dict[str, Any]


@dataclass(frozen=True)
class BoundFeature:
    """A registered feature and the columns of it that a layout holds."""

    feature: AnyFeature
    columns: tuple[str, ...]


class FeatureLayout:
    """Features bound to their columns, in matrix order."""

    def __init__(self, bound: Sequence[BoundFeature]) -> None:
        self.bound = tuple(bound)
        self.names: list[str] = [column for item in self.bound for column in item.columns]
        self._index = {name: i for i, name in enumerate(self.names)}
        if len(self._index) != len(self.names):
            raise ModelFormatError("fusion feature columns must be distinct")

    @property
    def parts(self) -> list[str]:
        """The site models the layout's features read, in the order they first appear."""
        return list(dict.fromkeys(part for item in self.bound for part in item.feature.parts))

    def column(self, name: str) -> int:
        """The matrix column holding feature column ``name``; ``KeyError`` when the layout lacks it."""
        return self._index[name]

    @classmethod
    def for_training(cls, registry: FeatureRegistry = FEATURES) -> FeatureLayout:
        """Every registered feature; learned ones have no columns until :meth:`with_columns`."""
        return cls([BoundFeature(f, f.columns if isinstance(f, Feature) else ()) for f in registry.all()])

    def with_columns(self, name: str, columns: tuple[str, ...]) -> FeatureLayout:
        """This layout with the learned feature ``name`` bound to ``columns``."""
        return FeatureLayout([BoundFeature(b.feature, columns) if b.feature.name == name else b for b in self.bound])

    def to_json(self) -> list[dict[str, Any]]:
        """The features as a weights file names them: name and columns, in order."""
        return [{"name": item.feature.name, "columns": list(item.columns)} for item in self.bound]

    @classmethod
    def from_json(cls, entries: Any, registry: FeatureRegistry = FEATURES) -> FeatureLayout:
        """The layout a weights file names, each feature found in ``registry`` and its columns checked."""
        if not isinstance(entries, list) or not entries:
            raise ModelFormatError("fusion weights lack their list of features")
        bound = []
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                raise ModelFormatError("fusion weights name each feature with its columns")
            name, columns = entry["name"], entry.get("columns")
            if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
                raise ModelFormatError(f"fusion weights lack the columns of feature {name!r}")
            feature = registry.get(name)
            if feature is None:
                raise ModelFormatError(f"fusion weights read the feature {name!r}, which this release does not compute")
            if isinstance(feature, LearnedFeature):
                feature.check(tuple(columns))
            elif tuple(columns) != feature.columns:
                raise ModelFormatError(
                    f"fusion weights were trained on other {name!r} columns than this release computes"
                )
            bound.append(BoundFeature(feature, tuple(columns)))
        return cls(bound)

    def compute(self, inputs: PageInputs, done: Callable[[str], None] | None = None) -> PageValues:
        """Each feature's values on one page (site features only when ``inputs.site`` is given);
        ``done`` is told each feature's name once it is computed (for timing)."""
        values: PageValues = {}
        for item in self.bound:
            feature = item.feature
            if feature.site and inputs.site is None:
                values[feature.name] = None
            elif isinstance(feature, LearnedFeature):
                values[feature.name] = feature.observe(inputs)
            else:
                values[feature.name] = feature.compute(inputs)
            if done is not None:
                done(feature.name)
        return values

    def matrix(self, values: PageValues, rows: int, site: bool = True, dtype: Any = np.float64) -> np.ndarray:
        """The (rows, columns) matrix of one page's ``values``; site features missing unless ``site``."""
        parts = []
        for item in self.bound:
            feature, width = item.feature, len(item.columns)
            value = values.get(feature.name)
            if value is None or (feature.site and not site):
                parts.append(np.full((rows, width), np.nan, dtype=dtype))
            elif isinstance(feature, LearnedFeature):
                parts.append(feature.rows(value, item.columns).astype(dtype, copy=False))
            elif feature.per_page:
                parts.append(np.broadcast_to(np.asarray(value, dtype=dtype).reshape(1, width), (rows, width)))
            else:
                parts.append(np.asarray(value, dtype=dtype).reshape(rows, width))
        return np.hstack(parts) if parts else np.zeros((rows, 0), dtype=dtype)

    def rows(self, inputs: PageInputs, done: Callable[[str], None] | None = None) -> np.ndarray:
        """The feature matrix of a page, one row per block (no feature runs on a page without blocks)."""
        n = len(inputs.blocks)
        if not n:
            return np.full((0, len(self.names)), np.nan)
        return self.matrix(self.compute(inputs, done), n)
