"""Run crawls for the store tests: ``crawl_harness`` plus the store's test model, several at once.

``python -m helpers.store_harness SPEC.json`` (from ``tests/``) registers :class:`StoredBlocks` (and :class:`RuleBlocks`) and runs
``crawl_harness.main``.
With ``FULL_DISK_ENV`` set to a folder, every file the crawl writes under it fails as on a full disk.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.crawl_harness import CrawlResult, harness_command, harness_env

FULL_DISK_ENV = "BOILERPLATE_TEST_FULL_DISK"


@dataclass
class RunningCrawl:
    """A crawl started in its own process."""

    out: Path
    process: subprocess.Popen

    def result(self, timeout: float = 120) -> CrawlResult:
        """Wait for the crawl and read back its items, stats and log."""
        _, stderr = self.process.communicate(timeout=timeout)
        items_path, stats_path, log_path = self.out / "items.jsonl", self.out / "stats.json", self.out / "crawl.log"
        items = [json.loads(line) for line in items_path.read_text().splitlines()] if items_path.exists() else []
        stats = json.loads(stats_path.read_text()) if stats_path.exists() else {}
        log = (log_path.read_text() if log_path.exists() else "") + stderr
        return CrawlResult(items, stats, log, self.process.returncode)


def start_crawl(
    out: Path,
    start_urls: list[str],
    settings: dict[str, Any],
    env: dict[str, str] | None = None,
    preexec_fn: Callable[[], None] | None = None,
    **spec: Any,
) -> RunningCrawl:
    """Start one crawl process (it returns at once); ``env`` adds environment variables, ``preexec_fn``
    runs in the child before the crawl starts."""
    out.mkdir(parents=True, exist_ok=True)
    spec_path = out / "spec.json"
    spec_path.write_text(json.dumps({"out": str(out), "start_urls": start_urls, "settings": settings, **spec}))
    process = subprocess.Popen(
        harness_command("store_harness", spec_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=harness_env(env),
        preexec_fn=preexec_fn,
    )
    return RunningCrawl(out, process)


def fill_the_disk_under(folder: str) -> None:
    """Make every temporary file created under ``folder`` write to ``/dev/full`` (each write fails
    with ENOSPC, as on a full disk); the directory store writes records through such files."""
    import tempfile

    make_temp = tempfile.mkstemp

    def mkstemp(*args: Any, **kwargs: Any) -> tuple[int, str]:
        fd, path = make_temp(*args, **kwargs)
        if Path(path).resolve().is_relative_to(Path(folder).resolve()):
            full = os.open("/dev/full", os.O_WRONLY)
            os.dup2(full, fd)
            os.close(full)
        return fd, path

    tempfile.mkstemp = mkstemp


if __name__ == "__main__":
    from helpers import crawl_harness
    from helpers.store_crawl_models import RuleBlocks, StoredBlocks
    from scrapy_boilerplate.models.registry import register

    register(StoredBlocks)
    register(RuleBlocks)
    if os.environ.get(FULL_DISK_ENV):
        fill_the_disk_under(os.environ[FULL_DISK_ENV])
    crawl_harness.main(sys.argv[1])
