"""The ``pvalue`` view of a page, measured from its blocks: where the densest run of prose lies.

``pvalue`` scores every element by ``P = text density x share of the page's non-link text`` and
widens the best one to its siblings.  Here the lengths come from the blocks the features already
measured (visible characters, link characters, elements), summed up the tree, instead of a second
walk over every text node: the same score at a fraction of the cost, with markup counted as
:data:`TAG_COST` characters per element.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import lxml.etree
import numpy as np

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.html.density import highest_p, p_value, widen_to_siblings
from scrapy_boilerplate.html.measure import Lengths

Element = lxml.etree._Element
TAG_COST = 25  # markup characters per element: a start and an end tag with a short attribute


@dataclass
class Region:
    """Per-element lengths, the widened max-P element, its P and the page's text."""

    lengths: dict[Element, Lengths]
    region: Element | None
    best_p: float
    page_text: int
    page_valid: int


def block_region(
    blocks: Sequence[Block], chars: Sequence[int], links: Sequence[int], elements: Sequence[int], depth: dict
) -> Region:
    """Sum the blocks' lengths up the tree (``depth`` maps every block and ancestor to its depth;
    blocks whose ``chars`` are 0 count as removed, as ``pvalue``'s step 1 removes forms and asides)."""
    lengths: dict[Element, Lengths] = {}
    for block, text, link, count in zip(blocks, chars, links, elements, strict=True):
        own = lengths.get(block.element)
        if own is None:
            own = lengths[block.element] = Lengths()
        own.text += text
        own.link_text += link
        own.markup += text + TAG_COST * count
    root = None
    for element in sorted(depth, key=depth.__getitem__, reverse=True):  # children before parents
        own = lengths.get(element)
        parent = element.getparent()
        if own is None:
            continue
        if parent is None:
            root = element
            continue
        above = lengths.get(parent)
        if above is None:
            above = lengths[parent] = Lengths(markup=TAG_COST)
        above.text += own.text
        above.link_text += own.link_text
        above.markup += own.markup
    if root is None:
        return Region(lengths, None, 0.0, 0, 0)
    page = lengths[root]
    best, best_p = highest_p(lengths, page.valid_text)
    region = widen_to_siblings(best, root, lengths) if best is not None else None
    return Region(lengths, region, best_p, page.text, page.valid_text)


def _inside(element: Element, region: Element | None, memo: dict[Element, bool]) -> bool:
    """Whether ``element`` is ``region`` or lies inside it (memoised per ancestor)."""
    if region is None:
        return False
    chain = []
    node: Element | None = element
    answer = False
    while node is not None:
        known = memo.get(node)
        if known is not None:
            answer = known
            break
        if node is region:
            answer = True
            break
        chain.append(node)
        node = node.getparent()
    for visited in chain:
        memo[visited] = answer
    return answer


def region_cues(blocks: Sequence[Block], region: Region) -> np.ndarray:
    """Per block: in the region (0/1), its P over the best P, and the page-text share and link share
    of its parent and grandparent (columns in that order)."""
    lengths, page_valid, best = region.lengths, region.page_valid, region.best_p
    inside: dict[Element, bool] = {}
    page_text = region.page_text or 1
    nan = math.nan
    out = []
    for block in blocks:
        element = block.element
        own = lengths.get(element)
        ratio = (p_value(own, page_valid) if own is not None else 0.0) / best if best > 0 else 0.0
        parent = element.getparent()
        above = lengths.get(parent) if parent is not None else None
        if parent is None or above is None:
            out.append((_inside(element, region.region, inside), ratio, nan, nan, nan))
            continue
        grand = parent.getparent()
        top = lengths.get(grand) if grand is not None else None
        out.append(
            (
                _inside(element, region.region, inside),
                ratio,
                above.text / page_text,
                above.link_text / above.text if above.text else 0.0,
                (top if top is not None else above).text / page_text,
            )
        )
    return np.array(out, dtype=np.float64).reshape(len(out), 5)
