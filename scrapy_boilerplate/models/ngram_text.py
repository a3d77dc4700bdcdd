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
from dataclasses import dataclass, field

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
    """(element, is_tail) for every text and tail of ``root``'s subtree, in source order
    (lxml's own walk: a text when an element opens, its tail once its subtree has closed)."""
    for event, node in lxml.etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            if isinstance(node.tag, str) and node.text:
                yield node, False
        elif node is not root and node.tail:
            yield node, True


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

    def anchor(self, text: str) -> int:
        """Offset of ``text`` as one verbatim text node, moving the cursor past it; -1 if none."""
        found = self._anchored(text)
        if found >= 0:
            self.cursor = found + len(text)
        return found

    def locate_words(self, text: str, words: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
        """Source spans of the word pieces of each ``(start, end)`` word of ``text``, one by one
        (for text that differs from its source: entities, merged nodes)."""
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


@dataclass
class _Words:
    """Every word of the tree's text nodes with its located source spans, flattened for numpy."""

    slots: list[tuple[Element, bool, str, int, int]] = field(default_factory=list)  # words [lo, hi)
    lengths: list[int] = field(default_factory=list)
    span_word: list[int] = field(default_factory=list)
    span_start: list[int] = field(default_factory=list)
    span_end: list[int] = field(default_factory=list)


def _collect(root: Element, html: str) -> _Words:
    """Locate every word of every text node of ``root`` in ``html``."""
    aligner, words = SourceAligner(html), _Words()
    for element, is_tail in list(text_slots(root)):
        text = element.tail if is_tail else element.text
        if not text.strip():
            continue
        matches = [m.span() for m in _WORD_RE.finditer(text)]
        lo = len(words.lengths)
        found = aligner.anchor(text)
        if found >= 0:  # the common case: the node is verbatim in the source
            words.span_word.extend(range(lo, lo + len(matches)))
            words.span_start.extend([found + s for s, _ in matches])
            words.span_end.extend([found + e for _, e in matches])
        else:
            for i, spans in enumerate(aligner.locate_words(text, matches)):
                for s, e in spans:
                    words.span_word.append(lo + i)
                    words.span_start.append(s)
                    words.span_end.append(e)
        words.lengths.extend([e - s for s, e in matches])
        words.slots.append((element, is_tail, text, lo, len(words.lengths)))
    return words


def _removed_words(words: _Words, removed: np.ndarray, min_range_share: float) -> np.ndarray:
    """Bool per word: most of its located characters are removed (unlocated words follow the
    previous word), or it lies in a kept range poorer than ``min_range_share`` of the richest."""
    count = len(words.lengths)
    wid = np.array(words.span_word, dtype=np.int64)
    starts = np.array(words.span_start, dtype=np.int64)
    ends = np.array(words.span_end, dtype=np.int64)
    gone_before = np.concatenate([[0], np.cumsum(removed, dtype=np.int64)])
    total = np.bincount(wid, weights=ends - starts, minlength=count)
    gone_chars = np.bincount(wid, weights=gone_before[ends] - gone_before[starts], minlength=count)
    located = np.where(total > 0, np.arange(count), -1)
    np.maximum.accumulate(located, out=located)
    gone = np.where(located >= 0, (2 * gone_chars >= total)[np.maximum(located, 0)], False)
    if min_range_share <= 0 or not len(wid):
        return gone
    changes = np.flatnonzero(removed[1:] != removed[:-1]) + 1
    unique_words, first_span = np.unique(wid, return_index=True)
    word_range = np.full(count, -1, dtype=np.int64)
    word_range[unique_words] = np.searchsorted(changes, starts[first_span], side="right")
    counted = ~gone & (word_range >= 0)
    weights = np.bincount(word_range[counted], weights=np.array(words.lengths)[counted], minlength=len(changes) + 1)
    poor = weights < min_range_share * weights.max()
    return gone | ((word_range >= 0) & poor[np.maximum(word_range, 0)])


def keep_text(root: Element, html: str, removed: np.ndarray, min_range_share: float = 0.0) -> None:
    """Edit ``root`` (a private tree of ``html``) in place: drop words under removed characters,
    then elements left without text (images and line breaks of kept text stay).

    With ``min_range_share`` > 0, words of a kept character range holding less text than that
    share of the richest kept range are dropped too.
    """
    words = _collect(root, html)
    gone = _removed_words(words, removed, min_range_share).tolist()
    for element, is_tail, text, lo, hi in words.slots:
        if not any(gone[lo:hi]):
            continue  # unchanged (and lxml re-validates whatever is assigned)
        kept = [m.group() for m, g in zip(_WORD_RE.finditer(text), gone[lo:hi]) if not g]
        new = ""
        if kept:
            new = (" " if text[:1].isspace() else "") + " ".join(kept) + (" " if text[-1:].isspace() else "")
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
