"""Repairs shared by the ``improved`` variants of ``block_dup`` and ``entropy``.

On the development data both papers keep too much: blocks that occur on one page only, or whose
terms are rare, include related-story lists, bylines and comments.  Two repairs fix most of it:

- a kept block whose text is mostly link text is navigation (related links, tag lists): removed;
- the article is one contiguous run of blocks: only the kept blocks of the best run survive, the
  run maximising kept characters minus ``GAP_PENALTY`` times removed characters (Kadane's scan).
"""

from __future__ import annotations

from dataclasses import replace

from scrapy_boilerplate.html import Block, normalize_space
from scrapy_boilerplate.models.blocks.common import BlockVerdict

LINK_DENSITY_LIMIT = 0.5  # a kept block with at least this share of link text is a link list
GAP_PENALTY = 4.0  # a removed character between two kept runs costs this many kept characters


def link_density(block: Block) -> float:
    """Share of a leaf block's text that sits inside links (0 for mixed blocks)."""
    if not block.leaf or not block.text:
        return 0.0
    link_chars = sum(len(normalize_space("".join(a.itertext()))) for a in block.element.iter("a"))
    return min(link_chars / len(block.text), 1.0)


def drop_link_lists(blocks: list[Block], verdicts: list[BlockVerdict]) -> list[BlockVerdict]:
    """Remove kept blocks whose text is mostly links."""
    out = []
    for block, verdict in zip(blocks, verdicts, strict=False):
        density = link_density(block) if verdict.kept else 0.0
        if density >= LINK_DENSITY_LIMIT:
            verdict = BlockVerdict(
                False, f"{verdict.reason}; but links {density:.2f} >= {LINK_DENSITY_LIMIT:g} of its text"
            )
        out.append(verdict)
    return out


def best_run(lengths: list[int], kept: list[bool], penalty: float = GAP_PENALTY) -> tuple[int, int]:
    """``[start, end)`` of the run of blocks maximising kept minus ``penalty`` times removed characters."""
    best, best_span = 0.0, (0, 0)
    current, start = 0.0, 0
    for i, (length, keep) in enumerate(zip(lengths, kept, strict=False)):
        value = length if keep else -penalty * length
        if current <= 0:
            current, start = value, i
        else:
            current += value
        if current > best:
            best, best_span = current, (start, i + 1)
    return best_span


def keep_main_run(blocks: list[Block], verdicts: list[BlockVerdict]) -> list[BlockVerdict]:
    """Remove kept blocks outside the best contiguous run of kept blocks."""
    start, end = best_run([len(b.text) for b in blocks], [v.kept for v in verdicts])
    return [
        v
        if not v.kept or start <= i < end
        else replace(v, kept=False, reason=f"{v.reason}; but outside the main run of kept blocks")
        for i, v in enumerate(verdicts)
    ]


def repair(blocks: list[Block], verdicts: list[BlockVerdict]) -> list[BlockVerdict]:
    """The improved verdicts for a page's blocks."""
    return keep_main_run(blocks, drop_link_lists(blocks, verdicts))
