"""``block_dup``: blocks repeated across a site's pages are boilerplate.

Yoshida, Yamamoto, "Primary content extraction from news pages without training data" (in
Japanese).  Blocks are block-level elements with no block below them; each becomes a count
vector of its tags, text lines and ``title``/``alt`` texts.  A block whose cosine similarity
with a block of *another* page exceeds ``threshold`` (0.9 in the paper) is a duplicate, hence
boilerplate; a block seen on one page only is content.  Near-duplicate pages (one article under
two URLs, the paper's main failure) are found first and their blocks are not compared.

``variant="paper"`` is that procedure.  ``variant="improved"`` (default) adds the repairs the
development data called for: a stricter default threshold (``IMPROVED_THRESHOLD``) and the
repairs of :mod:`scrapy_boilerplate.models.blocks.repairs`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.models.blocks.common import BlockVerdict, assemble, check_array, stable_keys, text_blocks
from scrapy_boilerplate.models.blocks.index import BlockIndex, BlockVectors, Match, block_vectors
from scrapy_boilerplate.models.blocks.near_duplicates import NearDuplicates
from scrapy_boilerplate.models.blocks.repairs import repair
from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.registry import register
from scrapy_boilerplate.page import Page

PAPER_THRESHOLD = 0.9
IMPROVED_THRESHOLD = 0.95  # best of the paper's range on the development data (docs/block_models.md)
VARIANTS = ("paper", "improved")


def duplicate_verdicts(match: Match, index: BlockIndex, threshold: float) -> list[BlockVerdict]:
    """The paper's rule: a block with a neighbour above ``threshold`` on another page is removed."""
    verdicts = []
    for cosine, block in zip(match.cosine.tolist(), match.block.tolist(), strict=False):
        if block >= 0 and cosine > threshold:
            page, number = int(index.block_page[block]), int(index.block_number[block])
            verdicts.append(
                BlockVerdict(False, f"duplicate of page {page} block {number}, cosine {cosine:.2f} > {threshold:g}")
            )
        else:
            verdicts.append(BlockVerdict(True, f"unique: best cosine {cosine:.2f} <= {threshold:g}"))
    return verdicts


@register
class BlockDupModel(SiteModel):
    """Cross-page duplicate blocks.

    Parameters
    ----------
    variant:
        ``"paper"`` for the paper's rule, ``"improved"`` for the dev-data repairs.
    threshold:
        Cosine similarity above which two blocks of different pages are the same block;
        ``None`` takes the variant's (0.9 for ``paper``, ``IMPROVED_THRESHOLD`` for ``improved``).
    near_duplicates:
        Find near-duplicate pages first and never compare their blocks.
    """

    name = "block_dup"

    def __init__(self, variant: str = "improved", threshold: float | None = None, near_duplicates: bool = True) -> None:
        super().__init__()
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
        if threshold is not None and not 0.0 < float(threshold) <= 1.0:
            raise ValueError(f"threshold must be within (0, 1], got {threshold!r}")
        self.variant = variant
        self.threshold = None if threshold is None else float(threshold)
        self.near_duplicates = bool(near_duplicates)
        # learned from the sample: its blocks, its pages' lines (for near-duplicates), its pages' digests
        self.index_ = BlockIndex.build([])
        self.sample_lines_ = NearDuplicates.build([])
        self.digests_ = np.zeros(0, dtype=np.uint64)

    def _fit(self, pages: list[Page]) -> None:
        vectors = [block_vectors(text_blocks(page)) for page in pages]
        self.index_ = BlockIndex.build(vectors)
        self.sample_lines_ = NearDuplicates.build([(v.line_keys, v.line_chars) for v in vectors])
        self.digests_ = stable_keys(page.html for page in pages)

    @property
    def cosine_threshold(self) -> float:
        """The threshold in use: the one given, or the variant's default."""
        if self.threshold is not None:
            return self.threshold
        return PAPER_THRESHOLD if self.variant == "paper" else IMPROVED_THRESHOLD

    def match(self, page: Page, vectors: BlockVectors) -> Match:
        """Each block's best neighbour on the other sample pages (the page itself and, with
        ``near_duplicates``, its near-duplicates are not compared)."""
        excluded = np.zeros((1, self.sample_lines_.n_pages), dtype=bool)
        excluded[0] = self.digests_ == stable_keys([page.html])[0]
        if self.near_duplicates:
            excluded[0] |= self.sample_lines_.of_page(vectors.line_keys, vectors.line_chars)
        return self.index_.best_matches(vectors, np.zeros(len(vectors), np.int64), excluded, self.cosine_threshold)

    def verdicts(self, page: Page, blocks: list[Block]) -> list[BlockVerdict]:
        """Keep or remove each of ``page``'s text blocks."""
        vectors = block_vectors(blocks)
        verdicts = duplicate_verdicts(self.match(page, vectors), self.index_, self.cosine_threshold)
        if self.variant == "improved":
            verdicts = repair(blocks, verdicts)
        return verdicts

    def _clean(self, page: Page) -> CleanedPage:
        blocks = text_blocks(page)
        return assemble(page, blocks, self.verdicts(page, blocks), self.name)

    def _get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        arrays = {**self.index_.arrays(), **self.sample_lines_.arrays(), "digests": self.digests_}
        return {"tag_vocab": self.index_.tag_vocab, "pages": self.sample_lines_.n_pages}, arrays

    def _set_state(self, state: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        vocab, n_pages = state.get("tag_vocab"), state.get("pages")
        if not isinstance(vocab, list) or not all(isinstance(t, str) for t in vocab):
            raise ModelFormatError("block_dup state lacks its tag vocabulary")
        if not isinstance(n_pages, int) or n_pages < 0:
            raise ModelFormatError("block_dup state lacks its page count")
        self.index_ = BlockIndex.from_arrays(vocab, arrays)
        self.sample_lines_ = NearDuplicates.from_arrays(arrays, n_pages)
        self.digests_ = check_array(arrays, "digests", "u")
        if len(self.digests_) != n_pages:
            raise ModelFormatError("block_dup page digests disagree with the page count")
        if len(self.index_) and int(self.index_.block_page.max()) >= n_pages:
            raise ModelFormatError("block_dup blocks refer to pages beyond the sample")
