"""Block labels from gold text: the share of each block's tokens that align with the gold.

The page's block tokens, in document order, are aligned with the gold tokens as two sequences
(longest matching runs, as ``difflib`` finds them), not looked up as bags: common words occur in
boilerplate too, and only their place in the sequence tells an article's "the" from a menu's.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

import numpy as np

from scrapy_boilerplate.tokenize import tokenize


def _as_ids(tokens: Sequence[str], ids: dict[str, int]) -> list[int]:
    return [ids.setdefault(token, len(ids)) for token in tokens]


def block_labels(block_tokens: Sequence[Sequence[str]], gold: str) -> tuple[np.ndarray, int]:
    """For each block, the share of its tokens aligned with ``gold`` (0 for a block without tokens),
    and the number of gold tokens."""
    ids: dict[str, int] = {}
    page = _as_ids([token for tokens in block_tokens for token in tokens], ids)
    target = _as_ids(tokenize(gold), ids)
    aligned = np.zeros(len(page) + 1, dtype=np.int64)
    if page and target:
        matcher = difflib.SequenceMatcher(None, page, target, autojunk=False)
        marks = np.zeros(len(page) + 1, dtype=np.int64)
        for start, _, size in matcher.get_matching_blocks():
            if size:
                marks[start] += 1
                marks[start + size] -= 1
        aligned[1:] = np.cumsum(np.minimum(np.cumsum(marks)[:-1], 1))
    sizes = np.array([len(tokens) for tokens in block_tokens], dtype=np.int64)
    ends = np.cumsum(sizes)
    starts = ends - sizes
    hits = aligned[ends] - aligned[starts]
    return np.where(sizes > 0, hits / np.maximum(sizes, 1), 0.0), len(target)
