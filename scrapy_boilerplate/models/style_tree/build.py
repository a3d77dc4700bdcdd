"""Building a Site Style Tree (SST) from a site's pages (Yi, Liu, Li, KDD 2003, section 3).

A *style node* is a sequence of child element nodes with the number of pages that use it; an
*element node* is a tag with its display attributes, the pages that contain it and its child
style nodes.  Pages are merged top-down from ``<body>``.  Leaf element nodes also record their
actual content features (words, image sources, link targets) per page, from which the leaf
importance is computed.  Two of the paper's enhancements live here: *virtual leaves* (parents of
actual leaves are treated as leaves, so pages are not over-fragmented) and *element-node merging*
(an element node of a new style node is merged with a same-key node of another style node of the
same parent when their contents are similar).
"""

from __future__ import annotations

import functools
import re
from collections import _count_elements  # type: ignore[attr-defined]  # (what Counter.update calls)
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

import lxml.etree

from scrapy_boilerplate.html import NON_CONTENT_TAGS, raw_text
from scrapy_boilerplate.html.text import CELL_TAGS, LINE_TAGS, PARAGRAPH_TAGS, spaced_text
from scrapy_boilerplate.tokenize import tokenize

Element = lxml.etree._Element
# The node classes whose ``tag`` is not a string (every element class derives from none of them).
_NOT_ELEMENTS = (lxml.etree._Comment, lxml.etree._ProcessingInstruction, lxml.etree._Entity)

# The paper's "display attributes" (its examples: bgcolor, width); class and id are how modern
# pages express presentation, so they are display attributes too.
DISPLAY_ATTRIBUTES: tuple[str, ...] = ("align", "bgcolor", "class", "id", "role", "valign", "width")
MERGE_MAX_CANDIDATES = 8
_DIGITS_RE = re.compile(r"\d+")
# Descendants that make to_text break a line, space a cell or skip text: only then may its words
# differ from those of the subtree's concatenated text nodes.
_LAYOUT_TAGS: frozenset[str] = PARAGRAPH_TAGS | LINE_TAGS | CELL_TAGS | NON_CONTENT_TAGS


@functools.lru_cache(maxsize=8192)  # memoised: sites repeat their (attribute, value) pairs
def _key_part(name: str, value: str) -> str:
    """``name=value`` of a key, digit runs folded and words sorted."""
    return f"{name}={' '.join(sorted(_DIGITS_RE.sub('#', value).split()))}"


def element_key(el: Element, attributes: tuple[str, ...] = DISPLAY_ATTRIBUTES) -> str:
    """``tag[attr=value...]`` with digit runs folded, so ``post-12`` and ``post-13`` are one style."""
    items = el.items()  # one call for all attributes: cheaper than a ``get`` per display attribute
    tag = cast(str, el.tag)  # keys are made of elements, never of comments or PIs
    if not items:
        return tag
    return _key_of(tag, tuple(items), attributes)


@functools.lru_cache(maxsize=16384)  # memoised: a site repeats its tags with the same attributes
def _key_of(tag: str, items: tuple[tuple[str, str], ...], attributes: tuple[str, ...]) -> str:
    """:func:`element_key` of a tag with these (name, value) attributes."""
    get = dict(items).get
    parts = [tag]
    for name in attributes:
        value = get(name)
        if value:
            parts.append(_key_part(name, value))
    return "|".join(parts)


def element_children(el: Element) -> list[Element]:
    """Child elements of ``el`` (comments and processing instructions are not nodes of the tree).

    ``el[:]`` is lxml's C-level list of the children (several times cheaper than iterating ``el``),
    and a child's class tells a comment, PI or entity without reading its tag.
    """
    children = el[:]
    for child in children:
        if isinstance(child, _NOT_ELEMENTS):
            return [child for child in children if not isinstance(child, _NOT_ELEMENTS)]
    return children


def is_leaf(el: Element, virtual_leaves: bool, children: list[Element] | None = None) -> bool:
    """An actual leaf has no child element; a virtual leaf has only actual leaves as children.

    ``children`` saves the call when the caller has ``element_children(el)`` already.
    """
    if children is None:
        children = element_children(el)
    if not children:
        return True
    if not virtual_leaves:
        return False
    for child in children:  # (loops, not all() over a generator: this runs for every node of every page)
        if len(child):
            for grandchild in child:
                if isinstance(grandchild.tag, str):
                    return False
    return True


