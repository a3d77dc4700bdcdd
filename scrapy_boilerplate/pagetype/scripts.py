"""What a page's scripts say: the types its JSON-LD declares, and how much of its HTML is script.

The parsed tree has no scripts (:func:`~scrapy_boilerplate.html.clean.drop_non_content`), so both
are read from the decoded HTML: the JSON-LD through the metadata reader's parser, the script
weight by one scan over the ``<script>`` tags (a page drawn by script shows little in its HTML).
"""

from __future__ import annotations

import re
from typing import Any

from scrapy_boilerplate.metadata.jsonld import jsonld_nodes, types_of

_SCRIPT_START = re.compile(r"<script\b[^>]*>", re.IGNORECASE)
_SCRIPT_END = re.compile(r"</script\s*>", re.IGNORECASE)
MAX_SCRIPTS = 2000  # a page of more script tags is measured this far
MAX_TYPES = 200  # JSON-LD type names read per page
MAX_DEPTH = 6  # how deep nested JSON-LD values are read for their types (an Offer in a Product)


def type_name(value: str) -> str:
    """A schema.org type as its bare name: ``https://schema.org/Product`` -> ``Product``."""
    return value.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1].strip()


def json_ld_types(html: str) -> list[str]:
    """The ``@type`` names of the page's JSON-LD, nested ones included, in document order."""
    found: list[str] = []
    stack: list[tuple[Any, int]] = [(node, 0) for node in reversed(jsonld_nodes(html))]
    while stack and len(found) < MAX_TYPES:
        value, depth = stack.pop()
        if isinstance(value, dict):
            if "@type" in value:
                found.extend(sorted(types_of(value)))
            children = list(value.values())
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth < MAX_DEPTH:
            stack.extend((child, depth + 1) for child in reversed(children) if isinstance(child, (dict, list)))
    return found[:MAX_TYPES]


def script_chars(html: str) -> int:
    """Characters of ``html`` inside ``<script>`` elements."""
    total = position = 0
    for _ in range(MAX_SCRIPTS):
        start = _SCRIPT_START.search(html, position)
        if start is None:
            break
        end = _SCRIPT_END.search(html, start.end())
        total += (end.start() if end is not None else len(html)) - start.end()
        if end is None:
            break
        position = end.end()
    return total
