"""What a page's visible text looks like: how it is spread over its blocks, and how often it shows
prices, ratings, dates and times ago.

It reads the page's text blocks (:meth:`~scrapy_boilerplate.page.Page.text_blocks`, walked once
per page and shared with the models that clean it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.tokenize import tokenize

# Money (a currency sign or code beside a number), a rating (stars, "4.5/5", "4 out of 5", "123
# reviews"), a year, a time relative to now as forums and feeds show posts ("3 hours ago"): one
# pattern read over the lower-cased text, each match counted under its kind.  Every form starts
# with a digit or a sign, so the scan tests only those characters.
PATTERN_KINDS: tuple[str, ...] = ("prices", "ratings", "years", "times_ago")
PRICE = re.compile(r"[$€£¥₹]\s?\d|\d(?:[.,]\d\d)?\s?(?:[€$£]|usd\b|eur\b|gbp\b|kr\b|zł)")
_PATTERNS = re.compile(
    rf"(?P<prices>{PRICE.pattern})"
    r"|(?P<ratings>[★☆]|\d(?:[.,]\d)?\s?(?:/|out of)\s?5\b|\d\s(?:reviews?|ratings?)\b)"
    r"|(?P<years>(?:19|20)\d\d\b)"
    r"|(?P<times_ago>\d\s?(?:[smhdwy]|mins?|minutes?|hours?|days?|weeks?|months?|years?)\s+ago\b)"
)
LABEL_CHARS = 40  # blocks up to this long are labels: buttons, tabs, captions, bylines
LABEL_WORDS = 4  # words read of each label
MAX_LABEL_BLOCKS = 400
LONG_BLOCK = 150  # chars from which a block reads as a paragraph rather than a label or a link
MAX_PATTERN_CHARS = 400_000  # the patterns read this much of a page's text
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
    *PATTERN_KINDS,
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
    text = "\n".join(block.text for block in blocks)[:MAX_PATTERN_CHARS].lower()
    kinds = dict.fromkeys(PATTERN_KINDS, 0)
    for match in _PATTERNS.finditer(text):
        kinds[match.lastgroup or ""] += 1
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
        *(float(kinds[kind]) for kind in PATTERN_KINDS),
        float(text.count(". ") + text.count(".\n")),
        sum(map(text.count, "0123456789")) / len(text) if text else 0.0,
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
