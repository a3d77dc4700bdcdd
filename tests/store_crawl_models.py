"""A test-only site model whose fitted state persists, and a way to make one process's fit hang."""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from scrapy_boilerplate.html import iter_blocks, normalize_space
from scrapy_boilerplate.models.base import CleanedPage, ModelFormatError, SiteModel
from scrapy_boilerplate.page import Page

# In a process with this variable set, fitting writes that file and then hangs (to be killed).
HANG_ENV = "BOILERPLATE_TEST_HANG_FIT"


class StoredBlocks(SiteModel):
    """Template = block texts on at least ``share`` of the sample; its state is that set of texts."""

    name = "test_stored_blocks"

    def __init__(self, share: float = 0.5) -> None:
        super().__init__()
        self.share = share
        self.template: frozenset[str] = frozenset()

    def _fit(self, pages: list[Page]) -> None:
        marker = os.environ.get(HANG_ENV)
        if marker:
            Path(marker).write_text(str(os.getpid()))
            time.sleep(600)
        counts = Counter(t for p in pages for t in {normalize_space(b.text) for b in iter_blocks(p.body)})
        self.template = frozenset(t for t, n in counts.items() if t and n >= self.share * len(pages))

    def _clean(self, page: Page) -> CleanedPage:
        texts = [normalize_space(b.text) for b in iter_blocks(page.body)]
        kept = [t for t in texts if t and t not in self.template]
        total = sum(len(t) for t in texts)
        return CleanedPage("\n".join(kept), "", self.name, total, sum(len(t) for t in kept))

    def _get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        return {"template": sorted(self.template)}, {}

    def _set_state(self, state: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        template = state.get("template")
        if not isinstance(template, list) or not all(isinstance(t, str) for t in template) or arrays:
            raise ModelFormatError("test_stored_blocks state must be {'template': [str, ...]}")
        self.template = frozenset(template)
