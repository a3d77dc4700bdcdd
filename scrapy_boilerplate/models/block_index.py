"""The sample's blocks as hashed sparse count vectors, searched for cosine neighbours with numpy.

A block's vector (Yoshida & Yamamoto) counts its tags, its text lines and its ``title``/``alt``
texts.  Tags come from a small vocabulary and are kept dense; lines and attribute texts are
64-bit hashes in an inverted index (sorted keys + postings).  A query page's blocks meet only the
sample blocks that share a hashed feature with them, plus the few tag-heavy blocks whose tags
alone could pass the threshold, so no pair of blocks is visited in a Python loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import lxml.etree
import numpy as np

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.models.base import ModelFormatError
from scrapy_boilerplate.models.block_common import check_array, expand_ranges, stable_keys, text_lines

_ATTRIBUTES = ("title", "alt")


@dataclass
class BlockVectors:
    """One page's blocks as vectors: per-block tag counts plus hashed text features."""

    tags: list[dict[str, int]]
    keys: np.ndarray  # uint64 hashed line / attribute features
    owner: np.ndarray  # int64 block number of each key
    weight: np.ndarray  # float64 count of each key in its block
    norm: np.ndarray  # float64 L2 norm of each block's whole vector
    line_keys: np.ndarray  # uint64 distinct text lines of the page (for near-duplicate pages)
    line_chars: np.ndarray  # int64 length of each of those lines

    def __len__(self) -> int:
        return len(self.tags)


def _features(block: Block) -> tuple[dict[str, int], dict[str, int]]:
    """(tag counts, line and title/alt counts) of one block; a mixed block counts only its own tag."""
    element = block.element
    texts: dict[str, int] = {}
    for line in text_lines(block.text):
        key = "l\x1f" + line
        texts[key] = texts.get(key, 0) + 1
    if not block.leaf or len(element) == 0:
        tags = {element.tag: 1}
        elements: Iterable[lxml.etree._Element] = (element,)
    else:
        tags = {}
        elements = list(element.iter(lxml.etree.Element))
        for el in elements:
            tags[el.tag] = tags.get(el.tag, 0) + 1
    for el in elements:
        for name in _ATTRIBUTES:
            value = el.get(name)
            if value and not value.isspace():
                key = "a\x1f" + value.strip().lower()
                texts[key] = texts.get(key, 0) + 1
    return tags, texts


def block_vectors(blocks: Sequence[Block]) -> BlockVectors:
    """Vectors of ``blocks`` (one page)."""
    tag_list, names, owners, weights, norms = [], [], [], [], []
    lines: dict[str, int] = {}
    for number, block in enumerate(blocks):
        tags, texts = _features(block)
        tag_list.append(tags)
        names.extend(texts)
        owners.extend([number] * len(texts))
        weights.extend(texts.values())
        norms.append(float(np.sqrt(sum(c * c for c in tags.values()) + sum(c * c for c in texts.values()))))
        for name in texts:
            if name[0] == "l":
                lines[name] = len(name) - 2
    return BlockVectors(tag_list, stable_keys(names), np.array(owners, dtype=np.int64),
                        np.array(weights, dtype=np.float64), np.array(norms, dtype=np.float64),
                        stable_keys(lines), np.array(list(lines.values()), dtype=np.int64))


@dataclass
class Match:
    """For each query block: its best cosine against allowed sample blocks and which block that is."""

    cosine: np.ndarray  # float64, 0 where nothing was found
    block: np.ndarray  # int64 index into the sample blocks, -1 where nothing was found


