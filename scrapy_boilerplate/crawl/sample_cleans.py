"""A fit's own cleans of its sample pages, kept a while for those pages' items so they are not cleaned twice.

A fit cleans its sample pages anyway (its drift baseline is the share they lose); the items of those
pages, still on their way to the pipeline, take these cleans instead of cleaning again.  Each item
takes its page's clean once, and whatever no item took is dropped ``ttl`` seconds after the fit (a
page's HTML and its clean would otherwise stay in memory for the whole crawl).
"""

from __future__ import annotations

from scrapy_boilerplate.crawl.clock import Clock
from scrapy_boilerplate.crawl.events import CleansByUrl, SiteKey
from scrapy_boilerplate.models.base import CleanedPage

# Seconds a fit's cleans of its sample pages are kept for those pages' items.
KEPT_SECONDS = 30.0


class SampleCleans:
    """Per site, the cleans of its latest fit's sample pages (see the module docstring)."""

    def __init__(self, clock: Clock, ttl: float = KEPT_SECONDS) -> None:
        self.clock = clock
        self.ttl = ttl
        self._by_site: dict[SiteKey, dict[str, tuple[str, CleanedPage]]] = {}

    def __len__(self) -> int:
        return sum(map(len, self._by_site.values()))

    def keep(self, key: SiteKey, cleans: CleansByUrl) -> None:
        """The cleans of ``key``'s new model replace those of its model before (kept ``ttl`` seconds)."""
        self._by_site.pop(key, None)
        if not cleans:
            return
        kept = self._by_site[key] = dict(cleans)
        self.clock.callLater(self.ttl, self._expire, key, kept)

    def take(self, key: SiteKey, url: str, html: str) -> CleanedPage | None:
        """The clean of this very page (the same URL and HTML) made by ``key``'s fit, once; else None."""
        kept = self._by_site.get(key)
        if kept is None or url not in kept:
            return None
        sampled_html, cleaned = kept.pop(url)
        if not kept:
            del self._by_site[key]
        return cleaned if sampled_html == html else None

    def _expire(self, key: SiteKey, kept: dict[str, tuple[str, CleanedPage]]) -> None:
        if self._by_site.get(key) is kept:
            del self._by_site[key]
