"""Repeated sibling groups: the runs of like elements (posts, answers, entries, cards, menu items) a block sits in.

A group is the children of one parent that share a tag and a first class word, when at least
:data:`MIN_MEMBERS` of them do.  Walking up from each block (itself and its nearest ancestors), the
groups it belongs to are found; each group sums its blocks' characters, link characters and words.
What tells a forum's posts or a listing's entries (content) from a menu or a facet list
(boilerplate) is then learned from how big the group is, how many words each member holds and how
much of it is links.  The same walk notes whether a block is inside ``<pre>`` or ``<code>``.

One walk per page, memoised per element; :attr:`~.inputs.PageInputs.groups` shares it between the
block-level and the page-level features.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import lxml.etree
import numpy as np

from scrapy_boilerplate.html import Block

Element = lxml.etree._Element

MIN_MEMBERS = 3  # like siblings needed to make a group
MAX_UP = 6  # the block and its five nearest ancestors
CODE_TAGS = frozenset(("pre", "code"))

# A group's identity: its parent and the (tag, first class word) its members share.
GroupKey = tuple[Element, str, str | None]


@dataclass(eq=False)  # groups compare by identity
class Group:
    """What the blocks under one group's members add up to."""

    chars: float = 0.0
    links: float = 0.0
    words: float = 0.0
    blocks: int = 0
    members: set[Element] = field(default_factory=set)

    @property
    def link_share(self) -> float:
        """Share of the group's characters inside links."""
        return self.links / max(self.chars, 1.0)

    @property
    def words_per_member(self) -> float:
        """Words per member of the group."""
        return self.words / max(len(self.members), 1)


@dataclass(frozen=True)
class SiblingGroups:
    """Per block its nearest and its largest enclosing group (None outside every group), every
    group of the page, and per block whether ``<pre>`` or ``<code>`` encloses it."""

    nearest: list[Group | None]
    largest: list[Group | None]
    groups: list[Group]
    in_code: np.ndarray


def _signature(element: Element) -> tuple[str, str | None]:
    """What like siblings share: the tag and the first word of the class."""
    classes = (element.get("class") or "").split(None, 1)
    return str(element.tag), (classes[0] if classes else None)


class _GroupFinder:
    """The group an element is a member of, memoised per element and per parent's children."""

    def __init__(self) -> None:
        self._counts: dict[Element, dict[tuple[str, str | None], int]] = {}
        self._known: dict[Element, GroupKey | None] = {}

    def group_of(self, element: Element) -> GroupKey | None:
        """The key of ``element``'s group, or None when fewer than :data:`MIN_MEMBERS` siblings are like it."""
        if element in self._known:
            return self._known[element]
        parent = element.getparent()
        key: GroupKey | None = None
        if parent is not None:
            counts = self._counts.get(parent)
            if counts is None:
                counts = self._counts[parent] = {}
                for child in parent:
                    if isinstance(child.tag, str):
                        signature = _signature(child)
                        counts[signature] = counts.get(signature, 0) + 1
            signature = _signature(element)
            if counts.get(signature, 0) >= MIN_MEMBERS:
                key = (parent, *signature)
        self._known[element] = key
        return key


def _walk_up(element: Element, finder: _GroupFinder) -> tuple[list[tuple[Element, GroupKey]], bool]:
    """The groups ``element`` and its nearest ancestors are members of (nearest first), and
    whether one of them is ``<pre>`` or ``<code>``."""
    chain: list[tuple[Element, GroupKey]] = []
    in_code = False
    node: Element | None = element
    for _ in range(MAX_UP):
        if node is None:
            break
        in_code = in_code or node.tag in CODE_TAGS
        key = finder.group_of(node)
        if key is not None:
            chain.append((node, key))
        node = node.getparent()
    return chain, in_code


def sibling_groups(blocks: Sequence[Block], chars: np.ndarray, links: np.ndarray, words: np.ndarray) -> SiblingGroups:
    """The groups of a page's ``blocks`` given each block's characters, link characters and words."""
    finder = _GroupFinder()
    by_key: dict[GroupKey, Group] = {}
    chains: list[list[Group]] = []
    in_code = np.zeros(len(blocks), dtype=bool)
    for i, block in enumerate(blocks):
        chain, in_code[i] = _walk_up(block.element, finder)
        mine: list[Group] = []
        for member, key in chain:
            group = by_key.setdefault(key, Group())
            group.members.add(member)
            if group in mine:  # an element nested in a like element of the same group counts once
                continue
            mine.append(group)
            group.chars += float(chars[i])
            group.links += float(links[i])
            group.words += float(words[i])
            group.blocks += 1
        chains.append(mine)
    nearest = [mine[0] if mine else None for mine in chains]
    largest = [max(mine, key=lambda group: group.chars) if mine else None for mine in chains]
    return SiblingGroups(nearest, largest, list(by_key.values()), in_code)