class BlockIndex:
    """All sample blocks of one site, ready for cosine queries."""

    def __init__(self, tag_vocab: list[str], tag_matrix: np.ndarray, inv_norm: np.ndarray,
                 post_keys: np.ndarray, post_block: np.ndarray, post_weight: np.ndarray,
                 block_page: np.ndarray, block_number: np.ndarray) -> None:
        self.tag_vocab = tag_vocab
        self._tag_column = {tag: i for i, tag in enumerate(tag_vocab)}
        self.tag_matrix, self.inv_norm = tag_matrix, inv_norm
        self.post_keys, self.post_block, self.post_weight = post_keys, post_block, post_weight
        self.block_page, self.block_number = block_page, block_number
        tag_norm = np.sqrt((tag_matrix.astype(np.float64) ** 2).sum(axis=1))
        share = tag_norm * inv_norm
        self._share_order = np.argsort(share, kind="stable")
        self._sorted_share = share[self._share_order]

    @classmethod
    def build(cls, pages: Sequence[BlockVectors]) -> BlockIndex:
        """Index every block of ``pages`` (page ``i`` of the sample is ``pages[i]``)."""
        vocab = sorted({tag for page in pages for tags in page.tags for tag in tags})
        column = {tag: i for i, tag in enumerate(vocab)}
        n = sum(len(page) for page in pages)
        tag_matrix = np.zeros((n, len(vocab)), dtype=np.float32)
        row = 0
        for page in pages:
            for tags in page.tags:
                for tag, count in tags.items():
                    tag_matrix[row, column[tag]] = count
                row += 1
        offsets = np.cumsum([0] + [len(page) for page in pages])[:-1]
        keys = np.concatenate([p.keys for p in pages]) if pages else np.zeros(0, np.uint64)
        owner = np.concatenate([p.owner + o for p, o in zip(pages, offsets)]) if pages else np.zeros(0, np.int64)
        weight = np.concatenate([p.weight for p in pages]) if pages else np.zeros(0)
        order = np.argsort(keys, kind="stable")
        norms = np.concatenate([p.norm for p in pages]) if pages else np.zeros(0)
        block_page = np.concatenate([np.full(len(p), i, np.int32) for i, p in enumerate(pages)]) if pages else np.zeros(0, np.int32)
        block_number = np.concatenate([np.arange(len(p), dtype=np.int32) for p in pages]) if pages else np.zeros(0, np.int32)
        return cls(vocab, tag_matrix, np.where(norms > 0, 1.0 / np.maximum(norms, 1e-12), 0.0),
                   keys[order], owner[order].astype(np.int32), weight[order].astype(np.float32),
                   block_page, block_number)

    def __len__(self) -> int:
        return len(self.inv_norm)

    def _query_tags(self, query: BlockVectors) -> np.ndarray:
        dense = np.zeros((len(query), len(self.tag_vocab)), dtype=np.float64)
        for row, tags in enumerate(query.tags):
            for tag, count in tags.items():
                column = self._tag_column.get(tag)
                if column is not None:
                    dense[row, column] = count
        return dense

    def _candidates(self, query: BlockVectors, q_tags: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
        """(pair keys q * n + b, shared-text dot products) of the pairs that could pass ``threshold``."""
        n = len(self)
        lo = np.searchsorted(self.post_keys, query.keys, side="left")
        hi = np.searchsorted(self.post_keys, query.keys, side="right")
        positions = expand_ranges(lo, hi - lo)
        q_rows = np.repeat(query.owner, hi - lo)
        text_pairs = q_rows * n + self.post_block[positions]
        text_dot = np.repeat(query.weight, hi - lo) * self.post_weight[positions]
        # Blocks sharing no text can still pass when both are mostly tags (cos <= share_q * share_b):
        # score those few rows against the few tag-heavy sample blocks densely, keep what passes.
        q_share = np.sqrt((q_tags ** 2).sum(axis=1)) / np.maximum(query.norm, 1e-12)
        first = np.searchsorted(self._sorted_share, threshold / np.maximum(q_share, 1e-12), side="right")
        heavy = np.flatnonzero(first < n)
        tag_pairs = np.zeros(0, dtype=np.int64)
        if len(heavy):
            columns = self._share_order[int(first[heavy].min()):]
            tag_cos = (q_tags[heavy] @ self.tag_matrix[columns].T.astype(np.float64)) \
                * self.inv_norm[columns][None, :] / np.maximum(query.norm[heavy], 1e-12)[:, None]
            rows, cols = np.nonzero(tag_cos > threshold)
            tag_pairs = heavy[rows].astype(np.int64) * n + columns[cols]
        pairs, inverse = np.unique(np.concatenate([text_pairs, tag_pairs]), return_inverse=True)
        dot = np.bincount(inverse, weights=np.concatenate([text_dot, np.zeros(len(tag_pairs))]), minlength=len(pairs))
        return pairs, dot

    def best_matches(self, query: BlockVectors, q_page: np.ndarray, excluded: np.ndarray, threshold: float) -> Match:
        """Each query block's most similar sample block among pages not ``excluded[q_page[row]]``.

        Pairs that cannot pass ``threshold`` are skipped, so a cosine at or below it may read 0.
        """
        best = np.zeros(len(query), dtype=np.float64)
        best_block = np.full(len(query), -1, dtype=np.int64)
        if len(query) == 0 or len(self) == 0:
            return Match(best, best_block)
        q_tags = self._query_tags(query)
        pairs, text_dot = self._candidates(query, q_tags, threshold)
        n = len(self)
        rows, blocks = pairs // n, pairs % n
        allowed = ~excluded[q_page[rows], self.block_page[blocks]]
        rows, blocks, text_dot = rows[allowed], blocks[allowed], text_dot[allowed]
        tag_dot = np.einsum("ij,ij->i", q_tags[rows], self.tag_matrix[blocks])
        cosine = (tag_dot + text_dot) * self.inv_norm[blocks] / np.maximum(query.norm[rows], 1e-12)
        order = np.lexsort((-cosine, rows))
        rows, blocks, cosine = rows[order], blocks[order], cosine[order]
        first = np.ones(len(rows), dtype=bool)
        first[1:] = rows[1:] != rows[:-1]
        best[rows[first]] = cosine[first]
        best_block[rows[first]] = blocks[first]
        return Match(best, best_block)

    def arrays(self) -> dict[str, np.ndarray]:
        """The numeric state, for saving."""
        return {"tag_matrix": self.tag_matrix, "inv_norm": self.inv_norm, "post_keys": self.post_keys,
                "post_block": self.post_block, "post_weight": self.post_weight,
                "block_page": self.block_page, "block_number": self.block_number}

    @classmethod
    def from_arrays(cls, tag_vocab: list[str], arrays: dict[str, np.ndarray]) -> BlockIndex:
        """Rebuild from :meth:`arrays`; raises ``ModelFormatError`` when they do not fit together."""
        tag_matrix = check_array(arrays, "tag_matrix", "f", 2)
        inv_norm = check_array(arrays, "inv_norm", "f")
        keys, post_block = check_array(arrays, "post_keys", "u"), check_array(arrays, "post_block", "i")
        post_weight = check_array(arrays, "post_weight", "f")
        block_page, block_number = check_array(arrays, "block_page", "i"), check_array(arrays, "block_number", "i")
        n = len(inv_norm)
        if tag_matrix.shape != (n, len(tag_vocab)) or len(block_page) != n or len(block_number) != n:
            raise ModelFormatError("block index arrays disagree in length")
        if not (len(keys) == len(post_block) == len(post_weight)) or bool(np.any(keys[1:] < keys[:-1])) \
                or (len(post_block) and (post_block.min() < 0 or post_block.max() >= n)):
            raise ModelFormatError("block index postings are malformed")
        return cls(tag_vocab, tag_matrix, inv_norm, keys.astype(np.uint64), post_block, post_weight,
                   block_page, block_number)
