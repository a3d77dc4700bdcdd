"""What the site's sample says about each block of a page, through the fitted site models.

``style_tree`` gives the composite importance of the style node a block maps to (how its
presentation and content vary across the sample), whether that node is noisy and whether the
sample never showed it; ``block_dup`` the block's best cosine with a block of another sample page;
``entropy`` the mean entropy of its word pairs over the sample; and the sample size itself is a
page-level feature.  Each is registered by name (:mod:`.features`) with the site part it reads.
"""

from __future__ import annotations

import math
from typing import Any

import lxml.etree
import numpy as np

from scrapy_boilerplate.models.blocks import block_vectors, word_pairs
from scrapy_boilerplate.models.fusion.inputs import PageInputs
from scrapy_boilerplate.models.fusion.registry import Feature
from scrapy_boilerplate.models.style_tree import NOISY

Element = lxml.etree._Element


def _evidence(inputs: PageInputs) -> Any:
    assert inputs.site is not None  # site features run only with site evidence (see layout)
    return inputs.site


def sample_size(inputs: PageInputs) -> np.ndarray:
    """The number of sample pages the site models were fitted on (log)."""
    return np.array([math.log(_evidence(inputs).pages)])


def style_nodes(inputs: PageInputs) -> np.ndarray:
    """(importance, noisy, unseen) of the style-tree region each undecided block lies in."""
    model = _evidence(inputs).part("style_tree")
    regions = {region.element: region for region in model.regions(inputs.page)}
    out = np.full((len(inputs.blocks), 3), np.nan)
    memo: dict[Element, Any] = {}
    for i, (block, undecided) in enumerate(zip(inputs.blocks, inputs.undecided.tolist(), strict=True)):
        if not undecided:
            continue
        region = _enclosing(block.element, regions, memo)
        if region is None:
            continue
        if region.node is None:
            out[i] = (np.nan, np.nan, 1.0)
        else:
            out[i] = (region.node.comp_imp, 1.0 if region.node.status == NOISY else 0.0, 0.0)
    return out


def duplicate_cosine(inputs: PageInputs) -> np.ndarray:
    """Each block's best cosine with a block of another sample page (the page's blocks all count:
    near-duplicate pages are found from them)."""
    model = _evidence(inputs).part("block_dup")
    return model.match(inputs.page, block_vectors(inputs.blocks)).cosine.reshape(-1, 1)


def term_entropy(inputs: PageInputs) -> np.ndarray:
    """Each undecided block's mean word-pair entropy over the sample (NaN without words)."""
    model = _evidence(inputs).part("entropy")
    values = [
        model.features_entropy(word_pairs(terms)) if terms and undecided else None
        for terms, undecided in zip(inputs.tokens, inputs.undecided.tolist(), strict=True)
    ]
    return np.array(values, dtype=np.float64).reshape(-1, 1)


def _enclosing(element: Element, regions: dict[Element, Any], memo: dict[Element, Any]) -> Any:
    """The region of ``element`` or of its nearest ancestor that is one (memoised on the way up)."""
    chain = []
    node: Element | None = element
    found = None
    while node is not None:
        if node in memo:
            found = memo[node]
            break
        found = regions.get(node)
        if found is not None:
            break
        chain.append(node)
        node = node.getparent()
    for visited in chain:
        memo[visited] = found
    return found


SITE_FEATURES: tuple[Feature, ...] = (
    Feature("site_pages", ("site_pages_log",), sample_size, per_page=True, site=True),
    Feature("style_tree", ("sst_importance", "sst_noisy", "sst_unseen"), style_nodes, site=True, parts=("style_tree",)),
    Feature("block_dup", ("dup_cosine",), duplicate_cosine, site=True, parts=("block_dup",)),
    Feature("entropy", ("term_entropy",), term_entropy, site=True, parts=("entropy",)),
)
