"""Blocks: block-level elements with no block-level descendant, the unit that block models score."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

import lxml.etree

from scrapy_boilerplate.html.clean import NON_CONTENT_TAGS
from scrapy_boilerplate.html.text import CELL_TAGS, LINE_TAGS, PARAGRAPH_TAGS, normalize_space, raw_text, to_text

BLOCK_TAGS: frozenset[str] = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "caption",
        "center",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "li",
        "main",
        "menu",
        "nav",
        "noframes",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    ]
)
# Tags whose presence inside a block makes its text need the full line-breaking walk of to_text.
_LAYOUT_TAGS: tuple[str, ...] = tuple(sorted(PARAGRAPH_TAGS | LINE_TAGS | CELL_TAGS | NON_CONTENT_TAGS))


@dataclass(frozen=True)
class Block:
    """One block of a page.

    ``leaf`` blocks hold no other block; a non-leaf block (e.g. ``<body>`` with stray text)
    appears only when it has text of its own, and then ``text`` is just that own text.
    """

    element: lxml.etree._Element
    text: str
    leaf: bool


def is_block(element: lxml.etree._Element, tags: frozenset[str] = BLOCK_TAGS) -> bool:
    """True for block-level elements (elements whose tag is in ``tags``)."""
    return isinstance(element.tag, str) and element.tag in tags


def _may_have_own_text(element: lxml.etree._Element, tags: frozenset[str]) -> bool:
    """Cheap pre-check: False when ``element`` has only blank text and block children with blank tails."""
    if element.text and not element.text.isspace():
        return True
    for child in element:
        if child.tail and not child.tail.isspace():
            return True
        if isinstance(child.tag, str) and child.tag not in tags:
            return True
    return False


def _holds_only_blocks(element: lxml.etree._Element, blocks: Collection[lxml.etree._Element]) -> bool:
    """True when ``element`` has a child element and holds nothing but blocks and blank text: a
    non-leaf block whose own text is empty.  ``blocks`` holds the block elements of its walk, so
    a child is tested by identity rather than by reading its tag (which builds a string)."""
    text = element.text
    if text and not text.isspace():
        return False
    has_element = False
    for child in element:
        if child in blocks:
            has_element = True
        elif isinstance(child.tag, str):  # an inline element: it may hold text
            return False
        tail = child.tail
        if tail and not tail.isspace():
            return False
    return has_element


def _own_inline_text(
    element: lxml.etree._Element,
    tags: frozenset[str],
    contains: Collection[lxml.etree._Element] | None = None,
    blocks: Collection[lxml.etree._Element] | None = None,
) -> str:
    """Text of ``element`` that does not sit inside a nested block: the text and then the tail of
    each node reached from ``element`` without entering a block or a comment, in pre-order (so a
    nested inline element's tail comes before its children's text).

    ``contains`` (the elements with a block below them) and ``blocks`` (the block elements), when
    the caller's walk has them, let an inline subtree without a block in it be read by lxml's
    C-level iteration and a child be tested as a block by identity.
    """
    if _holds_only_blocks(element, blocks) if blocks is not None else not _may_have_own_text(element, tags):
        return ""  # (with ``blocks``, children are tested as blocks by identity: reading a tag builds a string)
    parts: list[str] = [element.text or ""]
    append = parts.append
    stack = list(element)
    stack.reverse()
    while stack:
        node = stack.pop()
        if blocks is not None and node in blocks:
            inline = False
        else:
            tag = node.tag
            inline = isinstance(tag, str) and tag not in tags
        if inline and node.text:
            append(node.text)
        if node.tail:
            append(node.tail)
        if not inline or not len(node):
            continue
        if contains is not None and node not in contains:  # no block below: every node is read
            for below in node.iterdescendants():
                if below.text and isinstance(below.tag, str):
                    append(below.text)
                if below.tail:
                    append(below.tail)
        else:
            children = list(node)
            children.reverse()
            stack += children
    return normalize_space(" ".join(parts))


def _has_own_text(element: lxml.etree._Element, tags: frozenset[str], blocks: Collection[lxml.etree._Element]) -> bool:
    """``bool(_own_inline_text(element, tags))``, decided from ``element``'s text and its children's
    tails and texts when one of them shows a visible character or none can hold any (``blocks``
    holds the block elements of its walk); else from the full walk."""
    text = element.text
    if text and not text.isspace():
        return True
    inline = False
    for child in element:
        tail = child.tail
        if tail and not tail.isspace():
            return True
        if child not in blocks and isinstance(child.tag, str):
            text = child.text
            if text and not text.isspace():
                return True
            inline = True  # blank itself, but its descendants may hold text
    return inline and bool(_own_inline_text(element, tags))


def _shown_text(
    element: lxml.etree._Element, tags: frozenset[str], blocks: Collection[lxml.etree._Element]
) -> bool | None:
    """Whether a block (of a tag that is not non-content) has block text, when its own text or its
    first child tells; None when they do not (measure it then).

    Its own text starts both its leaf text and its own inline text, and so does its first child's
    text when that child is an inline element (to_text skips only non-content ones).  A first child
    that is a block makes it a non-leaf block, whose own text its children decide.  ``blocks``
    holds the block elements of its walk.
    """
    text = element.text
    if text and not text.isspace():
        return True
    for child in element:
        if child in blocks:
            return _has_own_text(element, tags, blocks)
        tag = child.tag
        if isinstance(tag, str) and tag not in NON_CONTENT_TAGS:
            text = child.text
            if text and not text.isspace():
                return True
        return None
    return False  # no child and a blank text


def ancestors_of(root: lxml.etree._Element, nodes: Iterable[lxml.etree._Element]) -> set[lxml.etree._Element]:
    """Every element of ``root`` that has one of ``nodes`` (elements of ``root``) as a descendant."""
    marked: set[lxml.etree._Element] = set()
    for node in nodes:
        if node is root:
            continue
        parent = node.getparent()
        while parent is not None and parent not in marked:
            marked.add(parent)
            if parent is root:
                break
            parent = parent.getparent()
    return marked


def _leaf_text(element: lxml.etree._Element, needs_layout: set[lxml.etree._Element]) -> str:
    """``to_text(element)``: its own text when it has no child, libxml2's text serialiser when no line
    break can occur inside, else the full walk."""
    if not len(element):  # (no child node: ``raw_text`` would give its text, and nothing needs layout)
        return normalize_space(element.text or "")
    if element in needs_layout:
        return to_text(element)
    return normalize_space(raw_text(element))


class BlockWalk:
    """The candidate blocks of one tree, with each one's text computed only when asked for.

    :func:`iter_blocks` computes every block's text; a caller that needs the text of only some
    blocks (the drift fingerprint skips blocks of known template regions) walks the elements
    with :meth:`elements` and asks :meth:`text` (or :meth:`length`) where it must.  :meth:`texts`
    is the one walk over the blocks that :func:`iter_blocks` and :func:`block_lengths` share.

    ``contains`` holds the elements with a block descendant (non-leaf blocks), ``needs_layout``
    those whose text needs the full :func:`to_text` walk.
    """

    def __init__(
        self,
        root: lxml.etree._Element,
        tags: frozenset[str] = BLOCK_TAGS,
        blocks: list[lxml.etree._Element] | None = None,
        block_set: Collection[lxml.etree._Element] | None = None,
    ) -> None:
        """``blocks`` may pass the elements of ``root`` with a tag in ``tags``, in document order,
        when the caller has found them already, and ``block_set`` the same elements as a
        collection with a fast ``in`` (a set, a dict's keys)."""
        self.root = root
        self.tags = frozenset(tags)
        # one tag-matching walk (lxml sets up a matcher of every tag per walk) serves the blocks'
        # order and, when asked for, ``contains``
        self.blocks = list(root.iter(*self.tags)) if blocks is None else blocks
        self._contains: set[lxml.etree._Element] | None = None
        self._needs_layout: set[lxml.etree._Element] | None = None
        self._block_set = block_set
        # (no tags: every node is a leaf; to_text gives nothing for a non-content root)
        self._text_shows = bool(self.tags) and self.tags.isdisjoint(NON_CONTENT_TAGS)

    @property
    def contains(self) -> set[lxml.etree._Element]:
        """Elements with a block descendant (non-leaf blocks); found on first use."""
        if self._contains is None:
            # (no tags: ``iter`` gave every node, and nothing contains a block)
            self._contains = ancestors_of(self.root, self.blocks) if self.tags else set()
        return self._contains

    @property
    def block_set(self) -> Collection[lxml.etree._Element]:
        """The elements of :meth:`elements` as a set; made on first use."""
        if self._block_set is None:
            self._block_set = set(self.blocks)
        return self._block_set

    @property
    def needs_layout(self) -> set[lxml.etree._Element]:
        """Elements whose text needs :func:`to_text`'s walk; found on first use (a caller that measures
        no block text, as the drift check on a page of a known template, never pays for it)."""
        if self._needs_layout is None:
            layout = tuple(t for t in _LAYOUT_TAGS if t not in self.tags)
            self._needs_layout = ancestors_of(self.root, self.root.iterdescendants(*layout)) if layout else set()
        return self._needs_layout

    def elements(self) -> Iterator[lxml.etree._Element]:
        """Every element with a block tag, in document order (a non-leaf one is a block only when
        :meth:`text` gives it text of its own)."""
        return iter(self.blocks)

    def text(self, element: lxml.etree._Element, leaf: bool) -> str:
        """The block text of ``element``: all of it for a leaf, its own inline text otherwise."""
        if leaf:
            return _leaf_text(element, self.needs_layout)
        return _own_inline_text(element, self.tags, self.contains, self.block_set)

    def length(self, element: lxml.etree._Element) -> int:
        """``len`` of the block text of ``element`` (one of :meth:`elements`), without keeping the text.

        A container of blocks with no text of its own (most non-leaf blocks) is answered from its
        children alone, so a caller that measures only those never finds the page's leaf blocks.
        (The collapsed string's ``len`` is the cheapest exact count: summing word lengths in Python
        is slower than the C join.)
        """
        if self.tags and _holds_only_blocks(element, self.block_set):  # (no tags: every node is a leaf)
            return 0
        return len(self.text(element, element not in self.contains))

    def lengths(self) -> list[int]:
        """``len`` of the block text of every one of :meth:`elements`, in order (0 for a non-leaf
        block with no text of its own): what :func:`block_lengths` gives, with the empty ones."""
        tags, contains, needs_layout, blocks = self.tags, self.contains, self.needs_layout, self.block_set
        return [
            len(_own_inline_text(el, tags, contains, blocks)) if el in contains else len(_leaf_text(el, needs_layout))
            for el in self.blocks
        ]

    def shows_text(self, element: lxml.etree._Element) -> bool | None:
        """``length(element) > 0`` when the element's own text or its first child's tells, without
        measuring text or finding the non-leaf blocks; None when only measuring would tell (the
        drift fingerprint asks this of its blocks, and measures few)."""
        if not self._text_shows:
            return None
        return _shown_text(element, self.tags, self.block_set)

    def texts(self, include_mixed: bool) -> Iterator[tuple[lxml.etree._Element, str, bool]]:
        """``(element, text, leaf)`` of every block in document order: the one block walk.

        With ``include_mixed`` a non-leaf block is yielded too when it has inline text of its own.
        """
        tags, contains, needs_layout = self.tags, self.contains, self.needs_layout  # the hot loop, inlined
        blocks = self.block_set if include_mixed else None
        for el in self.blocks:
            if el not in contains:
                yield el, _leaf_text(el, needs_layout), True
            elif include_mixed:
                own = _own_inline_text(el, tags, contains, blocks)
                if own:
                    yield el, own, False


def iter_blocks(
    root: lxml.etree._Element, include_mixed: bool = True, tags: frozenset[str] = BLOCK_TAGS
) -> Iterator[Block]:
    """Yield the blocks under ``root`` in document order.

    Leaf blocks are block elements with no block descendant.  With ``include_mixed``, a block
    element that does contain blocks but also has text of its own yields that text as a
    non-leaf block, so no visible text is lost between blocks.  ``tags`` says which tags are
    blocks (e.g. ``{"table", "body"}`` for a table-only partition).
    """
    for el, text, leaf in BlockWalk(root, tags).texts(include_mixed):
        yield Block(el, text, leaf)


def block_lengths(
    root: lxml.etree._Element, tags: frozenset[str] = BLOCK_TAGS
) -> Iterator[tuple[lxml.etree._Element, int]]:
    """``(block.element, len(block.text))`` of every block :func:`iter_blocks` yields (mixed blocks
    included), without building :class:`Block` objects or keeping their texts: for callers that
    weigh blocks by their text length only (the drift fingerprint)."""
    for el, text, _ in BlockWalk(root, tags).texts(True):
        yield el, len(text)
