"""Run one real crawl in a fresh process: ``python -m helpers.crawl_harness SPEC.json`` (from ``tests/``).

SPEC: ``start_urls``, ``settings`` (merged over the test defaults), ``out`` (a folder that gets
``items.jsonl``, ``stats.json`` and ``crawl.log``), ``follow`` (regex of links to follow),
``item_type`` (dict, item, dataclass, attrs, without_text), ``opt_out`` (regex of URLs requested with
``dont_clean_boilerplate``), ``html_in_item`` (False: items carry no page, as a spider written
without the plugin in mind), ``items_per_page`` (a listing page's entries) and ``no_items`` (regex of
URLs whose pages yield no item, as a home or listing page).  Tests call
:func:`run_crawl`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.http import TextResponse


class PageItem(scrapy.Item):
    url = scrapy.Field()
    html = scrapy.Field()
    text = scrapy.Field()
    boilerplate_model = scrapy.Field()
    size = scrapy.Field()


@dataclasses.dataclass
class PageDataclass:
    url: str
    html: str | None = None
    size: int = 0
    text: str | None = None
    boilerplate_model: str | None = None


@attrs.define
class PageAttrs:
    url: str
    html: str | None = None
    size: int = 0
    text: str | None = None
    boilerplate_model: str | None = None


class TextSeenPipeline:
    """A user's pipeline at its usual position (300): records whether the item already had its text."""

    def process_item(self, item: Any, spider: Any = None) -> Any:  # Scrapy's hook
        if isinstance(item, dict):
            item["text_seen_by_user_pipeline"] = bool(item.get("text"))
        return item


ITEM_TYPES = {"dict": dict, "item": PageItem, "dataclass": PageDataclass, "attrs": PageAttrs}


def spider_with_item_lacking_text() -> type:
    """A SiteSpider naming (as a class attribute) an item class with ``html`` but no ``text``.

    Made on demand: a module-level class would be named by every crawl of this harness.
    """
    item_class = type(
        "PageItemWithoutText", (scrapy.Item,), {"url": scrapy.Field(), "html": scrapy.Field(), "size": scrapy.Field()}
    )
    ITEM_TYPES["without_text"] = item_class
    return type("SiteSpiderWithoutText", (SiteSpider,), {"item_class": item_class})


