"""Inline cleans wait a little for each other so that they run back to back (warm CPU caches)."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from crawl_harness import run_crawl
from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.batching import CleanBatch
from scrapy_boilerplate.crawl.localsite import SEED_PATH, serve_directory, write_linked_site

PAGES = 60


def outcomes(deferreds: list) -> list:
    """What each Deferred fired with so far: its result, a failure's exception, or None (not yet)."""
    fired: list = [None] * len(deferreds)
    for i, deferred in enumerate(deferreds):
        deferred.addCallbacks(lambda value, i=i: fired.__setitem__(i, value),
                              lambda failure, i=i: fired.__setitem__(i, failure.value))
    return fired


def test_a_full_batch_runs_at_once_and_answers_each_item_with_its_own_result():
    clock, sizes = Clock(), []
    batch = CleanBatch(3, 0.02, clock.callLater, on_batch=sizes.append)
    ran = []
    deferreds = [batch.submit(1000, lambda x: ran.append(x) or x * 10, x) for x in (1, 2)]
    assert ran == [] and not any(d.called for d in deferreds) and len(batch) == 2  # waiting for a third item
    deferreds.append(batch.submit(1000, lambda x: ran.append(x) or x * 10, 3))
    fired = outcomes(deferreds)
    assert ran == [1, 2, 3] and fired == [10, 20, 30] and sizes == [3]
    assert not clock.getDelayedCalls()  # the window's timer is gone with its batch


def test_a_partial_batch_runs_when_its_window_ends():
    clock = Clock()
    batch = CleanBatch(8, 0.02, clock.callLater)
    fired = outcomes([batch.submit(1000, str.upper, "a"), batch.submit(1000, str.upper, "b")])
    clock.advance(0.019)
    assert fired == [None, None]
    clock.advance(0.002)
    assert fired == ["A", "B"] and len(batch) == 0
    later = outcomes([batch.submit(1000, str.upper, "c")])  # a new window starts with the next item
    clock.advance(0.021)
    assert later == ["C"] and batch.batches == 2 and batch.calls == 3


def test_a_batch_runs_once_its_pages_reach_the_byte_budget():
    clock = Clock()
    batch = CleanBatch(100, 0.02, clock.callLater, max_bytes=250_000)
    first = outcomes([batch.submit(100_000, str.upper, "a"), batch.submit(100_000, str.upper, "b")])
    assert first == [None, None]  # 200 kB of pages wait: under the budget
    last = outcomes([batch.submit(60_000, str.upper, "c")])
    assert first == ["A", "B"] and last == ["C"] and not clock.getDelayedCalls()


def test_an_error_reaches_only_the_item_that_caused_it():
    clock = Clock()
    batch = CleanBatch(3, 0.02, clock.callLater)

    def clean(html: str) -> str:
        if not html:
            raise ValueError("empty page")
        return html.strip()

    fired = outcomes([batch.submit(3, clean, " a "), batch.submit(0, clean, ""), batch.submit(3, clean, " c ")])
    assert fired[0] == "a" and fired[2] == "c"
    assert isinstance(fired[1], ValueError)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    write_linked_site(root, "batches.example", PAGES, seed=5)
    with serve_directory(root) as base:
        yield base + SEED_PATH


@pytest.mark.parametrize("size", [1, 8])
def test_a_batched_crawl_cleans_every_item_exactly_once(site, tmp_path, size):
    result = run_crawl(tmp_path, [site], settings={
        "BOILERPLATE_MODEL": "style_tree", "BOILERPLATE_SAMPLE_SIZE": 10, "BOILERPLATE_CLEAN_BATCH": size,
        "BOILERPLATE_CLEAN_BATCH_WAIT": 0.5, "CONCURRENT_REQUESTS": 16})
    assert result.returncode == 0, result.log[-2000:]
    urls = [item["url"] for item in result.items]
    assert len(urls) == PAGES and len(set(urls)) == PAGES
    assert all(item["boilerplate_model"] == "style_tree" and item["text"] for item in result.items)
    batches = result.stats.get(keys.CLEAN_BATCHES, 0)
    if size == 1:
        assert batches == 0
    else:  # the items cleaned on the reactor thread (not the sample's) went in fewer, fuller batches
        assert 0 < batches < (PAGES - 10) / 2
