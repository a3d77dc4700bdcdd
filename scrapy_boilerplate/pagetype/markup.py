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
from scrapy_boilerplate.pagetype.address import link_section
from scrapy_boilerplate.pagetype.groups import HEADING_TAGS, MIN_GROUP, Group, repeated_group
from scrapy_boilerplate.pagetype.scripts import type_name
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
_NOTED_TAGS = HEADING_TAGS | {"a", "input", "button"}
LABELLED_HEADINGS = frozenset({"h1", "h2", "h3"})  # headings whose words are candidate signals
MAX_LABEL_WORDS = 6  # words read of each heading or button
MAX_LABEL_CHARS = 200  # characters read of each heading or button
MAX_WORDS = 20_000  # candidate words kept per page
MAX_HREF_CHARS = 500  # longer link targets are not read


@dataclass
class Markup:
    """What the walk over ``<body>`` found."""

    elements: int = 0
    tags: dict[str, int] = field(default_factory=dict)
    linked_headings: int = 0
    password_inputs: int = 0
    search_inputs: int = 0
    text_inputs: int = 0
    words: dict[str, float] = field(default_factory=dict)  # role:, item: and og: words -> count
    groups: list[Group] = field(default_factory=list)  # the repeated groups, in document order
    title: str = ""


def read_markup(tree: Element, body: Element) -> Markup:
    """Walk ``body`` once for its tags, role attributes, microdata types, link targets, labelled
    elements and parents of repeated children; then read what those say."""
    found = Markup()
    _read_head(tree, found)
    tags = found.tags
    values: dict[str, int] = {}  # class, id and itemtype values -> elements carrying them
    parents: list[Element] = []  # elements of MIN_GROUP children or more
    targets: list[str] = []  # link targets
    noted: list[Element] = []  # headings, buttons, inputs
    get = values.get
    for count, element in enumerate(body.iter(lxml.etree.Element), 1):
        if count > MAX_ELEMENTS:
            break
        found.elements = count
        tag = cast(str, element.tag)  # elements only: the walk passes over comments
        tags[tag] = tags.get(tag, 0) + 1
        value = element.get("class")
        if value:
            values[value] = get(value, 0) + 1
        value = element.get("id")
        if value:
            values[value] = get(value, 0) + 1
        value = element.get("itemtype")
        if value:
            values[value] = get(value, 0) + 1
        if len(element) >= MIN_GROUP:
            parents.append(element)
        if tag in _NOTED_TAGS:
            if tag == "a":
                value = element.get("href")
                if value:
                    targets.append(value)
            else:
                noted.append(element)
    found.groups = [group for group in map(repeated_group, parents) if group is not None]
    _note_words(values, found.words)
    _note_links(targets, found.words)
    for element in noted:
        _note_element(cast(str, element.tag), element, found)
    return found


def _note_words(values: dict[str, int], words: dict[str, float]) -> None:
    """The words of the role attribute values (``role:``) and the microdata types (``item:``)."""
    counts: dict[str, int] = {}
    get = counts.get
    for value, count in values.items():
        if "://" in value:  # an itemtype (class and id values are no addresses)
            for name in value.split():
                words["item:" + type_name(name).lower()] = 1.0
            continue
        for word in value_words(value):
            counts[word] = get(word, 0) + count
    words.update(("role:" + word, float(count)) for word, count in counts.items())


def _note_links(targets: list[str], words: dict[str, float]) -> None:
    """The sections of the site the links lead to (``link:``), by the links to each."""
    for href in targets:
        if len(href) < MAX_HREF_CHARS:
            for word in link_section(href):
                key = "link:" + word
                words[key] = words.get(key, 0.0) + 1.0


def _note_element(tag: str, element: Element, found: Markup) -> None:
    """Count what a heading, button or input adds to the page's figures."""
    if tag in HEADING_TAGS:
        found.linked_headings += next(element.iter("a"), None) is not None
        if tag in LABELLED_HEADINGS:
            _add_words("heading:", element, found.words)
    elif tag == "button":
        _add_words("button:", element, found.words)
    else:
        _note_input(element, found)


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


def _add_words(prefix: str, element: Element, words: dict[str, float]) -> None:
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
