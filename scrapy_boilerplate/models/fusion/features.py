"""The full feature matrix of a page: page features, site features and role-word indicators."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from scrapy_boilerplate.models.fusion.page_features import PageBlocks


def role_mask(words: Iterable[str], bits: dict[str, int]) -> int:
    """The vocabulary bits of a block's role words."""
    mask = 0
    for word in words:
        mask |= bits.get(word, 0)
    return mask


def role_columns(masks: list[int], vocabulary_size: int) -> np.ndarray:
    """One 0/1 column per vocabulary word from the blocks' role masks."""
    if not vocabulary_size:
        return np.zeros((len(masks), 0))
    packed = np.array(masks, dtype=np.uint64).reshape(-1, 1)
    shifts = np.arange(vocabulary_size, dtype=np.uint64)
    return ((packed >> shifts) & np.uint64(1)).astype(np.float64)


def feature_matrix(blocks: PageBlocks, site_rows: np.ndarray, vocabulary_size: int) -> np.ndarray:
    """The columns of :func:`~scrapy_boilerplate.models.fusion.weights.feature_names`, one row per block
    (``blocks.roles`` must hold vocabulary masks)."""
    return np.hstack([blocks.features, site_rows, role_columns(blocks.roles, vocabulary_size)])
