"""From kept character ranges of ``page.html`` to readable text, through the parsed tree.

A character-range model decides per source character; markup must still never reach the
text.  So the text comes from the page's own parsed tree (the shared HTML layer): each text
node is located in the source (verbatim when it can be, word by word when entities or dropped
comments make it differ), each of its words is kept when most of its characters are kept, and
the edited tree goes through the shared :func:`~scrapy_boilerplate.html.to_text`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import lxml.etree
import numpy as np

from scrapy_boilerplate.html import remove_keeping_tail
from scrapy_boilerplate.html.walk import post_order

Element = lxml.etree._Element
_WORD_RE = re.compile(r"\S+")
_PIECE_RE = re.compile(r"\w+")
_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # lxml refuses these
_KEEP_EMPTY = frozenset({"br", "img", "hr"})
MAX_ANCHOR_TRIES = 8  # occurrences of a text node tried before falling back to its words


def text_slots(root: Element) -> Iterator[tuple[Element, bool]]:
    """(element, is_tail) for every text and tail of ``root``'s subtree, in source order."""
    stack: list[tuple[Element, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        if closing:
            if node is not root and node.tail:
                yield node, True
            continue
        if isinstance(node.tag, str) and node.text:
            yield node, False
        stack.append((node, True))
        if isinstance(node.tag, str):
            stack.extend((child, False) for child in reversed(node))


def _inside_tag(html: str, lower: int, position: int) -> bool:
    """True when ``position`` lies between a ``<`` and its ``>`` (looking back to ``lower``)."""
    return html.rfind("<", lower, position) > html.rfind(">", lower, position)


class SourceAligner:
    """Walks text nodes in order, locating each in the source with a monotone cursor."""

    def __init__(self, html: str) -> None:
        self.html = html
        self.cursor = 0

    def _anchored(self, text: str) -> int:
        """Offset of ``text`` as a whole text node (between ``>`` and ``<``), or -1."""
        html, start = self.html, self.cursor
        for _ in range(MAX_ANCHOR_TRIES):
            found = html.find(text, start)
            if found < 0:
                return -1
            end = found + len(text)
            if (found == 0 or html[found - 1] == ">") and (end == len(html) or html[end] == "<"):
                return found
            start = found + 1
        return -1

    def _piece(self, piece: str) -> int:
        """Offset of a word piece outside tags, or -1."""
        html, start = self.html, self.cursor
        for _ in range(MAX_ANCHOR_TRIES):
            found = html.find(piece, start)
            if found < 0 or not _inside_tag(html, self.cursor, found):
                return found
            start = found + 1
        return -1

    def locate(self, text: str) -> list[list[tuple[int, int]]]:
        """Source spans of each whitespace-separated word of ``text`` (empty list: not found)."""
        words = [(m.start(), m.end()) for m in _WORD_RE.finditer(text)]
        found = self._anchored(text)
        if found >= 0:
            self.cursor = found + len(text)
            return [[(found + s, found + e)] for s, e in words]
        spans: list[list[tuple[int, int]]] = []
        for s, e in words:
            word_spans = []
            for piece in _PIECE_RE.finditer(text, s, e):
                at = self._piece(piece.group())
                if at >= 0:
                    word_spans.append((at, at + len(piece.group())))
                    self.cursor = at + len(piece.group())
            spans.append(word_spans)
        return spans


def _word_removed(spans: list[tuple[int, int]], removed: np.ndarray) -> bool | None:
    """Whether most located characters of one word are removed (None: the word was not located)."""
    total = sum(e - s for s, e in spans)
    if not total:
        return None
    gone = sum(int(np.count_nonzero(removed[s:e])) for s, e in spans)
    return 2 * gone >= total


def _range_weights(words: list[tuple[int, bool, int]], n_ranges: int) -> np.ndarray:
    """Kept word characters per character range."""
    weights = np.zeros(n_ranges, dtype=np.int64)
    for range_id, gone, length in words:
        if not gone and range_id >= 0:
            weights[range_id] += length
    return weights


def keep_text(root: Element, html: str, removed: np.ndarray, min_range_share: float = 0.0) -> None:
    """Edit ``root`` (a private tree of ``html``) in place: drop words under removed characters,
    then elements left without text (images and line breaks of kept text stay).

    With ``min_range_share`` > 0, words of a kept character range holding less text than that
    share of the richest kept range are dropped too.
    """
    aligner = SourceAligner(html)
    range_of = np.cumsum(removed[1:] != removed[:-1]) if len(removed) else removed
    range_of = np.concatenate([[0], range_of]) if len(removed) else range_of
    slots: list[tuple[Element, bool, str, list[tuple[int, bool, int]]]] = []
    gone = False
    for element, is_tail in list(text_slots(root)):
        text = element.tail if is_tail else element.text
        if not text.strip():
            continue
        words = []
        for match, spans in zip(_WORD_RE.finditer(text), aligner.locate(text)):
            decided = _word_removed(spans, removed)
            gone = gone if decided is None else decided
            words.append((int(range_of[spans[0][0]]) if spans else -1, gone, len(match.group())))
        slots.append((element, is_tail, text, words))
    if min_range_share > 0 and len(removed):
        weights = _range_weights([w for *_, words in slots for w in words], int(range_of[-1]) + 1)
        floor = min_range_share * weights.max()
        slots = [(el, tail, text, [(r, g or (r >= 0 and weights[r] < floor), n) for r, g, n in words])
                 for el, tail, text, words in slots]
    for element, is_tail, text, words in slots:
        kept = [m.group() for m, (_, g, _) in zip(_WORD_RE.finditer(text), words) if not g]
        new = ""
        if kept:
            new = (" " if text[:1].isspace() else "") + " ".join(kept) + (" " if text[-1:].isspace() else "")
        if len(kept) == len(words):
            continue  # unchanged (and lxml re-validates whatever is assigned)
        new = _CONTROL_RE.sub("", new)
        if is_tail:
            element.tail = new or None
        else:
            element.text = new or None
    _prune_empty(root)


def _prune_empty(root: Element) -> None:
    """Remove elements whose subtree holds no text (keeping their tails)."""
    has_text: dict[Element, bool] = {}
    for el in post_order(root):
        own = bool(el.text and el.text.strip())
        kids = any(has_text.get(child, False) or bool(child.tail and child.tail.strip()) for child in el)
        has_text[el] = own or kids
    for el, full in has_text.items():
        if not full and el is not root and el.tag not in _KEEP_EMPTY:
            remove_keeping_tail(el)
