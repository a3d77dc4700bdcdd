"""What a page's markup holds: counts of telling tags, forms, headings, the words of its role
attributes, its microdata and Open Graph types, and its largest group of repeated siblings.

One walk over the elements of ``<body>`` (lxml's C-level iteration) gathers it all; the item
texts of the few candidate groups are then read by lxml's text serialiser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import lxml.etree

from scrapy_boilerplate.html import normalize_space, raw_text
from scrapy_boilerplate.html.roles import value_words
from scrapy_boilerplate.html.structured import type_name
from scrapy_boilerplate.pagetype.address import link_section
from scrapy_boilerplate.pagetype.groups import HEADING_TAGS, MIN_GROUP, Group
from scrapy_boilerplate.tokenize import tokenize

Element = lxml.etree._Element

COUNTED_TAGS: tuple[str, ...] = (
    "a",
    "p",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "img",
    "form",
    "input",
    "button",
    "select",
    "textarea",
    "table",
    "tr",
    "pre",
    "code",
    "article",
    "section",
    "aside",
    "nav",
    "time",
    "figure",
    "iframe",
    "video",
    "dl",
    "blockquote",
    "svg",
    "label",
    "option",
    "span",
    "div",
    "ul",
)
MAX_ELEMENTS = 200_000  # a page of more elements is read this far
ROLE_VALUES: tuple[str, ...] = ("class", "id")  # attributes whose words name an element's role
_NOTED_TAGS = HEADING_TAGS | {"a", "input", "button", "article", "main"}
LABELLED_HEADINGS = frozenset({"h1", "h2", "h3"})  # headings whose words are candidate signals
MAX_LABEL_WORDS = 6  # words read of each heading or button
MAX_LABEL_CHARS = 200  # characters read of each heading or button
MAX_WORDS = 20_000  # candidate words kept per page
MAX_HREF_CHARS = 500  # longer link targets are not read
_ITEMTYPES = lxml.etree.XPath(".//@itemtype", smart_strings=False)


@dataclass
class Markup:
    """What the walk over ``<body>`` found."""

    elements: int = 0
    tags: dict[str, int] = field(default_factory=dict)
    link_chars: int = 0
    linked_headings: int = 0
    password_inputs: int = 0
    search_inputs: int = 0
    text_inputs: int = 0
    container_chars: int = 0  # visible chars of the largest <article> or <main>
    words: dict[str, float] = field(default_factory=dict)  # role:, item: and og: words -> count
    groups: list[Group] = field(default_factory=list)  # the repeated groups, in document order
    title: str = ""


def read_markup(tree: Element, body: Element) -> Markup:
    """Walk ``body`` once (the head for its title and Open Graph type)."""
    found = Markup()
    _read_head(tree, found)
    tags, groups = found.tags, found.groups
    values: dict[str, int] = {}  # class and id values -> elements carrying them
    for element in body.iter(lxml.etree.Element):
        found.elements += 1
        if found.elements > MAX_ELEMENTS:
            break
        tag = cast(str, element.tag)  # elements only: the walk passes over comments
        tags[tag] = tags.get(tag, 0) + 1
        for name in ROLE_VALUES:
            value = element.get(name)
            if value:
                values[value] = values.get(value, 0) + 1
        if len(element) >= MIN_GROUP:
            _note_group(element, groups)
        if tag in _NOTED_TAGS:
            _note_element(tag, element, found)
    words = found.words
    for value, count in values.items():
        for word in value_words(value):
            key = "role:" + word
            words[key] = words.get(key, 0.0) + count
    for itemtype in _ITEMTYPES(body):
        for name in str(itemtype).split():
            words["item:" + type_name(name).lower()] = 1.0
    return found


def _note_element(tag: str, element: Element, found: Markup) -> None:
    """Count what a link, heading, input or main container adds to the page's figures."""
    if tag == "a":
        found.link_chars += _visible_chars(element)
        href = element.get("href")
        if href and len(href) < MAX_HREF_CHARS:
            words = found.words
            for word in link_section(href):
                key = "link:" + word
                words[key] = words.get(key, 0.0) + 1.0
    elif tag in HEADING_TAGS:
        found.linked_headings += next(element.iter("a"), None) is not None
        if tag in LABELLED_HEADINGS:
            _note_words("heading:", element, found.words)
    elif tag == "button":
        _note_words("button:", element, found.words)
    elif tag == "input":
        _note_input(element, found)
    else:
        found.container_chars = max(found.container_chars, _visible_chars(element))


def _read_head(tree: Element, found: Markup) -> None:
    """The title and the Open Graph type, from ``<head>``."""
    for child in tree:
        if child.tag != "head":
            continue
        for element in child.iter("title", "meta"):
            if element.tag == "title" and not found.title:
                found.title = normalize_space(raw_text(element))
            else:
                _note_meta(element, found.words)


def _note_meta(element: Element, words: dict[str, float]) -> None:
    """A ``<meta>``'s name as ``meta:<name>``; the values of Open Graph's type and of the generator
    as ``og:<type>`` and ``generator:<word>``."""
    name = (element.get("property") or element.get("name") or "").strip().lower()
    if not name or len(name) > 60 or len(words) >= MAX_WORDS:
        return
    words["meta:" + name] = 1.0
    content = (element.get("content") or "").strip().lower()
    if name == "og:type" and content:
        words["og:" + content[:60]] = 1.0
    elif name == "generator":
        for word in tokenize(content)[:MAX_LABEL_WORDS]:
            if word.isalpha():
                words["generator:" + word] = 1.0


def _note_group(parent: Element, groups: list[Group]) -> None:
    """Record the largest run of children of one tag and class under ``parent``, if repeated."""
    sizes: dict[tuple[str, str], int] = {}
    for child in parent:
        tag = child.tag
        if isinstance(tag, str):
            key = (tag, child.get("class") or "")
            sizes[key] = sizes.get(key, 0) + 1
    key, size = max(sizes.items(), key=lambda item: item[1], default=(("", ""), 0))
    if size >= MIN_GROUP:
        groups.append(Group(parent, key, size))


def _note_words(prefix: str, element: Element, words: dict[str, float]) -> None:
    """Add the first words of ``element``'s text to ``words`` under ``prefix`` (once per page)."""
    if len(words) < MAX_WORDS:
        for word in tokenize(raw_text(element)[:MAX_LABEL_CHARS])[:MAX_LABEL_WORDS]:
            words[prefix + word] = 1.0


def _note_input(element: Element, found: Markup) -> None:
    kind = (element.get("type") or "text").lower()
    if kind == "password":
        found.password_inputs += 1
    elif kind == "search" or "search" in (element.get("name") or "").lower():
        found.search_inputs += 1
    elif kind in ("submit", "button"):
        for word in tokenize(element.get("value") or "")[:MAX_LABEL_WORDS]:
            found.words["button:" + word] = 1.0
    elif kind in ("text", "email", "tel", "number"):
        found.text_inputs += 1


def _visible_chars(element: Element) -> int:
    return len(normalize_space(raw_text(element)))
