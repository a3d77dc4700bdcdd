"""A page's title, author, publication date and language, read from what the page declares:
JSON-LD, OpenGraph and other meta tags, microdata, and its markup (``<title>``, ``<h1>``,
``<html lang>``).  Nothing is guessed: a field the page does not state is None."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import lxml.etree

from scrapy_boilerplate.html import normalize_space, raw_text
from scrapy_boilerplate.metadata.dates import parse_date
from scrapy_boilerplate.metadata.jsonld import ARTICLE_TYPES, jsonld_nodes, main_node, person_names, text_of
from scrapy_boilerplate.metadata.markup import author_name, byline_author, byline_date, headline
from scrapy_boilerplate.page import Page, body_of
from scrapy_boilerplate.tokenize import tokenize

FIELDS: tuple[str, ...] = ("title", "author", "published", "language")

_ITEMPROP_AUTHOR = lxml.etree.XPath(".//*[@itemprop='author']")
_ITEMPROP_PUBLISHED = lxml.etree.XPath(".//*[@itemprop='datePublished']")
_ITEMPROP_NAME = lxml.etree.XPath(".//*[@itemprop='name']")
TITLE_METAS = ("og:title", "twitter:title", "dc.title", "headline")
AUTHOR_METAS = ("author", "article:author", "dc.creator", "parsely-author", "sailthru.author", "byl")
DATE_METAS = (
    "article:published_time",
    "og:published_time",
    "datepublished",
    "article.published",
    "pubdate",
    "publishdate",
    "publish-date",
    "publish_date",
    "published_date",
    "dc.date.issued",
    "dc.date",
    "dcterms.issued",
    "dcterms.created",
    "citation_publication_date",
    "citation_date",
    "parsely-pub-date",
    "sailthru.date",
)
LANGUAGE_METAS = ("content-language", "language", "dc.language", "og:locale")
# What separates a page's title from its site's name in <title> and og:title.
_TITLE_SEPARATOR = re.compile(r"\s+(?:[|\-–—·•»:]|::)\s+")
# The share of words (F1) a heading must share with the declared title to be the page's title:
# the heading then names the page without the site's name or a slogan the declared title adds.
TITLE_AGREEMENT = 0.5


@dataclass(frozen=True)
class PageMetadata:
    """What a page declares about itself; ``sources`` names where each field was read."""

    title: str | None = None
    author: str | None = None
    published: str | None = None
    language: str | None = None
    sources: dict[str, str] = field(default_factory=dict, compare=False)


def meta_tags(tree: lxml.etree._Element) -> dict[str, str]:
    """Each ``<meta>``'s content by its lower-cased name, property, itemprop or http-equiv (the first wins)."""
    found: dict[str, str] = {}
    for meta in tree.iter("meta"):
        content = meta.get("content")
        if not content or not content.strip():
            continue
        for attribute in ("property", "name", "itemprop", "http-equiv"):
            key = meta.get(attribute)
            if key:
                found.setdefault(key.strip().lower(), normalize_space(content))
    return found


def _first(metas: dict[str, str], names: Iterable[str]) -> tuple[str, str] | None:
    for name in names:
        if name in metas:
            return name, metas[name]
    return None


def _element_text(tree: lxml.etree._Element, tag: str) -> str | None:
    for element in tree.iter(tag):
        text = normalize_space(raw_text(element))
        if text:
            return text
    return None


def _site_name(metas: dict[str, str]) -> str | None:
    return metas.get("og:site_name") or metas.get("application-name")


def strip_site_name(title: str, site: str | None) -> str:
    """``title`` without the site's name that ``<title>`` and og:title often add (``Page | Site``):
    the part naming the site goes, else the first part stays (the page's own name leads)."""
    parts = [part for part in _TITLE_SEPARATOR.split(title) if part]
    if len(parts) < 2:
        return title
    if site:
        named = [part for part in parts if part.lower() != site.lower()]
        if len(named) < len(parts):
            return " - ".join(named) if named else title
    return parts[0]


