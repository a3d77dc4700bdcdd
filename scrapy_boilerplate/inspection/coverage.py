"""Which decision covers each piece of a page's text: the rule behind the inspection report.

A model's decisions name regions in two forms (see :class:`~scrapy_boilerplate.models.base.Decision`):
an XPath into ``page.tree`` or ``chars:START-END`` offsets into ``page.html``.  Every text piece
of ``page.tree`` (an element's text or a child's tail, which belongs to the parent) gets one
verdict, by the first rule that applies:

1. a ``chars:`` range that holds the piece wins (a character range is the finest unit); a piece
   that straddles range boundaries is split at them, and where ranges overlap the innermost
   (latest-starting) one counts.  Pieces are found in the source by
   :mod:`scrapy_boilerplate.inspection.locate`; a piece that cannot be found falls to rule 2;
2. otherwise the nearest decision on the element or its ancestors (a decision covers its subtree
   and an inner decision overrides an outer one; for one element the first decision counts);
3. otherwise the verdict is inferred: kept when the piece's text occurs in ``CleanedPage.text``
   (whitespace collapsed), removed when it does not.

Text kept by rule 1 or 2 that does not occur in ``CleanedPage.text`` is flagged ``missing``.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

import lxml.etree

from scrapy_boilerplate.html import iter_elements, normalize_space
from scrapy_boilerplate.inspection.locate import DecodedSource, Locator
from scrapy_boilerplate.models.base import CleanedPage, Decision
from scrapy_boilerplate.page import Page

Element = lxml.etree._Element
_CHARS_RE = re.compile(r"chars:(\d+)-(\d+)\Z")


@dataclass(frozen=True)
class Verdict:
    """Kept or removed, and by which decision (its index), or ``None`` when inferred from the text.

    ``missing`` flags text a decision keeps that is nowhere in ``CleanedPage.text``: the model's
    decisions and its output disagree there, and the report shows it.
    """

    kept: bool
    decision: int | None
    missing: bool = False


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
    """Splits text pieces by ``chars:`` ranges, once each piece is located in the decoded source.

    Only a verbatim match maps character for character (and can be split at range boundaries);
    a piece matched by a prefix takes the range at its start.  Where ranges overlap, the one
    starting last (the innermost) counts.
    """

    def __init__(self, source: str, decisions: tuple[Decision, ...]) -> None:
        spans = [(span, i) for i, d in enumerate(decisions) if (span := parse_chars(d.path))]
        self.locator = Locator(DecodedSource(source)) if spans else None
        decoded = self.locator.source.to_decoded if self.locator else int
        self.ranges = sorted((decoded(start), decoded(end), i) for (start, end), i in spans)
        self.starts = [start for start, _, _ in self.ranges]
        self.bounds = sorted({b for start, end, _ in self.ranges for b in (start, end)})

    def _at(self, offset: int) -> int | None:
        for k in range(bisect.bisect_right(self.starts, offset) - 1, -1, -1):
            if offset < self.ranges[k][1]:
                return self.ranges[k][2]
        return None

    def split(self, text: str, line: int | None, is_tail: bool) -> list[tuple[str, int | None]]:
        """``text`` as (segment, covering range's decision index or ``None``) in order."""
        core = text.strip()
        if self.locator is None or not core:
            return [(text, None)]
        located = self.locator.locate(core, line, is_tail)
        if located is None:
            return [(text, None)]
        pos, exact = located
        if not exact:
            return [(text, self._at(pos))]
        first, last = bisect.bisect_right(self.bounds, pos), bisect.bisect_left(self.bounds, pos + len(core))
        segments, previous = [], 0
        for cut in [*(b - pos for b in self.bounds[first:last]), len(core)]:
            segments.append((core[previous:cut], self._at(pos + previous)))
            previous = cut
        lead = len(text) - len(text.lstrip())
        segments[0] = (text[:lead] + segments[0][0], segments[0][1])
        segments[-1] = (segments[-1][0] + text[lead + len(core) :], segments[-1][1])
        return segments


def _inferred(text: str, kept_text: str) -> Verdict:
    core = normalize_space(text)
    return Verdict(bool(core) and core in kept_text, None)


def _decided(text: str, index: int, decisions: tuple[Decision, ...], kept_text: str) -> Verdict:
    if not decisions[index].kept:
        return Verdict(False, index)
    core = normalize_space(text)
    return Verdict(True, index, bool(core) and core not in kept_text)


def walk(page: Page, cleaned: CleanedPage, root: Element | None = None) -> Iterator[Open | Close | Text]:
    """Open/Text/Close events over ``root`` (default ``page.body``) with every text piece's verdict."""
    decisions = cleaned.decisions
    named, _ = resolve_paths(page, decisions)
    ranges = _CharRanges(page.html, decisions)
    kept_text = normalize_space(cleaned.text)
    root = page.body if root is None else root
    inherited = next((named[a] for a in root.iterancestors() if a in named), None)

    def pieces(text: str | None, owner: int | None, line: int | None, is_tail: bool) -> Iterator[Text]:
        if not text:
            return
        for segment, index in ranges.split(text, line, is_tail):
            if index is not None or owner is not None:
                yield Text(segment, _decided(segment, index if index is not None else owner, decisions, kept_text))
            else:
                yield Text(segment, _inferred(segment, kept_text))

    stack: list[tuple[Element, bool, int | None]] = [(root, False, inherited)]
    while stack:
        node, closing, owner = stack.pop()
        if closing:  # ``owner`` is the parent's decision, which also covers this element's tail
            yield Close(node)
            if node is not root:
                yield from pieces(node.tail, owner, node.sourceline, True)
            continue
        if not isinstance(node.tag, str):
            continue
        own = named.get(node)
        current = own if own is not None else owner
        yield Open(node, own)
        yield from pieces(node.text, current, node.sourceline, False)
        stack.append((node, True, owner))
        stack.extend((child, False, current) for child in reversed(node))
