"""Per-element text measures in one bottom-up pass: text, link text and markup lengths.

Text density (text / markup) and link density (link text / text) are the signals of the
``pvalue`` model, and other models reuse them to judge regions.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import lxml.etree

from scrapy_boilerplate.html.walk import post_order

Element = lxml.etree._Element
VOID_TAGS: frozenset[str] = frozenset(
    "area base br col embed hr img input link meta param source track wbr".split()
)


@dataclass(slots=True)
class Lengths:
    """Lengths of one element's subtree (tail excluded)."""

    text: int = 0
    link_text: int = 0
    markup: int = 0

    @property
    def valid_text(self) -> int:
        """Text that is not inside a link (the paper's ``l_vt``)."""
        return self.text - self.link_text


def _tag_markup_length(el: Element) -> int:
    """Characters of ``el``'s start and end tags as serialised (``<p a="b">`` + ``</p>``)."""
    tag = el.tag
    start = len(tag) + 2
    for name, value in el.items():  # one call for all attributes (``el.attrib`` builds a proxy first)
        start += len(name) + len(value or "") + 4
    return start if tag in VOID_TAGS else start + len(tag) + 3


def measure(root: Element, text_length=len, skip: Collection[Element] = ()) -> dict[Element, Lengths]:
    """Lengths of every element under ``root``.

    ``text_length`` maps a text node to its length; pass a whitespace-collapsing one to ignore
    indentation.  Markup length counts tags and text; comments are expected to be gone.
    Subtrees rooted at an element of ``skip`` are measured as if removed (their tails stay).
    """
    out: dict[Element, Lengths] = {}
    get = out.get
    for el in post_order(root, skip.__contains__ if skip else None):
        own = el.text
        own = text_length(own) if own else 0
        text, link_text, markup = own, 0, own + _tag_markup_length(el)
        for child in el:
            tail = child.tail
            if tail:
                tail_length = text_length(tail)
                text += tail_length
                markup += tail_length
            sub = get(child)
            if sub is not None:  # None for a comment or PI left in the tree
                text += sub.text
                markup += sub.markup
                link_text += sub.link_text
        out[el] = Lengths(text, text if el.tag == "a" else link_text, markup)
    return out
