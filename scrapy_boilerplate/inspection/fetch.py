"""Download one page for ``inspect --from-crawl`` when no saved copy is given."""

from __future__ import annotations

import urllib.request

from scrapy_boilerplate.corpus import MAX_PAGE_BYTES
from scrapy_boilerplate.page import Page

FETCH_TIMEOUT_SECONDS = 30
USER_AGENT = "scrapy-boilerplate-inspect/0.1"


def fetch_page(url: str, timeout: float = FETCH_TIMEOUT_SECONDS) -> Page:
    """GET ``url`` (http or https only) and decode it as a crawler would; raises ``OSError``/``ValueError``."""
    if not url.lower().startswith(("http://", "https://")):
        raise ValueError(f"can only fetch http(s) URLs, not {url!r}")
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    with urllib.request.urlopen(request, timeout=timeout) as response:  # scheme checked above
        body = response.read(MAX_PAGE_BYTES + 1)
        content_type = response.headers.get("Content-Type")
        final_url = response.geturl()
    if len(body) > MAX_PAGE_BYTES:
        raise ValueError(f"{url} is over the {MAX_PAGE_BYTES}-byte page limit")
    return Page.from_bytes(body, url=final_url, content_type=content_type)
