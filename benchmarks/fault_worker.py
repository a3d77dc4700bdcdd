"""The workers of benchmarks/fault_crawl.py: one crawl process each, and what it leaves behind.

``python benchmarks/fault_worker.py SPEC.json`` runs one worker: it requests every seed URL, yields
each page's URL and HTML, and appends each yielded URL and each exported item (Scrapy's
``item_scraped``) to files at once, so a killed worker's are on disk.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scrapy_boilerplate.testing.localsite import serve_directory, write_linked_site  # noqa: E402

FALLBACK_MARK = " (fallback)"
FALLBACK_REASON = "boilerplate/items/fallback/"  # stats key prefix, one per reason
SKIP_REASON = "boilerplate/items/skipped/"  # the same for items passed on untouched
NO_RECOVERY_ENV = "BOILERPLATE_BENCH_NO_RECOVERY"


# -- one worker (in its own process) -------------------------------------------------------------
def _appender(path: str):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    return lambda record: os.write(fd, (json.dumps(record) + "\n").encode())


def worker_spider(seeds: list[str], yielded: str) -> type:
    """A spider that requests every URL of ``seeds`` and yields each page's URL and text (noting
    each yielded URL in ``yielded``)."""
    import scrapy

    note = _appender(yielded)

    class FaultSpider(scrapy.Spider):
        name = "fault"

        async def start(self):
            for url in seeds:
                yield scrapy.Request(url)

        def parse(self, response):
            note({"url": response.url})
            item = {"url": response.url}
            if isinstance(response, scrapy.http.TextResponse):  # an image has no text
                item["html"] = response.text
            yield item

    return FaultSpider


def child(spec_path: str) -> None:
    """One worker: crawl, append every exported item to ``exported``, write the stats at the end."""
    from scrapy import signals
    from scrapy.crawler import CrawlerProcess

    spec = json.loads(Path(spec_path).read_text())
    if os.environ.get(NO_RECOVERY_ENV):  # the comparison run: nothing is recorded, nothing taken over
        from scrapy_boilerplate.crawl.recovery import HeldItemRecovery

        HeldItemRecovery.start = lambda self, **_: None  # type: ignore[method-assign]
    export = _appender(spec["exported"])
    process = CrawlerProcess(spec["settings"])
    crawler = process.create_crawler(worker_spider(spec["seeds"], spec["yielded"]))

    def scraped(item: dict[str, Any], **_: Any) -> None:
        export({"url": item["url"], "model": item.get("boilerplate_model")})

    crawler.signals.connect(scraped, signal=signals.item_scraped)
    process.crawl(crawler)
    process.start()
    stats = {k: v for k, v in crawler.stats.get_stats().items() if isinstance(v, (int, float))}
    Path(spec["stats"]).write_text(json.dumps(stats))


# -- the parent's side ------------------------------------------------------------------------
@dataclass
class Worker:
    process: subprocess.Popen
    exported: Path
    yielded: Path
    stats: Path

    def lines(self, path: Path) -> list[dict[str, Any]]:
        """The JSON lines of ``path`` (a line torn by a kill is left out)."""
        out = []
        for line in path.read_text().splitlines() if path.exists() else []:
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
        return out


@dataclass
class Outcome:
    expected: int
    exported: list[dict[str, Any]]
    yielded_by_killed: set[str]
    wall: float
    stats: dict[str, float] = field(default_factory=dict)
    held_at_kill: int = 0

    def row(self) -> dict[str, Any]:
        counts = Counter(item["url"] for item in self.exported)
        lost = self.expected - len(counts)
        in_pipelines = len(self.yielded_by_killed - set(counts))
        fallback = sum(1 for item in self.exported if str(item["model"]).endswith(FALLBACK_MARK))
        untouched = sum(1 for item in self.exported if item["model"] is None)
        return {
            "expected": self.expected,
            "exported": len(self.exported),
            "unique": len(counts),
            "duplicated": sum(n - 1 for n in counts.values()),
            "lost": lost,
            "lost in plugin": in_pipelines,
            "lost in Scrapy": lost - in_pipelines,
            "site model": len(self.exported) - fallback - untouched,
            "fallback": fallback,
            "untouched": untouched,
            "wall s": round(self.wall, 1),
        }


def start_worker(name: str, workdir: Path, seeds: list[str], settings: dict[str, Any], env: dict[str, str]) -> Worker:
    paths = {part: workdir / f"{name}-{part}" for part in ("exported", "yielded", "stats", "spec")}
    settings = {**settings, "LOG_FILE": str(workdir / f"{name}.log")}
    spec = {"seeds": seeds, "settings": settings, **{k: str(v) for k, v in paths.items() if k != "spec"}}
    paths["spec"].write_text(json.dumps(spec))
    process = subprocess.Popen([sys.executable, __file__, str(paths["spec"])], env=env, stdout=subprocess.DEVNULL)
    return Worker(process, paths["exported"], paths["yielded"], paths["stats"])


def base_settings(delay: float) -> dict[str, Any]:
    return {
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "ADDONS": {"scrapy_boilerplate.Addon": 500},
        "DOWNLOAD_DELAY": delay,
    }


def serve_sites(stack: ExitStack, root: Path, sites: int, pages: int, tag: str) -> list[str]:
    """Write and serve ``sites`` linked sites; the URLs of all their pages, site after site."""
    seeds = []
    for i in range(sites):
        write_linked_site(root / f"{tag}{i}", f"{tag}{i}.example", pages, seed=i)
        base = stack.enter_context(serve_directory(root / f"{tag}{i}"))
        seeds += [f"{base}/article/{n}.html" for n in range(pages)]
    return seeds


def print_table(title: str, rows: list[tuple[str, Outcome]], extra: dict[str, str]) -> None:
    """One row per run: the counts of :meth:`Outcome.row`, then ``extra`` (column -> stats key)."""
    print(title)
    columns = list(rows[0][1].row()) + list(extra)
    print(f"{'run':<30}" + "".join(f"{c:>15}" for c in columns))
    for name, outcome in rows:
        values = {**outcome.row(), **{column: outcome.stats.get(key, 0) for column, key in extra.items()}}
        if "held at kill" in extra:
            values["held at kill"] = outcome.held_at_kill
        print(f"{name:<30}" + "".join(f"{values[c]!s:>15}" for c in columns))
    for name, outcome in rows:
        for what, prefix in (("fallback", FALLBACK_REASON), ("untouched", SKIP_REASON)):
            reasons = {k.rpartition("/")[2]: v for k, v in outcome.stats.items() if k.startswith(prefix)}
            if reasons:
                print(f"  {name}: {what} reasons (the worker that ran to the end): {reasons}")
    print()


if __name__ == "__main__":
    child(sys.argv[1])
