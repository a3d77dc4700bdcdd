"""Costs of the model store: drift fingerprinting per page, store put/get, shared-sample offers.

    python benchmarks/store_bench.py [--data DIR] [--redis URL] [--sites N]

With ``--data`` (a corpus of ``<site>/*.html``, e.g. ../shared/datasets/dragnet) the per-page
figures come from real pages; otherwise from synthetic sites.  Prints medians; on a shared
machine the timings are noisy, so compare figures taken in one run.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
import uuid
from pathlib import Path

from scrapy_boilerplate.corpus import find_sites
from scrapy_boilerplate.drift import Fingerprint, fit_baseline
from scrapy_boilerplate.drift.fingerprint import block_signatures
from scrapy_boilerplate.drift.monitor import DEFAULT_EVERY
from scrapy_boilerplate.models.registry import create_model
from scrapy_boilerplate.offline import load_page
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store import DirectoryStore, ModelStore, StoredModel, open_store
from scrapy_boilerplate.store.redis_coordination import RedisCoordinator
from scrapy_boilerplate.testing.synthetic import make_site


def _sites(data: Path | None, limit: int) -> list[list[Page]]:
    if data is None:
        return [[Page(s.html, s.url) for s in make_site(f"s{i}.example", 20, seed=i)] for i in range(limit)]
    out = []
    for site in find_sites(data):
        pages = []
        for path in site.pages[:20]:
            try:
                pages.append(load_page(path))
            except (OSError, ValueError):
                continue
        if len(pages) >= 5:
            out.append(pages)
        if len(out) >= limit:
            break
    return out


def _ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.2f} ms"


def bench_fingerprint(sites: list[list[Page]]) -> None:
    """Per-page cost of the unseen share (drift), next to the cost of cleaning the same page."""
    fingerprint_s, clean_s = [], []
    for pages in sites:
        sample, rest = pages[: len(pages) // 2], pages[len(pages) // 2 :]
        model = create_model("pvalue").fit(sample)
        fingerprint = Fingerprint.of(sample)
        for page in rest:
            fresh = Page(page.html, page.url)
            started = time.perf_counter()
            model.clean(fresh)  # parses the page (shared with the fingerprint below, as in the crawl)
            clean_s.append(time.perf_counter() - started)
            started = time.perf_counter()
            fingerprint.unseen(fresh)
            fingerprint_s.append(time.perf_counter() - started)
    print(f"pages measured: {len(clean_s)}")
    print(f"clean (pvalue, parse included), median per page: {_ms(clean_s)}")
    print(f"unseen share (drift), median per page:           {_ms(fingerprint_s)}")
    ratio = sum(fingerprint_s) / sum(clean_s)
    print(
        f"drift cost / clean cost (totals): {ratio:.0%} if every page is measured, "
        f"{ratio / DEFAULT_EVERY:.0%} at the default of one page in {DEFAULT_EVERY}"
    )
    signatures = [len(block_signatures(p)) for pages in sites for p in pages]
    print(f"block signatures per page, median: {statistics.median(signatures):.0f}")


def bench_store(store: ModelStore, sites: list[list[Page]], label: str) -> None:
    """put/get/list latency of ``store`` with fitted pvalue models."""
    put_s, get_s, sizes = [], [], []
    for i, pages in enumerate(sites):
        model = create_model("pvalue").fit(pages)
        stored = StoredModel.new("bench", f"site{i}.example", model, len(pages), fit_baseline(model, pages))
        started = time.perf_counter()
        sizes.append(store.put(stored).size)
        put_s.append(time.perf_counter() - started)
        started = time.perf_counter()
        store.get("bench", f"site{i}.example")
        get_s.append(time.perf_counter() - started)
    started = time.perf_counter()
    listed = store.list("bench")
    list_s = time.perf_counter() - started
    print(
        f"{label}: put median {_ms(put_s)}, get median {_ms(get_s)}, list of {len(listed)} in "
        f"{list_s * 1000:.1f} ms, record size median {statistics.median(sizes) / 1024:.1f} KiB"
    )


def bench_offers(url: str, workers: int = 4, per_worker: int = 200) -> None:
    """Shared-sample offers per second from several Redis clients at once (pages of 20 KB)."""
    import redis

    prefix, html = f"bench-{uuid.uuid4().hex}", "<p>" + "x" * 20_000 + "</p>"
    clients = [redis.Redis.from_url(url) for _ in range(workers)]

    def run(n: int) -> None:
        coordinator = RedisCoordinator(clients[n], prefix)
        for i in range(per_worker):
            coordinator.offer("bench", f"d{i % 50}.example", f"http://d/{n}/{i}", html, 20)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(workers)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - started
    print(
        f"redis offers: {workers * per_worker} from {workers} clients in {seconds:.2f} s "
        f"({workers * per_worker / seconds:.0f}/s)"
    )
    for name in clients[0].scan_iter(f"{prefix}:*"):
        clients[0].delete(name)


def main() -> None:
    """Run every measurement and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--redis", default=None, help="redis://host:port/db of a server to measure")
    parser.add_argument("--sites", type=int, default=30)
    args = parser.parse_args()
    sites = _sites(args.data, args.sites)
    print(f"sites: {len(sites)} ({args.data or 'synthetic'})")
    bench_fingerprint(sites)
    with tempfile.TemporaryDirectory() as tmp:
        bench_store(DirectoryStore(tmp), sites, "directory store")
    if args.redis:
        store = open_store(args.redis, prefix=f"bench-{uuid.uuid4().hex}")
        bench_store(store, sites, "redis store")
        for name in store.client.scan_iter(f"{store.prefix}:*"):
            store.client.delete(name)
        bench_offers(args.redis)


if __name__ == "__main__":
    main()
