"""``pvalue``: single-page main text and article detection by the P value.

Lv, Cao, Wang, Yin, Zheng, "An Algorithm to Extract and Judge the Main Text Based on the Law of
Total Probability", EMIM 2017.  For each tag, ``P = (l_t / l_s) * (l_vt / L_VT)``: text
density times the tag's share of the page's non-link text.  The max-P tag is the main text and
its P is the probability that the page holds an article.

``variant="paper"`` is the paper as written.  ``variant="improved"`` (default) keeps the same
score but measures text with collapsed whitespace and then repairs the max-P region where the
development data showed it fails (see :mod:`scrapy_boilerplate.models.pvalue.region`).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from scrapy_boilerplate.html import body_text, to_text
from scrapy_boilerplate.html.structure import kept_html
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.models.pvalue.decisions import explain
from scrapy_boilerplate.models.pvalue.region import refine_region_explained
from scrapy_boilerplate.models.pvalue.score import PValueResult, max_p_element, strip_non_text
from scrapy_boilerplate.models.registry import register
from scrapy_boilerplate.page import Page

ARTICLE_THRESHOLD = 0.5  # the paper's cut: P >= 0.5 means the page holds an article
VARIANTS = ("paper", "improved")


@register
class PValueModel(SiteModel):
    """Single-page model: needs no sample, so it is also the fallback for small sites.

    Parameters
    ----------
    variant:
        ``"paper"`` for the paper's algorithm, ``"improved"`` for the dev-data repairs.
    article_threshold:
        P at or above which :meth:`is_article` says the page holds an article.
    """

    name = "pvalue"

    def __init__(self, variant: str = "improved", article_threshold: float = ARTICLE_THRESHOLD) -> None:
        super().__init__()
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
        if not 0.0 <= float(article_threshold) <= 1.0:
            raise ValueError(f"article_threshold must be within [0, 1], got {article_threshold!r}")
        self.variant = variant
        self.article_threshold = float(article_threshold)

    def _fit(self, pages: list[Page]) -> None:
        """Nothing to learn: the P value is computed on each page alone."""

    def score(self, page: Page) -> PValueResult:
        """The max-P element of ``page`` (on a private copy of its tree)."""
        tree = page.copy_tree()
        stripped = strip_non_text(tree)
        result = max_p_element(tree, collapse_whitespace=self.variant != "paper")
        return replace(result, stripped=tuple(stripped))

    def article_probability(self, page: Page) -> float:
        """The page's P: the largest P of its tags, read as P(page holds an article)."""
        return self.score(page).p

    def is_article(self, page: Page) -> bool:
        """True when the page's P reaches ``article_threshold``."""
        return self.article_probability(page) >= self.article_threshold

    def _clean(self, page: Page) -> CleanedPage:
        result = self.score(page)
        total = len(body_text(page.body))  # the whole page: libxslt walks it faster, same text
        if result.element is None:
            return CleanedPage("", "", self.name, total, 0, 0.0)
        refinement = None
        main = result.element
        if self.variant == "improved":
            refinement = refine_region_explained(result.tree, main, result.lengths)
            main = refinement.region
        text = to_text(main)
        html = partial(kept_html, main)  # serialised when read
        decisions = explain(result, main, len(text), refinement)
        return CleanedPage(text, html, self.name, total, min(len(text), total), result.p, decisions)
