"""Bytes to text the way a browser does it: BOM, then HTTP/<meta> charset, then UTF-8, then Windows-1252.

We reuse w3lib (Scrapy's own decoder, already installed with Scrapy) for the BOM and the
declared charsets, as ``response.text`` does in a crawl.  A page that declares nothing and is
not valid UTF-8 is a legacy page: browsers read it as Windows-1252 (byte 0x92 is "’", where
UTF-8 with replacement would give "�"), and so do we.
"""

from __future__ import annotations

from w3lib.encoding import html_to_unicode

DEFAULT_ENCODING = "utf-8"
LEGACY_ENCODING = "cp1252"  # what browsers assume for an undeclared page that is not UTF-8


def undeclared_encoding(body: bytes) -> str:
    """The encoding of a page that declares none: UTF-8 when it decodes as such, else Windows-1252."""
    try:
        body.decode(DEFAULT_ENCODING)
    except UnicodeDecodeError:
        return LEGACY_ENCODING
    return DEFAULT_ENCODING


def decode_html(body: bytes, content_type: str | None = None) -> str:
    """Decode ``body``: BOM first, then the ``Content-Type`` charset, then ``<meta>``, then UTF-8
    when the bytes are valid UTF-8, else Windows-1252.

    A declared charset that names a codec but no text encoding (``base64``, ``rot13``, ``zlib``,
    ``idna``...) is passed over, as browsers pass over labels they do not know.  Undecodable
    bytes become U+FFFD; the result never raises for any input bytes.
    """
    if not body:
        return ""
    for declared in (content_type, None) if content_type else (None,):
        try:
            return html_to_unicode(declared, body, auto_detect_fun=undeclared_encoding)[1]
        except (LookupError, UnicodeError):  # the charset declared here (header, then <meta>) decodes no text
            continue
    return body.decode(undeclared_encoding(body), "replace")


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
