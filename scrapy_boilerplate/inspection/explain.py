"""What each decision explains on the page, in visible characters, and which reason decided the most.

Every figure here is counted on the marked page (:mod:`~scrapy_boilerplate.inspection.marks`):
a decision explains the segments it was attached to; its size is their visible characters, not
the model's own count.  Decisions sharing one reason (a model that cuts every paragraph after a
heading gives each the same reason) are grouped, so the header can name the reason that decided
the most text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scrapy_boilerplate.html.prose import ProseRule
from scrapy_boilerplate.inspection.coverage import parse_chars
from scrapy_boilerplate.inspection.marks import MarkedPage
from scrapy_boilerplate.inspection.visible import BREAK_TAGS, Open, Piece
from scrapy_boilerplate.models.base import Decision
from scrapy_boilerplate.tokenize import tokenize

# Prose: 12 words or more (fewer is a label, a link or a caption), at most half of them in links.
PROSE = ProseRule(min_size=12, max_link_share=0.5)
_CITED_PAGE_RE = re.compile(r"\bpage (\d+)\b")
_NUMBER_RE = re.compile(r"[-+]?\d+(?:[.,]\d+)*")


@dataclass
class DecisionView:
    """One decision and the visible text it explains on this page."""

    index: int
    decision: Decision
    kept_chars: int = 0
    removed_chars: int = 0
    disagreeing_chars: int = 0  # explained text whose verdict is the opposite of the decision's
    found: bool = True  # False: its path names nothing on this page

    @property
    def chars(self) -> int:
        """Visible characters the decision explains."""
        return self.kept_chars + self.removed_chars

    @property
    def is_range(self) -> bool:
        """True for a ``chars:`` range decision."""
        return parse_chars(self.decision.path) is not None


@dataclass
class Cause:
    """Removed text grouped by what explains it: decisions that remove it (``kind`` "removed") with
    one kind of reason, decisions that keep it although the output lacks it ("kept"), or none
    ("none").  Reasons of one kind differ only in their numbers (``P = 0.022`` and ``P = 0.004``);
    ``reason`` is the first member's."""

    kind: str
    reason: str
    members: list[int] = field(default_factory=list)
    chars: int = 0
    prose_tokens: int = 0


def decision_views(marked: MarkedPage) -> list[DecisionView]:
    """Every decision of the page with the visible characters it explains."""
    unresolved = set(marked.unresolved)
    views = [DecisionView(i, d, found=i not in unresolved) for i, d in enumerate(marked.decisions)]
    for segment in marked.all_segments():
        if segment.decision is None:
            continue
        view = views[segment.decision]
        if segment.kept:
            view.kept_chars += segment.chars
        else:
            view.removed_chars += segment.chars
        if not segment.agrees:
            view.disagreeing_chars += segment.chars
    return views


def prose_pieces(marked: MarkedPage) -> set[int]:
    """Indices of the pieces inside prose: blocks (text between line breaks) that are :data:`PROSE`."""
    prose: set[int] = set()
    block: list[int] = []
    words = linked = links_open = 0

    def close_block() -> None:
        nonlocal words, linked
        if PROSE.holds(words, linked, words):
            prose.update(block)
        block.clear()
        words = linked = 0

    for event in marked.visible.events:
        if isinstance(event, Piece):
            count = len(tokenize(event.text))
            words += count
            linked += count if links_open else 0
            block.append(event.number)
            continue
        tag = event.element.tag
        if tag == "a":
            links_open += 1 if isinstance(event, Open) else -1
        if tag in BREAK_TAGS:
            close_block()
    close_block()
    return prose


def removal_causes(marked: MarkedPage, prose: set[int]) -> list[Cause]:
    """The page's removed text grouped by cause, the most text first (``prose``: see :func:`prose_pieces`)."""
    causes: dict[tuple[str, str], Cause] = {}
    for piece_index, segments in enumerate(marked.segments):
        for segment in segments:
            if segment.kept or not segment.text.strip():
                continue
            if segment.decision is None:
                key, reason = ("none", ""), ""
            else:
                decision = marked.decisions[segment.decision]
                reason = decision.reason
                key = ("kept" if decision.kept else "removed", _NUMBER_RE.sub("#", reason))
            cause = causes.setdefault(key, Cause(key[0], reason))
            if segment.decision is not None and segment.decision not in cause.members:
                cause.members.append(segment.decision)
            cause.chars += segment.chars
            if piece_index in prose:
                cause.prose_tokens += len(tokenize(segment.text))
    return sorted(causes.values(), key=lambda c: (-c.chars, c.members[:1]))


def prose_tokens(marked: MarkedPage, prose: set[int]) -> tuple[int, int]:
    """Tokens of the page's ``prose`` pieces: (all, removed)."""
    total = removed = 0
    for piece_index in prose:
        for segment in marked.segments[piece_index]:
            count = len(tokenize(segment.text))
            total += count
            removed += 0 if segment.kept else count
    return total, removed


def cite_pages(reason: str, sample: Sequence[Path | str] | None) -> str:
    """``reason`` with each ``page N`` of the fit sample followed by that page's file name."""
    if not sample:
        return reason

    def name(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if number >= len(sample):
            return match.group(0)
        return f"{match.group(0)} ({Path(sample[number]).name})"

    return _CITED_PAGE_RE.sub(name, reason)
