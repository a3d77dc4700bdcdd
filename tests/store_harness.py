"""Run crawls for the store tests: ``crawl_harness`` plus the store's test model, several at once.

``python store_harness.py SPEC.json`` registers :class:`StoredBlocks` and runs ``crawl_harness.main``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crawl_harness import CrawlResult


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
    out: Path, start_urls: list[str], settings: dict[str, Any], env: dict[str, str] | None = None, **spec: Any
) -> RunningCrawl:
    """Start one crawl process (it returns at once); ``env`` adds environment variables."""
    out.mkdir(parents=True, exist_ok=True)
    spec_path = out / "spec.json"
    spec_path.write_text(json.dumps({"out": str(out), "start_urls": start_urls, "settings": settings, **spec}))
    process = subprocess.Popen(
        [sys.executable, __file__, str(spec_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    return RunningCrawl(out, process)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    import crawl_harness
    from store_crawl_models import StoredBlocks

    from scrapy_boilerplate.models.registry import register

    register(StoredBlocks)
    crawl_harness.main(sys.argv[1])
