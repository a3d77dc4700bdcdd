"""Crawl cost of the plugin: a local 2,000-page, 10-site corpus crawled with the plugin on and off.

``python benchmarks/bench_crawl.py [--sites 10] [--pages 200] [--repeat 3] [--model SPEC]``

Each crawl runs in its own process; the script reports its wall time, CPU time (user + system of
the crawler process, from ``wait4``) and peak RSS, the medians over ``--repeat`` runs, and the
on/off ratios.  ``--model bench_noop`` uses a model that does no work, which isolates the plugin's
own overhead (sampling, holding, threads) from the cost of the site model.  The HTTP servers run
in this process, so their CPU is not counted.  A plugin-off crawl never imports the package (nor
numpy, which it imports), so the plugin's import cost, ~0.16 CPU s, is counted on its side.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def register_noop_model() -> None:
    """Register ``bench_noop``: keeps everything and parses nothing, the plugin's overhead without a model's cost.

    Defined here, not at module level, so that a plugin-off child imports nothing of the package.
    """
    from scrapy_boilerplate.models.base import CleanedPage, SiteModel
    from scrapy_boilerplate.models.registry import register
    from scrapy_boilerplate.page import Page

    class NoopModel(SiteModel):
        name = "bench_noop"

        def _fit(self, pages: list[Page]) -> None:
            return None

        def _clean(self, page: Page) -> CleanedPage:
            return CleanedPage(page.html, page.html, self.name, len(page.html), len(page.html))

    register(NoopModel)


def bench_spider(seeds: list[str], follow_links: bool) -> type:
    """A spider that yields each page's URL and HTML from ``seeds`` (and the article links it finds)."""
    import scrapy

    class BenchSpider(scrapy.Spider):
        name = "bench"

        async def start(self):  # noqa: ANN201
            for url in seeds:
                yield scrapy.Request(url)

        def parse(self, response):  # noqa: ANN001, ANN201
            yield {"url": response.url, "html": response.text}
            if follow_links:
                yield from response.follow_all(css="a[href*='/article/']")

    return BenchSpider


def child(spec_path: str) -> None:
    """Run one crawl (in the child process)."""
    from scrapy.crawler import CrawlerProcess

    spec = json.loads(Path(spec_path).read_text())
    if spec["plugin"]:
        register_noop_model()
    BenchSpider = bench_spider(spec["seeds"], follow_links=True)

    settings = {
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "CONCURRENT_REQUESTS": 16,
        "FEEDS": {spec["feed"]: {"format": "jsonlines", "overwrite": True}},
    }
    if spec["plugin"]:
        settings.update(
            {"ADDONS": {"scrapy_boilerplate.Addon": 500}, "BOILERPLATE_MODEL": spec["model"], **spec["settings"]}
        )
    process = CrawlerProcess(settings)
    process.crawl(BenchSpider)
    process.start()


def serve_corpus(stack: ExitStack, workdir: Path, sites: int, pages: int) -> list[str]:
    """Write ``sites`` linked sites of ``pages`` pages under ``workdir``, serve each on a loopback port
    until ``stack`` closes, and return their seed URLs."""
    from scrapy_boilerplate.testing.localsite import SEED_PATH, serve_directory, write_linked_site

    seeds = []
    for i in range(sites):
        site = workdir / f"site{i}"
        write_linked_site(site, f"site{i}.example", pages, seed=i)
        seeds.append(stack.enter_context(serve_directory(site)) + SEED_PATH)
    return seeds


def crawl(
    seeds: list[str], plugin: bool, model: str, workdir: Path, settings: dict[str, str], script: str = __file__
) -> dict[str, float]:
    """Run one crawl in a child process (``script --child SPEC``); wall seconds, CPU seconds, peak RSS (MiB), items."""
    feed = workdir / f"items-{'on' if plugin else 'off'}.jsonl"
    spec = workdir / "spec.json"
    # A fresh model store per crawl, so every run fits (--set BOILERPLATE_STORE=DIR keeps models across runs).
    store = tempfile.mkdtemp(prefix="models-", dir=workdir)
    spec.write_text(
        json.dumps(
            {
                "seeds": seeds,
                "plugin": plugin,
                "model": model,
                "feed": str(feed),
                "settings": {"BOILERPLATE_STORE": store, **settings},
            }
        )
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, script, "--child", str(spec)], env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"crawl failed with exit code {proc.returncode}")
    items = sum(1 for _ in feed.open())
    cleaned = sum(1 for line in feed.open() if '"text":' in line)
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss_mib": usage.ru_maxrss / 1024,
        "items": items,
        "cleaned": cleaned,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=10)
    parser.add_argument("--pages", type=int, default=200, help="pages per site")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--model", default="pvalue", help="BOILERPLATE_MODEL spec (bench_noop: no work)")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="extra Scrapy setting for the plugin-on crawl (repeatable)",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    extra = dict(item.split("=", 1) for item in args.set)
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        workdir = Path(tmp)
        seeds = serve_corpus(stack, workdir, args.sites, args.pages)
        runs: dict[bool, list[dict[str, float]]] = {True: [], False: []}
        for _ in range(args.repeat):
            for plugin in (False, True):
                runs[plugin].append(crawl(seeds, plugin, args.model, workdir, extra))
    med = {p: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for p, rs in runs.items()}
    print(
        f"corpus: {args.sites} sites x {args.pages} pages; model {args.model} {extra or ''}; "
        f"median of {args.repeat} runs"
    )
    print(f"{'':12}{'wall s':>9}{'cpu s':>9}{'peak MiB':>10}{'items':>7}{'cleaned':>9}")
    for plugin, label in ((False, "plugin off"), (True, "plugin on")):
        m = med[plugin]
        print(f"{label:12}{m['wall']:9.2f}{m['cpu']:9.2f}{m['rss_mib']:10.0f}{m['items']:7.0f}{m['cleaned']:9.0f}")
    ratios = [(k, med[True][k] / med[False][k]) for k in ("wall", "cpu", "rss_mib")]
    print("ratio on/off " + "  ".join(f"{k} {r:.2f}" for k, r in ratios))


if __name__ == "__main__":
    main()
