"""Defensive lxml parsing: never raises, never touches the network, reports truncation."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import lxml.etree
import lxml.html

logger = logging.getLogger(__name__)

_EMPTY_DOCUMENT = "<html><body></body></html>"


@dataclass(frozen=True)
class ParsedHtml:
    """A parsed document; ``truncated`` is true when libxml2 stopped early (e.g. nesting depth)."""

    root: lxml.html.HtmlElement
    truncated: bool = False


def _parser() -> lxml.html.HTMLParser:
    # A fresh parser per call: lxml parsers keep an error log and are not thread-safe.
    return lxml.html.HTMLParser(
        recover=True,
        no_network=True,
        remove_pis=True,
        huge_tree=True,
        default_doctype=False,
    )


def parse_html(text: str) -> ParsedHtml:
    """Parse ``text`` into an ``<html>`` tree; empty or unparseable input gives an empty document.

    NUL bytes are stripped (libxml2 stops at them).  Entities are the HTML ones only; no
    external entity or DTD is ever loaded.
    """
    text = text.replace("\x00", "") if text else ""
    parser = _parser()
    if not text.strip():
        return ParsedHtml(lxml.html.document_fromstring(_EMPTY_DOCUMENT, parser=parser))
    try:
        root = lxml.html.document_fromstring(text, parser=parser)
    except (lxml.etree.ParserError, ValueError) as exc:
        logger.debug("unparseable HTML, using an empty document: %s", exc)
        return ParsedHtml(lxml.html.document_fromstring(_EMPTY_DOCUMENT, parser=_parser()), True)
    truncated = any(err.type_name == "ERR_RESOURCE_LIMIT" for err in parser.error_log)
    if root.find("body") is None:
        lxml.etree.SubElement(root, "body")
    return ParsedHtml(root, truncated)
