"""The sample's blocks as hashed sparse count vectors, searched for cosine neighbours with numpy.

A block's vector (Yoshida & Yamamoto) counts its tags, its text lines and its ``title``/``alt``
texts.  Tags come from a small vocabulary and are kept dense; lines and attribute texts are
64-bit hashes in an inverted index (sorted keys + postings).  A query page's blocks meet only the
sample blocks that share a hashed feature with them, plus the few tag-heavy blocks whose tags
alone could pass the threshold, so no pair of blocks is visited in a Python loop.

Pages with thousands of repeated blocks (flat listings, comment threads) would make the candidate
pairs quadratic.  Identical vectors are therefore scored once (per page on the sample side: the
first of them is the one a match names, as before), and a hashed feature shared by more than
``FREQUENT_POSTINGS`` distinct sample blocks only pairs a query block with the blocks that could
pass the threshold through such features and tags alone (cosine <= the product of both blocks'
shares of them), the most dominated first, within a budget of pairs per query page; pairs found
through rarer features still get its full contribution.  Below the budget the result is exact.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

import lxml.etree
import numpy as np

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.models.arrays import sorted_unique
from scrapy_boilerplate.models.blocks.common import check_array, expand_ranges, stable_keys, text_lines
from scrapy_boilerplate.models.errors import ModelFormatError

_ATTRIBUTES = ("title", "alt")
FREQUENT_POSTINGS = 1024  # distinct sample blocks per feature beyond which its pairs are capped
FREQUENT_PAIR_BUDGET = 1 << 18  # pairs proposed through frequent features for one query page
_DENSE_CELLS = 1 << 22  # query rows x sample blocks scored densely at once in the tag-only pass
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix(values: np.ndarray) -> np.ndarray:
    """A 64-bit finaliser (splitmix64) of ``values``: spreads bits so that sums of mixes identify sets."""
    z = values.astype(np.uint64) + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def vector_signatures(
    tag_rows: np.ndarray, owner: np.ndarray, keys: np.ndarray, weight: np.ndarray, norm: np.ndarray
) -> np.ndarray:
    """One 64-bit value per block that is equal for blocks with equal vectors (tags, features, norm)."""
    signature = _mix(np.ascontiguousarray(norm, dtype=np.float64).view(np.uint64))
    rows, columns = np.nonzero(tag_rows)
    counts = tag_rows[rows, columns].astype(np.uint64)
    np.add.at(signature, rows, _mix(columns.astype(np.uint64) * _GOLDEN ^ _mix(counts)))
    np.add.at(signature, owner, _mix(keys.astype(np.uint64) ^ _mix(weight.astype(np.uint64))))
    return signature


def _tag_signatures(tag_rows: np.ndarray, norm: np.ndarray) -> np.ndarray:
    """Signatures of blocks' tag counts and norm only (what a tag-only cosine depends on)."""
    none = np.zeros(0, dtype=np.int64)
    return vector_signatures(tag_rows, none, none.astype(np.uint64), none, norm)


