"""Blocks: block-level elements with no block-level descendant, the unit that block models score."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import lxml.etree

from scrapy_boilerplate.html.text import normalize_space, to_text
from scrapy_boilerplate.html.walk import iter_nodes, post_order

BLOCK_TAGS: frozenset[str] = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr li "
    "main menu nav noframes ol p pre section summary table tbody td tfoot th thead tr ul".split()
)


@dataclass(frozen=True)
class Block:
    """One block of a page.

    ``leaf`` blocks hold no other block; a non-leaf block (e.g. ``<body>`` with stray text)
    appears only when it has text of its own, and then ``text`` is just that own text.
    """

    element: lxml.etree._Element
    text: str
    leaf: bool


def is_block(element: lxml.etree._Element) -> bool:
    """True for block-level elements."""
    return isinstance(element.tag, str) and element.tag in BLOCK_TAGS


def _own_inline_text(element: lxml.etree._Element) -> str:
    """Text of ``element`` that does not sit inside a nested block."""
    parts: list[str] = [element.text or ""]
    for node in iter_nodes(element, prune=lambda n: n is not element and (is_block(n) or not isinstance(n.tag, str))):
        if node is element:
            continue
        if isinstance(node.tag, str) and not is_block(node) and node.text:
            parts.append(node.text)
        if node.tail:
            parts.append(node.tail)
    return normalize_space(" ".join(parts))


def _block_flags(root: lxml.etree._Element) -> dict[lxml.etree._Element, bool]:
    """Map each element to whether some descendant is a block (bottom-up, one pass)."""
    contains: dict[lxml.etree._Element, bool] = {}
    for el in post_order(root):
        contains[el] = any(contains.get(child, False) or is_block(child) for child in el if isinstance(child.tag, str))
    return contains


def iter_blocks(root: lxml.etree._Element, include_mixed: bool = True) -> Iterator[Block]:
    """Yield the blocks under ``root`` in document order.

    Leaf blocks are block elements with no block descendant.  With ``include_mixed``, a block
    element that does contain blocks but also has text of its own yields that text as a
    non-leaf block, so no visible text is lost between blocks.
    """
    contains = _block_flags(root)
    for el in iter_nodes(root):
        if not is_block(el):
            continue
        if not contains.get(el, False):
            yield Block(el, to_text(el), True)
        elif include_mixed:
            own = _own_inline_text(el)
            if own:
                yield Block(el, own, False)
