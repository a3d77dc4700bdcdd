"""Everything the page-type classifier reads of a page, before any vocabulary is applied.

A page gives numeric statistics (its address's shape, its text's spread and patterns, its
markup's counts and repeated groups) in the fixed order of :data:`SIGNAL_STATS`, and words that
may or may not matter, each marked with where it was read (:data:`WORD_KINDS`): which words count,
and how much, is learned from labelled pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from scrapy_boilerplate.page import Page
from scrapy_boilerplate.pagetype.address import ADDRESS_STATS, address_stats, address_words, page_address
from scrapy_boilerplate.pagetype.content import CONTENT_STATS, content_stats, label_words
from scrapy_boilerplate.pagetype.groups import GROUP_STATS, HEADING_TAGS, group_stats
from scrapy_boilerplate.pagetype.markup import COUNTED_TAGS, read_markup
from scrapy_boilerplate.pagetype.scripts import json_ld_types, script_chars
from scrapy_boilerplate.tokenize import tokenize

MARKUP_STATS: tuple[str, ...] = (
    "elements",
    *(f"tag_{tag}" for tag in COUNTED_TAGS),
    "linked_headings",
    "password_inputs",
    "search_inputs",
    "text_inputs",
    "chars_per_element",
    "text_share_of_html",
    "script_share_of_html",
    "title_chars",
    "json_ld_types",
    "groups",
    "linked_heading_share",
    "headings_per_kchar",
    "links_per_kchar",
    "buttons_per_kchar",
    "paragraphs_per_heading",
)
SIGNAL_STATS: tuple[str, ...] = (*ADDRESS_STATS, *CONTENT_STATS, *MARKUP_STATS, *GROUP_STATS)
# Each word's prefix says where it was read; words of one kind are weighed together.
WORD_KINDS: dict[str, str] = {
    "host": "address",  # the host's labels
    "path": "address",  # the path's words
    "first": "address",  # the first path segment's words
    "query": "address",  # the query's keys
    "ext": "address",  # the file extension
    "link": "links",  # the first path segment of each link on the page (the sections it leads to)
    "ld": "structured",  # JSON-LD @type values
    "item": "structured",  # microdata itemtype values
    "og": "structured",  # Open Graph og:type
    "meta": "meta",  # the names of the <meta> tags
    "generator": "meta",  # the words of <meta name=generator>
    "role": "roles",  # the words of class and id values
    "title": "title",  # the words of <title>
    "heading": "headings",  # the first words of each h1-h3 heading
    "button": "headings",  # the words of each button
    "label": "labels",  # the words of the short blocks: tabs, captions, bylines, menu entries
}
KINDS: tuple[str, ...] = tuple(dict.fromkeys(WORD_KINDS.values()))


def word_kind(word: str) -> str:
    """The kind of a candidate word, by its prefix ("" for none known)."""
    return WORD_KINDS.get(word.partition(":")[0], "")


MAX_TITLE_WORDS = 40


@dataclass(frozen=True)
class PageSignals:
    """A page's statistics (in :data:`SIGNAL_STATS` order) and its candidate words with their values."""

    stats: tuple[float, ...]
    words: Mapping[str, float]


def read_signals(page: Page) -> PageSignals:
    """Read every signal of ``page`` (its tree and text blocks are the page's own, shared)."""
    address = page_address(page)
    blocks = page.text_blocks()
    markup = read_markup(page.tree, page.body)
    types = json_ld_types(page.html)
    text_stats = content_stats(blocks)
    chars = text_stats[0]
    words: dict[str, float] = dict(markup.words)
    words.update(label_words(blocks))
    words.update(dict.fromkeys(address_words(address), 1.0))
    words.update(dict.fromkeys((f"ld:{name.lower()}" for name in types), 1.0))
    words.update(dict.fromkeys((f"title:{word}" for word in tokenize(markup.title)[:MAX_TITLE_WORDS]), 1.0))
    html_chars = max(len(page.html), 1)
    markup_stats = [
        float(markup.elements),
        *(float(markup.tags.get(tag, 0)) for tag in COUNTED_TAGS),
        float(markup.linked_headings),
        float(markup.password_inputs),
        float(markup.search_inputs),
        float(markup.text_inputs),
        chars / markup.elements if markup.elements else 0.0,
        chars / html_chars,
        script_chars(page.html) / html_chars,
        float(len(markup.title)),
        float(len(types)),
        float(len(markup.groups)),
        *_rates(markup.tags, markup.linked_headings, chars),
    ]
    stats = (*address_stats(address), *text_stats, *markup_stats, *group_stats(markup.groups, chars))
    return PageSignals(stats, words)


def _rates(tags: Mapping[str, int], linked_headings: int, chars: float) -> list[float]:
    """The share of headings that are links; headings, links and buttons per thousand characters
    of text; paragraphs per heading."""
    headings = sum(tags.get(tag, 0) for tag in HEADING_TAGS)
    per_kchar = 1000.0 / chars if chars else 0.0
    return [
        linked_headings / headings if headings else 0.0,
        headings * per_kchar,
        tags.get("a", 0) * per_kchar,
        tags.get("button", 0) * per_kchar,
        tags.get("p", 0) / headings if headings else float(tags.get("p", 0)),
    ]
