"""A page as every model sees it: URL, decoded HTML and one lazily parsed, content-only tree."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import lxml.etree

from scrapy_boilerplate.html import Block, decode_html, drop_non_content, iter_blocks, parse_html, reveal_noscript

if TYPE_CHECKING:
    from scrapy.http import TextResponse


@dataclass(eq=False)
class Page:
    """One web page.  ``tree`` is parsed once and shared; models must copy it before editing."""

    html: str
    url: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_bytes(cls, body: bytes, url: str = "", content_type: str | None = None) -> Page:
        """Decode raw bytes as a browser would (BOM, HTTP charset, ``<meta>``, UTF-8, Windows-1252)."""
        return cls(decode_html(body, content_type), url)

    @classmethod
    def from_response(cls, response: TextResponse) -> Page:
        """Reuse Scrapy's own decoding (``response.text``), or ours when Scrapy's raises (a declared
        charset that is no text encoding, e.g. ``base64``)."""
        try:
            text = response.text
        except (LookupError, UnicodeError):
            content_type = response.headers.get(b"Content-Type")
            text = decode_html(response.body, content_type.decode("latin-1") if content_type else None)
        return cls(text, response.url)

    @property
    def _parsed(self) -> tuple[lxml.etree._Element, bool]:
        # Memoised by hand: Python 3.11's functools.cached_property takes one lock shared by every
        # Page, so a crawl's fit thread parsing its sample stalled the reactor's cleans.
        cached = self.__dict__.get("_parsed_cache")
        if cached is None:
            cached = self.__dict__["_parsed_cache"] = self._parse()
        return cached

    def _parse(self) -> tuple[lxml.etree._Element, bool]:
        parsed = parse_html(self.html)
        reveal_noscript(parsed.root)  # a page that serves its content to clients without script there
        drop_non_content(parsed.root)
        return parsed.root, parsed.truncated

    def parse(self) -> Page:
        """Parse the page now, in the calling thread (the tree is kept); returns the page."""
        self._parsed  # noqa: B018 (the property parses and keeps the tree)
        return self

    @property
    def tree(self) -> lxml.etree._Element:
        """The parsed ``<html>`` root with scripts, styles, templates and comments dropped (and
        ``<noscript>`` too, unless it holds the page's text: see :func:`~.html.clean.reveal_noscript`).

        Shared and read-only by convention: use :meth:`copy_tree` to get one you may edit.
        """
        return self._parsed[0]

    @property
    def truncated(self) -> bool:
        """True when the parser gave up part of the page (e.g. nesting deeper than libxml2 allows)."""
        return self._parsed[1]

    def text_blocks(self) -> list[Block]:
        """The blocks of :attr:`body` that hold visible text (every block tag, in document order).

        Walked once per page: a site model's fit and its clean of a sample page read the same
        blocks several times (``fusion`` through its site parts).  Shared: do not change the list.
        """
        cached = self.__dict__.get("_text_blocks_cache")
        if cached is None:
            cached = self.__dict__["_text_blocks_cache"] = [block for block in iter_blocks(self.body) if block.text]
        return cached

    @property
    def body(self) -> lxml.etree._Element:
        """The ``<body>`` element of :attr:`tree`."""
        return body_of(self.tree)

    def copy_tree(self) -> lxml.etree._Element:
        """A private deep copy of :attr:`tree`."""
        return copy.deepcopy(self.tree)

    def private_tree(self) -> lxml.etree._Element:
        """A tree of this page that the caller may edit, the same as :meth:`copy_tree` gives.

        When :attr:`tree` was never parsed, this is a parse of its own, which :attr:`tree` does
        not keep (cheaper than parsing the shared tree and copying it, for a model that reads the
        page only through the tree it edits); otherwise a deep copy of :attr:`tree`.
        """
        cached = self.__dict__.get("_parsed_cache")
        return copy.deepcopy(cached[0]) if cached is not None else self._parse()[0]


def body_of(tree: lxml.etree._Element) -> lxml.etree._Element:
    """The ``<body>`` of a page's tree, or the tree itself when it has none (e.g. an edit removed it)."""
    for child in tree:  # tree.find("body"), without ElementPath's per-call setup
        if child.tag == "body":
            return child
    return tree
