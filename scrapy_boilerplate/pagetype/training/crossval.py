"""Cross-validating the page-type classifier grouped by site: every page is told by weights fitted
without any page of its site (the folds of ``train --folds``), and the readings are summarised as
accuracy, each type's precision and recall, and the confusion matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from scrapy_boilerplate.models.fusion.training.command import fold_of
from scrapy_boilerplate.pagetype.labels import PAGE_TYPES
from scrapy_boilerplate.pagetype.training.dataset import LabelledPage
from scrapy_boilerplate.pagetype.training.fit import train_page_types


def held_out_probabilities(
    pages: Sequence[LabelledPage], folds: int, params: dict[str, Any] | None = None
) -> np.ndarray:
    """Each page's type probabilities (rows x types) from weights trained on the other folds' sites."""
    fold = [fold_of(page.site, folds) for page in pages]
    out = np.zeros((len(pages), len(PAGE_TYPES)))
    for held in range(folds):
        rows = [row for row, page_fold in enumerate(fold) if page_fold == held]
        if not rows:
            continue
        weights = train_page_types(
            [page for page, page_fold in zip(pages, fold, strict=True) if page_fold != held], params
        )
        out[rows] = weights.probabilities(weights.features([pages[row].signals for row in rows]))
    return out


def confusion(labels: Sequence[str], predicted: np.ndarray) -> np.ndarray:
    """Pages of each true type (rows) told as each type (columns), :data:`PAGE_TYPES` order."""
    matrix = np.zeros((len(PAGE_TYPES), len(PAGE_TYPES)), dtype=np.int64)
    for label, told in zip(labels, predicted, strict=True):
        matrix[PAGE_TYPES.index(label), int(told)] += 1
    return matrix


def report_lines(matrix: np.ndarray, sites: int) -> list[str]:
    """The accuracy, then per type its pages, recall, precision and the types it is mistaken for
    most, then the confusion matrix, as printed lines."""
    pages = int(matrix.sum())
    lines = [
        f"page-type accuracy, cross-validated by site: {np.trace(matrix) / max(pages, 1):.3f} ({pages} pages, {sites} sites)"
    ]
    lines.append(f"{'type':<14}{'pages':>6}{'recall':>8}{'precision':>10}  mistaken for")
    for i, label in enumerate(PAGE_TYPES):
        truth, told = int(matrix[i].sum()), int(matrix[:, i].sum())
        recall = matrix[i, i] / truth if truth else 0.0
        precision = matrix[i, i] / told if told else 0.0
        misses = sorted(((int(matrix[i, j]), PAGE_TYPES[j]) for j in range(len(PAGE_TYPES)) if j != i), reverse=True)
        mistaken = ", ".join(f"{name} {count}" for count, name in misses[:3] if count)
        lines.append(f"{label:<14}{truth:>6}{recall:>8.3f}{precision:>10.3f}  {mistaken}")
    short = [label[:6] for label in PAGE_TYPES]
    lines.append("confusion (rows: true type, columns: told type)")
    lines.append(" " * 14 + "".join(f"{name:>7}" for name in short))
    lines.extend(
        f"{label:<14}" + "".join(f"{int(count):>7}" for count in matrix[i]) for i, label in enumerate(PAGE_TYPES)
    )
    return lines
