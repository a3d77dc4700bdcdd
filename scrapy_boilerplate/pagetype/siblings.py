"""A steadier type from a page's siblings: pages of one template share a type.

Given the type probabilities of a page and of other pages of its template (its site's sample
pages grouped by template), each sibling adds its probabilities with :data:`SIBLING_WEIGHT`
(times its own weight, e.g. how alike the two pages are) to the page's own, and the sum is
normalised: one page's odd reading is outvoted by a template's many, while one sibling alone
only settles a near tie.  Siblings of another template say nothing of the page's type: group
pages by template before, not by site (a site's pages are of many types).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from scrapy_boilerplate.models.base import PageType
from scrapy_boilerplate.pagetype.classify import page_type_of
from scrapy_boilerplate.pagetype.labels import PAGE_TYPES

SIBLING_WEIGHT = 0.25  # one sibling's weight beside the page's own reading (measured: benchmarks/README.md)

Probabilities = PageType | Mapping[str, float]


def _vector(probabilities: Probabilities) -> np.ndarray:
    mapping = probabilities.probabilities if isinstance(probabilities, PageType) else probabilities
    return np.array([float(mapping.get(label, 0.0)) for label in PAGE_TYPES])


def combine_with_siblings(
    own: Probabilities,
    siblings: Sequence[Probabilities],
    weight: float = SIBLING_WEIGHT,
    sibling_weights: Sequence[float] | None = None,
) -> PageType:
    """The page's type read with its template's: ``own`` plus ``weight`` times each sibling's
    probabilities (each scaled by its ``sibling_weights`` entry, 1 when not given), normalised."""
    if sibling_weights is not None and len(sibling_weights) != len(siblings):
        raise ValueError(f"{len(siblings)} siblings but {len(sibling_weights)} sibling weights")
    if weight < 0 or (sibling_weights is not None and min(sibling_weights, default=0.0) < 0):
        raise ValueError("sibling weights must be >= 0")
    total = _vector(own)
    for number, sibling in enumerate(siblings):
        scale = weight * (sibling_weights[number] if sibling_weights is not None else 1.0)
        total = total + scale * _vector(sibling)
    mass = total.sum()
    if mass <= 0:
        raise ValueError("the page's probabilities sum to zero")
    return page_type_of(total / mass)
