"""Crawls with faults: a scrapy-redis worker SIGKILLed mid-crawl, and a model store that cannot be used.

    python benchmarks/fault_crawl.py [--sites 5] [--pages 60] [--kill-at 2,4,8] [--delay 0.1]
                                     [--sample-size 3] [--store-sites 40] [--store-pages 6]
                                     [--only kill|store] [--keep DIR]

**Killed worker.** Serves ``--sites`` synthetic sites of ``--pages`` pages on localhost, starts a
private ``redis-server`` (or uses ``--redis URL``) and two workers on one scrapy-redis queue and
dupefilter, with the shared Redis model store.  Each worker requests every page (the shared
dupefilter lets each through once).  One worker is SIGKILLed ``--kill-at`` seconds after its first
item (starting a Scrapy process takes seconds, more on a loaded machine); the other runs to the
end.  Each kill time is run twice: as shipped, and with held-item recovery turned off in the
workers (what the plugin held then dies with the worker).

**Failing store.** One worker crawls ``--store-sites`` sites of ``--store-pages`` pages with a
directory store that works, then with one whose path lies under a regular file (every read and
write fails).

An item is *exported* when Scrapy's ``item_scraped`` fires for it (each worker appends it to a file
at once, so a killed worker's exports are all on disk).  Of the pages never exported, those whose
item the killed worker's spider had yielded were lost in the item pipelines (the plugin's hold:
the plugin is the only pipeline); the others were lost inside Scrapy (being downloaded or parsed).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_distributed import redis_server  # noqa: E402

from scrapy_boilerplate.testing.localsite import serve_directory, write_linked_site  # noqa: E402

FALLBACK_MARK = " (fallback)"
NO_RECOVERY_ENV = "BOILERPLATE_BENCH_NO_RECOVERY"


# -- one worker (in its own process) -------------------------------------------------------------
def _appender(path: str):  # noqa: ANN202 - a writer of one JSON line, unbuffered
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    return lambda record: os.write(fd, (json.dumps(record) + "\n").encode())


def worker_spider(seeds: list[str], yielded: str) -> type:
    """A spider that requests every URL of ``seeds`` and yields each page's URL and HTML (noting
    each yielded URL in ``yielded``)."""
    import scrapy

    note = _appender(yielded)

    class FaultSpider(scrapy.Spider):
        name = "fault"

        async def start(self):  # noqa: ANN201
            for url in seeds:
                yield scrapy.Request(url)

        def parse(self, response):  # noqa: ANN001, ANN201
            note({"url": response.url})
            yield {"url": response.url, "html": response.text}

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


# -- the parent: start workers, kill one, count ---------------------------------------------------
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
        return {
            "expected": self.expected,
            "exported": len(self.exported),
            "unique": len(counts),
            "duplicated": sum(n - 1 for n in counts.values()),
            "lost": lost,
            "lost in plugin": in_pipelines,
            "lost in Scrapy": lost - in_pipelines,
            "site model": len(self.exported) - fallback,
            "fallback": fallback,
            "wall s": round(self.wall, 1),
        }


def start_worker(name: str, workdir: Path, seeds: list[str], settings: dict[str, Any], env: dict[str, str]) -> Worker:
    paths = {part: workdir / f"{name}-{part}" for part in ("exported", "yielded", "stats", "spec")}
    settings = {**settings, "LOG_FILE": str(workdir / f"{name}.log")}
    spec = {"seeds": seeds, "settings": settings, **{k: str(v) for k, v in paths.items() if k != "spec"}}
    paths["spec"].write_text(json.dumps(spec))
    process = subprocess.Popen(
        [sys.executable, __file__, "--child", str(paths["spec"])], env=env, stdout=subprocess.DEVNULL
    )
    return Worker(process, paths["exported"], paths["yielded"], paths["stats"])


def held_records(url: str, prefix: str, pid: int) -> int:
    """Items that the worker of process ``pid`` has recorded as waiting, on the Redis server."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        names = client.scan_iter(f"{prefix}:held:*{quote(f':{pid}:')}*")  # a worker's name holds its process id
        return sum(client.hlen(name) for name in names)
    finally:
        client.close()


def base_settings(delay: float) -> dict[str, Any]:
    return {
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "ADDONS": {"scrapy_boilerplate.Addon": 500},
        "DOWNLOAD_DELAY": delay,
    }


