"""Per-element text measures in one bottom-up pass: text, link text and markup lengths.

Text density (text / markup) and link density (link text / text) are the signals of the
``pvalue`` model, and other models reuse them to judge regions.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
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


def measure(root: Element, text_length: Callable[[str], int] = len, skip: Collection[Element] = (),
            attributes: dict[Element, list[tuple[str, str]]] | None = None) -> dict[Element, Lengths]:
    """Lengths of every element under ``root``, children first (in document order).

    ``text_length`` maps a text node to its length; pass a whitespace-collapsing one to ignore
    indentation.  Markup length counts tags and text (``<p a="b">`` + ``</p>``, void tags have no
    end tag); comments are expected to be gone.  Subtrees rooted at an element of ``skip`` are
    measured as if removed (their tails stay).  ``attributes``, when given, receives the
    ``(name, value)`` attributes of each measured element that has any (read here for the markup
    length anyway), children first, so a caller needs no second walk to look at them.
    """
    out: dict[Element, Lengths] = {}
    get = out.get
    voids = VOID_TAGS
    for el in post_order(root, skip.__contains__ if skip else None):
        own = el.text
        own = text_length(own) if own else 0
        tag = el.tag
        size = len(tag)  # ``<tag>`` and, unless void, ``</tag>``
        markup = own + size + 2 if tag in voids else own + size + size + 5
        items = el.items()  # one call for all attributes (``el.attrib`` builds a proxy first)
        if items:
            for name, value in items:
                markup += len(name) + len(value or "") + 4
            if attributes is not None:
                attributes[el] = items
        text, link_text = own, 0
        for child in el if len(el) else ():  # (no child iterator made for a leaf)
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
        out[el] = Lengths(text, text if tag == "a" else link_text, markup)
    return out
