"""Live crawls of real pages: the plugin against no cleaning and against a trafilatura or
readability-lxml item pipeline, on the same pages in the same run.

``python benchmarks/bench_crawl.py DRAGNET_DIR [--cases 4-sites,40-sites-c16,...] [--modes off,plugin,...]
[--model SPEC] [--repeat N] [--set NAME=VALUE] [--wcxb WCXB_DIR]``

The pages are the data set's, read by path and served by one local HTTP server that every crawl
reaches as its proxy, so each site has a domain of its own (``s12.bench``) and a front page linking
its pages.  The spider yields ``{"url", "title"}`` per page (no HTML: the plugin cleans from the
response); the peer pipelines get the HTML in the item, extract the text and drop the HTML, so
every feed has the same shape.  Each crawl runs in its own process; CPU is user + system time of
that process (the server's is not counted), RSS its peak.

Modes: ``off`` (no cleaning), ``plugin`` (the add-on with ``--model``, default the crawl's default),
``plugin:SPEC`` (the add-on with model SPEC, e.g. ``plugin:style_tree``: several models in one run),
``noop`` (the add-on with a model that does nothing: the plumbing alone), ``fields`` (the add-on
with every record field on: Markdown, title, author, date, language, page type; not run unless
named), ``trafilatura``, ``readability``.  Cases are named in CASES.  The ``hosts`` case serves each
site home page first, then section pages, then the leaf pages that yield the items
(:mod:`bench_crawl_hosts`; WCXB's multi-page hosts too with ``--wcxb``, an unpacked copy) and scores
the items against the gold.
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
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_crawl_hosts import UNFITTED_MARKS, offline_f1, score_items  # noqa: E402
from bench_crawl_server import serve_sites  # noqa: E402

STARTPROJECT = {"ROBOTSTXT_OBEY": True, "CONCURRENT_REQUESTS_PER_DOMAIN": 1, "DOWNLOAD_DELAY": 1}


@dataclass(frozen=True)
class Case:
    """One benchmark crawl: which sites (how many, of how many pages) and which Scrapy settings."""

    sites: int
    min_pages: int
    max_pages: int
    settings: dict[str, Any] = field(default_factory=dict)
    plugin_settings: dict[str, Any] = field(default_factory=dict)
    reuse_sites: bool = False  # more domains than the data set has sites: domains share sites' pages
    layout: str = "flat"  # "hosts": home page, section pages, leaf pages (see bench_crawl_hosts)
    min_leaves: int = 3  # hosts layout: WCXB hosts with at least this many leaf pages


CASES: dict[str, Case] = {
    "4-sites": Case(4, 15, 30, {"CONCURRENT_REQUESTS": 16}),
    "40-sites-c1": Case(40, 6, 30, {"CONCURRENT_REQUESTS": 1}),
    "40-sites-c16": Case(40, 6, 30, {"CONCURRENT_REQUESTS": 16}),
    "40-sites-c64": Case(40, 6, 30, {"CONCURRENT_REQUESTS": 64, "CONCURRENT_REQUESTS_PER_DOMAIN": 8}),
    "40-sites-startproject": Case(40, 6, 30, dict(STARTPROJECT)),
    "broad-300x6": Case(300, 6, 6, {"CONCURRENT_REQUESTS": 16}, {"BOILERPLATE_SAMPLE_SIZE": 5}, reuse_sites=True),
    "broad-600x6": Case(600, 6, 6, {"CONCURRENT_REQUESTS": 16}, {"BOILERPLATE_SAMPLE_SIZE": 5}, reuse_sites=True),
    "broad-1200x6": Case(1200, 6, 6, {"CONCURRENT_REQUESTS": 16}, {"BOILERPLATE_SAMPLE_SIZE": 5}, reuse_sites=True),
    "hosts": Case(40, 6, 30, {"CONCURRENT_REQUESTS": 16}, layout="hosts"),
}
MODES = ("off", "plugin", "noop", "trafilatura", "readability")


def is_plugin(mode: str) -> bool:
    """True for the modes that run the add-on (``plugin``, ``plugin:SPEC``, ``noop``, ``fields``)."""
    return mode in ("noop", "fields") or mode.partition(":")[0] == "plugin"


def every_record_field() -> dict[str, str]:
    """The settings that write every record field (Markdown and metadata), each to its own name."""
    from scrapy_boilerplate.crawl.config import RECORD_SETTINGS

    return {setting: name for name, setting in RECORD_SETTINGS.items()}


NOOP_TEXT = "the main text of this page, not looked for"


def register_noop_model() -> None:
    """``bench_noop``: fits nothing, cleans without parsing to a fixed text of a few words (enough that
    the empty-text rescue, which parses the page, never runs): the plugin's plumbing alone."""
    from scrapy_boilerplate.models.base import CleanedPage, SiteModel
    from scrapy_boilerplate.models.registry import register

    class NoopModel(SiteModel):
        name = "bench_noop"

        def _fit(self, pages: list[Any]) -> None:
            return None

        def _clean(self, page: Any) -> CleanedPage:
            return CleanedPage(NOOP_TEXT, "", self.name, len(page.html), len(NOOP_TEXT))

    register(NoopModel)


