"""Repeated siblings: cards of a listing, posts of a thread, rows of a table, entries of a menu.

The markup walk records, under each element of :data:`MIN_GROUP` children or more, the largest
run of children of one tag and class; here the groups are measured: the one holding the most
text, and how many look like cards (a link and a heading or an image in most items).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import lxml.etree

from scrapy_boilerplate.html import normalize_space, raw_text
from scrapy_boilerplate.pagetype.content import PRICE

Element = lxml.etree._Element
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
MIN_GROUP = 4  # siblings of one tag and class that count as a repeated group (cards, posts, rows)
MAX_CANDIDATE_GROUPS = 12  # the largest groups whose item texts are read
CARD_LINKS = 0.6  # a group is of cards when this share of its items has a link ...
CARD_FACES = 0.5  # ... and this share a heading or an image
GROUP_STATS: tuple[str, ...] = (
    "group_size",
    "group_share",
    "group_item_chars",
    "group_links",
    "group_images",
    "group_headings",
    "group_prices",
    "largest_group_size",
    "card_groups",
    "card_items",
)


@dataclass
class Group:
    """One run of repeated siblings: the parent, the children's (tag, class) and how many share it."""

    parent: Element
    key: tuple[str, str]
    size: int

    def items(self) -> list[Element]:
        """The group's members, in document order."""
        tag, cls = self.key
        return [child for child in self.parent if child.tag == tag and (child.get("class") or "") == cls]


def candidate_groups(groups: Sequence[Group]) -> list[Group]:
    """The largest groups (by members), at most :data:`MAX_CANDIDATE_GROUPS`, largest first."""
    return sorted(groups, key=lambda group: -group.size)[:MAX_CANDIDATE_GROUPS]


def group_stats(found: Sequence[Group], page_chars: float) -> list[float]:
    """The repeated group holding the most text (its size, share of the page's text, chars per
    item, and the share of its items with a link, an image, a heading, a price), the size of the
    largest group, and the groups of cards and their items (in the order of :data:`GROUP_STATS`)."""
    candidates = candidate_groups(found)
    if not candidates:
        return [0.0] * len(GROUP_STATS)
    best: tuple[int, list[Element], list[str]] = (-1, [], [])
    card_groups = card_items = 0
    for group in candidates:
        items = group.items()
        texts = [normalize_space(raw_text(item)) for item in items]
        total = sum(len(text) for text in texts)
        if total > best[0]:
            best = (total, items, texts)
        if _share(items, _has_link) >= CARD_LINKS and _share(items, _has_face) >= CARD_FACES:
            card_groups += 1
            card_items += len(items)
    total, items, texts = best
    return [
        float(len(items)),
        total / page_chars if page_chars else 0.0,
        total / len(items) if items else 0.0,
        _share(items, _has_link),
        _share(items, lambda item: next(item.iter("img"), None) is not None),
        _share(items, lambda item: next(item.iter(*HEADING_TAGS), None) is not None),
        sum(bool(PRICE.search(text.lower())) for text in texts) / len(texts) if texts else 0.0,
        float(candidates[0].size),
        float(card_groups),
        float(card_items),
    ]


def _has_link(item: Element) -> bool:
    return next(item.iter("a"), None) is not None


def _has_face(item: Element) -> bool:
    """A card's face: a heading or an image."""
    return next(item.iter("img", *HEADING_TAGS), None) is not None


def _share(items: Sequence[Element], test: Callable[[Element], bool]) -> float:
    """The share of ``items`` for which ``test`` holds."""
    return sum(bool(test(item)) for item in items) / len(items) if items else 0.0
