"""A distributed crawl on scrapy-redis with the shared model store: 1 worker against N workers.

``python benchmarks/bench_distributed.py [--sites 4] [--pages 60] [--workers 1,3] [--delay 0.05]``

Serves a synthetic corpus on localhost, starts a private ``redis-server`` (or uses ``--redis URL``),
and for each worker count runs that many crawler processes at once on one scrapy-redis queue.
``--delay`` (DOWNLOAD_DELAY per worker) stands in for network latency, which is what adding workers
buys back.  Prints wall time, items, fits, models picked up from other workers and items cleaned by
the fallback, summed over the workers.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scrapy_boilerplate.testing.localsite import serve_directory, write_linked_site  # noqa: E402


def seeds_spider(seeds: list[str]) -> type:
    """A spider that yields each seed page's URL and HTML."""
    import scrapy

    class SeedsSpider(scrapy.Spider):
        name = "bench"

        async def start(self):
            for url in seeds:
                yield scrapy.Request(url)

        def parse(self, response):
            yield {"url": response.url, "html": response.text}

    return SeedsSpider


def child(spec_path: str) -> None:
    """One worker (in its own process): crawl every start URL through the shared queue."""
    from scrapy.crawler import CrawlerProcess

    spec = json.loads(Path(spec_path).read_text())
    process = CrawlerProcess(spec["settings"])
    crawler = process.create_crawler(seeds_spider(spec["seeds"]))
    process.crawl(crawler)
    process.start()
    stats = {k: v for k, v in crawler.stats.get_stats().items() if isinstance(v, (int, float))}
    Path(spec["stats"]).write_text(json.dumps(stats))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def redis_server(url: str | None, workdir: Path):
    """The given server, or a private one started (and shut down) here."""
    if url:
        yield url
        return
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server is not installed; pass --redis URL")
    port = _free_port()
    subprocess.run(
        [
            "redis-server",
            "--port",
            str(port),
            "--daemonize",
            "yes",
            "--save",
            "",
            "--dir",
            str(workdir),
            "--pidfile",
            str(workdir / "redis.pid"),
        ],
        check=True,
    )
    import redis

    client = redis.Redis(port=port)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        with contextlib.suppress(redis.RedisError):
            client.shutdown(nosave=True)


def redis_worker_settings(url: str, prefix: str) -> dict[str, object]:
    """The settings of a scrapy-redis worker whose queue, dupefilter and model store live on ``url``
    under keys starting with ``prefix`` (a fresh prefix: a crawl of its own)."""
    return {
        "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        "SCHEDULER_PERSIST": True,
        "SCHEDULER_QUEUE_KEY": f"{prefix}:%(spider)s:requests",
        "SCHEDULER_DUPEFILTER_KEY": f"{prefix}:%(spider)s:dupefilter",
        "REDIS_URL": url,
        "BOILERPLATE_STORE": "redis",
        "BOILERPLATE_STORE_PREFIX": prefix,
    }


def run(workers: int, seeds: list[str], url: str, delay: float, workdir: Path) -> dict[str, float]:
    """``workers`` processes on one fresh queue and store; summed stats and the wall time."""
    prefix = f"bench-{uuid.uuid4().hex}"
    settings = {
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "ADDONS": {"scrapy_boilerplate.Addon": 500},
        "DOWNLOAD_DELAY": delay,
        **redis_worker_settings(url, prefix),
        "BOILERPLATE_SAMPLE_SIZE": 20,
    }
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    procs, stats_files = [], []
    started = time.perf_counter()
    for n in range(workers):
        spec, stats = workdir / f"spec-{prefix}-{n}.json", workdir / f"stats-{prefix}-{n}.json"
        spec.write_text(json.dumps({"seeds": seeds, "settings": settings, "stats": str(stats)}))
        procs.append(subprocess.Popen([sys.executable, __file__, "--child", str(spec)], env=env))
        stats_files.append(stats)
    for proc in procs:
        if proc.wait() != 0:
            raise SystemExit(f"a worker failed with exit code {proc.returncode}")
    wall = time.perf_counter() - started
    totals: dict[str, float] = {"wall": wall}
    for path in stats_files:
        for key, value in json.loads(path.read_text()).items():
            totals[key] = totals.get(key, 0) + value
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=4)
    parser.add_argument("--pages", type=int, default=60, help="pages per site")
    parser.add_argument("--workers", default="1,3", help="comma-separated worker counts")
    parser.add_argument("--delay", type=float, default=0.05, help="DOWNLOAD_DELAY of each worker")
    parser.add_argument("--redis", default=None, help="redis://... (default: a private redis-server)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        workdir = Path(tmp)
        seeds = []
        for i in range(args.sites):
            write_linked_site(workdir / f"site{i}", f"site{i}.example", args.pages, seed=i)
            base = stack.enter_context(serve_directory(workdir / f"site{i}"))
            seeds += [f"{base}/article/{n}.html" for n in range(args.pages)]
        url = stack.enter_context(redis_server(args.redis, workdir))
        print(
            f"corpus: {args.sites} sites x {args.pages} pages; DOWNLOAD_DELAY {args.delay} s per worker; "
            f"sample size 20; model pvalue"
        )
        print(f"{'workers':>8}{'wall s':>9}{'items':>7}{'fitted':>8}{'shared':>8}{'fallback':>10}{'errors':>8}")
        for workers in (int(n) for n in args.workers.split(",")):
            t = run(workers, seeds, url, args.delay, workdir)
            print(
                f"{workers:8d}{t['wall']:9.2f}{t.get('item_scraped_count', 0):7.0f}"
                f"{t.get('boilerplate/models/fitted', 0):8.0f}{t.get('boilerplate/models/shared', 0):8.0f}"
                f"{t.get('boilerplate/items/fallback', 0):10.0f}{t.get('boilerplate/store/errors', 0):8.0f}"
            )


if __name__ == "__main__":
    main()