def peer_pipeline(name: str) -> type:
    """An item pipeline that extracts the main text of the item's ``html`` with peer ``name``."""
    from scrapy_boilerplate.evaluation.peers import load_peer

    extract = load_peer(name)

    class PeerPipeline:
        def process_item(self, item: dict[str, Any], spider: Any = None) -> dict[str, Any]:
            item["text"] = extract(item.pop("html"))
            return item

    return PeerPipeline


def bench_spider(fronts: list[str], html_in_item: bool, layout: str = "flat") -> type:
    """Front page of each site (not cleaned) -> its pages -> one ``{"url", "title"}`` item each.  The
    hosts layout: home page -> section pages (and the host's other pages) -> leaf pages, all crawled
    as any page, items from the leaf pages only."""
    import scrapy

    front_meta = {} if layout == "hosts" else {"dont_clean_boilerplate": True}

    class BenchSpider(scrapy.Spider):
        name = "bench"

        async def start(self):
            for url in fronts:
                yield scrapy.Request(url, callback=self.parse_front, meta=front_meta)

        def parse_front(self, response):
            yield from response.follow_all(css="a.section", callback=self.parse_front)
            yield from response.follow_all(css="a.other", callback=self.parse_other)
            yield from response.follow_all(css="a.page", callback=self.parse_page)

        def parse_other(self, response):
            return []

        def parse_page(self, response):
            item = {"url": response.url, "title": response.css("title::text").get()}
            if html_in_item:
                item["html"] = response.text
            yield item

    return BenchSpider


def child(spec_path: str) -> None:
    """Run one crawl (in the child process)."""
    from scrapy.crawler import CrawlerProcess

    spec = json.loads(Path(spec_path).read_text())
    mode, _, model = spec["mode"].partition(":")
    settings: dict[str, Any] = {
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "DOWNLOAD_DELAY": 0,
        "FEEDS": {spec["feed"]: {"format": "jsonlines", "overwrite": True}},
        **spec["settings"],
    }
    if is_plugin(spec["mode"]):
        if mode == "noop":
            register_noop_model()
        settings.update({"ADDONS": {"scrapy_boilerplate.Addon": 500}, **spec["plugin_settings"]})
        if mode == "noop":
            settings["BOILERPLATE_MODEL"] = "bench_noop"
        elif mode == "fields":
            settings.update(every_record_field())
        elif model:
            settings["BOILERPLATE_MODEL"] = model
    elif mode != "off":
        settings["ITEM_PIPELINES"] = {peer_pipeline(mode): 300}
    process = CrawlerProcess(settings)
    spider = bench_spider(spec["fronts"], not (mode == "off" or is_plugin(mode)), spec.get("layout", "flat"))
    crawler = process.create_crawler(spider)
    process.crawl(crawler)
    process.start()
    stats = {k: v for k, v in crawler.stats.get_stats().items() if isinstance(v, (int, float, str))}
    Path(spec["stats"]).write_text(json.dumps(stats))


def crawl(
    case: Case, mode: str, fronts: list[str], proxy: str, workdir: Path, extra: dict[str, Any], script: str = __file__
) -> dict[str, Any]:
    """One crawl in a child process (``script --child SPEC``): wall, CPU, peak RSS, and what its feed holds."""
    label = mode.replace(":", "-")
    feed, stats, spec = workdir / f"items-{label}.jsonl", workdir / f"stats-{label}.json", workdir / "spec.json"
    store = tempfile.mkdtemp(prefix="models-", dir=workdir)  # every crawl fits afresh
    plugin_settings = {"BOILERPLATE_STORE": store, **case.plugin_settings, **extra}
    spec.write_text(
        json.dumps(
            {
                "mode": mode,
                "fronts": fronts,
                "feed": str(feed),
                "stats": str(stats),
                "settings": case.settings,
                "plugin_settings": plugin_settings,
                "layout": case.layout,
            }
        )
    )
    env = {**os.environ, "http_proxy": proxy, "no_proxy": "", "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, script, "--child", str(spec)], env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{mode} crawl failed")
    items = [json.loads(line) for line in feed.open()]
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss": usage.ru_maxrss / 1024,
        "items": items,
        "stats": json.loads(stats.read_text()),
    }