def killed_worker_run(
    args: argparse.Namespace, seeds: list[str], url: str, workdir: Path, kill_at: float, recovery: bool
) -> Outcome:
    """Two workers on one scrapy-redis crawl; the first is SIGKILLed ``kill_at`` s after its first item."""
    prefix = f"fault-{uuid.uuid4().hex}"
    settings = {
        **base_settings(args.delay),
        "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        "SCHEDULER_PERSIST": True,
        "SCHEDULER_QUEUE_KEY": f"{prefix}:%(spider)s:requests",
        "SCHEDULER_DUPEFILTER_KEY": f"{prefix}:%(spider)s:dupefilter",
        "REDIS_URL": url,
        "BOILERPLATE_STORE": "redis",
        "BOILERPLATE_STORE_PREFIX": prefix,
        "BOILERPLATE_SAMPLE_SIZE": args.sample_size,
    }
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    if not recovery:
        env[NO_RECOVERY_ENV] = "1"
    started = time.perf_counter()
    doomed, survivor = (start_worker(f"{prefix}-{n}", workdir, seeds, settings, env) for n in range(2))
    while not doomed.lines(doomed.yielded):  # its crawl started (a process start takes seconds)
        if doomed.process.poll() is not None or time.perf_counter() - started > 120:
            raise SystemExit("the worker to kill never yielded an item")
        time.sleep(0.05)
    time.sleep(kill_at)
    held = held_records(url, prefix, doomed.process.pid)
    os.kill(doomed.process.pid, signal.SIGKILL)
    doomed.process.wait()
    if survivor.process.wait(timeout=600) != 0:
        raise SystemExit(f"the surviving worker failed with exit code {survivor.process.returncode}")
    return Outcome(
        expected=args.sites * args.pages,
        exported=doomed.lines(doomed.exported) + survivor.lines(survivor.exported),
        yielded_by_killed={line["url"] for line in doomed.lines(doomed.yielded)},
        wall=time.perf_counter() - started,
        stats=json.loads(survivor.stats.read_text()),
        held_at_kill=held,
    )


def store_run(args: argparse.Namespace, seeds: list[str], store: str, workdir: Path) -> Outcome:
    """One worker with ``store`` as its model store."""
    settings = {**base_settings(0.0), "BOILERPLATE_STORE": store}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    started = time.perf_counter()
    worker = start_worker(f"store-{uuid.uuid4().hex}", workdir, seeds, settings, env)
    if worker.process.wait(timeout=900) != 0:
        raise SystemExit(f"the worker failed with exit code {worker.process.returncode}")
    return Outcome(
        expected=args.store_sites * args.store_pages,
        exported=worker.lines(worker.exported),
        yielded_by_killed=set(),
        wall=time.perf_counter() - started,
        stats=json.loads(worker.stats.read_text()),
    )


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
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=5)
    parser.add_argument("--pages", type=int, default=60, help="pages per site")
    parser.add_argument(
        "--kill-at",
        default="2,4,8",
        help="seconds after the killed worker's first item (comma-separated: one run each)",
    )
    parser.add_argument("--delay", type=float, default=0.1, help="DOWNLOAD_DELAY of each worker")
    parser.add_argument("--sample-size", type=int, default=3, help="BOILERPLATE_SAMPLE_SIZE")
    parser.add_argument("--store-sites", type=int, default=40)
    parser.add_argument("--store-pages", type=int, default=6)
    parser.add_argument("--redis", default=None, help="redis://... (default: a private redis-server)")
    parser.add_argument("--only", choices=("kill", "store"), default=None, help="run one of the two crawls")
    parser.add_argument("--keep", default=None, help="a folder to keep the workers' logs and files in")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        workdir = Path(args.keep or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        if args.only != "store":
            killed_worker_crawl(args, stack, workdir)
        if args.only != "kill":
            failing_store_crawl(args, stack, workdir)


def killed_worker_crawl(args: argparse.Namespace, stack: ExitStack, workdir: Path) -> None:
    seeds = serve_sites(stack, workdir, args.sites, args.pages, "site")
    url = stack.enter_context(redis_server(args.redis, workdir))
    runs = [
        (f"{name}, kill at {kill_at:g} s", killed_worker_run(args, seeds, url, workdir, kill_at, recovery))
        for kill_at in (float(t) for t in args.kill_at.split(","))
        for name, recovery in (("recovery on", True), ("recovery off", False))
    ]
    print_table(
        f"killed worker: 2 workers, {args.sites} sites x {args.pages} pages, DOWNLOAD_DELAY {args.delay} s, "
        f"sample size {args.sample_size}, one worker SIGKILLed some seconds after its first item",
        runs,
        {"held at kill": "", "taken over": "boilerplate/recovery/claimed"},
    )


def failing_store_crawl(args: argparse.Namespace, stack: ExitStack, workdir: Path) -> None:
    seeds = serve_sites(stack, workdir, args.store_sites, args.store_pages, "store")
    (workdir / "a-file").write_text("")
    runs = [
        ("store works", store_run(args, seeds, str(workdir / "models"), workdir)),
        ("store under a file", store_run(args, seeds, str(workdir / "a-file" / "models"), workdir)),
    ]
    print_table(
        f"failing store: 1 worker, {args.store_sites} sites x {args.store_pages} pages",
        runs,
        {"fitted": "boilerplate/models/fitted", "store errors": "boilerplate/store/errors"},
    )


if __name__ == "__main__":
    main()
