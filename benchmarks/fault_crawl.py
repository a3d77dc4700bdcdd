"""Crawls with faults: a scrapy-redis worker SIGKILLed mid-crawl, a model store that cannot be used,
and a crawl interrupted with Ctrl-C and resumed from its JOBDIR.

    python benchmarks/fault_crawl.py [--sites 5] [--pages 60] [--kill-at 2,4,8] [--delay 0.1]
                                     [--sample-size 3] [--store-sites 40] [--store-pages 6]
                                     [--interrupt-after 60] [--only kill|store|jobdir] [--keep DIR]

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

**Interrupted crawl.** One worker with a ``JOBDIR`` crawls the same small sites to the end; then
again in a new job directory, with one SIGINT (a Ctrl-C) once it has exported
``--interrupt-after`` items, and once more on that job directory, which resumes the crawl.

An item is *exported* when Scrapy's ``item_scraped`` fires for it (each worker appends it to a file
at once, so a killed worker's exports are all on disk).  Of the pages never exported, those whose
item the killed (or interrupted) worker's spider had yielded were lost in the item pipelines (the
plugin's hold: the plugin is the only pipeline); the others were lost inside Scrapy (being
downloaded or parsed).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_distributed import redis_server, redis_worker_settings  # noqa: E402
from fault_sites import DOWNLOAD_TIMEOUT, serve_faulty_sites  # noqa: E402
from fault_worker import NO_RECOVERY_ENV, Outcome, base_settings, print_table, serve_sites, start_worker  # noqa: E402


def held_records(url: str, prefix: str, pid: int) -> int:
    """Items that the worker of process ``pid`` has recorded as waiting, on the Redis server."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        names = client.scan_iter(f"{prefix}:held:*{quote(f':{pid}:')}*")  # a worker's name holds its process id
        return sum(client.hlen(name) for name in names)
    finally:
        client.close()


def killed_worker_run(
    args: argparse.Namespace, seeds: list[str], url: str, workdir: Path, kill_at: float, recovery: bool
) -> Outcome:
    """Two workers on one scrapy-redis crawl; the first is SIGKILLed ``kill_at`` s after its first item."""
    prefix = f"fault-{uuid.uuid4().hex}"
    settings = {
        **base_settings(args.delay),
        **redis_worker_settings(url, prefix),
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


def jobdir_run(args: argparse.Namespace, seeds: list[str], workdir: Path, interrupt: bool) -> Outcome:
    """One worker with a ``JOBDIR``; when ``interrupt``, one SIGINT (a Ctrl-C) once it has exported
    ``args.interrupt_after`` items, then the same crawl again (resumed from the job directory)."""
    name = f"jobdir-{uuid.uuid4().hex}"
    settings = {
        **base_settings(args.delay),
        "JOBDIR": str(workdir / name),
        "BOILERPLATE_STORE": str(workdir / name / "models"),  # the runs share no models
    }
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    started = time.perf_counter()
    first = start_worker(f"{name}-0", workdir, seeds, settings, env)
    exported, yielded, stats = [], set(), {}
    if interrupt:
        while len(first.lines(first.exported)) < args.interrupt_after and first.process.poll() is None:
            time.sleep(0.02)
        first.process.send_signal(signal.SIGINT)
        first.process.wait(timeout=600)
        exported, yielded = first.lines(first.exported), {line["url"] for line in first.lines(first.yielded)}
        stats = json.loads(first.stats.read_text())
        first = start_worker(f"{name}-1", workdir, seeds, settings, env)
    if first.process.wait(timeout=900) != 0:
        raise SystemExit(f"the worker failed with exit code {first.process.returncode}")
    for key, value in json.loads(first.stats.read_text()).items():  # both runs' stats, summed
        stats[key] = stats.get(key, 0) + value
    return Outcome(
        expected=len(seeds),
        exported=exported + first.lines(first.exported),
        yielded_by_killed=yielded,
        wall=time.perf_counter() - started,
        stats=stats,
    )


def faulty_sites_crawl(args: argparse.Namespace, stack: ExitStack, workdir: Path) -> None:
    """One worker on ``--faulty-sites`` sites of 6 pages served with faults (see fault_sites)."""
    seeds, faults = serve_faulty_sites(stack, workdir / "faulty", args.faulty_sites, 6)
    settings = {
        **base_settings(0.0),
        "BOILERPLATE_STORE": str(workdir / f"faulty-{uuid.uuid4().hex}"),
        "DOWNLOAD_TIMEOUT": DOWNLOAD_TIMEOUT,
    }
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    started = time.perf_counter()
    worker = start_worker(f"faulty-{uuid.uuid4().hex}", workdir, seeds, settings, env)
    if worker.process.wait(timeout=1800) != 0:
        raise SystemExit(f"the worker failed with exit code {worker.process.returncode}")
    outcome = Outcome(
        expected=len(seeds),
        exported=worker.lines(worker.exported),
        yielded_by_killed=set(),
        wall=time.perf_counter() - started,
        stats=json.loads(worker.stats.read_text()),
    )
    print_table(
        f"faulty sites: 1 worker, {args.faulty_sites} sites x 6 pages; faults: "
        + ", ".join(f"{n} {kind}" for kind, n in sorted(faults.items())),
        [("as shipped", outcome)],
        {"fitted": "boilerplate/models/fitted", "retries": "retry/count"},
    )


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
    parser.add_argument(
        "--interrupt-after", type=int, default=60, help="items exported before the Ctrl-C of the JOBDIR crawl"
    )
    parser.add_argument("--faulty-sites", type=int, default=300, help="sites of 6 pages served with faults")
    parser.add_argument(
        "--only", choices=("kill", "store", "jobdir", "faults"), default=None, help="run one of the crawls"
    )
    parser.add_argument("--keep", default=None, help="a folder to keep the workers' logs and files in")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        workdir = Path(args.keep or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        if args.only in (None, "kill"):
            killed_worker_crawl(args, stack, workdir)
        if args.only in (None, "store", "jobdir"):
            small_sites_crawls(args, stack, workdir)
        if args.only in (None, "faults"):
            faulty_sites_crawl(args, stack, workdir)


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


def small_sites_crawls(args: argparse.Namespace, stack: ExitStack, workdir: Path) -> None:
    """The failing store and the interrupted crawl, on ``--store-sites`` sites of ``--store-pages``."""
    seeds = serve_sites(stack, workdir, args.store_sites, args.store_pages, "small")
    if args.only in (None, "store"):
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
    if args.only in (None, "jobdir"):
        runs = [
            ("uninterrupted", jobdir_run(args, seeds, workdir, interrupt=False)),
            ("interrupted, resumed", jobdir_run(args, seeds, workdir, interrupt=True)),
        ]
        print_table(
            f"JOBDIR: 1 worker, {args.store_sites} sites x {args.store_pages} pages, DOWNLOAD_DELAY {args.delay} s, "
            f"one Ctrl-C after {args.interrupt_after} items, then resumed",
            runs,
            {"fitted": "boilerplate/models/fitted", "resumed": "boilerplate/sample/resumed"},
        )


if __name__ == "__main__":
    main()
