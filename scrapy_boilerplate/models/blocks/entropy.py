"""``entropy``: InfoDiscoverer, informative content blocks by the entropy of their terms.

Lin, Ho, "Discovering Informative Content Blocks from Web Documents", KDD 2002.  Pages of a site
are split into content blocks (the paper used TABLE; ``partition="table"``), whose features are
their terms.  A feature's entropy over the ``d`` sample pages, ``H(F) = -sum_j w_j log_d w_j``
with ``w_j`` its share of occurrences on page ``j``, lies in [0, 1]: 0 for a term of one page, 1
for a term spread evenly over all.  A block's entropy is the mean entropy of its features; blocks
at or below the site's threshold are informative, above it redundant.  The threshold is found
per site greedily: raise it from 0 in steps of 0.1 while the number of features in informative
blocks keeps growing.  Terms a new page brings that the sample never saw count as informative
(entropy 0).

``variant="paper"`` is that procedure.  ``variant="improved"`` (default) adds the repairs the
development data called for: adjacent term pairs as features (common words no longer make an
article look like the template), a fixed threshold of ``IMPROVED_THRESHOLD`` (the greedy search
stops at the first plateau, often at 0, keeping almost nothing) and the repairs of
:mod:`scrapy_boilerplate.models.blocks.repairs`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.models.blocks.common import (
    PARTITIONS,
    BlockVerdict,
    assemble,
    block_terms,
    check_array,
    text_blocks,
)
from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.registry import register
from scrapy_boilerplate.page import Page

THRESHOLD_STEP = 0.1  # the paper's greedy step
IMPROVED_THRESHOLD = 0.7  # best fixed threshold on the development data (see docs/block_models.md)
VARIANTS = ("paper", "improved")


def word_pairs(terms: list[str]) -> list[str]:
    """Adjacent term pairs (the lone term of a one-term block): rarer than terms, so an article
    built from common words still differs from the template."""
    if len(terms) < 2:
        return terms
    return [f"{a} {b}" for a, b in zip(terms, terms[1:], strict=False)]


def feature_entropies(page_terms: Sequence[Counter[str]]) -> dict[str, float]:
    """``H(F)`` of every term over the pages, normalised by ``log d`` (0 for every term when d < 2)."""
    totals: Counter[str] = Counter()
    for counts in page_terms:
        totals.update(counts)
    d = len(page_terms)
    if d < 2:
        return dict.fromkeys(totals, 0.0)
    entropy = dict.fromkeys(totals, 0.0)
    for counts in page_terms:
        for term, count in counts.items():
            w = count / totals[term]
            entropy[term] -= w * math.log(w)
    log_d = math.log(d)
    return {term: min(max(h / log_d, 0.0), 1.0) for term, h in entropy.items()}


def block_entropy(terms: Sequence[str], entropies: dict[str, float]) -> float | None:
    """Mean entropy of a block's distinct terms (unseen terms count 0); None for a block without terms."""
    distinct = set(terms)
    if not distinct:
        return None
    return sum(entropies.get(term, 0.0) for term in distinct) / len(distinct)


def greedy_threshold(blocks: Sequence[tuple[float | None, frozenset[str]]]) -> float:
    """The paper's threshold: raise it by 0.1 from 0 while the features of informative blocks grow."""

    def features_at(threshold: float) -> int:
        covered: set[str] = set()
        for entropy, terms in blocks:
            if entropy is not None and entropy <= threshold + 1e-9:
                covered |= terms
        return len(covered)

    steps = round(1 / THRESHOLD_STEP)
    step, count = 0, features_at(0.0)
    while step < steps:
        following = features_at((step + 1) * THRESHOLD_STEP)
        if following <= count:
            break
        step, count = step + 1, following
    return round(step * THRESHOLD_STEP, 10)


