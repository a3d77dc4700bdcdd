"""A tiny test-only site model: drops every block whose text recurs on most sample pages."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

from scrapy_boilerplate.html import iter_blocks, normalize_space
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.models.fusion.siterules.selectors import PinnedRules
from scrapy_boilerplate.page import Page


class CommonBlocks(SiteModel):
    """Template = block texts on at least ``share`` of the sample; everything else is content."""

    name = "test_common_blocks"

    def __init__(self, share: float = 0.5) -> None:
        super().__init__()
        self.share = share
        self.template: set[str] = set()

    def _fit(self, pages: list[Page]) -> None:
        counts = Counter(t for p in pages for t in {normalize_space(b.text) for b in iter_blocks(p.body)})
        self.template = {t for t, n in counts.items() if t and n >= self.share * len(pages)}

    def _clean(self, page: Page) -> CleanedPage:
        texts = [normalize_space(b.text) for b in iter_blocks(page.body)]
        kept = [t for t in texts if t and t not in self.template]
        total = sum(len(t) for t in texts)
        return CleanedPage("\n".join(kept), "", self.name, total, sum(len(t) for t in kept))


class Broken(SiteModel):
    """Fails in ``fit`` (``stage="fit"``) or on every page (``stage="clean"``); never fits on no sample."""

    name = "test_broken"

    def __init__(self, stage: str = "clean") -> None:
        super().__init__()
        self.stage = stage

    def _fit(self, pages: list[Page]) -> None:
        if not pages or self.stage == "fit":
            raise ValueError("cannot fit")

    def _clean(self, page: Page) -> CleanedPage:
        raise RuntimeError("broken model")


class ThreadReporter(CommonBlocks):
    """:class:`CommonBlocks` whose text ends with the name of the thread that cleaned the page."""

    name = "test_thread_reporter"

    def _clean(self, page: Page) -> CleanedPage:
        cleaned = super()._clean(page)
        text = f"{cleaned.text}\ncleaned in {threading.current_thread().name}"
        return CleanedPage(text, "", self.name, cleaned.total_chars, cleaned.kept_chars)


class CleanCounter(CommonBlocks):
    """:class:`CommonBlocks` that numbers its cleans: each text ends with ``clean #N`` (this model's Nth),
    so items cleaned by one clean carry one number and a clean per item shows as new numbers."""

    name = "test_clean_counter"

    def __init__(self, share: float = 0.5) -> None:
        super().__init__(share)
        self.cleans = 0
        self._counting = threading.Lock()  # cleans may run in the crawl's thread pool

    def _clean(self, page: Page) -> CleanedPage:
        with self._counting:
            self.cleans += 1
            number = self.cleans
        cleaned = super()._clean(page)
        return CleanedPage(f"{cleaned.text}\nclean #{number}", "", self.name, cleaned.total_chars, cleaned.kept_chars)


class FitPages(CommonBlocks):
    """:class:`CommonBlocks` whose text ends with ``fitted on PATHS``: the URL paths of the sample pages
    it was fitted on (none for the single-page model), so an item tells which fit cleaned it."""

    name = "test_fit_pages"

    def __init__(self, share: float = 0.5) -> None:
        super().__init__(share)
        self.fitted_on: list[str] = []

    def _fit(self, pages: list[Page]) -> None:
        super()._fit(pages)
        self.fitted_on = sorted(urlsplit(page.url).path for page in pages)

    def _clean(self, page: Page) -> CleanedPage:
        cleaned = super()._clean(page)
        text = f"{cleaned.text}\nfitted on {','.join(self.fitted_on)}"
        return CleanedPage(text, "", self.name, cleaned.total_chars, cleaned.kept_chars)

    def _get_state(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return {"template": sorted(self.template), "fitted_on": self.fitted_on}, {}

    def _set_state(self, state: dict[str, Any], arrays: dict[str, Any]) -> None:
        self.template, self.fitted_on = set(state["template"]), list(state["fitted_on"])


class PinnedBlocks(FitPages):
    """:class:`FitPages` that takes a site's pinned CSS selectors (``pinned``): the blocks they reach
    are kept or removed as they say, whatever the sample taught."""

    name = "test_pinned_blocks"

    def __init__(self, share: float = 0.5, pinned: dict[str, list[str]] | None = None) -> None:
        super().__init__(share)
        self.pinned = pinned

    def _clean(self, page: Page) -> CleanedPage:
        blocks = list(iter_blocks(page.body))
        texts = [normalize_space(block.text) for block in blocks]
        keep = [bool(text) and text not in self.template for text in texts]
        if self.pinned:
            rules = PinnedRules.from_mapping(self.pinned).decide(page.tree, [block.element for block in blocks])
            keep = [bool(p) if d else k for k, d, p in zip(keep, rules.decided, rules.keep, strict=True)]
        kept = [text for text, k in zip(texts, keep, strict=True) if k and text]
        text = "\n".join(kept) + f"\nfitted on {','.join(self.fitted_on)}"
        return CleanedPage(text, "", self.name, sum(map(len, texts)), sum(map(len, kept)))
