"""A tiny test-only site model: drops every block whose text recurs on most sample pages."""

from __future__ import annotations

import threading
from collections import Counter

from scrapy_boilerplate.html import iter_blocks, normalize_space
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
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