@register
class EntropyModel(SiteModel):
    """Block entropy over the site's sample.

    Parameters
    ----------
    variant:
        ``"paper"`` for InfoDiscoverer as published, ``"improved"`` for the dev-data repairs.
    partition:
        ``"blocks"`` (the shared block extraction) or ``"table"`` (the paper's TABLE blocks).
    threshold:
        A fixed block-entropy threshold in [0, 1]; ``None`` takes the variant's: the greedy
        per-site search for ``paper``, ``IMPROVED_THRESHOLD`` for ``improved``.
    """

    name = "entropy"

    def __init__(self, variant: str = "improved", partition: str = "blocks", threshold: float | None = None) -> None:
        super().__init__()
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
        if partition not in PARTITIONS:
            raise ValueError(f"partition must be one of {tuple(PARTITIONS)}, got {partition!r}")
        if threshold is not None and not 0.0 <= float(threshold) <= 1.0:
            raise ValueError(f"threshold must be within [0, 1], got {threshold!r}")
        self.variant = variant
        self.partition = partition
        self.threshold = None if threshold is None else float(threshold)
        self.entropies_: dict[str, float] = {}  # learned: each term's entropy over the sample
        self.threshold_ = 0.0  # learned: the block-entropy threshold in use (fixed, or the greedy search's)

    def features_entropy(self, features: Sequence[str]) -> float | None:
        """Mean entropy over the fitted sample of a block's distinct ``features`` (None for none)."""
        return block_entropy(features, self.entropies_)

    def _blocks(self, page: Page) -> tuple[list[Block], list[list[str]]]:
        blocks = text_blocks(page, PARTITIONS[self.partition])
        terms = block_terms(blocks)
        if self.variant == "improved":
            terms = [word_pairs(t) for t in terms]
        return blocks, terms

    def _fit(self, pages: list[Page]) -> None:
        split = [self._blocks(page) for page in pages]
        self.entropies_ = feature_entropies(
            [Counter(t for terms in page_terms for t in terms) for _, page_terms in split]
        )
        if self.threshold is not None or self.variant == "improved":
            self.threshold_ = IMPROVED_THRESHOLD if self.threshold is None else self.threshold
            return
        scored = [
            (block_entropy(terms, self.entropies_), frozenset(terms)) for _, page_terms in split for terms in page_terms
        ]
        self.threshold_ = greedy_threshold(scored)

    def verdicts(self, blocks: list[Block], terms: list[list[str]]) -> list[BlockVerdict]:
        """Keep the informative blocks (entropy at or below the site threshold)."""
        threshold, verdicts = self.threshold_, []
        for block_terms_ in terms:
            entropy = block_entropy(block_terms_, self.entropies_)
            if entropy is None:
                verdicts.append(BlockVerdict(False, "no terms"))
            elif entropy <= threshold + 1e-9:
                verdicts.append(BlockVerdict(True, f"entropy {entropy:.2f} <= threshold {threshold:.2f}: informative"))
            else:
                verdicts.append(BlockVerdict(False, f"entropy {entropy:.2f} > threshold {threshold:.2f}: redundant"))
        if self.variant == "improved":
            from scrapy_boilerplate.models.blocks.repairs import repair

            verdicts = repair(blocks, verdicts)
        return verdicts

    def _clean(self, page: Page) -> CleanedPage:
        blocks, terms = self._blocks(page)
        return assemble(page, blocks, self.verdicts(blocks, terms), self.name, tags=PARTITIONS[self.partition])

    def _get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        terms = list(self.entropies_)
        values = np.array([self.entropies_[t] for t in terms], dtype=np.float64)
        return {"terms": terms, "threshold": self.threshold_}, {"entropy": values}

    def _set_state(self, state: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        terms, threshold = state.get("terms"), state.get("threshold")
        if not isinstance(terms, list) or not all(isinstance(t, str) for t in terms):
            raise ModelFormatError("entropy state lacks its terms")
        if not isinstance(threshold, (int, float)) or not 0.0 <= threshold <= 1.0:
            raise ModelFormatError("entropy state lacks a threshold within [0, 1]")
        values = check_array(arrays, "entropy", "f")
        if len(values) != len(terms) or np.any((values < 0) | (values > 1)):
            raise ModelFormatError("entropy values disagree with the terms or leave [0, 1]")
        self.entropies_ = dict(zip(terms, values.tolist(), strict=False))
        self.threshold_ = float(threshold)
