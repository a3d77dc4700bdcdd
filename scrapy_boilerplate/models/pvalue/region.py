"""Repairs to the max-P region found by ``pvalue`` (the ``improved`` variant).

The paper's max-P tag is often too small (one long paragraph of a many-paragraph article, so
its siblings are lost) or holds link lists (related stories, tag clouds).  These repairs are
measured on the development set; see the README's models table.
"""

from __future__ import annotations

from dataclasses import dataclass

import lxml.etree

from scrapy_boilerplate.html import iter_blocks, remove_keeping_tail
from scrapy_boilerplate.html.density import LINK_BLOCK_MAX_CHARS, LINK_DENSITY_LIMIT, widen_to_siblings
from scrapy_boilerplate.html.measure import Lengths, measure
from scrapy_boilerplate.html.text import collapsed_length
from scrapy_boilerplate.html.walk import element_path_finder

Element = lxml.etree._Element


@dataclass(frozen=True)
class LinkList:
    """A block dropped from the region as a link list: its path (before removal), text and link density."""

    path: str
    chars: int
    link_density: float


@dataclass(frozen=True)
class Refinement:
    """What :func:`refine_region_explained` did: the final region, its path, and the dropped blocks."""

    region: Element
    path: str
    dropped: tuple[LinkList, ...]


def find_link_lists(region: Element, lengths: dict[Element, Lengths] | None = None) -> list[tuple[Element, int, float]]:
    """Short, link-dominated blocks of ``region`` as (element, text length, link density).

    ``lengths`` (whitespace-collapsed, of a tree holding ``region``) saves measuring each block again.
    """
    found = []
    for block in iter_blocks(region):
        if not block.leaf or block.element is region:
            continue
        text_len = len(block.text)
        if text_len == 0 or text_len > LINK_BLOCK_MAX_CHARS:
            continue
        measured = lengths.get(block.element) if lengths is not None else None
        if measured is None:
            measured = measure(block.element, collapsed_length)[block.element]
        if measured.text and measured.link_text / measured.text > LINK_DENSITY_LIMIT:
            found.append((block.element, text_len, measured.link_text / measured.text))
    return found


def drop_link_lists(region: Element) -> None:
    """Remove short, link-dominated blocks (related links, tag lists, share bars) from ``region``."""
    for el, _, _ in find_link_lists(region):
        remove_keeping_tail(el)


def refine_region_explained(root: Element, main: Element, lengths: dict[Element, Lengths] | None = None) -> Refinement:
    """:func:`refine_region`, also reporting the region's path and each dropped link list (for inspection).

    ``lengths``: the whitespace-collapsed :func:`measure` of ``root`` when the caller has it (saves two passes).
    """
    if lengths is None:
        lengths = measure(root, collapsed_length)
    region = widen_to_siblings(main, root, lengths)
    getpath = element_path_finder(root)
    doomed = find_link_lists(region, lengths)
    dropped = tuple(LinkList(getpath(el), chars, density) for el, chars, density in doomed)
    path = getpath(region)
    for el, _, _ in doomed:
        remove_keeping_tail(el)
    return Refinement(region, path, dropped)


def refine_region(root: Element, main: Element) -> Element:
    """The improved main-text region for the max-P element ``main`` of tree ``root`` (edited in place)."""
    return refine_region_explained(root, main).region
