"""Where the page's prose lies: the run of blocks and the containers that hold most of it.

An article is a cluster of prose blocks (long, few links, sentences) under one container, opened
by a headline that repeats the page title; a template's teasers, menus and comments are scattered
around it.  These cues place every block against that cluster: whether it lies in the block run
with the most prose net of non-prose words (the body-text-extraction idea: maximise text inside,
boilerplate outside), how far from it, what share of the page's prose its parent, grandparent and
great-grandparent hold, how dense the prose around it is, and where it sits against the headline.
"""

from __future__ import annotations

from collections.abc import Sequence

import lxml.etree
import numpy as np

from scrapy_boilerplate.html import Block

PROSE_FEATURES: tuple[str, ...] = (
    "prose",
    "core_inside",
    "core_before",
    "core_after",
    "core_share",
    "prose_parent",
    "prose_grand",
    "prose_great",
    "prose_window",
    "from_headline",
)
MIN_PROSE_WORDS = 10  # a block of fewer words is a label, a caption or a link, not prose
MAX_PROSE_LINK_SHARE = 0.5
MIN_STOP_SHARE = 0.15  # or a punctuation mark every 20 words: prose in languages off the stop list
MIN_PUNCT_RATE = 0.05
WINDOW = 3  # blocks on each side of the prose-density window
MAX_GAP = 50.0  # block distances are capped here
MIN_HEADLINE_COVER = 0.5  # the headline holds at least half of the title's words
MAX_HEADLINE_WORDS = 30


def prose_words(words: np.ndarray, link_share: np.ndarray, stop_share: np.ndarray, punct: np.ndarray) -> np.ndarray:
    """Per block, its non-link words when it reads like prose, else 0."""
    prose = (
        (words >= MIN_PROSE_WORDS)
        & (link_share <= MAX_PROSE_LINK_SHARE)
        & ((stop_share >= MIN_STOP_SHARE) | (punct >= MIN_PUNCT_RATE))
    )
    return np.where(prose, words * (1.0 - link_share), 0.0)


def prose_core(prose: np.ndarray, words: np.ndarray) -> tuple[int, int]:
    """The block run [start, end) with the most prose words minus other words (max-sum run;
    empty when no run gains)."""
    running = np.concatenate([[0.0], np.cumsum(2.0 * prose - words)])  # prose words +1, others -1
    lowest = np.minimum.accumulate(running)
    end = int(np.argmax(running - lowest))
    if running[end] - lowest[end] <= 0.0:
        return 0, 0
    return int(np.argmin(running[: end + 1])), end


def _ancestor_shares(blocks: Sequence[Block], prose: np.ndarray, total: float) -> np.ndarray:
    """Share of the page's prose words under each block's parent, grandparent, great-grandparent."""
    chains: list[list[lxml.etree._Element]] = []
    under: dict[lxml.etree._Element, float] = {}
    for block, words in zip(blocks, prose.tolist(), strict=True):
        chain: list[lxml.etree._Element] = []
        node = block.element.getparent()
        while node is not None and len(chain) < 3:
            chain.append(node)
            under[node] = under.get(node, 0.0) + words
            node = node.getparent()
        chains.append(chain)
    out = np.full((len(blocks), 3), np.nan)
    for i, chain in enumerate(chains):
        for level, node in enumerate(chain):
            out[i, level] = under[node] / total
    return out


def _headline(heading: np.ndarray, title_cover: np.ndarray, words: np.ndarray) -> int | None:
    """The block that best repeats the page title: a heading first, else any short block."""
    candidate = (title_cover >= MIN_HEADLINE_COVER) & (words <= MAX_HEADLINE_WORDS)
    for pool in (candidate & (heading > 0), candidate):
        if pool.any():
            return int(np.argmax(np.where(pool, title_cover, -1.0)))
    return None


def prose_cues(
    blocks: Sequence[Block],
    words: np.ndarray,
    link_share: np.ndarray,
    stop_share: np.ndarray,
    punct: np.ndarray,
    heading: np.ndarray,
    title_cover: np.ndarray,
) -> np.ndarray:
    """One row of :data:`PROSE_FEATURES` per block."""
    n = len(blocks)
    out = np.zeros((n, len(PROSE_FEATURES)))
    prose = prose_words(words, link_share, stop_share, punct)
    total = float(prose.sum())
    index = np.arange(n)
    out[:, 0] = prose > 0
    start, end = prose_core(prose, words)
    out[:, 1] = (index >= start) & (index < end)
    out[:, 2] = np.minimum(np.maximum(start - index, 0), MAX_GAP)
    out[:, 3] = np.minimum(np.maximum(index - end + 1, 0), MAX_GAP)
    out[:, 4] = prose[start:end].sum() / total if total else 0.0
    if total:
        out[:, 5:8] = _ancestor_shares(blocks, prose, total)
        running = np.concatenate([[0.0], np.cumsum(prose)])
        every = np.concatenate([[0.0], np.cumsum(words)])
        low, high = np.maximum(index - WINDOW, 0), np.minimum(index + WINDOW + 1, n)
        spread = every[high] - every[low]
        out[:, 8] = np.divide(running[high] - running[low], spread, out=np.zeros(n), where=spread > 0)
    else:
        out[:, 5:9] = 0.0
    headline = _headline(heading, title_cover, words)
    out[:, 9] = np.clip(index - headline, -MAX_GAP, MAX_GAP) if headline is not None else np.nan
    return out
