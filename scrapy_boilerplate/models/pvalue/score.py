"""The P value of every tag of a page, and the max-P one: steps 1 and 2 of Lv et al.

Step 1 removes the tags that are never main text and the presentational attributes; step 2 measures
every remaining tag and scores it with :func:`~scrapy_boilerplate.html.density.p_value`.  What a
score was computed from is kept in :class:`PValueResult`, so the decisions can be explained.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import lxml.etree

from scrapy_boilerplate.html import remove_keeping_tail, to_text
from scrapy_boilerplate.html.density import highest_p
from scrapy_boilerplate.html.measure import Lengths, measure
from scrapy_boilerplate.html.text import collapsed_length
from scrapy_boilerplate.html.walk import element_path_finder

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
                stripped.append(Stripped(getpath(el), cast(str, el.tag), chars))  # one of PAPER_REMOVED_TAGS
    for el in doomed:
        if el.getparent() is not None:
            remove_keeping_tail(el)
    lxml.etree.strip_attributes(tree, *PAPER_DROPPED_ATTRIBUTES)
    return stripped


def max_p_element(tree: lxml.etree._Element, collapse_whitespace: bool) -> PValueResult:
    """Score every tag of a step-1-cleaned tree and return the max-P one."""
    lengths = measure(tree, collapsed_length if collapse_whitespace else len)
    page_valid = lengths[tree].valid_text
    best, best_p = highest_p(lengths, page_valid)
    return PValueResult(tree, best, best_p, lengths, page_valid)
