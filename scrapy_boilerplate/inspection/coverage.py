"""Which of a model's decisions speak for each piece of a page's visible text.

A model's decisions name regions in two forms (see :class:`~scrapy_boilerplate.models.base.Decision`):
an XPath into ``page.tree`` or ``chars:START-END`` offsets into ``page.html``.  For a position in
a text piece the candidates are, most specific first:

1. the ``chars:`` ranges holding it, innermost (latest-starting) first: a character range is the
   finest unit.  Pieces are found in the source by :mod:`~scrapy_boilerplate.inspection.locate`;
   a piece that cannot be found has no range;
2. the decisions on the nearest element (the piece's own, or an ancestor) that decisions name,
   the latest first: a model that decides an element twice refines its first verdict.

Whether text is kept is never taken from here: it comes from the output (see
:mod:`~scrapy_boilerplate.inspection.marks`), which picks the first candidate that agrees.
"""

from __future__ import annotations

import bisect
import re

import lxml.etree

from scrapy_boilerplate.html import iter_elements
from scrapy_boilerplate.inspection.locate import DecodedSource, Locator
from scrapy_boilerplate.inspection.visible import Close, Open, Piece, VisibleText
from scrapy_boilerplate.models.base import Decision
from scrapy_boilerplate.page import Page

Element = lxml.etree._Element
_CHARS_RE = re.compile(r"chars:(\d+)-(\d+)\Z")


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


def resolve_paths(page: Page, decisions: tuple[Decision, ...]) -> tuple[dict[Element, list[int]], list[int]]:
    """Elements of ``page.tree`` that XPath decisions name (each with its decisions, in order), and
    the indices of the XPath decisions naming nothing.

    A path is evaluated as XPath; one that fails (lxml writes odd tag names of broken markup
    into paths that are not valid XPath) is matched against ``getpath`` of every element.
    """
    root = page.tree.getroottree()
    by_path: dict[str, Element] | None = None
    named: dict[Element, list[int]] = {}
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
        named.setdefault(elements[0], []).append(index)
    return named, unresolved


class _CharRanges:
    """The ``chars:`` ranges over each piece, once the piece is located in the decoded source.

    Only a verbatim match maps character for character; a piece matched by a prefix takes the
    ranges at its start for all of it.
    """

    def __init__(self, source: str, decisions: tuple[Decision, ...]) -> None:
        spans = [(span, i) for i, d in enumerate(decisions) if (span := parse_chars(d.path))]
        self.locator = Locator(DecodedSource(source)) if spans else None
        decoded = self.locator.source.to_decoded if self.locator else int
        self.ranges = sorted((decoded(start), decoded(end), i) for (start, end), i in spans)
        self.starts = [start for start, _, _ in self.ranges]
        self.located: dict[int, tuple[int, bool, int]] = {}  # piece index -> (source pos, exact, lead)

    def locate(self, piece: Piece) -> None:
        """Find ``piece`` in the source (pieces must come in document order)."""
        core = piece.text.strip()
        if self.locator is None or not core:
            return
        line = piece.anchor.sourceline
        found = self.locator.locate(core, line, piece.is_tail)
        if found is not None:
            self.located[piece.number] = (found[0], found[1], len(piece.text) - len(piece.text.lstrip()))

    def at(self, piece: int, offset: int) -> list[int]:
        """Decisions of the ranges holding ``offset`` of ``piece``, innermost first."""
        located = self.located.get(piece)
        if located is None:
            return []
        pos, exact, lead = located
        where = pos + max(offset - lead, 0) if exact else pos
        holding = []
        for k in range(bisect.bisect_right(self.starts, where) - 1, -1, -1):
            if where < self.ranges[k][1]:
                holding.append(self.ranges[k][2])
        return holding


class DecisionIndex:
    """The candidate decisions for any position of a page's visible text (see the module docstring)."""

    def __init__(self, page: Page, decisions: tuple[Decision, ...], visible: VisibleText) -> None:
        self.named, self.unresolved = resolve_paths(page, decisions)
        self._ranges = _CharRanges(page.html, decisions)
        self._owners: list[list[int]] = []  # per piece: the nearest named element's decisions, latest first
        inherited = next((self.named[a] for a in visible.root.iterancestors() if a in self.named), [])
        stack: list[list[int]] = [inherited[::-1]]
        for event in visible.events:
            if isinstance(event, Open):
                own = self.named.get(event.element)
                stack.append(own[::-1] if own else stack[-1])
            elif isinstance(event, Close):
                stack.pop()
            else:
                # a tail's owner is the parent, whose decisions sit below the closed child's
                self._owners.append(stack[-1])
                self._ranges.locate(event)

    def candidates(self, piece: int, offset: int) -> list[int]:
        """Decisions that speak for ``offset`` of piece ``piece``, most specific first."""
        return self._ranges.at(piece, offset) + self._owners[piece]