def _agree(heading: str, title: str) -> bool:
    """True when ``heading`` and ``title`` share at least half their words (word F1 >= 0.5)."""
    a, b = Counter(tokenize(heading)), Counter(tokenize(title))
    common = sum((a & b).values())
    return 2 * common >= TITLE_AGREEMENT * (sum(a.values()) + sum(b.values())) and common > 0


def _title(nodes: list[dict[str, Any]], metas: dict[str, str], tree: lxml.etree._Element) -> tuple[str, str] | None:
    article = main_node(nodes, ARTICLE_TYPES)
    found_heading = headline(body_of(tree))
    heading = normalize_space(raw_text(found_heading)) if found_heading is not None else None
    candidates: list[tuple[str, str]] = []
    if article is not None and (declared := text_of(article.get("headline")) or text_of(article.get("name"))):
        candidates.append(("json-ld", declared))
    if found := _first(metas, TITLE_METAS):
        candidates.append((f"meta:{found[0]}", strip_site_name(found[1], _site_name(metas))))
    if (title := _element_text(tree, "title")) is not None:
        candidates.append(("title", strip_site_name(title, _site_name(metas))))
    if heading and any(_agree(heading, text) for _, text in candidates):
        return "h1", heading
    if candidates:
        return candidates[0]
    return ("h1", heading) if heading else None


def _author(nodes: list[dict[str, Any]], metas: dict[str, str], tree: lxml.etree._Element) -> tuple[str, str] | None:
    article = main_node(nodes, ARTICLE_TYPES)
    if article is not None and (names := person_names(article.get("author"), nodes)):
        return "json-ld", ", ".join(dict.fromkeys(names))
    if (found := _first(metas, AUTHOR_METAS)) and (name := author_name(found[1])):
        return f"meta:{found[0]}", name
    for element in _ITEMPROP_AUTHOR(body_of(tree)):
        named = next(iter(_ITEMPROP_NAME(element)), None)
        name = (named.get("content") if named is not None else None) or raw_text(
            named if named is not None else element
        )
        if name := author_name(name):
            return "microdata", name
    heading = headline(body_of(tree))
    if heading is not None and (name := byline_author(heading)):
        return "byline", name
    return None


def _date_in(element: lxml.etree._Element) -> str | None:
    return parse_date(element.get("content") or element.get("datetime") or raw_text(element))


def _published(nodes: list[dict[str, Any]], metas: dict[str, str], tree: lxml.etree._Element) -> tuple[str, str] | None:
    article = main_node(nodes, ARTICLE_TYPES)
    if article is not None:
        for name in ("datePublished", "dateCreated", "uploadDate"):
            if date := parse_date(text_of(article.get(name))):
                return "json-ld", date
    for name in DATE_METAS:
        if name in metas and (date := parse_date(metas[name])):
            return f"meta:{name}", date
    for element in _ITEMPROP_PUBLISHED(body_of(tree)):
        if date := _date_in(element):
            return "microdata", date
    heading = headline(body_of(tree))
    if heading is not None and (date := byline_date(heading)):
        return "byline", date
    return None


def _language(nodes: list[dict[str, Any]], metas: dict[str, str], tree: lxml.etree._Element) -> tuple[str, str] | None:
    declared = tree.get("lang") or tree.get("{http://www.w3.org/XML/1998/namespace}lang") or tree.get("xml:lang")
    if declared and declared.strip():
        return "html", declared.strip()
    if found := _first(metas, LANGUAGE_METAS):
        return f"meta:{found[0]}", found[1].replace("_", "-")
    for node in nodes:
        if language := text_of(node.get("inLanguage")):
            return "json-ld", language
    return None


READERS = {"title": _title, "author": _author, "published": _published, "language": _language}


def read_metadata(page: Page, fields: Iterable[str] = FIELDS) -> PageMetadata:
    """The ``fields`` (of :data:`FIELDS`) that ``page`` declares; the others None."""
    nodes = jsonld_nodes(page.html)
    metas = meta_tags(page.tree)
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for name in fields:
        found = READERS[name](nodes, metas, page.tree)
        if found is not None:
            sources[name], values[name] = found
    return PageMetadata(**values, sources=sources)
