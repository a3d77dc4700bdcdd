"""A test-only site model whose fitted state persists, and ways to make one process's fit kill it or take long."""

from __future__ import annotations

import os
import signal
import time
from dataclasses import replace
from typing import Any

import numpy as np

from helpers.crawl_models import CommonBlocks
from scrapy_boilerplate.models.base import CleanedPage, ModelFormatError
from scrapy_boilerplate.page import Page

# A process with this variable set kills itself (SIGKILL) when it starts fitting: a worker that dies
# mid-fit, holding the fit lock.
DIE_IN_FIT_ENV = "BOILERPLATE_TEST_DIE_IN_FIT"
# In a process with this variable set, each fit first spends that many seconds of CPU: the crawl
# then runs its fits in the thread pool, as it does a slow model's.
SLOW_FIT_ENV = "BOILERPLATE_TEST_FIT_CPU_SECONDS"


class StoredBlocks(CommonBlocks):
    """:class:`CommonBlocks` whose state (the set of template texts) persists, and can die in fit or
    be slow to fit."""

    name = "test_stored_blocks"

    def _fit(self, pages: list[Page]) -> None:
        if os.environ.get(DIE_IN_FIT_ENV):
            os.kill(os.getpid(), signal.SIGKILL)
        busy_until = time.thread_time() + float(os.environ.get(SLOW_FIT_ENV, "0"))
        while time.thread_time() < busy_until:
            pass
        super()._fit(pages)

    def _get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        return {"template": sorted(self.template)}, {}

    def _set_state(self, state: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        template = state.get("template")
        if not isinstance(template, list) or not all(isinstance(t, str) for t in template) or arrays:
            raise ModelFormatError("test_stored_blocks state must be {'template': [str, ...]}")
        self.template = frozenset(template)


def block_path(block: Any) -> str:
    """A block's place in the template: the tags and classes of it and its ancestors."""
    steps = [f"{el.tag}.{el.get('class') or ''}" for el in (block.element, *block.element.iterancestors())]
    return "/".join(reversed(steps))


class RuleBlocks(StoredBlocks):
    """:class:`StoredBlocks` with a rule of its own: the block paths of its sample.  Each clean says
    what share of the page's blocks sit on a path the sample showed (its coverage), as a model whose
    rules decide the blocks they know."""

    name = "test_rule_blocks"

    def __init__(self, share: float = 0.5) -> None:
        super().__init__(share)
        self.paths: frozenset[str] = frozenset()

    def _fit(self, pages: list[Page]) -> None:
        super()._fit(pages)
        self.paths = frozenset(block_path(block) for page in pages for block in page.text_blocks())

    def _clean(self, page: Page) -> CleanedPage:
        cleaned = super()._clean(page)
        blocks = page.text_blocks()
        covered = sum(block_path(block) in self.paths for block in blocks) / len(blocks) if blocks else 1.0
        return replace(cleaned, coverage=covered)

    def _get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        state, arrays = super()._get_state()
        return {**state, "paths": sorted(self.paths)}, arrays

    def _set_state(self, state: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        super()._set_state({"template": state.get("template")}, arrays)
        self.paths = frozenset(state.get("paths", ()))
