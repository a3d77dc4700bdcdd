"""Judging regions by their text and link density: the P value and the widening to siblings.

P (Lv et al., EMIM 2017) is ``(l_t / l_s) * (l_vt / L_VT)``: an element's text density times its
share of the page's non-link text; the max-P element is where the main text is.  ``pvalue`` is
built on it, and ``style_tree`` uses it to pick the main text inside what its site tree kept.
All of it reads the lengths :func:`~scrapy_boilerplate.html.measure.measure` gives.
"""

from __future__ import annotations

import lxml.etree

from scrapy_boilerplate.html.measure import Lengths, measure
from scrapy_boilerplate.html.text import collapsed_length

Element = lxml.etree._Element

# A parent takes over from the max-P child when the child holds less than this share of
# the parent's non-link text (i.e. siblings hold substantial article text too).
SIBLING_TEXT_SHARE = 0.6
# A block inside the region is dropped as a link list when this share of its text is links.
LINK_DENSITY_LIMIT = 0.5
# ... and it is short enough not to be a paragraph that merely cites many sources.
LINK_BLOCK_MAX_CHARS = 200


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
