"""Items waiting on a worker that dies come out of another worker, once (scrapy-redis, a real Redis).

Each worker runs in its own process (see store_harness); they share the test Redis server through
the scrapy-redis scheduler and dupefilter, as a scrapy-redis deployment does.
"""

from __future__ import annotations

import json
import os
import signal
from collections import Counter
from pathlib import Path

import pytest
import scrapy
from helpers.linked_site import article_urls, served_linked_site
from helpers.signal_stats import signal_at, wait_until_stopped
from helpers.store_crawl_models import DIE_IN_FIT_ENV
from helpers.store_harness import start_crawl

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.itemrecords import decode_record

pytestmark = pytest.mark.slow  # real crawls against a Redis server

MODEL = "test_stored_blocks"
N_PAGES = 40


OLD_SCRAPY_SCRAPES_LATE = pytest.mark.skipif(
    scrapy.version_info < (2, 14),
    reason="Scrapy 2.13 scrapes a page's items well after its download: too few items wait before the sample "
    "fills for the signal these tests stop the worker at",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """One linked synthetic site of 40 pages on a loopback port; yields (base URL, {url: page})."""
    with served_linked_site(tmp_path_factory.mktemp("site"), "recover.example", N_PAGES, seed=11) as served:
        yield served


@pytest.fixture
def client(redis_crawl):
    import redis

    client = redis.Redis.from_url(redis_crawl["REDIS_URL"])
    yield client
    client.close()


def urls(base: str) -> list[str]:
    return article_urls(base, N_PAGES)


def held_records(client, prefix: str) -> dict[str, list[bytes]]:
    """Every worker's held-item records: hash key -> records."""
    return {name.decode(): client.hvals(name) for name in client.scan_iter(f"{prefix}:held:*")}


def exported(out: Path) -> list[dict]:
    """The items a worker's feed holds, even if the worker was killed (a torn last line is left out)."""
    path, items = out / "items.jsonl", []
    for line in path.read_text().splitlines() if path.exists() else []:
        try:
            items.append(json.loads(line))
        except ValueError:
            continue
    return items


@OLD_SCRAPY_SCRAPES_LATE
def test_a_killed_workers_waiting_items_come_out_of_the_other_worker_once(site, tmp_path, redis_crawl, client):
    base, gold = site
    prefix = redis_crawl["BOILERPLATE_STORE_PREFIX"]
    settings = {
        **redis_crawl,
        "BOILERPLATE_SAMPLE_SIZE": 20,
        "BOILERPLATE_WORKER_TIMEOUT": 2.0,
        "CONCURRENT_REQUESTS": 1,
    }
    killed = signal_at((keys.RECOVERY_RECORDED, 8, "SIGKILL"))  # its items wait for a sample of 20
    doomed = start_crawl(tmp_path / "doomed", urls(base), {**settings, **killed}, follow="^$")
    assert doomed.process.wait(timeout=120) == -signal.SIGKILL
    recorded = [decode_record(data).item["url"] for data in sum(held_records(client, prefix).values(), [])]
    assert len(recorded) >= 8
    survivor = start_crawl(tmp_path / "survivor", urls(base), settings, follow="^$").result()
    assert survivor.stats.get("finish_reason") == "finished", survivor.log[-3000:]
    assert survivor.stats[keys.RECOVERY_CLAIMED] == len(recorded)
    items = exported(tmp_path / "doomed") + survivor.items
    counts = Counter(item["url"] for item in items)
    assert set(counts.values()) == {1}  # nothing twice
    assert set(recorded) <= {item["url"] for item in survivor.items}  # every waiting item came out
    assert len(counts) >= N_PAGES - 4  # what was in flight in Scrapy itself (downloading, being scraped)
    assert Counter(item["boilerplate_model"] for item in survivor.items) == {MODEL: len(survivor.items)}
    for item in survivor.items:
        assert gold[item["url"]].article_text.split("\n\n")[1][:80] in item["text"]
    assert held_records(client, prefix) == {}  # every record went with its item


@OLD_SCRAPY_SCRAPES_LATE
def test_a_stalled_worker_whose_items_were_taken_over_drops_its_copies(site, tmp_path, redis_crawl, client):
    prefix = redis_crawl["BOILERPLATE_STORE_PREFIX"]
    base, _ = site
    settings = {
        **redis_crawl,
        "BOILERPLATE_SAMPLE_SIZE": 20,
        "BOILERPLATE_WORKER_TIMEOUT": 1.0,
        "CONCURRENT_REQUESTS": 1,
    }
    stops = signal_at((keys.RECOVERY_RECORDED, 5, "SIGSTOP"))  # alive, but silent past the timeout
    stalled = start_crawl(tmp_path / "stalled", urls(base), {**settings, **stops}, follow="^$")
    wait_until_stopped(stalled.process)
    (stalled_records,) = held_records(client, prefix)
    try:  # the other worker stays open while a worker holds recorded items: it ends once it took them over
        second = start_crawl(tmp_path / "other", urls(base), settings, follow="^$").result()
        assert stalled_records not in held_records(client, prefix)
    finally:
        os.kill(stalled.process.pid, signal.SIGCONT)
    first = stalled.result()
    for result in (first, second):
        assert result.stats.get("finish_reason") == "finished", result.log[-3000:]
    counts = Counter(item["url"] for item in first.items + second.items)
    assert len(counts) == N_PAGES and set(counts.values()) == {1}
    assert first.stats[keys.RECOVERY_TAKEN_OVER] == second.stats[keys.RECOVERY_CLAIMED] >= 5


def test_a_worker_killed_while_fitting_leaves_no_fit_lock_behind(site, tmp_path, redis_crawl):
    """The fit lock's TTL (120 s by default) outlasts the items' hold timeout (60 s): the worker that
    finds the killed one dead releases its lock, and fits the domain at once."""
    base, gold = site
    settings = {**redis_crawl, "BOILERPLATE_WORKER_TIMEOUT": 1.0, "CONCURRENT_REQUESTS": 1}
    doomed = start_crawl(tmp_path / "doomed", urls(base), settings, env={DIE_IN_FIT_ENV: "1"}, follow="^$")
    assert doomed.process.wait(timeout=120) == -signal.SIGKILL  # died holding the fit lock, its items recorded
    result = start_crawl(tmp_path / "survivor", urls(base), settings, follow="^$").result()
    assert result.stats.get("finish_reason") == "finished", result.log[-3000:]
    assert "its fit locks are released" in result.log
    assert result.stats[keys.MODELS_FITTED] == 1 and result.stats[keys.RECOVERY_CLAIMED] >= 1
    # fitted at once: had it waited for the lock's 120 s, its items would have met their 60 s deadline
    assert keys.ITEMS_FALLBACK not in result.stats
    assert keys.ITEMS_RELEASED.format(reason="deadline") not in result.stats
    counts = Counter(item["url"] for item in exported(tmp_path / "doomed") + result.items)
    assert set(counts.values()) == {1}
    for item in result.items:
        assert gold[item["url"]].article_text.split("\n\n")[1][:80] in item["text"]
