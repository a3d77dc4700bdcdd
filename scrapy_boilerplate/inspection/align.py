"""Which of a page's tokens are the model's output: the output's tokens aligned onto the page's.

The report draws its kept/removed marks from this alignment, never from what a model says it
did, so what it shows as kept is, token for token, the output.  Two passes:

1. in order: a patience alignment (tokens unique to both sides anchor it, the stretches
   between anchors are aligned the same way, and what has no anchor falls back to the longest
   common runs) gives the longest sensible matching that keeps both orders;
2. moved text: output runs of ``MIN_MOVED_RUN`` tokens or more left over (text a model output in
   another order than the page's) are placed on unmatched page text holding the same run; then
   placed runs grow over equal unmatched neighbours, and a shorter run left over is placed only
   where the whole page holds it exactly once (a lone "with" out of order could be any "with");
3. copies: where the page holds a run of text twice (a headline and its link, a title and the
   URL slug it is spelled in), a run of ``MIN_MOVED_RUN`` tokens or more placed on a copy the
   model's decisions remove moves to the nearest unmatched copy they keep, so the marks and the
   decisions part ways only where the output itself disagrees with them.

Output tokens placed nowhere (text that is not on the page, or a short run out of order that
could sit in several places) are counted and shown as such, never hidden.
"""

from __future__ import annotations

import bisect
import difflib
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

MIN_MOVED_RUN = 3  # a shorter run out of the page's order is placed only where it is unambiguous
STRAY_GAP = 40  # output tokens between a short match and the nearest long one, at most
MAX_FALLBACK_CELLS = 4_000_000  # above this (page x output tokens) an anchorless stretch is matched greedily


@dataclass(frozen=True)
class Alignment:
    """``page_kept[i]``: page token ``i`` is shown as kept; ``output_placed[j]``: output token ``j``
    is shown on the page; ``moved``: how many of the placed output tokens are out of the page's order."""

    page_kept: list[bool]
    output_placed: list[bool]
    moved: int

    @property
    def unplaced(self) -> int:
        """Output tokens shown nowhere on the page."""
        return self.output_placed.count(False)


