"""Token-level precision, recall and F1 of extracted text against gold text.

The definition is the development set's (``../shared/datasets/README.md``): bags of tokens
from :func:`scrapy_boilerplate.tokenize.tokenize`, overlap = sum of per-token minimum counts,
macro-averaged over pages.  Empty gold and empty prediction score 1; either one alone scores 0.

WCXB's own metric (Foley 2026) is scored beside it on WCXB's pages: word-level F1 over lower-cased
``\\w+`` tokens (Python ``re``), bags likewise; an empty gold scores 1 only for an empty output.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from scrapy_boilerplate.tokenize import token_bag


@dataclass(frozen=True)
class Score:
    """P/R/F1 of one page."""

    p: float
    r: float
    f1: float
    n_pred: int
    n_gold: int


@dataclass(frozen=True)
class MeanScore:
    """Mean P/R/F1 over ``n`` pages (None when ``n`` is 0)."""

    n: int
    p: float | None
    r: float | None
    f1: float | None


def score_bags(pred: Counter[str], gold: Counter[str]) -> Score:
    """Score two token bags."""
    n_pred, n_gold = sum(pred.values()), sum(gold.values())
    if n_gold == 0:
        return Score(1.0, 1.0, 1.0, n_pred, 0) if n_pred == 0 else Score(0.0, 1.0, 0.0, n_pred, 0)
    if n_pred == 0:
        return Score(0.0, 0.0, 0.0, 0, n_gold)
    small, large = (pred, gold) if len(pred) <= len(gold) else (gold, pred)
    overlap = sum(min(count, large.get(token, 0)) for token, count in small.items())
    p, r = overlap / n_pred, overlap / n_gold
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return Score(p, r, f1, n_pred, n_gold)


def score_text(prediction: str | None, gold: str | None) -> Score:
    """Score an extracted text against its gold text (``None`` counts as empty)."""
    return score_bags(token_bag(prediction), token_bag(gold))


_WCXB_WORD = re.compile(r"\w+")


def wcxb_bag(text: str | None) -> Counter[str]:
    """The bag of WCXB's words of ``text``: lower-cased ``\\w+`` runs."""
    return Counter(_WCXB_WORD.findall(text.lower())) if text else Counter()


def wcxb_score(prediction: str | None, gold: str | None) -> Score:
    """Score an extracted text against its gold text in WCXB's metric (``None`` counts as empty)."""
    return score_bags(wcxb_bag(prediction), wcxb_bag(gold))


def mean_score(scores: Iterable[Score]) -> MeanScore:
    """Macro average of per-page scores."""
    scores = list(scores)
    if not scores:
        return MeanScore(0, None, None, None)
    n = len(scores)
    return MeanScore(n, sum(s.p for s in scores) / n, sum(s.r for s in scores) / n, sum(s.f1 for s in scores) / n)
