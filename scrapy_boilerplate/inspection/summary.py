"""What a report says about the whole site: the sample, the share removed, the template's largest removed regions.

Every figure is counted on marked pages (:mod:`~scrapy_boilerplate.inspection.marks`), in
visible characters, over at most ``SITE_PAGES`` of the site's pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scrapy_boilerplate.html import normalize_space
from scrapy_boilerplate.inspection.coverage import parse_chars
from scrapy_boilerplate.inspection.marks import MarkedPage, mark_page
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.page import Page

EXAMPLE_CHARS = 80  # how much of a region's text is quoted
TOP_REGIONS = 5
SITE_PAGES = 40  # the site figures are over this many pages at most (each is marked)


@dataclass(frozen=True)
class RemovedRegion:
    """One removed region of the template, grouped across the site's pages.

    ``key`` is the decision's XPath, or for ``chars:`` ranges (whose offsets differ from page to
    page) the start of the text they cover.  ``chars`` is the removed text its decisions explain
    on all pages together.
    """

    key: str
    pages: int
    chars: int
    example: str
    reason: str


@dataclass(frozen=True)
class SiteSummary:
    """What the report says about the model and the site.

    ``sample`` names the pages the model was fitted on, in the order it saw them (empty when not
    known, e.g. for a stored model); ``pages_counted`` is how many pages the figures are over.
    """

    model: str
    sample_pages: int | None
    site_pages: int
    mean_removed_share: float | None
    largest_removed: tuple[RemovedRegion, ...]
    sample: tuple[str, ...] = ()
    pages_counted: int = 0
    skipped: tuple[str, ...] = ()  # pages of the site the fit left out, with why


def clip(text: str, limit: int = EXAMPLE_CHARS) -> str:
    """``text`` cut at a word boundary before ``limit`` characters, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > limit // 2 else limit].rstrip() + "…"


def removed_texts(marked: MarkedPage) -> dict[int, str]:
    """The removed visible text each decision explains."""
    parts: dict[int, list[str]] = {}
    for segment in marked.all_segments():
        if segment.decision is not None and not segment.kept:
            parts.setdefault(segment.decision, []).append(segment.text)
    return {index: normalize_space(" ".join(texts)) for index, texts in parts.items()}


def largest_removed(marked_pages: Sequence[MarkedPage], top: int = TOP_REGIONS) -> tuple[RemovedRegion, ...]:
    """The removed regions with the most text over the pages, grouped by path (by text for ``chars:``)."""
    groups: dict[str, list] = {}
    for marked in marked_pages:
        seen: set[str] = set()
        for index, text in removed_texts(marked).items():
            decision = marked.decisions[index]
            if decision.kept or not text:
                continue
            key = decision.path if parse_chars(decision.path) is None else f"text: {clip(text, 40)}"
            group = groups.setdefault(key, [0, 0, text, decision.reason])
            group[0] += key not in seen
            group[1] += len(text)
            seen.add(key)
    regions = [
        RemovedRegion(key, n, chars, clip(example), reason) for key, (n, chars, example, reason) in groups.items()
    ]
    regions.sort(key=lambda region: (-region.chars, region.key))
    return tuple(regions[:top])


def removed_share(marked: MarkedPage) -> float:
    """Share of the page's visible characters marked removed (0 for a page without text)."""
    total = marked.chars()
    return marked.chars(kept=False) / total if total else 0.0


def summarize_site(
    model: str,
    sample_pages: int | None,
    pages: Sequence[tuple[Page, CleanedPage]],
    sample: Sequence[str] = (),
    skipped: Sequence[str] = (),
) -> SiteSummary:
    """The site part of a report over a site whose ``pages`` were all cleaned by one fitted model."""
    marked = [mark_page(page, cleaned) for page, cleaned in pages[:SITE_PAGES]]
    mean = sum(map(removed_share, marked)) / len(marked) if marked else None
    return SiteSummary(
        model, sample_pages, len(pages), mean, largest_removed(marked), tuple(sample), len(marked), tuple(skipped)
    )
