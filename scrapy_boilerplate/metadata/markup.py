"""What a page's markup says beside its headline: the byline's author and date.

A byline sits next to the headline (an article's, a thread's first post): the date and author
read from markup are looked for only in the headline's surroundings (its parent's subtree, or its
grandparent's for the author), never anywhere on the page, where dates of comments, listings and
sidebars are.  A date must be written plainly (see :mod:`.dates`).
"""

from __future__ import annotations

import re

import lxml.etree

from scrapy_boilerplate.html import normalize_space, raw_text
from scrapy_boilerplate.metadata.dates import parse_date

# Levels above the headline whose subtree is its surroundings, for a date and for an author.
DATE_LEVELS = 1
AUTHOR_LEVELS = 2
# Class, id or rel words of the elements that hold a byline's date or author.
_DATE_MARK = re.compile(r"date|publish|posted|time|meta|byline", re.I)
_AUTHOR_MARK = re.compile(r"author|byline|writer", re.I)
_PAGE_TAGS = frozenset({"body", "html"})
MAX_DATE_WORDS = 12  # a longer text is a paragraph that mentions a date, not a byline's date
MAX_AUTHOR_WORDS = 5
_BY = re.compile(r"^\s*(?:(?:written|posted|published|reviewed)\s+)?by\s*:?\s+", re.I)
_LABEL = re.compile(r"^(?:(?:written|posted|published|reviewed)\s+)?by$", re.I)  # a byline's label alone
_AFTER_NAME = re.compile(r"\s*(?:[|•·/]|\s-\s|\bon\b|\bupdated\b|\bpublished\b).*$", re.I | re.S)


def headline(body: lxml.etree._Element) -> lxml.etree._Element | None:
    """The page's first ``<h1>`` with text."""
    for element in body.iter("h1"):
        if raw_text(element).strip():
            return element
    return None


def _surroundings(heading: lxml.etree._Element, levels: int) -> lxml.etree._Element:
    """The ancestor ``levels`` above ``heading``, short of the body (the whole page is no byline)."""
    area = heading
    for _ in range(levels):
        parent = area.getparent()
        if parent is None or parent.tag in _PAGE_TAGS:
            break
        area = parent
    return area


def _marks(element: lxml.etree._Element) -> str:
    return f"{element.get('class') or ''} {element.get('id') or ''} {element.get('rel') or ''}"


def byline_date(heading: lxml.etree._Element) -> str | None:
    """The first plainly written date of a ``<time>`` or a date-marked element beside ``heading``."""
    for element in _surroundings(heading, DATE_LEVELS).iter():
        tag = element.tag
        if not isinstance(tag, str):
            continue
        if tag == "time":
            date = parse_date(element.get("datetime")) or parse_date(raw_text(element))
        elif _DATE_MARK.search(_marks(element)):
            text = normalize_space(raw_text(element))
            date = parse_date(text) if len(text.split()) <= MAX_DATE_WORDS else None
        else:
            continue
        if date:
            return date
    return None


def author_name(text: str) -> str | None:
    """A byline's name: without "By", and what follows the name (a date, a separator); None when
    what is left is no name (empty, a link, a handle, a sentence, the word "author")."""
    text = normalize_space(text)
    if "://" in text or "@" in text:  # a link or an address, not a name
        return None
    text = _AFTER_NAME.sub("", _BY.sub("", text)).strip(" ,:")
    if not text or _LABEL.match(text) or "author" in text.lower():
        return None
    if len(text.split()) > MAX_AUTHOR_WORDS or any(char.isdigit() for char in text):
        return None
    return text


def byline_author(heading: lxml.etree._Element) -> str | None:
    """The first author-marked element beside ``heading`` whose text is a name."""
    for element in _surroundings(heading, AUTHOR_LEVELS).iter():
        if isinstance(element.tag, str) and _AUTHOR_MARK.search(_marks(element)):
            name = author_name(raw_text(element))
            if name:
                return name
    return None
