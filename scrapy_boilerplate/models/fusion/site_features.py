"""What the site's sample says about each block of a page, through the fitted site models.

``style_tree`` gives the composite importance of the style node a block maps to (how its
presentation and content vary across the sample), ``block_dup`` the block's best cosine with a
block of another sample page, and ``entropy`` the mean entropy of its word pairs over the sample.
The models are fitted as their own ``improved`` variants and only read here, through the public
names of their families' packages (``models.style_tree``, ``models.blocks``): their behaviour as
models is unchanged, and tests/test_import_graph.py keeps ``fusion`` the only family that imports
another.  With fewer than two sample pages there is no site evidence: every site
feature is missing (NaN), which the trees route as they learned to.
"""

from __future__ import annotations

import json
import math
from typing import Any

import lxml.etree
import numpy as np

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.models.base import SiteModel
from scrapy_boilerplate.models.blocks import BlockDupModel, EntropyModel, block_vectors, word_pairs
from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.serialization import dump_model, load_model
from scrapy_boilerplate.models.style_tree import NOISY, StyleTreeModel
from scrapy_boilerplate.page import Page

Element = lxml.etree._Element

SITE_FEATURES: tuple[str, ...] = (
    "site_pages_log",
    "sst_importance",
    "sst_noisy",
    "sst_unseen",
    "dup_cosine",
    "term_entropy",
)
MIN_SAMPLE_PAGES = 2  # one page shows nothing repeating
_PARTS: dict[str, type[SiteModel]] = {"style_tree": StyleTreeModel, "block_dup": BlockDupModel, "entropy": EntropyModel}


class SiteEvidence:
    """The fitted site models whose verdicts become site features (none on a sample under 2 pages)."""

    def __init__(self) -> None:
        self.pages = 0
        self.parts: dict[str, SiteModel] = {}

    @property
    def present(self) -> bool:
        """True when fitted on enough pages to give site features."""
        return bool(self.parts)

    def fit(self, pages: list[Page]) -> SiteEvidence:
        """Fit every site model on ``pages`` (nothing below :data:`MIN_SAMPLE_PAGES` pages)."""
        self.pages = len(pages)
        self.parts = {}
        if len(pages) >= MIN_SAMPLE_PAGES:
            self.parts = {name: cls().fit(pages) for name, cls in _PARTS.items()}
        return self

    def features(self, page: Page, blocks: list[Block], tokens: list[list[str]]) -> np.ndarray:
        """One row of :data:`SITE_FEATURES` per block (all NaN without site evidence)."""
        rows = np.full((len(blocks), len(SITE_FEATURES)), np.nan)
        if not self.present or not blocks:
            return rows
        rows[:, 0] = math.log(self.pages)
        rows[:, 1:4] = self._style_nodes(page, blocks)
        style: Any = self.parts["block_dup"]
        rows[:, 4] = style.match(page, block_vectors(blocks)).cosine
        entropy: Any = self.parts["entropy"]
        rows[:, 5] = [entropy.features_entropy(word_pairs(terms)) if terms else np.nan for terms in tokens]
        return rows

    def _style_nodes(self, page: Page, blocks: list[Block]) -> np.ndarray:
        """(importance, noisy, unseen) of the style-tree region each block lies in."""
        model: Any = self.parts["style_tree"]
        regions = {region.element: region for region in model.regions(page)}
        out = np.full((len(blocks), 3), np.nan)
        memo: dict[Element, Any] = {}
        for i, block in enumerate(blocks):
            region = _enclosing(block.element, regions, memo)
            if region is None:
                continue
            if region.node is None:
                out[i] = (np.nan, np.nan, 1.0)
            else:
                out[i] = (region.node.comp_imp, 1.0 if region.node.status == NOISY else 0.0, 0.0)
        return out

    def state(self) -> dict[str, Any]:
        """JSON-able state: each fitted part as its own saved-model document."""
        return {"pages": self.pages, "parts": {name: json.loads(dump_model(m)) for name, m in self.parts.items()}}

    @classmethod
    def from_state(cls, state: Any) -> SiteEvidence:
        """Rebuild what :meth:`state` gave; raise ``ModelFormatError`` on anything else."""
        if not isinstance(state, dict) or not isinstance(state.get("pages"), int) or state["pages"] < 0:
            raise ModelFormatError("fusion site state lacks its page count")
        parts = state.get("parts")
        if not isinstance(parts, dict) or set(parts) not in (set(), set(_PARTS)):
            raise ModelFormatError(f"fusion site state needs parts {sorted(_PARTS)} or none")
        evidence = cls()
        evidence.pages = state["pages"]
        for name, document in parts.items():
            model = load_model(document)
            if not isinstance(model, _PARTS[name]):
                raise ModelFormatError(f"fusion site part {name!r} holds a {model.name} model")
            evidence.parts[name] = model
        return evidence


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