def _as_ids(page: Sequence[str], output: Sequence[str]) -> tuple[list[int], list[int]]:
    ids: dict[str, int] = {}
    return [ids.setdefault(t, len(ids)) for t in page], [ids.setdefault(t, len(ids)) for t in output]


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of ``pairs`` (sorted by their first item) whose second items increase."""
    tails: list[int] = []  # tails[k]: smallest second item ending an increasing run of length k + 1
    tail_at: list[int] = []
    previous = [-1] * len(pairs)
    for index, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_at.append(index)
        else:
            tails[k], tail_at[k] = j, index
        previous[index] = tail_at[k - 1] if k else -1
    run, index = [], tail_at[-1] if tail_at else -1
    while index >= 0:
        run.append(pairs[index])
        index = previous[index]
    return run[::-1]


def _anchors(page: list[int], output: list[int], a0: int, a1: int, b0: int, b1: int) -> list[tuple[int, int]]:
    page_counts, output_counts = Counter(page[a0:a1]), Counter(output[b0:b1])
    where = {output[j]: j for j in range(b0, b1) if output_counts[output[j]] == 1}
    pairs = [(i, where[page[i]]) for i in range(a0, a1) if page_counts[page[i]] == 1 and page[i] in where]
    return _increasing(pairs)


def _fallback(page: list[int], output: list[int], a0: int, a1: int, b0: int, b1: int) -> list[tuple[int, int]]:
    """Matches of a stretch with no unique anchor: its longest common runs, when they are runs of
    ``MIN_MOVED_RUN`` tokens or the output stretch is short (a common word matched alone in a long
    stretch is as likely wrong as right: it is left to the passes below), or greedily when huge."""
    if (a1 - a0) * (b1 - b0) <= MAX_FALLBACK_CELLS:
        matcher = difflib.SequenceMatcher(None, page[a0:a1], output[b0:b1], autojunk=False)
        return [
            (a0 + i + k, b0 + j + k)
            for i, j, size in matcher.get_matching_blocks()
            if size >= MIN_MOVED_RUN or b1 - b0 <= STRAY_GAP
            for k in range(size)
        ]
    matches, i = [], a0
    for j in range(b0, b1):  # first occurrence after the previous match
        k = i
        while k < a1 and page[k] != output[j]:
            k += 1
        if k < a1:
            matches.append((k, j))
            i = k + 1
    return matches


def _in_order(page: list[int], output: list[int]) -> list[tuple[int, int]]:
    """Matched (page index, output index) pairs, increasing in both."""
    matches: list[tuple[int, int]] = []
    stack = [(0, len(page), 0, len(output))]
    while stack:
        a0, a1, b0, b1 = stack.pop()
        while a0 < a1 and b0 < b1 and page[a0] == output[b0]:  # common head
            matches.append((a0, b0))
            a0, b0 = a0 + 1, b0 + 1
        while a0 < a1 and b0 < b1 and page[a1 - 1] == output[b1 - 1]:  # common tail
            a1, b1 = a1 - 1, b1 - 1
            matches.append((a1, b1))
        if a0 == a1 or b0 == b1:
            continue
        anchors = _anchors(page, output, a0, a1, b0, b1)
        if not anchors:
            matches += _fallback(page, output, a0, a1, b0, b1)
            continue
        matches += anchors
        bounds = [(a0 - 1, b0 - 1), *anchors, (a1, b1)]
        stack += [(i + 1, k, j + 1, m) for (i, j), (k, m) in zip(bounds, bounds[1:], strict=False)]
    return matches


def _place_moved(page: list[int], output: list[int], kept: list[bool], at: list[int]) -> int:
    """Place left-over output runs of ``MIN_MOVED_RUN`` tokens or more on unmatched page text."""
    n = MIN_MOVED_RUN
    starts: defaultdict[tuple[int, ...], list[int]] = defaultdict(list)
    for i in range(len(page) - n + 1):
        if not any(kept[i : i + n]):
            starts[tuple(page[i : i + n])].append(i)
    moved, j = 0, 0
    while j <= len(output) - n:
        if any(at[k] >= 0 for k in range(j, j + n)):
            j += 1
            continue
        best_at, best_size = -1, 0
        for i in starts.get(tuple(output[j : j + n]), ()):
            size = 0
            while (
                i + size < len(page)
                and j + size < len(output)
                and not kept[i + size]
                and at[j + size] < 0
                and page[i + size] == output[j + size]
            ):
                size += 1
            if size > best_size:
                best_at, best_size = i, size
        if best_size < n:
            j += 1
            continue
        for k in range(best_size):
            kept[best_at + k], at[j + k] = True, best_at + k
        moved += best_size
        j += best_size
    return moved


def _runs(at: list[int]) -> list[tuple[int, int]]:
    """Maximal placed runs ``(start, end)`` of output tokens, contiguous on the page too."""
    runs: list[tuple[int, int]] = []
    for j, i in enumerate(at):
        if i < 0:
            continue
        if runs and runs[-1][1] == j and at[j - 1] == i - 1:
            runs[-1] = (runs[-1][0], j + 1)
        else:
            runs.append((j, j + 1))
    return runs


def _drop_strays(kept: list[bool], at: list[int]) -> None:
    """Undo short in-order matches far from the long ones: a run under ``MIN_MOVED_RUN`` tokens stays
    only when the nearest long run before or after it in the output's order is within
    ``STRAY_GAP`` output tokens of it and on the same side of it on the page.  A common word matched alone far from its
    neighbours ("with" in a menu, for an article sentence the model moved) is as likely wrong as
    right.  With no long run at all, the in-order matches are the best guess and all stay."""
    runs = _runs(at)
    long = [k for k, (start, end) in enumerate(runs) if end - start >= MIN_MOVED_RUN]
    if not long:
        return
    for k, (start, end) in enumerate(runs):
        if end - start >= MIN_MOVED_RUN:
            continue
        position = bisect.bisect_left(long, k)
        before = runs[long[position - 1]] if position > 0 else None
        after = runs[long[position]] if position < len(long) else None
        near_before = before is not None and start - before[1] <= STRAY_GAP and at[start] > at[before[1] - 1]
        near_after = after is not None and after[0] - end <= STRAY_GAP and at[after[0]] > at[end - 1]
        if not (near_before or near_after):
            for j in range(start, end):
                kept[at[j]], at[j] = False, -1


def _extend(page: list[int], output: list[int], kept: list[bool], at: list[int]) -> int:
    """Grow placed runs over equal unmatched neighbours on both sides (runs the passes above cut short).

    ``at[j]`` is the page position of output token ``j`` (-1: unplaced).
    """
    grown = 0
    for side, order in ((1, range(len(output))), (-1, range(len(output) - 1, -1, -1))):
        for j in order:
            k = j - side  # the neighbour whose run token ``j`` would continue
            if at[j] >= 0 or not 0 <= k < len(output) or at[k] < 0:
                continue
            i = at[k] + side
            if 0 <= i < len(page) and not kept[i] and page[i] == output[j]:
                kept[i], at[j] = True, i
                grown += 1
    return grown


def _place_unique(page: list[int], output: list[int], kept: list[bool], at: list[int]) -> int:
    """Place each left-over output run that occurs exactly once on the whole page, there unmatched."""
    runs, j = [], 0
    while j < len(output):
        if at[j] >= 0:
            j += 1
            continue
        end = j
        while end < len(output) and at[end] < 0:
            end += 1
        runs.append((j, end))
        j = end
    where: defaultdict[int, list[int]] = defaultdict(list)  # token -> its page positions
    for i, token in enumerate(page):
        where[token].append(i)
    moved = 0
    for start, end in runs:
        run, size = output[start:end], end - start
        found = [i for i in where.get(run[0], ()) if page[i : i + size] == run]
        if len(found) == 1 and not any(kept[found[0] : found[0] + size]):
            for k in range(size):
                kept[found[0] + k], at[start + k] = True, found[0] + k
            moved += size
    return moved


def _whole_units(units: Sequence[int], kept: list[bool], at: list[int]) -> None:
    """Page tokens of one unit (tokens that share their characters, like ``1`` and ``2`` of ``½``)
    cannot be shown half kept: a unit only partly matched is unmatched whole."""
    partial = {units[i] for i in range(len(units)) if kept[i]} & {units[i] for i in range(len(units)) if not kept[i]}
    if not partial:
        return
    for j, i in enumerate(at):
        if i >= 0 and units[i] in partial:
            kept[i], at[j] = False, -1


def _disagreeing_runs(output: list[int], at: list[int], decided_kept: Sequence[bool]) -> list[tuple[int, int]]:
    """Runs ``(start, end)`` of output tokens placed one after another on page text the decisions remove."""
    runs, j = [], 0
    while j < len(output):
        if at[j] < 0 or decided_kept[at[j]]:
            j += 1
            continue
        end = j + 1
        while end < len(output) and at[end] == at[end - 1] + 1 and not decided_kept[at[end]]:
            end += 1
        runs.append((j, end))
        j = end
    return runs


def _prefer_kept_copies(
    page: list[int], output: list[int], kept: list[bool], at: list[int], decided_kept: Sequence[bool]
) -> None:
    """Move each run of ``MIN_MOVED_RUN`` tokens or more placed on text the decisions remove to the
    nearest unmatched copy of it that they keep (the same tokens: the output is shown all the same)."""
    runs = [(start, end) for start, end in _disagreeing_runs(output, at, decided_kept) if end - start >= MIN_MOVED_RUN]
    if not runs:
        return
    where: defaultdict[int, list[int]] = defaultdict(list)  # token -> its page positions the decisions keep
    for i, token in enumerate(page):
        if decided_kept[i]:
            where[token].append(i)
    for start, end in runs:
        run, size, old = output[start:end], end - start, at[start]
        copies = [
            i
            for i in where.get(run[0], ())
            if page[i : i + size] == run and all(decided_kept[i : i + size]) and not any(kept[i : i + size])
        ]
        if not copies:
            continue
        new = min(copies, key=lambda i: abs(i - old))
        for k in range(size):
            kept[old + k], kept[new + k], at[start + k] = False, True, new + k


def align(
    page_tokens: Sequence[str],
    output_tokens: Sequence[str],
    units: Sequence[int] | None = None,
    decided_kept: Sequence[bool] | None = None,
) -> Alignment:
    """Align ``output_tokens`` onto ``page_tokens`` (see the module docstring); ``units`` gives each
    page token a unit number, the same for tokens that must share a verdict; ``decided_kept``
    says, per page token, whether the model's decisions keep it (to choose between copies)."""
    page, output = _as_ids(page_tokens, output_tokens)
    kept, at = [False] * len(page), [-1] * len(output)
    for i, j in _in_order(page, output):
        kept[i], at[j] = True, i
    _drop_strays(kept, at)
    if units is not None:
        _whole_units(units, kept, at)
    moved = 0
    for step in (_place_moved, _extend, _place_unique):
        if min(at, default=0) < 0:
            moved += step(page, output, kept, at)
    if decided_kept is not None:
        _prefer_kept_copies(page, output, kept, at, decided_kept)
    if units is not None:
        _whole_units(units, kept, at)
    return Alignment(kept, [i >= 0 for i in at], moved)
