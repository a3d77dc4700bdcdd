"""Learning the word weights of each kind (a Bernoulli naive Bayes over word presence), and the
leak-free evidence columns the trees train on.

Trees trained on evidence that saw their own rows' labels would trust it more than it deserves
on a new page, so each training page's columns come from weights fitted without its site (inner
folds grouped by site); the shipped weights are fitted on every page.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np

from scrapy_boilerplate.pagetype.evidence import KindWeights, WordEvidence, evidence_names
from scrapy_boilerplate.pagetype.labels import PAGE_TYPES
from scrapy_boilerplate.pagetype.signals import KINDS
from scrapy_boilerplate.pagetype.training.dataset import LabelledPage
from scrapy_boilerplate.pagetype.training.vocabulary import WordCounts, count_words

SMOOTHING = 0.5  # pseudo-count of a word's presence and absence per type
WORDS_PER_KIND = 200  # the words of highest information gain kept of each kind
DECIMALS = 4  # weights are kept to this many decimals (a smaller file; a score moves by < 0.01)
INNER_FOLDS = 5


def fit_evidence(counts: WordCounts) -> WordEvidence:
    """The word weights of every kind, from the word counts of the training pages."""
    totals = counts.totals
    prior = np.log((totals + SMOOTHING) / (totals.sum() + SMOOTHING * len(PAGE_TYPES)))
    kinds = {}
    for kind in KINDS:
        of_kind = counts.of_kind(kind)
        kept = of_kind.best(WORDS_PER_KIND)
        present = (of_kind.present[kept] + SMOOTHING) / (totals + 2 * SMOOTHING)
        weights = np.log(present) - np.log1p(-present)
        bias = prior + np.log1p(-present).sum(axis=0)
        kinds[kind] = KindWeights(
            [of_kind.words[row] for row in kept], np.round(weights, DECIMALS), np.round(bias, DECIMALS)
        )
    return WordEvidence(kinds)


def inner_fold(site: str, folds: int) -> int:
    """A site's inner fold (a hash apart from the outer folds' own)."""
    return zlib.crc32(("inner:" + site).encode("utf-8")) % folds


def held_out_evidence(pages: Sequence[LabelledPage], folds: int = INNER_FOLDS) -> np.ndarray:
    """Each page's evidence columns from weights fitted without its site's inner fold."""
    out = np.zeros((len(pages), len(evidence_names())))
    fold_of = [inner_fold(page.site, folds) for page in pages]
    for fold in range(folds):
        held = [row for row, page_fold in enumerate(fold_of) if page_fold == fold]
        if not held:
            continue
        kept = [page for page, page_fold in zip(pages, fold_of, strict=True) if page_fold != fold]
        evidence = fit_evidence(count_words(kept))
        for row in held:
            out[row] = evidence.columns(pages[row].signals.words)
    return out
