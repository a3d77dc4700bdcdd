"""A test-only site model whose fitted state persists, and ways to make one process's fit kill it or take long."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import numpy as np

from helpers.crawl_models import CommonBlocks
from scrapy_boilerplate.models.base import ModelFormatError
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
