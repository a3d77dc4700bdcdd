"""The report's one source of truth: each piece of visible text marked kept or removed by the output.

The output's tokens are aligned onto the page's visible tokens
(:mod:`~scrapy_boilerplate.inspection.align`), so the text marked kept is, token for token, the
model's output text, and the rest is removed.  Pieces are split only between tokens (a cut sits
at the first whitespace between two tokens, else just before the second), so no word is cut.
Then each segment gets the decision that explains it: the most specific candidate
(:mod:`~scrapy_boilerplate.inspection.coverage`) whose verdict agrees with the output, or, when
none agrees, the most specific one, flagged as disagreeing.  Sizes are visible characters
(whitespace runs counted as one).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from scrapy_boilerplate.html import normalize_space
from scrapy_boilerplate.inspection.align import Alignment, align
from scrapy_boilerplate.inspection.coverage import DecisionIndex
from scrapy_boilerplate.inspection.visible import Element, Piece, VisibleText
from scrapy_boilerplate.models.base import CleanedPage, Decision
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.tokenize import token_spans


@dataclass(frozen=True)
class Segment:
    """A run of one piece's text with one verdict and one explaining decision (``None``: no decision
    speaks for it).  ``agrees`` is false when that decision's verdict is the opposite of the output's."""

    text: str
    kept: bool
    decision: int | None
    agrees: bool

    @property
    def chars(self) -> int:
        """Visible characters (whitespace runs count as one, ends not at all)."""
        return len(normalize_space(self.text))


@dataclass(frozen=True)
class MarkedPage:
    """A page's visible text marked by its output, with the output's own token spans."""

    page: Page
    cleaned: CleanedPage
    visible: VisibleText
    segments: list[list[Segment]]  # per piece, in order
    output_tokens: list[tuple[int, int, bool]]  # (start, end, placed on the page) in ``cleaned.text``
    alignment: Alignment
    named: dict[Element, list[int]]  # elements that XPath decisions name, with their decisions
    unresolved: list[int]  # XPath decisions naming no element of the page

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """The model's decisions."""
        return self.cleaned.decisions

    def all_segments(self) -> list[Segment]:
        """Every segment in document order."""
        return [segment for piece in self.segments for segment in piece]

    def chars(self, kept: bool | None = None) -> int:
        """Visible characters of the page (only those marked ``kept`` when given)."""
        return sum(s.chars for s in self.all_segments() if kept is None or s.kept == kept)


def _choose(candidates: list[int], kept: bool, decisions: tuple[Decision, ...]) -> tuple[int | None, bool]:
    for index in candidates:
        if decisions[index].kept == kept:
            return index, True
    return (candidates[0], False) if candidates else (None, True)


def _cut(text: str, gap_start: int, gap_end: int) -> int:
    """Where to split ``text`` between two tokens: the first whitespace in the gap, else the gap's end."""
    for k in range(gap_start, gap_end):
        if text[k].isspace():
            return k
    return gap_end


def _piece_segments(
    piece: Piece,
    tokens: list[tuple[int, int, bool]],
    candidates: list[list[int]],
    index: DecisionIndex,
    decisions: tuple[Decision, ...],
) -> list[Segment]:
    """Split ``piece`` by the (start, end, kept) ``tokens`` overlapping it (stream offsets);
    ``candidates`` are the decisions speaking for each token where it starts."""
    text = piece.text
    if not tokens:
        return []
    marks: list[tuple[int, int, bool, int | None, bool]] = []  # (start, end, kept, decision, agrees) in the piece
    for (start, end, kept), speaking in zip(tokens, candidates, strict=True):
        if start < piece.start:  # a token begun in an earlier piece: what speaks for this piece's part
            speaking = index.candidates(piece.number, 0)
        decision, agrees = _choose(speaking, kept, decisions)
        marks.append((max(start - piece.start, 0), min(end - piece.start, len(text)), kept, decision, agrees))
    segments, begin = [], 0
    for current, following in zip(marks, marks[1:], strict=False):
        if current[2:] != following[2:]:
            cut = _cut(text, current[1], following[0])
            segments.append(Segment(text[begin:cut], current[2], current[3], current[4]))
            begin = cut
    last = marks[-1]
    segments.append(Segment(text[begin:], last[2], last[3], last[4]))
    return segments


def _bare_segment(piece: Piece, kept: bool, index: DecisionIndex, decisions: tuple[Decision, ...]) -> list[Segment]:
    """A piece without tokens (punctuation, symbols): it takes the verdict of the token before it."""
    if not piece.text.strip():
        return [Segment(piece.text, kept, None, True)]
    decision, agrees = _choose(index.candidates(piece.number, 0), kept, decisions)
    return [Segment(piece.text, kept, decision, agrees)]


def _units(spans: list[tuple[int, int, str]]) -> list[int]:
    """A unit number per token: tokens whose characters overlap (``½`` gives ``1`` and ``2``) share one."""
    units: list[int] = []
    end = -1
    for start, stop, _ in spans:
        units.append(units[-1] if units and start < end else len(units))
        end = max(end, stop)
    return units


def _token_candidates(visible: VisibleText, spans: list[tuple[int, int, str]], index: DecisionIndex) -> list[list[int]]:
    """Per page token: the decisions that speak for it, most specific first (its piece is the one
    it starts in)."""
    starts = [piece.start for piece in visible.pieces]
    found = []
    for start, _, _ in spans:
        piece = visible.pieces[max(bisect.bisect_right(starts, start) - 1, 0)]
        found.append(index.candidates(piece.number, max(start - piece.start, 0)))
    return found


def mark_page(page: Page, cleaned: CleanedPage) -> MarkedPage:
    """Mark ``page``'s visible text by ``cleaned``'s output and attach the model's decisions."""
    visible = VisibleText.of(page)
    page_spans = token_spans(visible.stream)
    output_spans = token_spans(cleaned.text)
    decisions = cleaned.decisions
    index = DecisionIndex(page, decisions, visible)
    candidates = _token_candidates(visible, page_spans, index)
    decided_kept = [bool(speaking) and decisions[speaking[0]].kept for speaking in candidates]
    units = _units(page_spans)
    alignment = align([t for _, _, t in page_spans], [t for _, _, t in output_spans], units, decided_kept)
    tokens = [(s, e, kept) for (s, e, _), kept in zip(page_spans, alignment.page_kept, strict=True)]
    ends = [e for _, e, _ in tokens]
    segments = []
    for piece in visible.pieces:
        first = bisect.bisect_right(ends, piece.start)
        last = first
        while last < len(tokens) and tokens[last][0] < piece.end:
            last += 1
        if first < last:
            segments.append(_piece_segments(piece, tokens[first:last], candidates[first:last], index, decisions))
        else:
            previous = tokens[first - 1][2] if first else (tokens[0][2] if tokens else False)
            segments.append(_bare_segment(piece, previous, index, decisions))
    output_tokens = [(s, e, p) for (s, e, _), p in zip(output_spans, alignment.output_placed, strict=True)]
    return MarkedPage(page, cleaned, visible, segments, output_tokens, alignment, index.named, index.unresolved)
