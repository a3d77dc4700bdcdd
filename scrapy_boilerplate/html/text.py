"""A (cleaned) tree to readable text: blank lines between paragraphs, one line per item or row."""

from __future__ import annotations

import re

import lxml.etree

from scrapy_boilerplate.html.clean import NON_CONTENT_TAGS

PARAGRAPH_TAGS: frozenset[str] = frozenset(
    "address article aside blockquote body center details dialog div dl fieldset figcaption "
    "figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr main nav ol p pre section summary "
    "table ul".split()
)
LINE_TAGS: frozenset[str] = frozenset("br caption dd dt legend li option tr".split())
CELL_TAGS: frozenset[str] = frozenset({"td", "th"})

_SPACE_RE = re.compile(r"\s+")

_LINE = 1
_PARAGRAPH = 2


def normalize_space(text: str) -> str:
    """Collapse every run of whitespace to one space and strip the ends."""
    return _SPACE_RE.sub(" ", text).strip()


def _break_of(tag: str) -> int:
    if tag in PARAGRAPH_TAGS:
        return _PARAGRAPH
    if tag in LINE_TAGS:
        return _LINE
    return 0


def _pieces(root: lxml.etree._Element) -> list[str | int]:
    """Text pieces and break markers of ``root`` in document order (iterative walk)."""
    pieces: list[str | int] = []
    stack: list[tuple[lxml.etree._Element, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        tag = node.tag if isinstance(node.tag, str) else None
        if closing:
            brk = _break_of(tag) if tag else 0
            if brk:
                pieces.append(brk)
            elif tag in CELL_TAGS:
                pieces.append(" ")
            if node is not root and node.tail:
                pieces.append(node.tail)
            continue
        if tag is None or tag in NON_CONTENT_TAGS:
            if node is not root and node.tail:
                pieces.append(node.tail)
            continue
        brk = _break_of(tag)
        if brk:
            pieces.append(brk)
        if node.text:
            pieces.append(node.text)
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(node))
    return pieces


def to_text(root: lxml.etree._Element) -> str:
    """Text of ``root``: paragraphs and headings separated by a blank line, list items and table
    rows on their own lines, whitespace inside each line collapsed."""
    out: list[str] = []
    line: list[str] = []
    pending = 0

    def flush() -> None:
        nonlocal pending
        text = normalize_space("".join(line))
        line.clear()
        if not text:
            return
        if out:
            out.append("\n\n" if pending == _PARAGRAPH else "\n")
        out.append(text)
        pending = 0

    for piece in _pieces(root):
        if isinstance(piece, int):
            flush()
            pending = max(pending, piece)
        else:
            line.append(piece)
    flush()
    return "".join(out)