def site_model_shares(items: list[dict[str, Any]], pages: dict[str, int], sample_size: int) -> tuple[float, int, int]:
    """Over the domains with at least ``sample_size`` pages: the smallest share of items cleaned by
    the domain's own model, and how many domains have at least 98% (of how many)."""
    by_domain: dict[str, Counter[bool]] = {}
    for item in items:
        domain = item["url"].split("/")[2]
        model = item.get("boilerplate_model") or ""
        by_domain.setdefault(domain, Counter())[bool(model) and not model.endswith(UNFITTED_MARKS)] += 1
    full = [d for d, n in pages.items() if n >= sample_size]
    shares = [by_domain.get(d, Counter())[True] / pages[d] for d in full]
    return (min(shares) if shares else 1.0), sum(s >= 0.98 for s in shares), len(full)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", type=Path, nargs="?", help="the Dragnet data set (read by path, never copied)")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--model", default=None, help="BOILERPLATE_MODEL for the plugin mode (default: its default)")
    parser.add_argument("--repeat", type=int, default=1, help="crawls per mode and case (medians are shown)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="plugin setting")
    parser.add_argument("--json", type=Path, help="also write every figure here")
    parser.add_argument("--wcxb", type=Path, help="the hosts case: WCXB's development split, unpacked")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    if args.data_dir is None:
        parser.error("DATA_DIR is required")
    from scrapy_boilerplate.crawl.config import SETTINGS

    extra = dict(item.split("=", 1) for item in args.set)
    if args.model:
        extra["BOILERPLATE_MODEL"] = args.model
    results = {}
    for name in args.cases.split(","):
        case = CASES[name]
        sample_size = int(
            {**case.plugin_settings, **extra}.get(
                "BOILERPLATE_SAMPLE_SIZE", SETTINGS["BOILERPLATE_SAMPLE_SIZE"].default
            )
        )
        results[name] = run_case(name, case, args, extra, sample_size)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


def run_case(name: str, case: Case, args: argparse.Namespace, extra: dict[str, Any], sample_size: int) -> dict:
    """Crawl ``case`` in every mode, ``--repeat`` rounds of alternated modes; print and return the figures."""
    with tempfile.TemporaryDirectory() as tmp, serve_sites(args.data_dir, case, args.wcxb) as (proxy, fronts, leaves):
        runs: dict[str, list[dict[str, Any]]] = {mode: [] for mode in args.modes.split(",")}
        loads = []
        for _ in range(args.repeat):
            for mode in runs:
                runs[mode].append(crawl(case, mode, fronts, proxy, Path(tmp), extra))
                loads.append(os.getloadavg()[0])
    pages = {domain: len(paths) for domain, paths in leaves.items()}
    total = sum(pages.values())
    print(f"\n{name}: {len(pages)} domains, {total} pages, {case.settings}, sample size {sample_size}")
    print(f"load average (1 min) after each crawl: {min(loads):.1f}-{max(loads):.1f}")
    print(
        f"{'mode':22}{'wall s':>8}{'CPU s':>8}{'RSS MiB':>9}{'items':>7}{'once':>6}  site model (min share, sites >= 98%)"
    )
    summary: dict[str, Any] = {}
    for mode, rs in runs.items():
        med = {k: statistics.median(r[k] for r in rs) for k in ("wall", "cpu", "rss")}
        once = all(exported_once(r["items"], total) for r in rs)
        items = rs[-1]["items"]
        line = (
            f"{mode:22}{med['wall']:8.2f}{med['cpu']:8.2f}{med['rss']:9.0f}{len(items):7d}{'yes' if once else 'NO':>6}"
        )
        if is_plugin(mode):
            low, ok, full = min(site_model_shares(r["items"], pages, sample_size) for r in rs)
            line += f"  {low:.3f}, {ok} of {full}; {fallback_summary(rs[-1]['stats'])}"
            med.update(min_share=low, sites_ok=ok, sites_full=full, stats=rs[-1]["stats"])
        if case.layout == "hosts" and mode != "off":
            scored = score_items(items, leaf_urls(leaves))
            line += f"\n{'':22}leaf items {scored['leaf_items']}: F1 {scored['f1']:.4f}"
            if is_plugin(mode):
                line += f", by their template's fit {scored['fitted_share']:.1%}"
            med.update(scored)
        print(line)
        summary[mode] = {**med, "items": len(items), "exactly_once": once, "rounds": [r_figures(r) for r in rs]}
    print_ratios(summary)
    if case.layout == "hosts":
        offline = offline_f1(leaves, extra.get("BOILERPLATE_MODEL"), sample_size)
        print(f"  the same leaf pages offline (templates, sample of {sample_size}): F1 {offline:.4f}")
        return {"modes": summary, "offline_f1": offline}
    return summary


def leaf_urls(leaves: dict[str, list[Path]]) -> dict[str, Path]:
    """Each leaf page's URL in the crawl -> its file."""
    return {f"http://{domain}/p/{path.name}": path for domain, paths in leaves.items() for path in paths}


def exported_once(items: list[dict[str, Any]], total: int) -> bool:
    """True when the feed has every page's item exactly once."""
    counts = Counter(item["url"] for item in items)
    return len(counts) == total and set(counts.values()) == {1}


def r_figures(run: dict[str, Any]) -> dict[str, float]:
    return {k: run[k] for k in ("wall", "cpu", "rss")}


def fallback_summary(stats: dict[str, Any]) -> str:
    """Fits, and why items were not cleaned by their site's model, of one plugin crawl (its Scrapy stats)."""
    parts = [f"fitted {stats.get('boilerplate/models/fitted', 0)}"]
    for kind in ("fallback", "single_page"):
        prefix = f"boilerplate/items/{kind}/"
        reasons = ", ".join(f"{k[len(prefix) :]} {v}" for k, v in sorted(stats.items()) if k.startswith(prefix))
        parts.append(f"{kind.replace('_', ' ')}: {reasons or 'none'}")
    return ", ".join(parts)


def paired_ratio(summary: dict[str, Any], mode: str, key: str) -> float:
    """Median over rounds of ``mode``'s figure over plugin-off's of the same round."""
    pairs = zip(summary[mode]["rounds"], summary["off"]["rounds"], strict=True)
    return statistics.median(m[key] / o[key] for m, o in pairs)


def paired_extra_ratio(summary: dict[str, Any], mode: str, peer: str) -> float | None:
    """Median over rounds of ``mode``'s extra CPU over plugin-off's, divided by ``peer``'s, same round."""
    ratios = []
    for m, p, o in zip(summary[mode]["rounds"], summary[peer]["rounds"], summary["off"]["rounds"], strict=True):
        if p["cpu"] > o["cpu"]:
            ratios.append((m["cpu"] - o["cpu"]) / (p["cpu"] - o["cpu"]))
    return statistics.median(ratios) if ratios else None


def paired_ms_per_item(summary: dict[str, Any], mode: str, base: str) -> float:
    """Median over rounds of ``mode``'s CPU less ``base``'s of the same round, in milliseconds per item."""
    pairs = zip(summary[mode]["rounds"], summary[base]["rounds"], strict=True)
    return statistics.median(1000 * (m["cpu"] - b["cpu"]) / summary[mode]["items"] for m, b in pairs)


def print_ratios(summary: dict[str, Any]) -> None:
    """Each mode against plugin-off, round by round (medians): CPU, wall, and the extra CPU ratio."""
    if "off" not in summary:
        return
    for mode in summary:
        if mode == "off":
            continue
        line = (
            f"  {mode:20} CPU x{paired_ratio(summary, mode, 'cpu'):.2f} wall x{paired_ratio(summary, mode, 'wall'):.2f}"
        )
        if is_plugin(mode):
            for peer in ("trafilatura", "readability"):
                ratio = paired_extra_ratio(summary, mode, peer) if peer in summary else None
                if ratio is not None:
                    line += f"; extra CPU / {peer}'s {ratio:.2f}"
        if mode == "fields" and "plugin" in summary:
            line += f"; CPU over plugin's {paired_ms_per_item(summary, mode, 'plugin'):+.2f} ms per item"
        print(line)


if __name__ == "__main__":
    main()
