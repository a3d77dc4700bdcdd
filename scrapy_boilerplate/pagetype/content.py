"""What a page's visible text looks like: how it is spread over its blocks, and how often it shows
prices, times ago ("3 hours ago", as forums and feeds date posts), sentence ends and digits.

Counted by ``str.count`` (C scans of the text): regular expressions over every page's text cost
several times more than the rest of the classification.

It reads the page's text blocks (:meth:`~scrapy_boilerplate.page.Page.text_blocks`, walked once
per page and shared with the models that clean it).
"""

from __future__ import annotations

from collections.abc import Sequence

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.tokenize import tokenize

CURRENCY_SIGNS = "$€£¥₹"  # prices show one of these beside their number
DIGITS = "0123456789"
LABEL_CHARS = 40  # blocks up to this long are labels: buttons, tabs, captions, bylines
LABEL_WORDS = 4  # words read of each label
MAX_LABEL_BLOCKS = 400
LONG_BLOCK = 150  # chars from which a block reads as a paragraph rather than a label or a link
MAX_COUNTED_CHARS = 400_000  # the counts read this much of a page's text
BLOCK_GROUPS: dict[str, tuple[str, ...]] = {
    "p": ("p",),
    "li": ("li", "dd", "dt"),
    "cell": ("td", "th"),
    "pre": ("pre",),
    "heading": ("h1", "h2", "h3", "h4", "h5", "h6"),
}
_GROUP_OF = {tag: name for name, tags in BLOCK_GROUPS.items() for tag in tags}
CONTENT_STATS: tuple[str, ...] = (
    "chars",
    "blocks",
    "mean_block_chars",
    "longest_block_chars",
    "long_blocks",
    "long_block_share",
    "top3_share",
    *(f"share_{name}" for name in BLOCK_GROUPS),
    "currency_signs",
    "times_ago",
    "sentence_ends",
    "digit_share",
    "top_parent_share",
    "top_grandparent_share",
    "parents_over_tenth",
)


def content_stats(blocks: Sequence[Block]) -> list[float]:
    """The page's text statistics, in the order of :data:`CONTENT_STATS`."""
    lengths = [len(block.text) for block in blocks]
    total = sum(lengths)
    per_group = dict.fromkeys(BLOCK_GROUPS, 0)
    for block, length in zip(blocks, lengths, strict=True):
        name = _GROUP_OF.get(block.element.tag) if isinstance(block.element.tag, str) else None
        if name is not None:
            per_group[name] += length
    long_chars = [length for length in lengths if length >= LONG_BLOCK]
    text = "\n".join(block.text for block in blocks)[:MAX_COUNTED_CHARS]
    share = 1.0 / total if total else 0.0
    return [
        float(total),
        float(len(blocks)),
        total / len(blocks) if blocks else 0.0,
        float(max(lengths, default=0)),
        float(len(long_chars)),
        sum(long_chars) * share,
        sum(sorted(lengths)[-3:]) * share,
        *(per_group[name] * share for name in BLOCK_GROUPS),
        float(sum(map(text.count, CURRENCY_SIGNS))),
        float(text.count(" ago")),
        float(text.count(". ") + text.count(".\n")),
        sum(map(text.count, DIGITS)) / len(text) if text else 0.0,
        *_concentration(blocks, lengths, share),
    ]


def _concentration(blocks: Sequence[Block], lengths: list[int], share: float) -> list[float]:
    """How gathered the text is: the share of it under the one parent (and grandparent) of blocks
    holding most, and how many parents hold a tenth of it or more."""
    parents: dict[object, int] = {}
    grandparents: dict[object, int] = {}
    for block, length in zip(blocks, lengths, strict=True):
        parent = block.element.getparent()
        parents[parent] = parents.get(parent, 0) + length
        grandparent = parent.getparent() if parent is not None else None
        grandparents[grandparent] = grandparents.get(grandparent, 0) + length
    tenth = 0.1 / share if share else 0.0
    return [
        max(parents.values(), default=0) * share,
        max(grandparents.values(), default=0) * share,
        float(sum(1 for chars in parents.values() if share and chars >= tenth)),
    ]


def label_words(blocks: Sequence[Block]) -> dict[str, float]:
    """The words of the page's short blocks (``label:reply``, ``label:cart``): the buttons, tabs and
    captions of its template, read from the first :data:`MAX_LABEL_BLOCKS` of them."""
    words: dict[str, float] = {}
    seen = 0
    for block in blocks:
        if len(block.text) <= LABEL_CHARS:
            for word in tokenize(block.text)[:LABEL_WORDS]:
                words["label:" + word] = 1.0
            seen += 1
            if seen >= MAX_LABEL_BLOCKS:
                break
    return words
