"""Repairs to the max-P region found by ``pvalue`` (the ``improved`` variant).

The paper's max-P tag is often too small (one long paragraph of a many-paragraph article, so
its siblings are lost) or holds link lists (related stories, tag clouds).  These repairs are
measured on the development set; see the README's models table.
"""

from __future__ import annotations

from dataclasses import dataclass

import lxml.etree

from scrapy_boilerplate.html import iter_blocks, remove_keeping_tail
from scrapy_boilerplate.html.measure import Lengths, measure
from scrapy_boilerplate.html.text import collapsed_length
from scrapy_boilerplate.html.walk import element_path_finder

Element = lxml.etree._Element

# A parent takes over from the max-P child when the child holds less than this share of
# the parent's non-link text (i.e. siblings hold substantial article text too).
SIBLING_TEXT_SHARE = 0.6
# A block inside the region is dropped as a link list when this share of its text is links.
LINK_DENSITY_LIMIT = 0.5
# ... and it is short enough not to be a paragraph that merely cites many sources.
LINK_BLOCK_MAX_CHARS = 200


def widen_to_siblings(
    main: Element, root: Element, lengths: dict[Element, Lengths] | None = None, share: float = SIBLING_TEXT_SHARE
) -> Element:
    """Climb from ``main`` while its parent's non-link text is mostly outside ``main``'s link-free text.

    ``lengths`` (whitespace-collapsed, as :func:`measure` gives them) saves a pass when the caller has them;
    ``share`` replaces :data:`SIBLING_TEXT_SHARE` for callers whose tree is already free of boilerplate.
    """
    if lengths is None:
        lengths = measure(root, collapsed_length)
    current = main
    while True:
        parent = current.getparent()
        if parent is None or parent.tag in ("body", "html"):
            return current
        mine, theirs = lengths[current], lengths[parent]
        their_valid = theirs.text - theirs.link_text  # (``valid_text`` without its property calls)
        if their_valid <= 0 or mine.text - mine.link_text >= share * their_valid:
            return current
        density = theirs.link_text / theirs.text if theirs.text else 1.0
        if density > LINK_DENSITY_LIMIT:
            return current
        current = parent


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
