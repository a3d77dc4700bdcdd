"""What a page says about itself in markup meant for machines: JSON-LD types and script weight.

The parsed tree has no scripts (:func:`~scrapy_boilerplate.html.clean.drop_non_content`), so the
JSON-LD blocks are read from the decoded HTML: one scan over its ``<script>`` tags, which also
measures how much of the page is script (a page drawn by script shows little in its HTML).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SCRIPT_START = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
_SCRIPT_END = re.compile(r"</script\s*>", re.IGNORECASE)
_JSON_LD = re.compile(r"""type\s*=\s*["']?application/ld\+json""", re.IGNORECASE)
# A "@type" value: one string or a list of strings; read by pattern, so broken JSON still counts.
_TYPE_VALUE = re.compile(r'"@type"\s*:\s*(\[[^\]]{0,500}\]|"[^"]{0,200}")')
_TYPE_NAME = re.compile(r'"([^"]{1,200})"')
MAX_SCRIPTS = 2000  # a page of more script tags is read this far (each tag is a regex search)
MAX_TYPES = 200  # JSON-LD type mentions read per page


@dataclass(frozen=True)
class ScriptScan:
    """The page's JSON-LD ``@type`` names (schema.org prefix dropped, in order of appearance, nested
    ones included) and the characters of the decoded HTML inside ``<script>`` elements."""

    json_ld_types: tuple[str, ...]
    script_chars: int


def type_name(value: str) -> str:
    """A schema.org type as its bare name: ``https://schema.org/Product`` -> ``Product``."""
    return value.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1].strip()


def scan_scripts(html: str) -> ScriptScan:
    """One pass over the ``<script>`` elements of ``html``."""
    types: list[str] = []
    script_chars = 0
    position = 0
    for _ in range(MAX_SCRIPTS):
        start = _SCRIPT_START.search(html, position)
        if start is None:
            break
        end = _SCRIPT_END.search(html, start.end())
        stop = end.start() if end is not None else len(html)
        script_chars += stop - start.end()
        if len(types) < MAX_TYPES and _JSON_LD.search(start.group(1)):
            for value in _TYPE_VALUE.findall(html, start.end(), stop):
                types.extend(type_name(name) for name in _TYPE_NAME.findall(value))
        if end is None:
            break
        position = end.end()
    return ScriptScan(tuple(name for name in types[:MAX_TYPES] if name), script_chars)
