"""Per-element text measures in one bottom-up pass: text, link text and markup lengths.

Text density (text / markup) and link density (link text / text) are the signals of the
``pvalue`` model, and other models reuse them to judge regions.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

import lxml.etree

Element = lxml.etree._Element
VOID_TAGS: frozenset[str] = frozenset(
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]
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


def measure(
    root: Element,
    text_length: Callable[[str], int] = len,
    skip: Collection[Element] = (),
    attributes: dict[Element, list[tuple[str, str]]] | None = None,
) -> dict[Element, Lengths]:
    """Lengths of every element under ``root``, children first (in document order).

    ``text_length`` maps a text node to its length; pass a whitespace-collapsing one to ignore
    indentation.  Markup length counts tags and text (``<p a="b">`` + ``</p>``, void tags have no
    end tag); comments are expected to be gone (their tails count).  Subtrees rooted at an element
    of ``skip`` are measured as if removed (their tails stay).  ``attributes``, when given,
    receives the ``(name, value)`` attributes of each measured element that has any (read here for
    the markup length anyway), in document order, so a caller needs no second walk to look at them.

    One walk by lxml's C-level ``iterdescendants`` (several times cheaper per element than
    ``iterwalk``'s events): the open element's sums are kept in locals (its ancestors' wait on a
    stack), an element is closed when the walk reaches one outside it (``getparent``), and a
    skipped subtree is recognised by its elements' parents never having been opened.  No
    element's children are iterated and no child's lengths are looked up again.
    """
    out: dict[Element, Lengths] = {}
    if not isinstance(root.tag, str) or (skip and root in skip):
        return out
    voids, new = VOID_TAGS, object.__new__
    opened = {root}  # every element measured so far: a later element whose parent is not in it is skipped
    stack: list[tuple[Element, int, int, int, bool]] = []  # the open ancestors and their sums so far
    push, pop, add = stack.append, stack.pop, opened.add
    current, el, tag = root, root, root.tag
    text = link_text = markup = 0  # of the open element ``current``
    anchor = False
    descendants = root.iterdescendants()  # lxml's C-level document-order walk
    while True:
        own = el.text
        text = text_length(own) if own else 0
        size = len(tag)  # ``<tag>`` and, unless void, ``</tag>``
        markup = text + size + 2 if tag in voids else text + size + size + 5
        items = el.items()  # one call for all attributes (``el.attrib`` builds a proxy first)
        if items:
            for name, value in items:
                markup += len(name) + len(value or "") + 4
            if attributes is not None:
                attributes[el] = items
        link_text = 0
        anchor = tag == "a"
        for el in descendants:
            parent = el.getparent()
            if parent is not current:
                if parent not in opened:  # inside a skipped subtree
                    continue
                while current is not parent:  # close what ``el`` is not inside of
                    if anchor:
                        link_text = text
                    out[current] = lengths = new(Lengths)  # (``Lengths(...)`` runs a Python __init__)
                    lengths.text, lengths.link_text, lengths.markup = text, link_text, markup
                    current, parent_text, parent_link_text, parent_markup, anchor = pop()
                    text += parent_text
                    link_text += parent_link_text
                    markup += parent_markup
            tail = el.tail  # it belongs to ``current``, whatever ``el`` is
            if tail:
                tail_length = text_length(tail)
                text += tail_length
                markup += tail_length
            el_tag = el.tag
            if not isinstance(el_tag, str) or (skip and el in skip):  # a comment, a PI, or a skipped subtree
                continue
            push((current, text, link_text, markup, anchor))
            add(el)
            current, tag = el, el_tag
            break
        else:
            break
    while True:  # close the open elements, the root last
        if anchor:
            link_text = text
        out[current] = lengths = new(Lengths)
        lengths.text, lengths.link_text, lengths.markup = text, link_text, markup
        if not stack:
            return out
        current, parent_text, parent_link_text, parent_markup, anchor = pop()
        text += parent_text
        link_text += parent_link_text
        markup += parent_markup
