"""Which decision covers each piece of a page's text: the rule behind the inspection report.

A model's decisions name regions in two forms (see :class:`~scrapy_boilerplate.models.base.Decision`):
an XPath into ``page.tree`` or ``chars:START-END`` offsets into ``page.html``.  Every text piece
of ``page.tree`` (an element's text or a child's tail, which belongs to the parent) gets one
verdict, by the first rule that applies:

1. a ``chars:`` range that holds the piece wins (a character range is the finest unit); a piece
   that straddles range boundaries is split at them;
2. otherwise the nearest decision on the element or its ancestors (a decision covers its subtree
   and an inner decision overrides an outer one; for one element the first decision counts);
3. otherwise the verdict is inferred: kept when the piece's text occurs in ``CleanedPage.text``
   (whitespace collapsed), removed when it does not.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

import lxml.etree

from scrapy_boilerplate.html import iter_elements, normalize_space
from scrapy_boilerplate.models.base import CleanedPage, Decision
from scrapy_boilerplate.page import Page

Element = lxml.etree._Element
_CHARS_RE = re.compile(r"chars:(\d+)-(\d+)\Z")
MIN_ANCHOR_CHARS = 8  # shorter text is located only when found verbatim, never by a prefix


@dataclass(frozen=True)
class Verdict:
    """Kept or removed, and by which decision (its index), or ``None`` when inferred from the text."""

    kept: bool
    decision: int | None


@dataclass(frozen=True)
class Open:
    """An element starts; ``decision`` is the index of the decision made on it, if any."""

    element: Element
    decision: int | None


@dataclass(frozen=True)
class Close:
    """An element ends."""

    element: Element


@dataclass(frozen=True)
class Text:
    """A piece of visible text and its verdict."""

    text: str
    verdict: Verdict


def parse_chars(path: str) -> tuple[int, int] | None:
    """``(start, end)`` of a ``chars:START-END`` path, or ``None`` for an XPath."""
    match = _CHARS_RE.match(path)
    if not match:
        return None
    start, end = int(match.group(1)), int(match.group(2))
    return (start, end) if end > start else None


def _xpath_elements(root: lxml.etree._ElementTree, path: str) -> list[Element]:
    try:
        found = root.xpath(path) if path.startswith("/") else []
    except lxml.etree.XPathError:  # e.g. a recovered tag name holding quotes: only exact matching works
        return []
    return [el for el in found if isinstance(el, lxml.etree._Element)] if isinstance(found, list) else []


def resolve_paths(page: Page, decisions: tuple[Decision, ...]) -> tuple[dict[Element, int], list[int]]:
    """Elements of ``page.tree`` that XPath decisions name, and the indices of decisions naming nothing.

    A path is evaluated as XPath; one that fails (lxml writes odd tag names of broken markup
    into paths that are not valid XPath) is matched against ``getpath`` of every element.
    """
    root = page.tree.getroottree()
    by_path: dict[str, Element] | None = None
    named: dict[Element, int] = {}
    unresolved = []
    for index, decision in enumerate(decisions):
        if parse_chars(decision.path) is not None:
            continue
        elements = _xpath_elements(root, decision.path)
        if not elements:
            if by_path is None:
                by_path = {root.getpath(el): el for el in iter_elements(page.tree)}
            elements = [by_path[decision.path]] if decision.path in by_path else []
        if len(elements) != 1:
            unresolved.append(index)
            continue
        named.setdefault(elements[0], index)
    return named, unresolved


class _CharRanges:
    """Locates text pieces in ``page.html`` (in document order) and splits them by ``chars:`` ranges."""

    def __init__(self, source: str, decisions: tuple[Decision, ...]) -> None:
        self.source = source
        self.cursor = 0
        self.ranges = sorted((span[0], span[1], i) for i, d in enumerate(decisions) if (span := parse_chars(d.path)))

    def _at(self, offset: int) -> int | None:
        for start, end, index in self.ranges:
            if start <= offset < end:
                return index
        return None

    def _locate(self, core: str) -> tuple[int, bool] | None:
        """Offset of ``core`` in the source from the cursor on, and whether it maps char for char."""
        pos = self.source.find(core, self.cursor)
        if pos >= 0:
            return pos, True
        escaped = html.escape(core, quote=False)
        pos = self.source.find(escaped, self.cursor)
        if pos >= 0:
            return pos, False
        prefix = re.split(r"[&<>\"'\r\n\u00a0]", core, maxsplit=1)[0]
        if len(prefix) >= MIN_ANCHOR_CHARS:
            pos = self.source.find(prefix, self.cursor)
            if pos >= 0:
                return pos, False
        return None

    def split(self, text: str) -> list[tuple[str, int | None]]:
        """``text`` as (segment, covering range's decision index or ``None``) in order."""
        core = text.strip()
        if not self.ranges or not core:
            return [(text, None)]
        located = self._locate(core)
        if located is None:
            return [(text, None)]
        pos, exact = located
        lead = len(text) - len(text.lstrip())
        if len(core) >= MIN_ANCHOR_CHARS:
            self.cursor = pos + (len(core) if exact else 1)
        if not exact:
            return [(text, self._at(pos))]
        cuts = sorted({b - pos for start, end, _ in self.ranges for b in (start, end) if pos < b < pos + len(core)})
        segments, previous = [], 0
        for cut in [*cuts, len(core)]:
            segments.append((core[previous:cut], self._at(pos + previous)))
            previous = cut
        first, index = segments[0]
        segments[0] = (text[:lead] + first, index)
        last, index = segments[-1]
        segments[-1] = (last + text[lead + len(core):], index)
        return segments


def _inferred(text: str, kept_text: str) -> Verdict:
    core = normalize_space(text)
    return Verdict(bool(core) and core in kept_text, None)


def walk(page: Page, cleaned: CleanedPage, root: Element | None = None) -> Iterator[Open | Close | Text]:
    """Open/Text/Close events over ``root`` (default ``page.body``) with every text piece's verdict."""
    decisions = cleaned.decisions
    named, _ = resolve_paths(page, decisions)
    ranges = _CharRanges(page.html, decisions)
    kept_text = normalize_space(cleaned.text)
    root = page.body if root is None else root
    inherited = next((named[a] for a in root.iterancestors() if a in named), None)

    def pieces(text: str | None, owner: int | None) -> Iterator[Text]:
        if not text:
            return
        for segment, index in ranges.split(text):
            if index is not None:
                yield Text(segment, Verdict(decisions[index].kept, index))
            elif owner is not None:
                yield Text(segment, Verdict(decisions[owner].kept, owner))
            else:
                yield Text(segment, _inferred(segment, kept_text))

    stack: list[tuple[Element, bool, int | None]] = [(root, False, inherited)]
    while stack:
        node, closing, owner = stack.pop()
        if closing:  # ``owner`` is the parent's decision, which also covers this element's tail
            yield Close(node)
            if node is not root:
                yield from pieces(node.tail, owner)
            continue
        if not isinstance(node.tag, str):
            continue
        own = named.get(node)
        current = own if own is not None else owner
        yield Open(node, own)
        yield from pieces(node.text, current)
        stack.append((node, True, owner))
        stack.extend((child, False, current) for child in reversed(node))

