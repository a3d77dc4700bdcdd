"""The classifier's feature columns: the page's statistics, one column per vocabulary word, then
the word evidence of each kind for each type.

The vocabulary (words of addresses, structured data, role attributes, titles, headings and labels
that tell types apart) is learned from labelled pages and kept in the weights file; a word the
page lacks reads 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scrapy_boilerplate.pagetype.evidence import evidence_names
from scrapy_boilerplate.pagetype.signals import SIGNAL_STATS, PageSignals


def feature_names(vocabulary: Sequence[str]) -> list[str]:
    """Every column, in order: the statistics, ``word:<word>`` for each vocabulary word, the evidence."""
    return [*SIGNAL_STATS, *(f"word:{word}" for word in vocabulary), *evidence_names()]


def feature_matrix(signals: Sequence[PageSignals], vocabulary: Sequence[str], evidence: np.ndarray) -> np.ndarray:
    """One float64 row per page over :func:`feature_names` columns; ``evidence`` holds each page's
    evidence columns (rows in the order of ``signals``)."""
    width = len(SIGNAL_STATS) + len(vocabulary)
    matrix = np.zeros((len(signals), width + evidence.shape[1]))
    for row, page in enumerate(signals):
        matrix[row, : len(SIGNAL_STATS)] = page.stats
        words = page.words
        for column, word in enumerate(vocabulary, len(SIGNAL_STATS)):
            value = words.get(word)
            if value is not None:
                matrix[row, column] = value
    matrix[:, width:] = evidence
    return matrix
