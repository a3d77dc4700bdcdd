"""What the page's repeated structure says about a block, and what kind of page the whole looks like.

``sibling_groups`` (one row per block): the nearest and the largest repeated sibling group the
block sits in (:mod:`.sibling_groups`): the group's share of the page's text, its members, words
per member, link share and blocks per member; and whether the block is code.  A Q&A page's answers,
a forum's posts and a listing's entries are groups of many words per member and few links, a menu
or a facet list a group of links.

``page_shape`` (one row per page): the cues that tell pages of one kind from another: how much of
the text its largest group and its content-like groups hold, how much is code, links, list items
and form controls, its headings, its ``<time>`` elements and its largest block's share.  With them
the trees learn decisions that differ by kind of page (an article's comments against a forum's
posts) without a page-type label.
"""

from __future__ import annotations

import math
import re

import numpy as np

from scrapy_boilerplate.models.fusion.ancestry import ANCESTOR_BITS
from scrapy_boilerplate.models.fusion.inputs import PageInputs
from scrapy_boilerplate.models.fusion.lexicon import HEADING_LEVELS
from scrapy_boilerplate.models.fusion.sibling_groups import Group

GROUP_CUES: tuple[str, ...] = (
    "grp_share",
    "grp_members_log",
    "grp_words_member",
    "grp_link_share",
    "grp_blocks_member",
    "near_members_log",
    "near_link_share",
    "near_words_member",
    "near_share",
    "in_code",
    "code_rate",
)
PAGE_SHAPE: tuple[str, ...] = (
    "top_grp_share",
    "page_grp_share",
    "n_content_groups",
    "page_code_share",
    "page_link_share",
    "page_li_share",
    "page_form_words",
    "page_headings_log",
    "page_h2_share",
    "page_time_count_log",
    "page_max_block_share",
)
CONTENT_WORDS_PER_MEMBER = 15  # a group of entries (posts, answers, items) rather than of links
CONTENT_MAX_LINK_SHARE = 0.5
_CODE_MARKS = re.compile(r"[{}();=<>\[\]_$#/\\|&*+]")
_FORM_BITS = sum(ANCESTOR_BITS[tag] for tag in ("form", "select", "label", "button"))
_FORM_TAGS = frozenset(("form", "select", "label", "button"))


def _group_row(group: Group, total: float) -> list[float]:
    """share, members (log), words per member (log), link share, blocks per member of one group."""
    members = max(len(group.members), 1)
    return [
        group.chars / total,
        math.log1p(members),
        math.log1p(group.words_per_member),
        group.link_share,
        group.blocks / members,
    ]


def group_cues(inputs: PageInputs) -> np.ndarray:
    """One row of :data:`GROUP_CUES` per block (zeros outside every group)."""
    n = len(inputs.blocks)
    rows = np.zeros((n, len(GROUP_CUES)))
    if not n:
        return rows
    groups = inputs.groups
    total = float(inputs.chars.sum()) or 1.0
    for i, (nearest, largest) in enumerate(zip(groups.nearest, groups.largest, strict=True)):
        if nearest is None or largest is None:
            continue
        rows[i, 0:5] = _group_row(largest, total)
        near = _group_row(nearest, total)
        rows[i, 5:9] = (near[1], near[3], near[2], near[0])
    rows[:, 9] = groups.in_code
    rows[:, 10] = [len(_CODE_MARKS.findall(block.text)) / max(len(block.text), 1) for block in inputs.blocks]
    return rows


def page_shape(inputs: PageInputs) -> np.ndarray:
    """The page's :data:`PAGE_SHAPE` cues (one value each)."""
    out = np.zeros(len(PAGE_SHAPE))
    if not inputs.blocks:
        return out
    chars, groups = inputs.chars, inputs.groups
    total = float(chars.sum()) or 1.0
    content = [
        group
        for group in groups.groups
        if group.words_per_member >= CONTENT_WORDS_PER_MEMBER and group.link_share < CONTENT_MAX_LINK_SHARE
    ]
    tags = [str(block.element.tag) for block in inputs.blocks]
    out[0] = max((group.chars for group in groups.groups), default=0.0) / total
    out[1] = sum(group.chars for group in content) / total
    out[2] = len(content)
    out[3] = float(chars[groups.in_code].sum()) / total
    out[4] = float(inputs.linked_chars.sum()) / total
    out[5] = sum(c for c, tag in zip(chars.tolist(), tags, strict=True) if tag == "li") / total
    out[6:10] = _form_and_headings(inputs, tags)
    out[10] = float(chars.max()) / total
    return out


def _form_and_headings(inputs: PageInputs, tags: list[str]) -> list[float]:
    """Words in form controls (log), headings (log), share of them at level 2-3, ``<time>`` elements (log)."""
    bits = np.array(inputs.ancestry.tag_bits, dtype=np.int64)
    in_form = ((bits & _FORM_BITS) > 0) | np.array([tag in _FORM_TAGS for tag in tags])
    form_words = sum(len(t) for t, flag in zip(inputs.tokens, in_form.tolist(), strict=True) if flag)
    levels = [HEADING_LEVELS[tag] for tag in tags if tag in HEADING_LEVELS]
    sections = sum(1 for level in levels if level in (2, 3))
    times = sum(1 for _ in inputs.page.tree.iter("time"))
    return [math.log1p(form_words), math.log1p(len(levels)), sections / max(len(levels), 1), math.log1p(times)]
