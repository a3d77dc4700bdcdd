"""Fusion's features by name: each a name, the columns it gives and the function that computes them.

A :class:`Feature` computes its columns for every block of a page (``per_page=False``: one row per
block) or once for the whole page (``per_page=True``: one row, given to every block's row: the
page-level slot).  A feature of the site (``site=True``) reads the site evidence fitted on the
sample, through the named site models in ``parts``; without site evidence (the single-page regime)
its columns are missing (NaN), and the trees route them as they learned to.  A
:class:`LearnedFeature` is one whose columns are chosen at training (the role words of class and id
attributes): the weights file names them.

A :class:`FeatureRegistry` holds them in column order.  Training reads every registered feature;
inference computes those the weights name (see :mod:`.layout`), so adding a feature is one
registered function plus retraining.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

if TYPE_CHECKING:
    from scrapy_boilerplate.models.fusion.inputs import PageInputs


@dataclass(frozen=True)
class Feature:
    """Named columns and the function computing them from a page's :class:`~.inputs.PageInputs`.

    ``compute`` returns an array of shape (blocks, columns), or (columns,) when ``per_page``; a
    feature may leave NaN in the rows of blocks the rules decided (``inputs.undecided`` is False):
    they are never scored.
    """

    name: str
    columns: tuple[str, ...]
    compute: Callable[[PageInputs], np.ndarray]
    per_page: bool = False
    site: bool = False  # read from the site evidence: missing in the single-page regime
    parts: tuple[str, ...] = ()  # the site models it reads (fitted on the sample when a weights file needs it)

    def __post_init__(self) -> None:
        if not self.columns or len(set(self.columns)) != len(self.columns):
            raise ValueError(f"feature {self.name!r} needs distinct column names")
        if self.parts and not self.site:
            raise ValueError(f"feature {self.name!r} reads site parts {self.parts}: it is a site feature")


@dataclass(frozen=True)
class LabelledPage:
    """What choosing learned columns reads of one training page: its site, per block what the
    feature observed, the block's label (share of its tokens in the gold) and its token count."""

    site: str
    observed: Sequence[Any]
    labels: np.ndarray
    tokens: np.ndarray


@dataclass(frozen=True)
class LearnedFeature:
    """A block feature whose columns are chosen at training from what it observes on labelled pages.

    ``observe`` gives one value per block (e.g. the block's role words), ``choose`` the columns from
    the labelled pages' observations, and ``rows`` the (blocks, columns) array from one page's
    observations and the chosen columns (the weights file names them); ``check`` raises
    ``ModelFormatError`` for columns it cannot compute.
    """

    name: str
    observe: Callable[[PageInputs], list[Any]]
    choose: Callable[[Sequence[LabelledPage]], tuple[str, ...]]
    rows: Callable[[Sequence[Any], tuple[str, ...]], np.ndarray]
    check: Callable[[tuple[str, ...]], None] = field(default=lambda columns: None)
    # a learned feature is one per block, of the page alone
    per_page: ClassVar[bool] = False
    site: ClassVar[bool] = False
    parts: ClassVar[tuple[str, ...]] = ()


AnyFeature = Feature | LearnedFeature


class FeatureRegistry:
    """Features by name, in column order; :data:`~.features.FEATURES` is the package's one."""

    def __init__(self, features: Sequence[AnyFeature] = ()) -> None:
        self._features: dict[str, AnyFeature] = {}
        self.generation = 0  # counts the changes: what was read against the registry may be stale
        for feature in features:
            self.register(feature)

    def register(self, feature: AnyFeature) -> AnyFeature:
        """Add ``feature`` after the others; a name or column already taken raises ``ValueError``."""
        if not isinstance(feature, (Feature, LearnedFeature)):
            raise TypeError(f"{feature!r} is not a Feature")
        if feature.name in self._features:
            raise ValueError(f"a feature named {feature.name!r} is registered already")
        if isinstance(feature, Feature):
            taken = {
                column for other in self._features.values() if isinstance(other, Feature) for column in other.columns
            }
            if taken.intersection(feature.columns):
                raise ValueError(
                    f"feature {feature.name!r} reuses columns {sorted(taken.intersection(feature.columns))}"
                )
        self._features[feature.name] = feature
        self.generation += 1
        return feature

    @contextlib.contextmanager
    def registered(self, feature: AnyFeature) -> Iterator[AnyFeature]:
        """``feature`` registered for the duration of a ``with`` block (tests and experiments)."""
        self.register(feature)
        try:
            yield feature
        finally:
            self._features.pop(feature.name, None)
            self.generation += 1

    def get(self, name: str) -> AnyFeature | None:
        """The feature registered as ``name``, or None."""
        return self._features.get(name)

    def all(self) -> list[AnyFeature]:
        """Every registered feature, in column order."""
        return list(self._features.values())
