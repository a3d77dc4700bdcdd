"""What a page alone says about each of its blocks: one pass over the blocks, one numeric row each.

The rows hold the block's size, link share, prose cues (punctuation, function words), its tag and
enclosing tags, the parts of role words found in its and its ancestors' class and id, its position,
its distance to the nearest heading, the ``pvalue`` region the page's text density points at, and
the same cues of the neighbouring blocks.  Registered as the ``block_cues`` feature.
"""

from __future__ import annotations

import itertools
import math
import re
from typing import cast

import lxml.etree
import numpy as np

from scrapy_boilerplate.html import Block, normalize_space, raw_text
from scrapy_boilerplate.models.fusion.ancestry import ANCESTOR_BITS, PART_BITS
from scrapy_boilerplate.models.fusion.inputs import PageInputs
from scrapy_boilerplate.models.fusion.lexicon import (
    ANCESTOR_TAGS,
    BLOCK_TAG_FEATURES,
    COMMENTS_HEADING,
    HEADING_LEVELS,
    PUNCTUATION,
    ROLE_PARTS,
    SENTENCE_ENDS,
    STOP_WORDS,
)
from scrapy_boilerplate.models.fusion.regions import block_region, region_cues
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.tokenize import tokenize

Element = lxml.etree._Element

# The cues of one block that its neighbours see too (the context window).
CONTEXT_CUES: tuple[str, ...] = ("chars_log", "link_share", "stop_share", "heading", "punct_rate")
CONTEXT_OFFSETS: tuple[int, ...] = (-2, -1, 1, 2)
OWN_FEATURES: tuple[str, ...] = (
    "chars_log",
    "words_log",
    "link_share",
    "stop_share",
    "punct_rate",
    "ends_sentence",
    "digit_share",
    "word_length",
    "tags_per_word",
    "leaf",
    "heading",
    *(f"tag_{tag}" for tag in BLOCK_TAG_FEATURES),
    *(f"in_{tag}" for tag in ANCESTOR_TAGS),
    "depth",
    "position",
    "chars_before",
    "chars_after",
    "blocks_since_heading",
    "blocks_to_heading",
    "after_h1",
    "title_share",
    "title_cover",
    "share_of_largest",
    "page_chars_log",
    "page_blocks_log",
    "pv_in_region",
    "pv_ratio",
    "parent_share",
    "parent_link_share",
    "grandparent_share",
    "comments_heading",
    "after_comments",
    *(f"part_{part}" for part in ROLE_PARTS),
)
BLOCK_CUES: tuple[str, ...] = (
    *OWN_FEATURES,
    *(f"ctx{offset:+d}_{cue}" for offset in CONTEXT_OFFSETS for cue in CONTEXT_CUES),
)
_INDEX = {name: i for i, name in enumerate(BLOCK_CUES)}
_CONTEXT_COLUMNS = [_INDEX[cue] for cue in CONTEXT_CUES]
_REGION_COLUMNS = [
    _INDEX[name] for name in ("pv_in_region", "pv_ratio", "parent_share", "parent_link_share", "grandparent_share")
]
_COMMENTS_HEADING = re.compile(COMMENTS_HEADING)
_COMMENTS_HEADING_MAX_WORDS = 8
_REMOVED_BITS = sum(ANCESTOR_BITS[tag] for tag in ("form", "aside", "label"))
_MAX_HEADING_GAP = 50.0  # block distances to a heading are capped here (and "none" reads as this)


def _page_title_words(page: Page) -> set[str]:
    for child in page.tree:
        if child.tag == "head":
            for item in child:
                if item.tag == "title":
                    return set(tokenize(normalize_space(raw_text(item))))
    return set()


def block_cues(inputs: PageInputs) -> np.ndarray:
    """One row of :data:`BLOCK_CUES` per block of ``inputs``.

    The cues are computed a column at a time (lists, then numpy): a per-cell write into a numpy row
    costs more than the cue itself.  Every block gets them: a block's neighbours read its cues.
    """
    blocks, tokens = inputs.blocks, inputs.tokens
    n = len(blocks)
    rows = np.full((n, len(BLOCK_CUES)), np.nan)
    if not n:
        return rows
    ancestry = inputs.ancestry
    column = rows.T  # a view: writing a column writes the rows
    chars = inputs.chars
    words = np.array([len(t) for t in tokens], dtype=np.float64)
    _own_cues(column, blocks, tokens, (chars, inputs.link_chars), _page_title_words(inputs.page))
    bits = np.array(ancestry.tag_bits, dtype=np.int64)
    parts = np.array(ancestry.part_bits, dtype=np.int64)
    for part, bit in PART_BITS.items():
        column[_INDEX[f"part_{part}"]] = (parts & bit) > 0
    for tag, bit in ANCESTOR_BITS.items():
        column[_INDEX[f"in_{tag}"]] = (bits & bit) > 0
    column[_INDEX["link_share"]][(bits & ANCESTOR_BITS["a"]) > 0] = 1.0
    column[_INDEX["depth"]] = ancestry.depth
    _position_cues(column, chars)
    links = column[_INDEX["link_share"]] * chars  # (set by _own_cues, before the ancestors' links)
    removed = (bits & _REMOVED_BITS) > 0  # pvalue's step 1 drops forms, asides and labels
    kept_chars = np.where(removed, 0, chars).tolist()
    elements = np.maximum(column[_INDEX["tags_per_word"]] * (words + 1), 1).round().tolist()
    region = block_region(blocks, kept_chars, np.where(removed, 0, links).tolist(), elements, ancestry.depths)
    rows[:, _REGION_COLUMNS] = region_cues(blocks, region)
    _context(rows)
    return rows