class SiteSpider(scrapy.Spider):
    """Yields one item per page (HTML in ``html`` when the response is text) and follows links."""

    name = "site"

    def __init__(self, spec: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = spec["start_urls"]
        self.follow = re.compile(spec.get("follow", r"/article/"))
        self.opt_out = re.compile(spec["opt_out"]) if spec.get("opt_out") else None
        self.item_cls = ITEM_TYPES[spec.get("item_type", "dict")]
        self.html_in_item = spec.get("html_in_item", True)
        self.items_per_page = spec.get("items_per_page", 1)
        self.no_items = re.compile(spec["no_items"]) if spec.get("no_items") else None

    def _request(self, url: str) -> scrapy.Request:
        meta = {"dont_clean_boilerplate": True} if self.opt_out and self.opt_out.search(url) else {}
        return scrapy.Request(url, callback=self.parse, meta=meta)

    async def start(self):  # an async generator of requests
        for url in self.start_urls:
            yield self._request(url)

    def parse(self, response):  # Scrapy callback
        is_text = isinstance(response, TextResponse)
        fields = {"url": response.url, "size": len(response.body)}
        if is_text and self.html_in_item:
            fields["html"] = response.text
        per_page = 0 if self.no_items and self.no_items.search(response.url) else self.items_per_page
        if per_page == 1:
            yield self.item_cls(**fields)
        for entry in range(per_page if per_page > 1 else 0):
            yield self.item_cls(**{**fields, "url": f"{response.url}#entry-{entry}"})
        if is_text and response.headers.get(b"Content-Type", b"").startswith(b"text/html"):
            for href in response.css("a::attr(href)").getall():
                url = response.urljoin(href)
                if self.follow.search(url):
                    yield self._request(url)


DEFAULT_SETTINGS: dict[str, Any] = {
    "ADDONS": {"scrapy_boilerplate.Addon": 500},
    "LOG_LEVEL": "INFO",
    "TELNETCONSOLE_ENABLED": False,
    "ROBOTSTXT_OBEY": False,
    "DOWNLOAD_DELAY": 0,
    "BOILERPLATE_MODEL": "pvalue",
}


TESTS_DIR = Path(__file__).resolve().parent.parent


def harness_command(module: str, spec_path: Path) -> list[str]:
    """The command line that runs ``helpers.<module>`` on ``spec_path`` in a new Python process."""
    return [sys.executable, "-m", f"helpers.{module}", str(spec_path)]


def harness_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This process's environment with ``tests/`` on the import path (for ``helpers``), plus ``extra``."""
    path = os.pathsep.join(filter(None, [str(TESTS_DIR), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, **(extra or {})}


def register_test_models() -> None:
    """Make the test-only models of :mod:`helpers.crawl_models` usable by name in this process."""
    from helpers import crawl_models
    from scrapy_boilerplate.models.registry import register

    for model in (
        crawl_models.CommonBlocks,
        crawl_models.Broken,
        crawl_models.ThreadReporter,
        crawl_models.CleanCounter,
        crawl_models.FitPages,
        crawl_models.PinnedBlocks,
    ):
        register(model)


def crawl_settings(spec: dict[str, Any]) -> dict[str, Any]:
    """The crawl's settings: the test defaults, its own log, feed and store under ``out``, then the spec's."""
    out = Path(spec["out"])
    return {
        **DEFAULT_SETTINGS,
        "LOG_FILE": str(out / "crawl.log"),
        "FEEDS": {str(out / "items.jsonl"): {"format": "jsonlines"}},
        "BOILERPLATE_STORE": str(out / "models"),  # each crawl starts without stored models
        **spec.get("settings", {}),
    }


def spider_class(spec: dict[str, Any]) -> type:
    """The spider the spec asks for."""
    return spider_with_item_lacking_text() if spec.get("item_type") == "without_text" else SiteSpider


def write_stats(out: Path, stats: dict[str, Any]) -> None:
    """Keep a finished crawl's stats (those JSON can hold) as ``out/stats.json``."""
    kept = {k: v for k, v in stats.items() if isinstance(v, (int, float, str))}
    (out / "stats.json").write_text(json.dumps(kept, indent=1, sort_keys=True))


def main(spec_path: str) -> None:
    register_test_models()
    spec = json.loads(Path(spec_path).read_text())
    process = CrawlerProcess(crawl_settings(spec))
    crawler = process.create_crawler(spider_class(spec))
    process.crawl(crawler, spec=spec)
    process.start()
    write_stats(Path(spec["out"]), crawler.stats.get_stats())


@dataclasses.dataclass
class CrawlResult:
    """What a finished crawl left behind."""

    items: list[dict[str, Any]]
    stats: dict[str, Any]
    log: str
    returncode: int


def run_crawl(
    out: Path, start_urls: list[str], settings: dict[str, Any] | None = None, timeout: float = 60, **spec: Any
) -> CrawlResult:
    """Run a crawl in a subprocess (each needs its own reactor) and read back what it wrote."""
    out.mkdir(parents=True, exist_ok=True)
    spec_path = out / "spec.json"
    spec_path.write_text(json.dumps({"out": str(out), "start_urls": start_urls, "settings": settings or {}, **spec}))
    proc = subprocess.run(
        harness_command("crawl_harness", spec_path), capture_output=True, text=True, timeout=timeout, env=harness_env()
    )
    return read_result(out, proc.returncode, proc.stderr)


def read_result(out: Path, returncode: int, stderr: str = "") -> CrawlResult:
    """What the crawl that wrote to ``out`` left there."""
    items_path, stats_path, log_path = out / "items.jsonl", out / "stats.json", out / "crawl.log"
    items = [json.loads(line) for line in items_path.read_text().splitlines()] if items_path.exists() else []
    stats = json.loads(stats_path.read_text()) if stats_path.exists() else {}
    log = (log_path.read_text() if log_path.exists() else "") + stderr
    return CrawlResult(items, stats, log, returncode)


if __name__ == "__main__":
    main(sys.argv[1])
