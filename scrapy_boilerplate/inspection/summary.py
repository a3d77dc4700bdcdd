"""The site-level header of a report: sample size, share removed, and the template's largest removed regions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scrapy_boilerplate.html import normalize_space
from scrapy_boilerplate.inspection.coverage import Text, parse_chars, walk
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.page import Page

EXAMPLE_CHARS = 80  # how much of a region's text the header quotes
TOP_REGIONS = 5


@dataclass(frozen=True)
class RemovedRegion:
    """One removed region of the template, grouped across the site's pages.

    ``key`` is the decision's XPath, or for ``chars:`` ranges (whose offsets differ from page to
    page) the start of the text they cover.  ``chars`` is the text the region's decisions ended
    up covering on all pages together (by the coverage rule, not the model's own count).
    """

    key: str
    pages: int
    chars: int
    example: str
    reason: str


@dataclass(frozen=True)
class SiteSummary:
    """What the report's header says about the model and the site."""

    model: str
    sample_pages: int | None
    site_pages: int
    mean_removed_share: float | None
    largest_removed: tuple[RemovedRegion, ...]


def decision_texts(page: Page, cleaned: CleanedPage) -> dict[int, str]:
    """The visible text each decision ends up covering (nested decisions take their own part)."""
    parts: dict[int, list[str]] = {}
    for event in walk(page, cleaned):
        if isinstance(event, Text) and event.verdict.decision is not None:
            parts.setdefault(event.verdict.decision, []).append(event.text)
    return {index: normalize_space(" ".join(texts)) for index, texts in parts.items()}


def largest_removed(pages: Sequence[tuple[Page, CleanedPage]], top: int = TOP_REGIONS) -> tuple[RemovedRegion, ...]:
    """The removed regions with the most text over ``pages``, grouped by path (or by text for ``chars:``)."""
    groups: dict[str, list] = {}
    for page, cleaned in pages:
        texts = decision_texts(page, cleaned)
        seen: set[str] = set()
        for index, decision in enumerate(cleaned.decisions):
            text = texts.get(index, "")
            if decision.kept or not text:
                continue
            key = decision.path if parse_chars(decision.path) is None else f"text: {text[:40]}"
            group = groups.setdefault(key, [0, 0, text, decision.reason])
            group[0] += key not in seen
            group[1] += len(text)
            seen.add(key)
    regions = [
        RemovedRegion(key, n, chars, example[:EXAMPLE_CHARS], reason)
        for key, (n, chars, example, reason) in groups.items()
    ]
    regions.sort(key=lambda region: (-region.chars, region.key))
    return tuple(regions[:top])


def summarize_site(model: str, sample_pages: int | None, pages: Sequence[tuple[Page, CleanedPage]]) -> SiteSummary:
    """The header of a report over a site whose ``pages`` were all cleaned by one fitted model."""
    shares = [cleaned.removed_share for _, cleaned in pages]
    mean = sum(shares) / len(shares) if shares else None
    return SiteSummary(model, sample_pages, len(pages), mean, largest_removed(pages))
