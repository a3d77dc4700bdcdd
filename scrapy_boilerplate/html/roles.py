"""The words of an element's role attributes (class, id, role, itemprop): what its template calls it."""

from __future__ import annotations

import functools
import re

import lxml.etree

# Attributes whose words describe an element's role in the page template.
ROLE_ATTRIBUTES: tuple[str, ...] = ("class", "id", "role", "itemprop")
_ROLE_WORD = re.compile(r"[a-z]+")


def role_words(element: lxml.etree._Element) -> frozenset[str]:
    """Lower-case letter runs of ``element``'s class, id, role and itemprop values."""
    words: frozenset[str] = frozenset()
    for name in ROLE_ATTRIBUTES:
        value = element.get(name)
        if value:
            words = words | value_words(value) if words else value_words(value)
    return words


@functools.lru_cache(maxsize=8192)
def value_words(value: str) -> frozenset[str]:
    """The words of one attribute value (a site repeats its class values on every page)."""
    return frozenset(_ROLE_WORD.findall(value.lower()))