def _leaf_content(el: Element) -> tuple[str, list[Element]]:
    """Text with the words of ``to_text(el)``, and ``el``'s ``img`` and ``a`` elements in document order.

    One Python walk over the descendants does both: the text is taken at C speed (libxml2's
    serialiser) when no descendant breaks a line, else by ``spaced_text`` (no lines to build), and
    the walk replaces an ``iter("img", "a")``, whose tag matcher costs more to set up than a
    leaf's whole walk (leaves hold ~1 element).
    """
    tag = el.tag
    media = [el] if tag == "img" or tag == "a" else []
    if tag in NON_CONTENT_TAGS:
        text: str | None = ""  # (to_text of a script or style)
    elif not len(el):
        return el.text or "", media
    else:
        text = None
    layout = _LAYOUT_TAGS
    for node in el.iterdescendants():
        tag = node.tag
        if tag == "img" or tag == "a":
            media.append(node)
        elif text is None and tag in layout:
            text = spaced_text(el)
    return (raw_text(el) if text is None else text), media


def _shifted(words: list[str], n: int) -> Iterable[tuple[str, ...]]:
    """Runs of ``n`` consecutive words, as tuples."""
    if n == 3:  # the improved variant's shingle: three slices cost less than a list of them unpacked
        return zip(words, words[1:], words[2:], strict=False)
    # (a list of the shifted slices: star-unpacking a generator costs more than the joins)
    return zip(*[words[i:] for i in range(n)], strict=False)


def text_features(text: str, shingle: int = 1) -> dict[str, int]:
    """Counts of the words of ``text`` (or of its runs of ``shingle`` words), in first-seen order."""
    tokens = tokenize(text)
    words: Iterable[str] = tokens
    if shingle > 1 and len(tokens) >= shingle:
        words = map(" ".join, _shifted(tokens, shingle))
    # A plain dict counted by the C helper behind Counter.update: the same counts in the same
    # order, without Counter's construction and type checks (this runs for every leaf of a page).
    features: dict[str, int] = {}
    _count_elements(features, words)
    return features


def _add_media(features: dict[str, int], media: list[Element]) -> None:
    """Count the image sources (``img:``) and link targets (``a:``) of ``media`` into ``features``."""
    for node in media:
        tag = cast(str, node.tag)  # "img" or "a"
        target = node.get("src") if tag == "img" else node.get("href")
        if target:
            key = f"{tag}:{target.strip()}"
            features[key] = features.get(key, 0) + 1


def content_features(el: Element, shingle: int = 1) -> dict[str, int]:
    """Actual content features of a leaf with their counts: its words (or runs of ``shingle``
    words), image sources (``img:``) and link targets (``a:``), in first-seen order."""
    text, media = _leaf_content(el)
    features = text_features(text, shingle)
    if media:
        _add_media(features, media)
    return features


class LeafFeatures:
    """:func:`content_features` for one build, each distinct leaf text tokenised once.

    A site's template repeats its leaves (menu items, footer lines) on every sampled page; most
    of their cost is the words, which depend on the text alone.  The dicts returned may be shared
    between calls: callers only read them.
    """

    def __init__(self, shingle: int = 1) -> None:
        self.shingle = shingle
        self._by_text: dict[str, dict[str, int]] = {}

    def __call__(self, el: Element) -> dict[str, int]:
        text, media = _leaf_content(el)
        features = self._by_text.get(text)
        if features is None:
            features = self._by_text[text] = text_features(text, self.shingle)
        if media:
            features = features.copy()
            _add_media(features, media)
        return features


@dataclass(eq=False)
class ElementNode:
    """An element node: ``key`` (tag + display attributes), ``pages`` containing it, child styles.

    ``leaf_pages`` counts the pages where it was a leaf and ``page_features`` holds each of those
    pages' content features as recorded, from which :attr:`features` gives each feature's count on
    each page.
    """

    key: str
    pages: int = 0
    styles: dict[tuple[str, ...], StyleNode] = field(default_factory=dict)
    leaf_pages: int = 0
    page_features: list[tuple[int, dict[str, int]]] = field(default_factory=list)  # (page index, features)
    shingle: int = 1
    first: Element | None = field(default=None, repr=False)  # first page's element, while building
    _signature: frozenset[str] | None = field(default=None, repr=False)
    _children: list[ElementNode] = field(default_factory=list, repr=False)  # children(), for...
    _children_of: int = field(default=0, repr=False)  # ...this many style nodes

    def add_features(self, page_index: int, features: dict[str, int]) -> None:
        """Record one page's content features of this leaf (kept as given: not to be changed after).

        Only kept: most of a leaf's features (an article's words) are on one page, and the marking
        finds those by counting at C speed, so a per-feature record per page is never built.
        """
        self.leaf_pages += 1
        self.page_features.append((page_index, features))

    @property
    def features(self) -> dict[str, dict[int, int]]:
        """Each content feature's count on each page (page index -> count), both in first-seen order."""
        known: dict[str, dict[int, int]] = {}
        get = known.get
        for page_index, features in self.page_features:
            for feature, count in features.items():
                per_page = get(feature)
                if per_page is None:
                    known[feature] = {page_index: count}
                else:
                    per_page[page_index] = per_page.get(page_index, 0) + count
        return known

    def signature(self) -> frozenset[str]:
        """Content features of the first page's subtree (computed on demand, for merging)."""
        if self._signature is None:
            self._signature = (
                frozenset(content_features(self.first, self.shingle)) if self.first is not None else frozenset()
            )
        return self._signature

    def children(self) -> list[ElementNode]:
        """Distinct child element nodes over all style nodes, in first-seen order (not to be changed).

        Kept until a style node is added (style nodes are only ever added, and their elements
        never change): the marking asks several times per node.
        """
        if self._children_of != len(self.styles):
            seen: dict[int, ElementNode] = {}
            for style in self.styles.values():
                for child in style.elements:
                    seen.setdefault(id(child), child)
            self._children = list(seen.values())
            self._children_of = len(self.styles)
        return self._children


