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
from scrapy_boilerplate.pagetype.content import CURRENCY_SIGNS

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
    "group_currency_signs",
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


def repeated_group(parent: Element) -> Group | None:
    """The largest run of ``parent``'s children of one tag and class, if repeated enough."""
    sizes: dict[tuple[str, str], int] = {}
    for child in parent:
        tag = child.tag
        if isinstance(tag, str):
            key = (tag, child.get("class") or "")
            sizes[key] = sizes.get(key, 0) + 1
    key, size = max(sizes.items(), key=lambda item: item[1], default=(("", ""), 0))
    return Group(parent, key, size) if size >= MIN_GROUP else None


def candidate_groups(groups: Sequence[Group]) -> list[Group]:
    """The largest groups (by members), at most :data:`MAX_CANDIDATE_GROUPS`, largest first."""
    return sorted(groups, key=lambda group: -group.size)[:MAX_CANDIDATE_GROUPS]


def group_stats(found: Sequence[Group], page_chars: float) -> list[float]:
    """The repeated group holding the most text (its size, share of the page's text, chars per
    item, the share of its items with a link, an image, a heading, and its currency signs per
    item), the size of the largest group, and the groups of cards and their items (in the order
    of :data:`GROUP_STATS`).  A group's text is its parent's: one read per group."""
    candidates = candidate_groups(found)
    if not candidates:
        return [0.0] * len(GROUP_STATS)
    texts = [normalize_space(raw_text(candidate.parent)) for candidate in candidates]
    best = max(range(len(candidates)), key=lambda i: len(texts[i]))  # the first on a tie
    total, text, items = len(texts[best]), texts[best], candidates[best].items()
    cards = [candidate for candidate in candidates if _is_cards(candidate.items())]
    return [
        float(len(items)),
        total / page_chars if page_chars else 0.0,
        total / len(items) if items else 0.0,
        _share(items, _has_link),
        _share(items, lambda item: next(item.iter("img"), None) is not None),
        _share(items, lambda item: next(item.iter(*HEADING_TAGS), None) is not None),
        sum(map(text.count, CURRENCY_SIGNS)) / len(items) if items else 0.0,
        float(candidates[0].size),
        float(len(cards)),
        float(sum(card.size for card in cards)),
    ]


def _is_cards(items: Sequence[Element]) -> bool:
    """Most items have a link, and a heading or an image."""
    return _share(items, _has_link) >= CARD_LINKS and _share(items, _has_face) >= CARD_FACES


def _has_link(item: Element) -> bool:
    return next(item.iter("a"), None) is not None


def _has_face(item: Element) -> bool:
    """A card's face: a heading or an image."""
    return next(item.iter("img", *HEADING_TAGS), None) is not None


def _share(items: Sequence[Element], test: Callable[[Element], bool]) -> float:
    """The share of ``items`` for which ``test`` holds."""
    return sum(bool(test(item)) for item in items) / len(items) if items else 0.0
