"""What encloses each block: its depth, the tags around it and the role words of its class and id.

One walk up the tree per page, memoised per element, so that blocks under one container share
their ancestors' work.  Several features read it (the block cues, the role words), so a page
computes it once (:attr:`~.inputs.PageInputs.ancestry`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import lxml.etree

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.html.roles import value_words
from scrapy_boilerplate.models.fusion.lexicon import ANCESTOR_TAGS, ROLE_ATTRIBUTES, ROLE_PARTS

Element = lxml.etree._Element

ANCESTOR_BITS = {tag: 1 << i for i, tag in enumerate(ANCESTOR_TAGS)}
PART_BITS = {part: 1 << i for i, part in enumerate(ROLE_PARTS)}
_NO_WORDS: frozenset[str] = frozenset()


@functools.lru_cache(maxsize=4096)
def _parts_of(word: str) -> int:
    """Bits of the :data:`ROLE_PARTS` found inside a role word."""
    mask = 0
    for part, bit in PART_BITS.items():
        if part in word:
            mask |= bit
    return mask


def role_words(element: Element) -> frozenset[str]:
    """Lower-case letter runs of ``element``'s class, id, role and itemprop values."""
    words: frozenset[str] = _NO_WORDS
    for name in ROLE_ATTRIBUTES:
        value = element.get(name)
        if value:
            words = words | value_words(value) if words else value_words(value)
    return words


# Per element: depth, bits of its ancestors' tags, role words of it and its ancestors, their part bits.
Enclosing = tuple[int, int, frozenset[str], int]


@dataclass(frozen=True)
class BlockAncestry:
    """Per block, what encloses it; and the depth of every element walked (blocks and ancestors)."""

    depth: list[int]
    tag_bits: list[int]  # bits of :data:`ANCESTOR_BITS`: the tags of the block's ancestors
    role_words: list[frozenset[str]]  # role words of the block and its ancestors
    part_bits: list[int]  # bits of :data:`PART_BITS` found in those words
    depths: dict[Element, int]


def block_ancestry(blocks: Sequence[Block]) -> BlockAncestry:
    """Walk up from every block once (memoised per element)."""
    memo: dict[Element, Enclosing] = {}
    found = [_enclosing(block.element, memo) for block in blocks]
    return BlockAncestry(
        [depth for depth, _, _, _ in found],
        [bits for _, bits, _, _ in found],
        [words for _, _, words, _ in found],
        [parts for _, _, _, parts in found],
        {element: known[0] for element, known in memo.items()},
    )


def _enclosing(element: Element, memo: dict[Element, Enclosing]) -> Enclosing:
    """(depth, bits of enclosing tags, role words, role part bits) of ``element``: the tags of its
    ancestors only, the role words of its ancestors and itself."""
    known = memo.get(element)
    if known is not None:
        return known
    chain = []
    node: Element | None = element
    while node is not None and node not in memo:
        chain.append(node)
        node = node.getparent()
    parent = node
    depth, bits, roles, parts = memo[node] if node is not None else (0, 0, _NO_WORDS, 0)
    for node in reversed(chain):
        if parent is not None:
            tag = parent.tag
            bits |= ANCESTOR_BITS.get(tag, 0) if isinstance(tag, str) else 0
        if node.attrib:
            words = role_words(node)
            if words:
                for word in words:
                    parts |= _parts_of(word)
                roles = roles | words if roles else words
        depth += 1
        memo[node] = (depth, bits, roles, parts)
        parent = node
    return memo[element]
