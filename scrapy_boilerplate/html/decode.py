"""Bytes to text the way a crawler does it: BOM, then HTTP/<meta> charset, then UTF-8.

We reuse w3lib (Scrapy's own decoder, already installed with Scrapy) so that offline
decoding gives exactly what ``response.text`` gives in a crawl.
"""

from __future__ import annotations

from w3lib.encoding import html_to_unicode

DEFAULT_ENCODING = "utf-8"


def decode_html(body: bytes, content_type: str | None = None) -> str:
    """Decode ``body``: BOM first, then the ``Content-Type`` charset, then ``<meta>``, then UTF-8.

    Undecodable bytes become U+FFFD; the result never raises for any input bytes.
    """
    if not body:
        return ""
    header = content_type if content_type is not None else None
    _, text = html_to_unicode(header, body, default_encoding=DEFAULT_ENCODING)
    return text


_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13))
BINARY_SNIFF_BYTES = 4096
BINARY_CONTROL_SHARE = 0.1  # text pages have ~no control bytes; images and PDFs have many


def looks_binary(body: bytes) -> bool:
    """True when ``body`` looks like binary data rather than HTML (many control bytes up front)."""
    head = body[:BINARY_SNIFF_BYTES]
    if not head:
        return False
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    return controls / len(head) > BINARY_CONTROL_SHARE
