"""Learning the word weights of each kind (a multinomial logistic regression over the presence of
the kind's most telling words, L2-regularised), and the leak-free evidence columns the trees
train on.

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

PENALTY = 0.01  # L2 penalty on the word weights (per page of training data)
MAX_ITERATIONS = 500
WORDS_PER_KIND = 200  # the words of highest information gain kept of each kind
DECIMALS = 4  # weights are kept to this many decimals (a smaller file; a score moves by < 0.01)
INNER_FOLDS = 5


def fit_evidence(counts: WordCounts, pages: Sequence[LabelledPage]) -> WordEvidence:
    """The word weights of every kind, fitted on ``pages`` (whose word counts are ``counts``)."""
    index = {label: i for i, label in enumerate(PAGE_TYPES)}
    labels = np.array([index[page.label] for page in pages], dtype=np.intp)
    kinds = {}
    for kind in KINDS:
        of_kind = counts.of_kind(kind)
        words = [of_kind.words[row] for row in of_kind.best(WORDS_PER_KIND)]
        weights, bias = fit_softmax(presence(pages, words), labels)
        kinds[kind] = KindWeights(words, np.round(weights, DECIMALS), np.round(bias, DECIMALS))
    return WordEvidence(kinds)


def presence(pages: Sequence[LabelledPage], words: Sequence[str]) -> np.ndarray:
    """A 0/1 matrix: which of ``words`` each page has."""
    column = {word: i for i, word in enumerate(words)}
    matrix = np.zeros((len(pages), len(words)))
    for row, page in enumerate(pages):
        for word in page.signals.words:
            found = column.get(word)
            if found is not None:
                matrix[row, found] = 1.0
    return matrix


def fit_softmax(features: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weights (features x types) and biases of a multinomial logistic regression, L2 on the
    weights (:data:`PENALTY`), by L-BFGS from zero (deterministic)."""
    from scipy.optimize import minimize

    rows, width = features.shape
    types = len(PAGE_TYPES)
    targets = np.eye(types)[labels]

    def loss(flat: np.ndarray) -> tuple[float, np.ndarray]:
        weights, bias = flat[: width * types].reshape(width, types), flat[width * types :]
        scores = features @ weights + bias
        scores -= scores.max(axis=1, keepdims=True)
        probabilities = np.exp(scores)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        error = (probabilities - targets) / max(rows, 1)
        value = -(targets * np.log(probabilities + 1e-12)).sum() / max(rows, 1) + PENALTY * (weights**2).sum() / 2
        gradient = np.concatenate([(features.T @ error + PENALTY * weights).ravel(), error.sum(axis=0)])
        return float(value), gradient

    start = np.zeros(width * types + types)
    found = minimize(loss, start, jac=True, method="L-BFGS-B", options={"maxiter": MAX_ITERATIONS})
    return found.x[: width * types].reshape(width, types), found.x[width * types :]


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
        evidence = fit_evidence(count_words(kept), kept)
        for row in held:
            out[row] = evidence.columns(pages[row].signals.words)
    return out
