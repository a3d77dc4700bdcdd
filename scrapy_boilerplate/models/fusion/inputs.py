"""What fusion's feature functions read of one page, and the per-page steps several of them share.

A :class:`PageInputs` is made once per clean (and once per training page): its blocks, the blocks
the rules stage left undecided, the site evidence, and lazily the steps more than one feature needs
(the blocks' tokens and sizes, what encloses each block, the sibling groups), each computed the first time a feature asks.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.models.fusion.ancestry import ANCESTOR_BITS, BlockAncestry, block_ancestry
from scrapy_boilerplate.models.fusion.sibling_groups import SiblingGroups, sibling_groups
from scrapy_boilerplate.models.fusion.site_evidence import SiteEvidence
from scrapy_boilerplate.models.fusion.sizes import link_chars, visible_chars
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.tokenize import tokenize

# A page of more blocks than this is a data dump, not an article: only its first ones are judged,
# so that its clean stays within seconds (a 20 MB page of paragraphs has ~600,000).
MAX_BLOCKS = 20_000


def text_blocks(page: Page) -> list[Block]:
    """The page's first :data:`MAX_BLOCKS` blocks that hold visible text, in document order."""
    return page.text_blocks()[:MAX_BLOCKS]


class PageInputs:
    """One page's blocks and what its features share; ``site`` is None without site evidence."""

    def __init__(self, page: Page, blocks: list[Block], undecided: np.ndarray, site: SiteEvidence | None) -> None:
        self.page = page
        self.blocks = blocks
        self.undecided = undecided  # bool per block: False where the rules stage decided the block
        self.site = site

    @classmethod
    def of(cls, page: Page, site: SiteEvidence | None = None) -> PageInputs:
        """The inputs of ``page`` with every block undecided (training, tests, benchmarks)."""
        blocks = text_blocks(page)
        return cls(page, blocks, np.ones(len(blocks), dtype=bool), site)

    @cached_property
    def tokens(self) -> list[list[str]]:
        """Each block's tokens (the metric's tokeniser)."""
        return [tokenize(block.text) for block in self.blocks]

    @cached_property
    def ancestry(self) -> BlockAncestry:
        """What encloses each block: depth, ancestor tags, role words."""
        return block_ancestry(self.blocks)

    @cached_property
    def chars(self) -> np.ndarray:
        """Each block's visible characters (whitespace ignored)."""
        return np.array([visible_chars(block.text) for block in self.blocks], dtype=np.float64)

    @cached_property
    def link_chars(self) -> np.ndarray:
        """Each block's visible characters inside links (its own anchors; see :func:`.sizes.link_chars`)."""
        return np.array([link_chars(block) for block in self.blocks], dtype=np.float64)

    @cached_property
    def linked_chars(self) -> np.ndarray:
        """Each block's characters a reader sees as links: its anchors' text, all of it under a link."""
        in_link = (np.array(self.ancestry.tag_bits, dtype=np.int64) & ANCESTOR_BITS["a"]) > 0
        return np.where(in_link, self.chars, self.link_chars)

    @cached_property
    def groups(self) -> SiblingGroups:
        """The repeated sibling groups the blocks sit in."""
        words = np.array([len(t) for t in self.tokens], dtype=np.float64)
        return sibling_groups(self.blocks, self.chars, self.linked_chars, words)
