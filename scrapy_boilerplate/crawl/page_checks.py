"""Whether a page can be used: a response for a sample, an item's HTML value for cleaning.

Shared by the parts that take pages (the sampling middleware, the pipeline, the sampler's late
offers): each check reads the page in place, without copying it.
"""

from __future__ import annotations

import re
from typing import Any

from scrapy.http import HtmlResponse, Response, TextResponse

from scrapy_boilerplate.html import looks_binary

SAMPLED_STATUS = 200

# A page starts with "<" after an optional BOM and blank space (matched in place: no stripped copy).
_MARKUP_START = re.compile("[\ufeff \t\r\n]*<")


def sample_skip_reason(response: Response, max_bytes: int) -> str | None:
    """Why ``response`` cannot join a sample (``empty``, ``too_large``, ``non_html``, ``status``), or None."""
    if not response.body:
        return "empty"
    if len(response.body) > max_bytes:
        return "too_large"
    if not isinstance(response, TextResponse):
        return "non_html"
    content_type = response.headers.get(b"Content-Type", b"") or b""
    if not (isinstance(response, HtmlResponse) or b"html" in content_type.lower()) or looks_binary(response.body):
        return "non_html"
    if response.status != SAMPLED_STATUS:
        return "status"
    return None


def skip_reason(html: Any, max_bytes: int) -> str | None:
    """Why an HTML field value cannot be cleaned, or None when it can (checked per item, without copying the page)."""
    if not isinstance(html, str) or not html or html.isspace():
        return "no_html"
    if len(html) > max_bytes:
        return "too_large"
    if _MARKUP_START.match(html) is None:
        return "not_html"
    return None
