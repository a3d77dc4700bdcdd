"""Why fusion kept or removed each block: its probability and the features that moved it most."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scrapy_boilerplate.html.walk import element_path_finder
from scrapy_boilerplate.models.base import Decision
from scrapy_boilerplate.models.fusion.stages import Scored
from scrapy_boilerplate.models.fusion.trees import TreeEnsemble
from scrapy_boilerplate.page import Page

TOP_FEATURES = 3


def _value(x: float) -> str:
    if np.isnan(x):
        return "missing"
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.2f}"


def reasons(
    trees: TreeEnsemble, names: Sequence[str], features: np.ndarray, probability: np.ndarray, threshold: float
) -> list[str]:
    """One reason per block: P(main content) against the threshold, then the largest contributions."""
    if not len(features):
        return []
    moved, _ = trees.contributions(features)
    out = []
    for row, p, contribution in zip(features, probability.tolist(), moved, strict=True):
        verdict = f"P(main) {p:.2f} {'>=' if p >= threshold else '<'} {threshold:.2f}"
        top = np.argsort(-np.abs(contribution), kind="stable")[:TOP_FEATURES]
        parts = [f"{names[i]}={_value(row[i])} ({contribution[i]:+.2f})" for i in top if contribution[i]]
        out.append(f"{verdict}; moved most by " + ", ".join(parts) if parts else verdict)
    return out


def decisions(page: Page, scored: Scored, trees: TreeEnsemble, names: Sequence[str]) -> tuple[Decision, ...]:
    """A :class:`Decision` per block, named by its path in the page's tree: the rule's reason where a
    rule decided it, the trees' otherwise."""
    path = element_path_finder(page.tree)
    rules = scored.rules
    if not rules.any:
        why = reasons(trees, names, scored.matrix, scored.probability, scored.threshold)
    else:
        undecided = rules.undecided
        told = iter(reasons(trees, names, scored.matrix[undecided], scored.probability[undecided], scored.threshold))
        why = [rules.reasons[i] if decided else next(told) for i, decided in enumerate(rules.decided.tolist())]
    return tuple(
        Decision(path(block.element), bool(keep), len(block.text), reason)
        for block, keep, reason in zip(scored.blocks, scored.keep.tolist(), why, strict=True)
    )