def first_of_each(signature: np.ndarray, group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index of the first block of each distinct (group, signature), each block's position among them)."""
    combined = signature ^ _mix(group.astype(np.uint64))
    _, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    return first[order], position[inverse.ravel()]


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

    def subset(self, rows: np.ndarray) -> BlockVectors:
        """The vectors of blocks ``rows`` (in that order), renumbered from 0."""
        renumber = np.full(len(self), -1, dtype=np.int64)
        renumber[rows] = np.arange(len(rows))
        kept = renumber[self.owner] >= 0
        return BlockVectors(
            [self.tags[i] for i in rows.tolist()],
            self.keys[kept],
            renumber[self.owner[kept]],
            self.weight[kept],
            self.norm[rows],
            self.line_keys,
            self.line_chars,
        )


def _features(block: Block) -> tuple[dict[str, int], dict[str, int]]:
    """(tag counts, line and title/alt counts) of one block; a mixed block counts only its own tag."""
    element = block.element
    texts: dict[str, int] = {}
    for line in text_lines(block.text):
        key = "l\x1f" + line
        texts[key] = texts.get(key, 0) + 1
    # a block and the elements in it (never comments or PIs): every tag is a name
    if not block.leaf or len(element) == 0:
        tags = {cast(str, element.tag): 1}
        elements: Iterable[lxml.etree._Element] = (element,)
    else:
        tags = {}
        elements = list(element.iter(lxml.etree.Element))
        for el in elements:
            tag = cast(str, el.tag)
            tags[tag] = tags.get(tag, 0) + 1
    for el in elements:
        for name in _ATTRIBUTES:
            value = el.get(name)
            if value and not value.isspace():
                key = "a\x1f" + value.strip().lower()
                texts[key] = texts.get(key, 0) + 1
    return tags, texts


def block_vectors(blocks: Sequence[Block]) -> BlockVectors:
    """Vectors of ``blocks`` (one page)."""
    tag_list: list[dict[str, int]] = []
    names: list[str] = []
    owners: list[int] = []
    weights: list[int] = []
    norms: list[float] = []
    lines: dict[str, int] = {}
    for number, block in enumerate(blocks):
        tags, texts = _features(block)
        tag_list.append(tags)
        names.extend(texts)
        owners.extend([number] * len(texts))
        weights.extend(texts.values())
        # math.sqrt: numpy's IEEE square root without a numpy scalar per block (a fifth of this loop)
        norms.append(math.sqrt(sum(c * c for c in tags.values()) + sum(c * c for c in texts.values())))
        for name in texts:
            if name[0] == "l":
                lines[name] = len(name) - 2
    return BlockVectors(
        tag_list,
        stable_keys(names),
        np.array(owners, dtype=np.int64),
        np.array(weights, dtype=np.float64),
        np.array(norms, dtype=np.float64),
        stable_keys(lines),
        np.array(list(lines.values()), dtype=np.int64),
    )


@dataclass
class Match:
    """For each query block: its best cosine against allowed sample blocks and which block that is."""

    cosine: np.ndarray  # float64, 0 where nothing was found
    block: np.ndarray  # int64 index into the sample blocks, -1 where nothing was found


class BlockIndex:
    """All sample blocks of one site, ready for cosine queries."""

    def __init__(
        self,
        tag_vocab: list[str],
        tag_matrix: np.ndarray,
        inv_norm: np.ndarray,
        post_keys: np.ndarray,
        post_block: np.ndarray,
        post_weight: np.ndarray,
        block_page: np.ndarray,
        block_number: np.ndarray,
    ) -> None:
        self.tag_vocab = tag_vocab
        self._tag_column = {tag: i for i, tag in enumerate(tag_vocab)}
        self.tag_matrix, self.inv_norm = tag_matrix, inv_norm
        self.post_keys, self.post_block, self.post_weight = post_keys, post_block, post_weight
        self.block_page, self.block_number = block_page, block_number
        self._prepare_search()

    def _prepare_search(self) -> None:
        """Search structures over the first block of each identical-vector group of each page."""
        n = len(self.inv_norm)
        signature = vector_signatures(
            self.tag_matrix, self.post_block.astype(np.int64), self.post_keys, self.post_weight, self.inv_norm
        )
        representative = np.zeros(n, dtype=bool)
        representative[first_of_each(signature, self.block_page)[0]] = True
        kept = representative[self.post_block]
        keys, blocks, weights = self.post_keys[kept], self.post_block[kept].astype(np.int64), self.post_weight[kept]
        distinct, counts = np.unique(keys, return_counts=True)
        self._frequent = distinct[counts > FREQUENT_POSTINGS]
        tag_squares = (self.tag_matrix.astype(np.float64) ** 2).sum(axis=1)
        common = tag_squares.copy()
        in_frequent = np.isin(keys, self._frequent) if len(self._frequent) else np.zeros(len(keys), dtype=bool)
        common += np.bincount(blocks[in_frequent], weights=weights[in_frequent].astype(np.float64) ** 2, minlength=n)
        self._common_share = np.sqrt(common) * self.inv_norm  # cosine bound from tags and frequent features
        if len(self._frequent):  # a frequent feature's postings, most dominated block first
            order = np.lexsort((-self._common_share[blocks], keys))
            keys, blocks, weights = keys[order], blocks[order], weights[order]
            rank = np.searchsorted(self._frequent, keys[in_frequent[order]])
            lookup = rank * n + blocks[in_frequent[order]]
            lookup_order = np.argsort(lookup, kind="stable")
            self._frequent_lookup = lookup[lookup_order]
            self._frequent_weight = weights[in_frequent[order]][lookup_order]
        self._keys, self._blocks, self._weights = keys, blocks, weights
        # the tag-only pass sees one block per page and (tag counts, norm): its cosines are equal
        tag_first = first_of_each(_tag_signatures(self.tag_matrix, self.inv_norm), self.block_page)[0]
        share = np.sqrt(tag_squares[tag_first]) * self.inv_norm[tag_first]
        order = np.argsort(share, kind="stable")
        self._share_order = tag_first[order]
        self._sorted_share = share[order]

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
        owner = (
            np.concatenate([p.owner + o for p, o in zip(pages, offsets, strict=False)])
            if pages
            else np.zeros(0, np.int64)
        )
        weight = np.concatenate([p.weight for p in pages]) if pages else np.zeros(0)
        order = np.argsort(keys, kind="stable")
        norms = np.concatenate([p.norm for p in pages]) if pages else np.zeros(0)
        block_page = (
            np.concatenate([np.full(len(p), i, np.int32) for i, p in enumerate(pages)])
            if pages
            else np.zeros(0, np.int32)
        )
        block_number = (
            np.concatenate([np.arange(len(p), dtype=np.int32) for p in pages]) if pages else np.zeros(0, np.int32)
        )
        return cls(
            vocab,
            tag_matrix,
            np.where(norms > 0, 1.0 / np.maximum(norms, 1e-12), 0.0),
            keys[order],
            owner[order].astype(np.int32),
            weight[order].astype(np.float32),
            block_page,
            block_number,
        )

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
        lo = np.searchsorted(self._keys, query.keys, side="left")
        counts = np.searchsorted(self._keys, query.keys, side="right") - lo
        frequent = np.isin(query.keys, self._frequent) if len(self._frequent) else np.zeros(len(counts), bool)
        if frequent.any():
            counts = self._capped_counts(query, q_tags, frequent, lo, counts, threshold)
        positions = expand_ranges(lo, counts)
        q_rows = np.repeat(query.owner, counts)
        text_pairs = q_rows * n + self._blocks[positions]
        text_dot = np.repeat(np.where(frequent, 0.0, query.weight), counts) * self._weights[positions]
        # Blocks sharing no text can still pass when both are mostly tags (cos <= share_q * share_b):
        # score those few rows against the few tag-heavy sample blocks densely, keep what passes.
        q_share = np.sqrt((q_tags**2).sum(axis=1)) / np.maximum(query.norm, 1e-12)
        first = np.searchsorted(self._sorted_share, threshold / np.maximum(q_share, 1e-12), side="right")
        heavy = np.flatnonzero(first < len(self._sorted_share))
        tag_pairs = np.zeros(0, dtype=np.int64)
        if len(heavy):
            tag_pairs = self._tag_pairs(q_tags, query.norm, heavy, int(first[heavy].min()), threshold)
        all_pairs = np.concatenate([text_pairs, tag_pairs])
        all_dot = np.concatenate([text_dot, np.zeros(len(all_pairs) - len(text_pairs))])
        if frequent.any():  # frequent features only proposed pairs: add their products to every pair
            extra_pairs, extra_dot = self._frequent_products(query, frequent, sorted_unique(all_pairs))
            all_pairs, all_dot = np.concatenate([all_pairs, extra_pairs]), np.concatenate([all_dot, extra_dot])
        pairs, inverse = np.unique(all_pairs, return_inverse=True)
        return pairs, np.bincount(inverse, weights=all_dot, minlength=len(pairs))

    def best_matches(self, query: BlockVectors, q_page: np.ndarray, excluded: np.ndarray, threshold: float) -> Match:
        """Each query block's most similar sample block among pages not ``excluded[q_page[row]]``.

        Pairs that cannot pass ``threshold`` are skipped, so a cosine at or below it may read 0.
        """
        if len(query) == 0 or len(self) == 0:
            return Match(np.zeros(len(query), dtype=np.float64), np.full(len(query), -1, dtype=np.int64))
        q_tags = self._query_tags(query)
        distinct, position = first_of_each(
            vector_signatures(q_tags, query.owner, query.keys, query.weight, query.norm), q_page
        )
        if len(distinct) == len(query):
            return self._best_of_distinct(query, q_tags, q_page, excluded, threshold)
        # score each repeated block once
        match = self._best_of_distinct(query.subset(distinct), q_tags[distinct], q_page[distinct], excluded, threshold)
        return Match(match.cosine[position], match.block[position])

    def _best_of_distinct(
        self, query: BlockVectors, q_tags: np.ndarray, q_page: np.ndarray, excluded: np.ndarray, threshold: float
    ) -> Match:
        """:meth:`best_matches` for query blocks that are all different vectors."""
        best = np.zeros(len(query), dtype=np.float64)
        best_block = np.full(len(query), -1, dtype=np.int64)
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

    def _tag_pairs(
        self, q_tags: np.ndarray, q_norm: np.ndarray, heavy: np.ndarray, first: int, threshold: float
    ) -> np.ndarray:
        """Pair keys of ``heavy`` query rows and sample blocks whose tags alone pass ``threshold``;
        rows with equal tags and norm are scored once, in chunks of bounded memory."""
        n = len(self)
        columns = self._share_order[first:]
        distinct, position = first_of_each(_tag_signatures(q_tags[heavy], q_norm[heavy]), np.zeros(len(heavy)))
        rows_of = heavy[distinct]
        tags_t = self.tag_matrix[columns].T.astype(np.float64)
        passing_rows, passing_cols = [], []
        step = max(1, _DENSE_CELLS // len(columns))
        for chunk in range(0, len(rows_of), step):
            part = rows_of[chunk : chunk + step]
            tag_cos = (
                (q_tags[part] @ tags_t) * self.inv_norm[columns][None, :] / np.maximum(q_norm[part], 1e-12)[:, None]
            )
            rows, cols = np.nonzero(tag_cos > threshold)
            passing_rows.append(rows + chunk)
            passing_cols.append(columns[cols])
        d_rows, d_cols = np.concatenate(passing_rows), np.concatenate(passing_cols)
        per_distinct = np.bincount(d_rows, minlength=len(distinct))
        starts = np.cumsum(per_distinct) - per_distinct  # d_rows is sorted: nonzero walks row-major
        count = per_distinct[position]
        return np.repeat(heavy.astype(np.int64), count) * n + d_cols[expand_ranges(starts[position], count)]

    def _capped_counts(
        self,
        query: BlockVectors,
        q_tags: np.ndarray,
        frequent: np.ndarray,
        lo: np.ndarray,
        counts: np.ndarray,
        threshold: float,
    ) -> np.ndarray:
        """Posting counts with each frequent feature cut to the blocks its query block could match
        through tags and frequent features alone (cosine <= the product of both blocks' shares of
        them), the most dominated first, within a pair budget (exact while it is not reached)."""
        key_weight = np.where(frequent, query.weight, 0.0).astype(np.float64)
        common = (q_tags**2).sum(axis=1) + np.bincount(query.owner, weights=key_weight**2, minlength=len(query))
        q_share = np.sqrt(common) / np.maximum(query.norm, 1e-12)
        bound = threshold / np.maximum(q_share[query.owner], 1e-12) * (1 - 1e-9)
        entries = np.flatnonzero(frequent)
        cap = max(1, FREQUENT_PAIR_BUDGET // len(entries))
        counts = counts.copy()
        for start in sorted_unique(lo[entries]).tolist():  # one search per distinct frequent feature
            same = entries[lo[entries] == start]
            shares = -self._common_share[self._blocks[start : start + counts[same[0]]]]
            counts[same] = np.minimum(np.searchsorted(shares, -bound[same], side="right"), cap)
        return counts

    def _frequent_products(
        self, query: BlockVectors, frequent: np.ndarray, pairs: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(pair keys, products) of every frequent feature of each pair's query block that its
        sample block has too."""
        n = len(self)
        entries = np.flatnonzero(frequent)
        entries = entries[np.argsort(query.owner[entries], kind="stable")]
        per_row = np.bincount(query.owner[entries], minlength=len(query))
        row_start = np.cumsum(per_row) - per_row
        rows = pairs // n
        pair_index = np.repeat(np.arange(len(pairs)), per_row[rows])
        entry = entries[expand_ranges(row_start[rows], per_row[rows])]
        lookup = np.searchsorted(self._frequent, query.keys[entry]) * n + pairs[pair_index] % n
        at = np.minimum(np.searchsorted(self._frequent_lookup, lookup), len(self._frequent_lookup) - 1)
        found = self._frequent_lookup[at] == lookup
        return pairs[pair_index[found]], query.weight[entry[found]] * self._frequent_weight[at[found]]

    def arrays(self) -> dict[str, np.ndarray]:
        """The numeric state, for saving."""
        return {
            "tag_matrix": self.tag_matrix,
            "inv_norm": self.inv_norm,
            "post_keys": self.post_keys,
            "post_block": self.post_block,
            "post_weight": self.post_weight,
            "block_page": self.block_page,
            "block_number": self.block_number,
        }

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
        if (
            not (len(keys) == len(post_block) == len(post_weight))
            or bool(np.any(keys[1:] < keys[:-1]))
            or (len(post_block) and (post_block.min() < 0 or post_block.max() >= n))
        ):
            raise ModelFormatError("block index postings are malformed")
        return cls(
            tag_vocab, tag_matrix, inv_norm, keys.astype(np.uint64), post_block, post_weight, block_page, block_number
        )
