"""A page's JSON-LD (``<script type="application/ld+json">``): its nodes, and the fields of the
node the page is about (an article, a forum thread, a product, the web page itself)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from scrapy_boilerplate.html import normalize_space

_MIME = "application/ld+json"
# Raw control characters (a newline inside a string) are refused by json.loads: read as spaces.
_CONTROL = re.compile(r"[\x00-\x1f]")
MAX_SCRIPT_CHARS = 1_000_000  # a larger block is no page metadata (a data dump): passed over

# The node a page is about, by type, best first; a page's other nodes (its site, its breadcrumbs,
# its publisher) are not about it.
ARTICLE_TYPES: frozenset[str] = frozenset(
    [
        "Article",
        "NewsArticle",
        "BlogPosting",
        "Blog",
        "Report",
        "ScholarlyArticle",
        "TechArticle",
        "AnalysisNewsArticle",
        "OpinionNewsArticle",
        "ReportageNewsArticle",
        "ReviewNewsArticle",
        "LiveBlogPosting",
        "SocialMediaPosting",
        "DiscussionForumPosting",
        "Question",
        "QAPage",
        "Review",
        "Recipe",
        "HowTo",
        "VideoObject",
        "PodcastEpisode",
    ]
)
PAGE_TYPES: frozenset[str] = frozenset(
    [
        "WebPage",
        "ItemPage",
        "AboutPage",
        "ContactPage",
        "CollectionPage",
        "FAQPage",
        "ProfilePage",
        "SearchResultsPage",
        "MedicalWebPage",
        "RealEstateListing",
        "Product",
        "Event",
        "Course",
        "SoftwareApplication",
        "Book",
    ]
)
PERSON_TYPES: frozenset[str] = frozenset({"Person"})


def _scripts(html: str) -> Iterator[str]:
    """The content of each ``<script type="application/ld+json">``, found by plain string search
    (a regular expression over a page of large inline scripts costs more than the rest together)."""
    position = html.find(_MIME)
    while position != -1:
        opened = html.rfind("<", 0, position)
        start = html.find(">", position) + 1
        end = html.find("</script", start)
        if end == -1 or not start:
            return
        if html[opened : opened + 7].lower() == "<script":
            yield html[start:end]
        position = html.find(_MIME, end)


def _blocks(html: str) -> Iterator[Any]:
    for raw in _scripts(html):
        if len(raw) > MAX_SCRIPT_CHARS:
            continue
        raw = raw.strip().removeprefix("<!--").removesuffix("-->").strip()
        raw = raw.removeprefix("//<![CDATA[").removesuffix("//]]>").strip()
        try:
            yield json.loads(_CONTROL.sub(" ", raw))
        except (ValueError, RecursionError):
            continue


def jsonld_nodes(html: str) -> list[dict[str, Any]]:
    """Every JSON-LD object of ``html``: top-level ones, and the members of each ``@graph``."""
    nodes: list[dict[str, Any]] = []
    stack = list(_blocks(html))
    stack.reverse()
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            graph = item.get("@graph")
            if isinstance(graph, list):
                stack.extend(reversed(graph))
            if "@type" in item:
                nodes.append(item)
    return nodes


def types_of(node: dict[str, Any]) -> set[str]:
    """A node's ``@type`` names (a list or one), without a vocabulary prefix."""
    value = node.get("@type")
    names = value if isinstance(value, list) else [value]
    return {name.rsplit("/", 1)[-1].rsplit(":", 1)[-1] for name in names if isinstance(name, str)}


def main_node(nodes: list[dict[str, Any]], types: frozenset[str]) -> dict[str, Any] | None:
    """The first node of one of ``types``."""
    for node in nodes:
        if types_of(node) & types:
            return node
    return None


def text_of(value: Any) -> str | None:
    """A property's text: a string, a node's ``name`` or ``@value``, the first of a list."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("name") or value.get("@value")
    if isinstance(value, str):
        return normalize_space(value) or None
    return None


def person_names(value: Any, nodes: list[dict[str, Any]]) -> list[str]:
    """The names of the people an ``author`` property gives: strings, Person nodes, references to
    them by ``@id``; organisations are no author."""
    names: list[str] = []
    by_id = {node["@id"]: node for node in nodes if isinstance(node.get("@id"), str)}
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, dict) and set(item) <= {"@id", "@type"} and item.get("@id") in by_id:
            item = by_id[item["@id"]]
        if isinstance(item, dict):
            if types_of(item) and not types_of(item) & PERSON_TYPES:
                continue
            item = item.get("name")
        if isinstance(item, list):
            item = item[0] if item and isinstance(item[0], str) else None
        if isinstance(item, str) and (name := normalize_space(item)) and "://" not in name:
            names.append(name)
    return names
