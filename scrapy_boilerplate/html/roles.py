"""The words of an element's role attributes (class, id, role, itemprop): what its template calls it."""

from __future__ import annotations

import functools
import re

_ROLE_WORD = re.compile(r"[a-z]+")


@functools.lru_cache(maxsize=8192)
def value_words(value: str) -> frozenset[str]:
    """The words of one attribute value: its lower-case letter runs (a site repeats its class
    values on every page, so they are split once)."""
    return frozenset(_ROLE_WORD.findall(value.lower()))
