"""The bound on partial samples: at most BOILERPLATE_MAX_SAMPLING_DOMAINS domains sample at once.

A partial sample keeps its pages in memory, so a broad crawl bounds how many domains collect one
at a time.  When a new domain would pass the bound, the domain that gets pages least often gives up
its sample: the one whose last sample page is oldest, skipping domains one page from a full
sample (they are about to fit; if every domain is, the least recently fed one goes all the same).
A domain that keeps getting pages is never the one evicted while a stalled one is left.
"""

from __future__ import annotations


class SamplingDomains:
    """Domains with a partial sample here, least recently fed first, with their page counts."""

    def __init__(self, max_domains: int, sample_size: int) -> None:
        self.max_domains = max_domains
        self.sample_size = sample_size
        self._pages: dict[str, int] = {}  # insertion order = least recently fed first

    def __contains__(self, domain: str) -> bool:
        return domain in self._pages

    def __len__(self) -> int:
        return len(self._pages)

    def pages(self, domain: str) -> int:
        """How many pages ``domain``'s partial sample has (0 when it has none here)."""
        return self._pages.get(domain, 0)

    def fed(self, domain: str, pages: int) -> None:
        """``domain``'s sample now has ``pages`` pages (it moves to the most recently fed end)."""
        self._pages.pop(domain, None)
        self._pages[domain] = pages

    def done(self, domain: str) -> None:
        """``domain`` no longer has a partial sample (it filled, or it was given up)."""
        self._pages.pop(domain, None)

    def to_evict(self, newcomer: str) -> list[str]:
        """The domains that must give up their samples before ``newcomer`` starts one (removed here)."""
        evicted = []
        while newcomer not in self._pages and len(self._pages) >= self.max_domains:
            victim = self._victim()
            del self._pages[victim]
            evicted.append(victim)
        return evicted

    def _victim(self) -> str:
        almost_full = self.sample_size - 1
        for domain, pages in self._pages.items():
            if pages < almost_full:
                return domain
        return next(iter(self._pages))