def _position_cues(column: np.ndarray, chars: np.ndarray) -> None:
    """Where each block sits: its rank, the text before and after it, and the nearest headings."""
    n = len(chars)
    total = float(chars.sum()) or 1.0
    after = np.cumsum(chars)
    column[_INDEX["position"]] = np.arange(n) / n
    column[_INDEX["chars_before"]] = (after - chars) / total
    column[_INDEX["chars_after"]] = (total - after) / total
    column[_INDEX["share_of_largest"]] = chars / (chars.max() or 1.0)
    column[_INDEX["page_chars_log"]] = math.log1p(total)
    column[_INDEX["page_blocks_log"]] = math.log1p(n)
    level = column[_INDEX["heading"]]
    heads = np.flatnonzero(level > 0)
    index = np.arange(n)
    previous = np.searchsorted(heads, index, side="left") - 1  # the last heading strictly before
    since = np.where(previous >= 0, index - heads[np.maximum(previous, 0)] if len(heads) else 0, _MAX_HEADING_GAP)
    following = np.searchsorted(heads, index, side="right")  # the first heading strictly after
    to_next = np.where(
        following < len(heads),
        heads[np.minimum(following, len(heads) - 1)] - index if len(heads) else 0,
        _MAX_HEADING_GAP,
    )
    column[_INDEX["blocks_since_heading"]] = np.minimum(since, _MAX_HEADING_GAP)
    column[_INDEX["blocks_to_heading"]] = np.minimum(to_next, _MAX_HEADING_GAP)
    h1 = np.flatnonzero(level == 1)
    column[_INDEX["after_h1"]] = index > h1[0] if len(h1) else 0.0


def _own_cues(
    column: np.ndarray,
    blocks: list[Block],
    tokens: list[list[str]],
    sizes: tuple[np.ndarray, np.ndarray],
    title: set[str],
) -> None:
    """The blocks' own size, link and prose cues, tags and words shared with the page title;
    ``sizes``: each block's visible and link characters."""
    chars, links = sizes
    words = np.array([len(t) for t in tokens], dtype=np.float64)
    per_word = np.divide(1.0, words, out=np.zeros_like(words), where=words > 0)
    texts = [block.text for block in blocks]
    column[_INDEX["chars_log"]] = np.log1p(chars)
    column[_INDEX["words_log"]] = np.log1p(words)
    column[_INDEX["link_share"]] = np.minimum(np.divide(links, chars, out=np.zeros_like(chars), where=chars > 0), 1.0)
    # per-word flags over the page's words at once, then summed per block (one C-level map each)
    every = list(itertools.chain.from_iterable(tokens))
    ends = np.cumsum(words).astype(np.intp)
    starts = ends - words.astype(np.intp)
    for name, flag in (("stop_share", STOP_WORDS.__contains__), ("digit_share", str.isdigit)):
        running = np.concatenate([[0], np.cumsum(np.fromiter(map(flag, every), dtype=bool, count=len(every)))])
        column[_INDEX[name]] = (running[ends] - running[starts]) * per_word
    # one C-level count per mark: a deleting translate walks non-ASCII text in Python's slow path (4x)
    column[_INDEX["punct_rate"]] = np.array([sum(map(text.count, PUNCTUATION)) for text in texts]) * per_word
    column[_INDEX["ends_sentence"]] = [text.rstrip()[-1:] in SENTENCE_ENDS for text in texts]
    column[_INDEX["word_length"]] = chars * per_word
    n_tags = [_count_elements(block.element) if block.leaf else 1 for block in blocks]
    column[_INDEX["tags_per_word"]] = np.array(n_tags) / (words + 1)
    column[_INDEX["leaf"]] = [block.leaf for block in blocks]
    tags = cast("list[str]", [block.element.tag for block in blocks])  # blocks are elements, never comments or PIs
    for name in BLOCK_TAG_FEATURES:
        column[_INDEX[f"tag_{name}"]] = [tag == name for tag in tags]
    column[_INDEX["heading"]] = [HEADING_LEVELS.get(tag, 0) for tag in tags]
    opens = [
        len(t) <= _COMMENTS_HEADING_MAX_WORDS and bool(_COMMENTS_HEADING.match(text.lower()))
        for t, text in zip(tokens, texts, strict=True)
    ]
    column[_INDEX["comments_heading"]] = opens
    column[_INDEX["after_comments"]] = np.cumsum(opens) - opens > 0
    if title:
        common = [len(title.intersection(t)) for t in tokens]
        distinct = [len(set(t)) or 1 for t in tokens]
        column[_INDEX["title_share"]] = np.array(common) / np.array(distinct)
        column[_INDEX["title_cover"]] = np.array(common) / len(title)
    else:
        column[_INDEX["title_share"]] = column[_INDEX["title_cover"]] = 0.0


def _count_elements(element: Element) -> int:
    return len(list(element.iter(lxml.etree.Element)))  # (a list is made in C: cheaper than counting a generator)


def _context(rows: np.ndarray) -> None:
    """Copy each block's context cues into its neighbours' rows (NaN past the page's ends)."""
    n = len(rows)
    cues = rows[:, _CONTEXT_COLUMNS]
    for offset in CONTEXT_OFFSETS:
        columns = [_INDEX[f"ctx{offset:+d}_{cue}"] for cue in CONTEXT_CUES]
        shifted = np.full_like(cues, np.nan)
        if offset < 0 and n > -offset:
            shifted[-offset:] = cues[:offset]
        elif offset > 0 and n > offset:
            shifted[:-offset] = cues[offset:]
        rows[:, columns] = shifted
