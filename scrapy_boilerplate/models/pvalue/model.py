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

from dataclasses import dataclass, field, replace
from functools import partial

import lxml.etree
import lxml.html

from scrapy_boilerplate.html import body_text, remove_keeping_tail, to_text
from scrapy_boilerplate.html.measure import Lengths, measure
from scrapy_boilerplate.html.text import collapsed_length
from scrapy_boilerplate.html.walk import element_path_finder
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.models.registry import register
from scrapy_boilerplate.page import Page

# Step 1 of the paper: tags that are never main text (comments are already gone).
PAPER_REMOVED_TAGS: frozenset[str] = frozenset(
    [
        "script",
        "noscript",
        "style",
        "embed",
        "label",
        "form",
        "input",
        "iframe",
        "head",
        "meta",
        "link",
        "object",
        "aside",
        "channel",
    ]
)
PAPER_DROPPED_ATTRIBUTES: tuple[str, ...] = ("id", "class", "style")
ARTICLE_THRESHOLD = 0.5  # the paper's cut: P >= 0.5 means the page holds an article
VARIANTS = ("paper", "improved")


@dataclass(frozen=True)
class Stripped:
    """An element that step 1 removed (its path in the page tree, its tag and its text length)."""

    path: str
    tag: str
    chars: int


@dataclass(frozen=True)
class PValueResult:
    """The max-P element of a page, its P and the page tree it belongs to.

    ``lengths`` and ``page_valid_text`` are the measures P was computed from, and ``stripped``
    what step 1 removed; :mod:`scrapy_boilerplate.models.pvalue.decisions` explains them.
    """

    tree: lxml.etree._Element
    element: lxml.etree._Element | None
    p: float
    lengths: dict[lxml.etree._Element, Lengths] = field(default_factory=dict, repr=False, compare=False)
    page_valid_text: int = 0
    stripped: tuple[Stripped, ...] = ()


def strip_non_text(tree: lxml.etree._Element) -> list[Stripped]:
    """The paper's step 1 on a private tree: drop never-main-text tags and presentational attributes.

    Returns the outermost removed elements that held text (paths taken before any removal).
    """
    doomed = [el for el in tree.iter(*PAPER_REMOVED_TAGS) if el is not tree]
    getpath = element_path_finder(tree)
    doomed_set = set(doomed)
    stripped = []
    for el in doomed:
        if not any(ancestor in doomed_set for ancestor in el.iterancestors()):
            chars = len(to_text(el))
            if chars:
                stripped.append(Stripped(getpath(el), el.tag, chars))
    for el in doomed:
        if el.getparent() is not None:
            remove_keeping_tail(el)
    lxml.etree.strip_attributes(tree, *PAPER_DROPPED_ATTRIBUTES)
    return stripped


def p_value(lengths: Lengths, page_valid_text: int) -> float:
    """``P = (l_t / l_s) * (l_vt / L_VT)`` for one tag."""
    if lengths.markup <= 0 or page_valid_text <= 0:
        return 0.0
    return (lengths.text / lengths.markup) * (lengths.valid_text / page_valid_text)


def highest_p(lengths: dict, page_valid_text: int) -> tuple[lxml.etree._Element | None, float]:
    """The measured element with the largest P (the first one on ties), and that P; (None, 0) if none.

    :func:`p_value` inlined, the same arithmetic in the same order (two Python calls per element,
    the function's and ``valid_text``'s, were most of the loop).
    """
    best, best_p = None, 0.0
    if page_valid_text <= 0:
        return best, best_p
    for el, el_lengths in lengths.items():
        markup = el_lengths.markup
        if markup > 0:
            text = el_lengths.text
            p = (text / markup) * ((text - el_lengths.link_text) / page_valid_text)
            if p > best_p:
                best, best_p = el, p
    return best, best_p


def max_p_element(tree: lxml.etree._Element, collapse_whitespace: bool) -> PValueResult:
    """Score every tag of a step-1-cleaned tree and return the max-P one."""
    lengths = measure(tree, collapsed_length if collapse_whitespace else len)
    page_valid = lengths[tree].valid_text
    best, best_p = highest_p(lengths, page_valid)
    return PValueResult(tree, best, best_p, lengths, page_valid)


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
        from scrapy_boilerplate.models.pvalue.decisions import explain

        refinement = None
        main = result.element
        if self.variant == "improved":
            from scrapy_boilerplate.models.pvalue.region import refine_region_explained

            refinement = refine_region_explained(result.tree, main, result.lengths)
            main = refinement.region
        text = to_text(main)
        html = partial(lxml.html.tostring, main, encoding="unicode")  # serialised when read
        decisions = explain(result, main, len(text), refinement)
        return CleanedPage(text, html, self.name, total, min(len(text), total), result.p, decisions)
