"""What a page's address says about its type: the words of its host, path and query, and its shape.

Which words matter is learned from labelled pages (the weights file keeps them); here the address
is only cut into words and measured.  A page read from disk has no web address, so the one it
declares (``<link rel=canonical>``, else ``og:url``) stands in for it.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import urlsplit

from scrapy_boilerplate.page import Page

_WORD = re.compile(r"[a-z]{2,}")
_DATE_PATH = re.compile(r"/(?:19|20)\d\d/(?:0?[1-9]|1[0-2])(?:/|$)")
_LONG_NUMBER = re.compile(r"\d{5,}")
_SEGMENT_WORDS = re.compile(r"[^\W_]+")
MAX_ADDRESS_CHARS = 2000  # longer addresses are read this far
ADDRESS_STATS: tuple[str, ...] = (
    "url_known",
    "url_depth",
    "url_root",
    "url_chars",
    "url_last_words",
    "url_last_digits",
    "url_numeric_segments",
    "url_date_path",
    "url_long_number",
    "url_query_keys",
    "url_file_extension",
)


def page_address(page: Page) -> str:
    """The page's web address: its own when it is one, else the one its markup declares, else ""."""
    if page.url.startswith(("http://", "https://")):
        return page.url
    head = next((child for child in page.tree if child.tag == "head"), None)
    if head is None:
        return ""
    declared = ""
    for element in head.iter("link", "meta"):
        if element.tag == "link" and "canonical" in (element.get("rel") or "").lower():
            return _absolute(element.get("href"))
        if element.tag == "meta" and not declared and element.get("property") == "og:url":
            declared = _absolute(element.get("content"))
    return declared


def _absolute(address: str | None) -> str:
    """A declared address when it is absolute (a relative one says nothing of the host)."""
    address = (address or "").strip()
    return address if address.startswith(("http://", "https://")) else ""


def address_words(address: str) -> frozenset[str]:
    """The words of the host (its labels but the last), the path, the first path segment and the
    query keys, each marked with where it stands: ``host:forum``, ``path:questions``, ``first:docs``,
    ``query:page``, ``ext:php``."""
    parts = urlsplit(address[:MAX_ADDRESS_CHARS].lower())
    words: set[str] = set()
    labels = (parts.hostname or "").split(".")
    words.update(f"host:{word}" for label in labels[:-1] for word in _WORD.findall(label) if word != "www")
    segments = [segment for segment in parts.path.split("/") if segment]
    for number, segment in enumerate(segments):
        stem, dot, extension = segment.rpartition(".")
        if dot and number == len(segments) - 1 and extension.isalpha() and len(extension) <= 5:
            words.add(f"ext:{extension}")
            segment = stem
        found = _WORD.findall(segment)
        words.update(f"path:{word}" for word in found)
        if number == 0:
            words.update(f"first:{word}" for word in found)
    for pair in parts.query.split("&"):
        key = pair.partition("=")[0]
        words.update(f"query:{word}" for word in _WORD.findall(key))
    return frozenset(words)


def address_stats(address: str) -> list[float]:
    """The address's shape, in the order of :data:`ADDRESS_STATS` (all 0 for an unknown address)."""
    if not address:
        return [0.0] * len(ADDRESS_STATS)
    parts = urlsplit(address[:MAX_ADDRESS_CHARS])
    segments = [segment for segment in parts.path.split("/") if segment]
    last = segments[-1] if segments else ""
    return [
        1.0,
        float(len(segments)),
        float(not segments and not parts.query),
        float(len(parts.path)),
        float(len(_SEGMENT_WORDS.findall(last.rpartition(".")[0] or last))),
        float(sum(char.isdigit() for char in last)),
        float(sum(segment.isdigit() for segment in segments)),
        float(bool(_DATE_PATH.search(parts.path))),
        float(bool(_LONG_NUMBER.search(parts.path))),
        float(len([pair for pair in parts.query.split("&") if pair])),
        float("." in last and last.rpartition(".")[2].isalpha()),
    ]


@functools.lru_cache(maxsize=8192)
def link_section(href: str) -> tuple[str, ...]:
    """The words of the first path segment a link points to (``/forum/t/12`` -> ``forum``), the
    section of the site it leads to; none for an in-page or non-web link."""
    href = href.strip().lower()
    if href.startswith(("http://", "https://", "//")):
        start = href.find("/", href.find("//") + 2)
        if start < 0:
            return ()
        href = href[start:]
    elif not href.startswith("/"):
        return ()
    segment = re.split(r"[/?#]", href[1:], maxsplit=1)[0]
    return tuple(_WORD.findall(segment))