@dataclass(eq=False)
class StyleNode:
    """A style node: a sequence of element nodes and the number of pages that use it."""

    elements: list[ElementNode]
    pages: int = 0


@dataclass(frozen=True)
class BuildOptions:
    """Switches of the build: the paper's virtual-leaf and element-merging enhancements."""

    virtual_leaves: bool = True
    merge_elements: bool = True
    merge_similarity: float = 0.5  # Jaccard of content signatures at which two nodes merge
    shingle: int = 1  # words per text feature: 1 is the paper's; 3 tells prose from a small vocabulary
    attributes: tuple[str, ...] = DISPLAY_ATTRIBUTES


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    common = len(a & b)
    union = len(a) + len(b) - common  # (the size of ``a | b``, without building it)
    return common / union if union else 1.0


class SiteStyleTree:
    """The SST of one site, rooted at ``<body>``.

    The body's attributes are ignored (sites put the page type and id in the body class), so
    every page's body maps onto the one root, as under the paper's virtual root.
    """

    def __init__(self, options: BuildOptions | None = None) -> None:
        self.options = options or BuildOptions()
        self.root = ElementNode("body")
        self.page_count = 0
        self._features = LeafFeatures(self.options.shingle)

    def add_page(self, body: Element) -> None:
        """Merge one page's DOM tree (from ``body``) into the SST, top-down."""
        page_index = self.page_count
        self.page_count += 1
        virtual_leaves, features = self.options.virtual_leaves, self._features
        stack = [(self.root, body)]
        pop = stack.pop
        while stack:
            node, el = pop()
            node.pages += 1
            if not len(el):  # no child node at all: an actual leaf, known without listing children
                node.add_features(page_index, features(el))
                continue
            children = element_children(el)
            if is_leaf(el, virtual_leaves, children):
                node.add_features(page_index, features(el))
                continue
            style = self._style_for(node, children)
            stack.extend(zip(style.elements, children, strict=False))

    def add_pages(self, bodies: Iterable[Element]) -> SiteStyleTree:
        """Merge several pages and return ``self``."""
        for body in bodies:
            self.add_page(body)
        return self

    def _style_for(self, node: ElementNode, children: list[Element]) -> StyleNode:
        """The style node of ``node`` matching ``children`` (created when new); counts the page."""
        attributes = self.options.attributes
        keys = tuple([element_key(child, attributes) for child in children])  # (a list: cheaper than a generator)
        style = node.styles.get(keys)
        if style is None:
            existing: dict[str, list[ElementNode]] = {}
            if self.options.merge_elements:
                for candidate in node.children():
                    existing.setdefault(candidate.key, []).append(candidate)
            elements: list[ElementNode] = []
            taken: set[int] = set()
            for key, child in zip(keys, children, strict=False):
                element = self._new_element(existing.get(key, ()), key, child, taken)
                taken.add(id(element))
                elements.append(element)
            style = StyleNode(elements)
            node.styles[keys] = style
        style.pages += 1
        return style

    def _new_element(self, same_key: Iterable[ElementNode], key: str, el: Element, taken: set[int]) -> ElementNode:
        """A new element node, or (element-node merging) a similar same-key node of a sibling style.

        Only the first :data:`MERGE_MAX_CANDIDATES` free same-key nodes are compared, so a parent
        with thousands of like children (a comment thread) does not make the build quadratic.
        """
        if not self.options.merge_elements:
            return ElementNode(key)
        candidates = [c for c in same_key if id(c) not in taken][:MERGE_MAX_CANDIDATES]
        signature = None
        if candidates:
            signature = frozenset(content_features(el, self.options.shingle))
            for candidate in candidates:
                if _jaccard(candidate.signature(), signature) >= self.options.merge_similarity:
                    return candidate
        # (a signature made here is the new node's own, should it be a candidate later)
        return ElementNode(key, shingle=self.options.shingle, first=el, _signature=signature)

    def release(self) -> None:
        """Drop the references to the sample's DOM elements kept for merging, and the texts' words."""
        self._features = LeafFeatures(self.options.shingle)
        stack = [self.root]
        while stack:
            node = stack.pop()
            node.first = None
            stack.extend(node.children())
