"""A page's visible text as the models read it: text pieces in document order, and one stream.

The stream is every text piece (an element's text, or a tail, which belongs to the parent)
joined with a line break at each tag where :func:`~scrapy_boilerplate.html.to_text` breaks a
line and a space after each table cell, and nothing between inline pieces: ``<b>P</b>aul`` is
one word, as on screen and in every model's output.  So the stream's tokens are the tokens of
``to_text`` of the page's elements but the head, and each token can be traced back to the
pieces it lies in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import lxml.etree

from scrapy_boilerplate.html import NON_CONTENT_TAGS
from scrapy_boilerplate.html.text import CELL_TAGS, LINE_TAGS, PARAGRAPH_TAGS
from scrapy_boilerplate.page import Page

Element = lxml.etree._Element
BREAK_TAGS: frozenset[str] = PARAGRAPH_TAGS | LINE_TAGS
HIDDEN_TAGS: frozenset[str] = NON_CONTENT_TAGS | {"head"}


class Open(NamedTuple):
    """An element starts."""

    element: Element


class Close(NamedTuple):
    """An element ends."""

    element: Element


class Piece(NamedTuple):
    """A text piece: ``number`` is its place among the pieces, ``owner`` the element it is inside
    (a tail's owner is the tail's parent), ``anchor`` the element whose text or tail it is,
    ``start`` its offset in the stream."""

    number: int
    text: str
    start: int
    owner: Element
    anchor: Element
    is_tail: bool

    @property
    def end(self) -> int:
        """Offset just past the piece in the stream."""
        return self.start + len(self.text)


Event = Open | Close | Piece


@dataclass
class VisibleText:
    """The pieces and events of ``root``'s visible text, and the joined stream."""

    root: Element
    events: list[Event] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    stream: str = ""

    @classmethod
    def of(cls, page: Page) -> VisibleText:
        """The visible text of ``page``: its whole tree but the ``<head>``.  Broken markup can leave
        text after ``</body>`` (a browser shows it, and a model may keep it), so it is not just
        ``page.body``."""
        return cls.build(page.tree)

    @classmethod
    def build(cls, root: Element) -> VisibleText:
        """Walk ``root`` (iteratively: deep pages are fine) and collect its visible text."""
        visible = cls(root)
        parts: list[str] = []
        length = 0

        def add(text: str | None, owner: Element, anchor: Element, is_tail: bool) -> None:
            nonlocal length
            if text:
                piece = Piece(len(visible.pieces), text, length, owner, anchor, is_tail)
                visible.pieces.append(piece)
                visible.events.append(piece)
                parts.append(text)
                length += len(text)

        def separate(separator: str) -> None:
            nonlocal length
            if separator:
                parts.append(separator)
                length += len(separator)

        events = visible.events
        # (node, its parent, closing): the parent rides along so no node is asked for it
        stack: list[tuple[Element, Element, bool]] = [(root, root, False)]
        while stack:
            node, parent, closing = stack.pop()
            tag = node.tag
            if not isinstance(tag, str) or tag in HIDDEN_TAGS:  # comments, PIs, head: their tails only
                if node is not root:
                    add(node.tail, parent, node, True)
                continue
            if closing:
                events.append(Close(node))
                separate("\n" if tag in BREAK_TAGS else " " if tag in CELL_TAGS else "")
                if node is not root:
                    add(node.tail, parent, node, True)
                continue
            events.append(Open(node))
            if tag in BREAK_TAGS:
                separate("\n")
            add(node.text, node, node, False)
            stack.append((node, parent, True))
            stack.extend([(child, node, False) for child in reversed(node)])
        visible.stream = "".join(parts)
        return visible
