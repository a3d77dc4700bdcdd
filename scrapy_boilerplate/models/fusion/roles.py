"""The role words feature: one 0/1 column per learned word of the class, id, role and itemprop values
of a block and its ancestors.

The words are chosen at training (:func:`choose_words`: information gain over the labelled blocks,
among words seen on enough sites, so no one site's quirks) and the weights file names them as the
feature's columns (``role_<word>``), at most :data:`MAX_WORDS`: each is a bit of one 64-bit mask
per block.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.fusion.inputs import PageInputs
from scrapy_boilerplate.models.fusion.registry import LabelledPage, LearnedFeature

PREFIX = "role_"
MAX_WORDS = 64  # role words are bits of one 64-bit mask per block
MIN_SITES = 8  # a role word must label blocks on this many sites to be learned (no site quirks)


def observe_words(inputs: PageInputs) -> list[frozenset[str]]:
    """Each block's role words (its own and its ancestors')."""
    return inputs.ancestry.role_words


def word_columns(observed: Sequence[frozenset[str]], columns: tuple[str, ...]) -> np.ndarray:
    """One 0/1 column per ``role_<word>`` column, from each block's role words."""
    if not columns:
        return np.zeros((len(observed), 0))
    bits = {column[len(PREFIX) :]: 1 << i for i, column in enumerate(columns)}
    masks: dict[frozenset[str], int] = {}  # blocks under one container share their words
    packed = np.empty(len(observed), dtype=np.uint64)
    for i, words in enumerate(observed):
        mask = masks.get(words)
        if mask is None:
            mask = 0
            for word in words:
                mask |= bits.get(word, 0)
            masks[words] = mask
        packed[i] = mask
    shifts = np.arange(len(columns), dtype=np.uint64)
    return ((packed.reshape(-1, 1) >> shifts) & np.uint64(1)).astype(np.float64)


def check_columns(columns: tuple[str, ...]) -> None:
    """Refuse columns that are not ``role_<word>`` or too many for the mask."""
    if len(columns) > MAX_WORDS:
        raise ModelFormatError(f"fusion weights hold {len(columns)} role words, over {MAX_WORDS}")
    if not all(column.startswith(PREFIX) and len(column) > len(PREFIX) for column in columns):
        raise ModelFormatError(f"fusion role word columns must be named {PREFIX}<word>")


def _entropy(positive: np.ndarray, total: np.ndarray) -> np.ndarray:
    p = np.clip(positive / np.maximum(total, 1e-12), 1e-12, 1 - 1e-12)
    return -(p * np.log(p) + (1 - p) * np.log(1 - p))


def choose_words(pages: Sequence[LabelledPage]) -> tuple[str, ...]:
    """The role words whose presence best splits main content from boilerplate (information gain,
    blocks weighted by tokens), among words seen on at least :data:`MIN_SITES` sites, as columns."""
    weight_of: dict[str, float] = defaultdict(float)
    positive_of: dict[str, float] = defaultdict(float)
    sites_of: dict[str, set[str]] = defaultdict(set)
    total = positive = 0.0
    for page in pages:
        for roles, label, tokens in zip(page.observed, page.labels.tolist(), page.tokens.tolist(), strict=True):
            weight = float(tokens)
            total += weight
            positive += weight * label
            for word in roles:
                weight_of[word] += weight
                positive_of[word] += weight * label
                sites_of[word].add(page.site)
    words = sorted(w for w in weight_of if len(sites_of[w]) >= MIN_SITES)
    if not words or total <= 0:
        return ()
    w1 = np.array([weight_of[w] for w in words])
    p1 = np.array([positive_of[w] for w in words])
    w0, p0 = total - w1, positive - p1
    gain = _entropy(np.array(positive), np.array(total)) - (
        w1 / total * _entropy(p1, w1) + w0 / total * _entropy(p0, w0)
    )
    order = sorted(range(len(words)), key=lambda i: (-gain[i], words[i]))
    return tuple(PREFIX + word for word in sorted(words[i] for i in order[:MAX_WORDS]))


ROLE_WORDS = LearnedFeature("role_words", observe_words, choose_words, word_columns, check_columns)
