"""Defensive lxml parsing: never raises, never touches the network, reports truncation."""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass

import lxml.etree

logger = logging.getLogger(__name__)

_EMPTY_DOCUMENT = "<html><body></body></html>"


@dataclass(frozen=True)
class ParsedHtml:
    """A parsed document; ``truncated`` is true when libxml2 stopped early (e.g. nesting depth)."""

    root: lxml.etree._Element
    truncated: bool = False


def _new_parser() -> lxml.etree.HTMLParser:
    # lxml.etree's parser, not lxml.html's: that one calls a Python class lookup for every element
    # object made on each walk (a third of a model's tree-walking time), for methods nothing here uses.
    return lxml.etree.HTMLParser(
        recover=True,
        no_network=True,
        remove_pis=True,
        huge_tree=True,
        default_doctype=False,
        collect_ids=False,  # nothing looks elements up by id; libxml2 would hash every id attribute
    )


_local = threading.local()


def _parser() -> lxml.etree.HTMLParser:
    """This thread's parser, made on first use.

    lxml parsers are not thread-safe, so each thread has its own; reusing it saves building one per
    page (~10% of a 3.5 KB page's parse) and gives the same trees: lxml clears its error log per parse.
    """
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = _new_parser()
    return parser


# lxml refuses a str that starts with an encoding declaration; the text is already decoded.
_XML_DECLARATION = re.compile(r"\A\s*<\?xml[^>]*\?>")


def parse_html(text: str) -> ParsedHtml:
    """Parse ``text`` into an ``<html>`` tree; empty or unparseable input gives an empty document.

    NUL bytes and an XML declaration are stripped (libxml2 stops at NULs; lxml rejects a decoded
    string that declares an encoding).  Entities are the HTML ones only; no external entity or
    DTD is ever loaded.
    """
    if not text:
        text = ""
    elif "\x00" in text:  # a memchr; replace first counts NULs a character at a time
        text = text.replace("\x00", "")
    declaration = _XML_DECLARATION.match(text)  # anchored: no copy or scan of the whole page
    if declaration:
        text = text[declaration.end() :]
    parser = _parser()
    if not text or text.isspace():  # blank: isspace stops at the first visible character
        return ParsedHtml(lxml.etree.fromstring(_EMPTY_DOCUMENT, parser=parser))
    try:
        root = lxml.etree.fromstring(text, parser=parser)
    except (lxml.etree.ParserError, ValueError) as exc:
        logger.debug("unparseable HTML, using an empty document: %s", exc)
        root = None
    if root is None:  # nothing parseable (e.g. only a comment)
        return ParsedHtml(lxml.etree.fromstring(_EMPTY_DOCUMENT, parser=parser), True)
    truncated = any(err.type_name == "ERR_RESOURCE_LIMIT" for err in parser.error_log)
    if root.find("body") is None:
        lxml.etree.SubElement(root, "body")
    return ParsedHtml(root, truncated)
