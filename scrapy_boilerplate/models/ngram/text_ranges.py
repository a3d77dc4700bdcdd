"""From kept character ranges of ``page.html`` to readable text, through the parsed tree.

A character-range model decides per source character; markup must still never reach the
text.  So the text comes from the page's own parsed tree (the shared HTML layer): each text
node is located in the source (verbatim when it can be, word by word when entities or dropped
comments make it differ), each of its words is kept when most of its characters are kept, and
the edited tree goes through the shared :func:`~scrapy_boilerplate.html.to_text`.

One walk of the tree collects the text nodes and each element's run of them; the words, their
decisions and the elements left without text are then found with numpy over all text nodes at
once, so Python only steps through the nodes to locate them and the ones it must rewrite.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

import lxml.etree
import numpy as np

from scrapy_boilerplate.html import remove_keeping_tail, xml_compatible
from scrapy_boilerplate.models.arrays import true_runs
from scrapy_boilerplate.models.ngram.corpus import code_points

Element = lxml.etree._Element
_PIECE_RE = re.compile(r"\w+")
_NON_ASCII_RE = re.compile(r"[^\x00-\x7f]")
_KEEP_EMPTY = frozenset({"br", "img", "hr"})
MAX_ANCHOR_TRIES = 8  # occurrences of a text node tried before falling back to its words
# Characters the word-by-word searches of one page may scan, per character of the page, beyond a
# fixed allowance.  Text that is nowhere outside a tag in the source (an unclosed <title> or
# <textarea> swallowing markup, words of a huge attribute) is searched to the end of the page
# word after word, which grows with the square of the page (4.7 s on a 178 KB page, 288,000 times
# its size); past the budget the words left in such text are not located, and follow the last
# located word (whole text nodes are still looked for).  The 2,596 dev pages scan at most 470
# times their size in all (a page of hundreds of reader comments).
SCAN_BUDGET_PER_CHAR = 4096
SCAN_BUDGET_MIN = 1_000_000
_BMP = 0x10000


@dataclass(frozen=True)
class RemovedRanges:
    """The removed characters of a ``length``-character source as maximal runs: sorted int64
    ``starts`` and ``ends``, never touching (cheaper than a bool per character to query)."""

    starts: np.ndarray
    ends: np.ndarray
    length: int

    @classmethod
    def nothing(cls, length: int) -> RemovedRanges:
        """No character of a ``length``-character source removed."""
        return cls(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), length)

    @classmethod
    def from_mask(cls, removed: np.ndarray) -> RemovedRanges:
        """The runs of True of a bool-per-character mask."""
        return cls(*true_runs(removed), len(removed))

    @property
    def removed(self) -> int:
        """Number of removed characters."""
        return int((self.ends - self.starts).sum())

    def removed_before(self, positions: np.ndarray) -> np.ndarray:
        """Removed characters before each position (0 <= position <= ``length``)."""
        done = np.zeros(len(self.starts) + 1, dtype=np.int64)
        np.cumsum(self.ends - self.starts, out=done[1:])
        runs = np.searchsorted(self.starts, positions, side="right")  # runs starting at or before
        overhang = np.concatenate([[0], self.ends])[runs] - positions  # of the last such run
        return done[runs] - np.maximum(overhang, 0)

    def cuts(self) -> np.ndarray:
        """Every position where removed and kept characters meet (sorted, inside the source)."""
        cuts = np.stack([self.starts, self.ends], axis=1).ravel()
        return cuts[(cuts > 0) & (cuts < self.length)]

    def ranges(self) -> list[tuple[int, int, bool]]:
        """Maximal runs of the source as (start, end, removed), covering it in order."""
        out: list[tuple[int, int, bool]] = []
        done = 0
        for start, end in zip(self.starts.tolist(), self.ends.tolist(), strict=False):
            if start > done:
                out.append((done, start, False))
            out.append((start, end, True))
            done = end
        if done < self.length:
            out.append((done, self.length, False))
        return out


@dataclass
class TextNodes:
    """The non-blank texts and tails of a tree in source order, and where each element's run is.

    ``marks`` has one entry per walk event: an element's start gives the index of the first text
    inside it, its end ``~`` the index past the last one (its own tail excluded).
    """

    owners: list[Element]  # the element whose .text or .tail each text is
    is_tail: list[bool]
    texts: list[str]
    marks: list[int]
    elements: list[Element]  # every element, in document order (the root first)


def text_nodes(root: Element) -> TextNodes:
    """Every non-blank text and tail of ``root``'s subtree in source order (lxml's own walk: a
    text when an element opens, its tail once its subtree has closed; comments are not visited)."""
    owners: list[Element] = []
    is_tail: list[bool] = []
    texts: list[str] = []
    marks: list[int] = []
    elements: list[Element] = []
    own, tail, keep, mark, opened = owners.append, is_tail.append, texts.append, marks.append, elements.append
    count = 0
    for event, node in lxml.etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            mark(count)
            opened(node)
            text = node.text
            if text and not text.isspace():
                own(node)
                tail(False)
                keep(text)
                count += 1
        else:
            mark(~count)
            text = node.tail
            if text and not text.isspace() and node is not root:
                own(node)
                tail(True)
                keep(text)
                count += 1
    return TextNodes(owners, is_tail, texts, marks, elements)


@functools.cache
def _space_table() -> np.ndarray:
    """True at each BMP code point ``\\s`` matches (str.isspace, str.split); none lie beyond it."""
    table = np.zeros(_BMP + 1, dtype=bool)
    table[[m.start() for m in re.finditer(r"\s", "".join(map(chr, range(_BMP))))]] = True
    return table


def solid_chars(codes: np.ndarray) -> np.ndarray:
    """Bool per uint32 code point: not whitespace (``\\S``); arithmetic for ASCII (9-13 and 28-32
    are its spaces), the table only for the rare wider characters (a gather costs more)."""
    solid = (codes - np.uint32(9) > 4) & (codes - np.uint32(28) > 4)  # below 9 wraps around: solid
    wide = np.flatnonzero(codes > 127)
    if len(wide):
        solid[wide] = ~_space_table()[np.minimum(codes[wide], _BMP)]
    return solid


@dataclass
class Words:
    """Every ``\\S+`` word of a list of texts: its characters in its text, words of text k at
    ``bounds[k]:bounds[k + 1]``."""

    start: np.ndarray
    end: np.ndarray
    bounds: np.ndarray
    offsets: np.ndarray  # where each text starts in the texts joined by one space


def split_words(texts: list[str]) -> Words:
    """The ``\\S+`` words of all ``texts`` at once (one pass of numpy over the joined texts)."""
    sizes = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(sizes + 1, out=offsets[1:])  # texts joined by one space: words never span two
    codes = code_points(" ".join(texts))
    solid = solid_chars(codes)
    starts, ends = true_runs(solid)
    bounds = np.searchsorted(starts, offsets)
    base = np.repeat(offsets[:-1], np.diff(bounds))
    return Words(starts - base, ends - base, bounds, offsets[:-1])


def _inside_tag(html: str, lower: int, position: int) -> bool:
    """True when ``position`` lies between a ``<`` and its ``>`` (looking back to ``lower``)."""
    return html.rfind("<", lower, position) > html.rfind(">", lower, position)


def _outside_tags(html: str, piece: str, lower: int, tag: int, inside: int) -> int:
    """The next occurrence of ``piece`` after ``inside`` (one inside a tag) that is not inside a
    tag, within ``MAX_ANCHOR_TRIES`` occurrences in all, or -1 (``tag``: the first "<" from
    ``lower`` on)."""
    at = inside
    for _ in range(MAX_ANCHOR_TRIES - 1):
        at = html.find(piece, at + 1)
        if at < 0 or not 0 <= tag < at or not _inside_tag(html, lower, at):
            return at
    return -1


class AbsenceProof:
    """Cheap proofs that a text cannot occur in the page source at all, so that the search for it,
    which would scan to the end of the page, can be skipped (same result: not found).

    A text with a character the source never holds cannot occur (an entity such as ``&nbsp;`` or
    ``&#8217;`` decoded by the parser), nor can a text with a line feed inside it when every line
    feed of the source follows a carriage return (the parser turned CRLF into LF).
    """

    def __init__(self, html: str) -> None:
        self.html = html
        # no CR in the source (most pages): no CRLF either, and no need to count line feeds
        lf = html.count("\n") if "\r" in html else 0
        self.crlf_only = lf > 0 and lf == html.count("\r\n")
        self._present: dict[str, bool] = {}

    def cannot_occur(self, text: str) -> bool:
        """True when ``text`` is certainly not a substring of the source."""
        if self.crlf_only and "\n" in text:
            inner = text.count("\n") - text.count("\r\n") - text.startswith("\n")
            if inner > 0:  # a line feed after a character other than CR: never in this source
                return True
        if text.isascii():
            return False
        present = self._present
        for char in _NON_ASCII_RE.findall(text):
            known = present.get(char)
            if known is None:
                known = present[char] = char in self.html
            if not known:
                return True
        return False


class SourceAligner:
    """Walks text nodes in order, locating each in the source with a monotone cursor."""

    def __init__(self, html: str) -> None:
        self.html = html
        self.cursor = 0
        self.absent = AbsenceProof(html)
        self.budget = SCAN_BUDGET_PER_CHAR * len(html) + SCAN_BUDGET_MIN  # characters left to scan

    def spend(self, start: int, found: int) -> None:
        """Charge a search from ``start`` that stopped at ``found`` (-1: the end of the page)."""
        self.budget -= (found if found >= 0 else len(self.html)) - start

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

    def anchor(self, text: str) -> int:
        """Offset of ``text`` as one verbatim text node, moving the cursor past it; -1 if none."""
        found = self._anchored(text)
        if found >= 0:
            self.cursor = found + len(text)
        return found

    def locate_pieces(self, text: str, offset: int = 0) -> list[tuple[int, int, int]]:
        """(``offset`` + offset in ``text``, source start, source end) of each ``\\w+`` piece of
        ``text`` found one by one outside tags, moving the cursor (for text that differs from its
        source: entities, merged nodes).  A piece never spans whitespace: each lies inside a word."""
        html, cursor = self.html, self.cursor
        find = html.find
        tag = find("<", cursor)  # the first "<" from the cursor on (-1: none), kept while it lies ahead
        found = []
        cannot_occur = self.absent.cannot_occur
        for match in _PIECE_RE.finditer(text):
            if self.budget <= 0:
                break
            piece = match.group()
            # a search would scan to the end of the page for nothing (a \w+ piece holds no line
            # feed, so only a character the source lacks can prove it absent: never in ASCII)
            if not piece.isascii() and cannot_occur(piece):
                continue
            at = find(piece, cursor)
            # no "<" since the cursor: cannot be inside a tag (the common case, one search)
            if at >= 0 and 0 <= tag < at and _inside_tag(html, cursor, at):
                at = _outside_tags(html, piece, cursor, tag, at)
                self.budget -= MAX_ANCHOR_TRIES * ((at if at >= 0 else len(html)) - cursor)
            else:
                self.spend(cursor, at)
            if at >= 0:
                cursor = at + len(piece)
                found.append((offset + match.start(), at, cursor))
                if 0 <= tag < cursor:
                    tag = find("<", cursor)
        self.cursor = cursor
        return found


@dataclass
class Spans:
    """Located source characters of the words: span i covers ``[start[i], end[i])`` of word
    ``word[i]``, a word's spans in source order (one for a verbatim text node, one per found
    piece otherwise, none when nothing was found)."""

    word: np.ndarray
    start: np.ndarray
    end: np.ndarray


def locate(html: str, texts: list[str], words: Words) -> Spans:
    """Locate every word of ``texts`` (text nodes in source order) in ``html``."""
    aligner = SourceAligner(html)
    absent = aligner.absent
    find, size, cursor = html.find, len(html), 0
    verbatim_at = [-1] * len(texts)
    pieces: list[tuple[int, int, int]] = []  # (position in the joined texts, source start, end)
    offsets = words.offsets.tolist()
    crlf_only = absent.crlf_only
    for k, text in enumerate(texts):
        # only a line feed in a CRLF source or a non-ASCII character can prove a text absent
        provable = (crlf_only and "\n" in text) or not text.isascii()
        at = -1 if provable and absent.cannot_occur(text) else find(text, cursor)
        end = at + len(text)
        if at >= 0 and (at == 0 or html[at - 1] == ">") and (end == size or html[end] == "<"):
            verbatim_at[k], cursor = at, end  # the common case: the node is verbatim at its first find
            continue
        aligner.cursor = cursor
        # a later occurrence (none when the first search found none), or its pieces one by one
        at = aligner.anchor(text) if at >= 0 else -1
        if at >= 0:
            verbatim_at[k] = at
        else:
            pieces += aligner.locate_pieces(text, offsets[k])
        cursor = aligner.cursor
    found = np.array(verbatim_at, dtype=np.int64)
    text_of = np.repeat(np.arange(len(texts)), np.diff(words.bounds))
    verbatim = np.flatnonzero(found[text_of] >= 0)
    base = found[text_of[verbatim]]
    piece = np.fromiter(itertools.chain.from_iterable(pieces), dtype=np.int64, count=3 * len(pieces)).reshape(-1, 3)
    joined_start = words.start + words.offsets[text_of]
    piece_word = np.searchsorted(joined_start, piece[:, 0], side="right") - 1
    return Spans(
        np.concatenate([verbatim, piece_word]),
        np.concatenate([base + words.start[verbatim], piece[:, 1]]),
        np.concatenate([base + words.end[verbatim], piece[:, 2]]),
    )


def removed_words(words: Words, spans: Spans, removed: RemovedRanges, min_range_share: float) -> np.ndarray:
    """Bool per word: most of its located characters are removed (unlocated words follow the
    previous word), or it lies in a kept range poorer than ``min_range_share`` of the richest."""
    count = len(words.start)
    wid, starts, ends = spans.word, spans.start, spans.end
    total = np.bincount(wid, weights=ends - starts, minlength=count)
    gone_chars = np.bincount(
        wid, weights=removed.removed_before(ends) - removed.removed_before(starts), minlength=count
    )
    located = np.where(total > 0, np.arange(count), -1)
    np.maximum.accumulate(located, out=located)
    gone = np.where(located >= 0, (2 * gone_chars >= total)[np.maximum(located, 0)], False)
    if min_range_share <= 0 or not len(wid):
        return gone
    changes = removed.cuts()
    unique_words, first_span = np.unique(wid, return_index=True)  # a word's first span (stable)
    word_range = np.full(count, -1, dtype=np.int64)
    word_range[unique_words] = np.searchsorted(changes, starts[first_span], side="right")
    counted = ~gone & (word_range >= 0)
    weights = np.bincount(word_range[counted], weights=(words.end - words.start)[counted], minlength=len(changes) + 1)
    poor = weights < min_range_share * weights.max()
    return gone | ((word_range >= 0) & poor[np.maximum(word_range, 0)])


def _rewrite(nodes: TextNodes, words: Words, gone: np.ndarray) -> np.ndarray:
    """Drop the gone words from their texts in the tree; bool per text: it still holds text."""
    lows, highs = words.bounds[:-1], words.bounds[1:]
    gone_before = np.zeros(len(gone) + 1, dtype=np.int64)
    np.cumsum(gone, out=gone_before[1:])
    dropped = gone_before[highs] - gone_before[lows]
    edited = np.flatnonzero(dropped)  # the others are unchanged (and lxml re-validates what is set)
    holds = np.ones(len(nodes.texts), dtype=bool)
    if not len(edited):
        return holds
    whole = (dropped == highs - lows)[edited].tolist()
    starts, ends, gone_list = words.start.tolist(), words.end.tolist(), gone.tolist()
    lows, highs = lows.tolist(), highs.tolist()
    owners, is_tail, texts = nodes.owners, nodes.is_tail, nodes.texts
    for k, everything in zip(edited.tolist(), whole, strict=False):
        new = None
        if not everything:
            text, lo, hi = texts[k], lows[k], highs[k]
            kept = [text[s:e] for s, e, g in zip(starts[lo:hi], ends[lo:hi], gone_list[lo:hi], strict=False) if not g]
            joined = (" " if text[:1].isspace() else "") + " ".join(kept) + (" " if text[-1:].isspace() else "")
            new = xml_compatible(joined) or None
        if is_tail[k]:
            owners[k].tail = new
        else:
            owners[k].text = new
        holds[k] = new is not None and not new.isspace()
    return holds


def _prune_empty(nodes: TextNodes, holds: np.ndarray) -> None:
    """Remove the elements left without text (keeping their tails; images and line breaks stay).

    An element is empty when none of the texts inside it holds text; only the outermost
    removable ones are removed, which leaves the same tree as removing each, children first.
    """
    marks = np.array(nodes.marks, dtype=np.int64)
    opens = marks >= 0
    at = np.where(opens, marks, ~marks)
    level = np.cumsum(np.where(opens, 1, -1)) + ~opens  # an element's depth at its start and end
    events = np.argsort(level, kind="stable").reshape(-1, 2)  # per depth: start, end, start, end...
    preorder = np.cumsum(opens) - 1  # the element last opened at each event
    element = preorder[events[:, 0]]
    first = np.empty(len(element), dtype=np.int64)
    last = np.empty(len(element), dtype=np.int64)
    past = np.empty(len(element), dtype=np.int64)  # pre-order index just after the subtree
    first[element], last[element] = at[events[:, 0]], at[events[:, 1]]
    past[element] = preorder[events[:, 1]] + 1
    held = np.zeros(len(holds) + 1, dtype=np.int64)
    np.cumsum(holds, out=held[1:])
    empty = np.flatnonzero(held[last] == held[first])
    empty = empty[empty > 0]  # the root stays
    elements = nodes.elements
    while len(empty):
        outermost = _outermost(empty, past)
        spared = np.zeros(len(elements) + 1, dtype=np.int64)  # inside a kept empty element
        for i in outermost.tolist():
            if elements[i].tag not in _KEEP_EMPTY:
                remove_keeping_tail(elements[i])
            else:  # an image or line break stays; empty elements inside it (if any) still go
                spared[i + 1] += 1
                spared[past[i]] -= 1
        empty = empty[np.cumsum(spared)[empty] > 0]


def _outermost(indices: np.ndarray, past: np.ndarray) -> np.ndarray:
    """The elements of ``indices`` (sorted pre-order indices) inside none of the others."""
    reach = np.maximum.accumulate(past[indices])
    return indices[np.concatenate([[True], indices[1:] >= reach[:-1]])]


def keep_text(root: Element, html: str, removed: RemovedRanges, min_range_share: float = 0.0) -> None:
    """Edit ``root`` (a private, content-only tree of ``html``) in place: drop words under removed
    characters, then elements left without text (images and line breaks of kept text stay).

    With ``min_range_share`` > 0, words of a kept character range holding less text than that
    share of the richest kept range are dropped too.
    """
    nodes = text_nodes(root)
    words = split_words(nodes.texts)
    gone = removed_words(words, locate(html, nodes.texts, words), removed, min_range_share)
    _prune_empty(nodes, _rewrite(nodes, words, gone))
