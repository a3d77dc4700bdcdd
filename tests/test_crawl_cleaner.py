"""Fast models clean on the reactor thread (no hand-off cost), slow ones in the thread pool."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from helpers.crawl_harness import run_crawl
from helpers.crawl_models import CommonBlocks

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.cleaner import TIMED_EVERY, WARMUP_CLEANS, Cleaner
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.localsite import SEED_PATH, serve_directory, write_linked_site
from scrapy_boilerplate.testing.synthetic import make_site

PAGES = 60


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    write_linked_site(root, "threads.example", PAGES, seed=3)
    with serve_directory(root) as base:
        yield base + SEED_PATH


def cleaning_threads(tmp_path, seed: str, **settings) -> Counter:
    """Crawl with the thread-reporting model; how many items each kind of thread cleaned (and, as
    ``held``, how many items waited for the fit)."""
    result = run_crawl(
        tmp_path,
        [seed],
        settings={"BOILERPLATE_MODEL": "test_thread_reporter", "BOILERPLATE_SAMPLE_SIZE": 10, **settings},
    )
    assert result.returncode == 0 and len(result.items) == PAGES, result.log[-2000:]
    lines = [
        item["text"].rsplit("\n", 1)[-1] for item in result.items if item["boilerplate_model"] == "test_thread_reporter"
    ]
    threads = Counter("reactor" if line == "cleaned in MainThread" else "pool" for line in lines)
    threads["held"] = result.stats.get(keys.ITEMS_HELD, 0)
    return threads


@pytest.mark.slow
def test_a_fast_model_moves_to_the_reactor_thread_after_its_warm_up(site, tmp_path):
    threads = cleaning_threads(tmp_path, site, CONCURRENT_REQUESTS=1)
    # The 10 sampled pages are cleaned with the fit (in the pool), then WARMUP_CLEANS more are timed there.
    # Items that waited for the fit start together, before any timing is in: all go to the pool, and
    # there are more of them the longer the fit takes (on a loaded machine, a dozen beyond the sample).
    waited = max(threads["held"], 10)
    assert threads["reactor"] >= PAGES - waited - 2 * WARMUP_CLEANS, threads
    assert threads["pool"] >= 10 + WARMUP_CLEANS


@pytest.mark.slow
def test_a_model_slower_than_the_limit_stays_in_the_thread_pool(site, tmp_path):
    threads = cleaning_threads(tmp_path, site, BOILERPLATE_INLINE_CLEAN_MS=1e-6)
    assert threads["reactor"] == 0 and threads["pool"] == PAGES


@pytest.mark.slow
def test_without_threads_every_clean_is_inline(site, tmp_path):
    threads = cleaning_threads(tmp_path, site, BOILERPLATE_CLEAN_IN_THREAD=False)
    assert threads["pool"] <= 10  # only the sample, cleaned in the fit's thread
    assert threads["reactor"] >= PAGES - 10


def test_the_limit_follows_the_mean_clean_time_of_each_model():
    pages = [Page(p.html, p.url) for p in make_site("mean.example", 3, seed=1)]
    model = CommonBlocks().fit(pages)
    generous, strict = Cleaner(True, inline_below_ms=1000.0), Cleaner(True, inline_below_ms=1e-6)
    for cleaner in (generous, strict):
        assert not cleaner.runs_inline(model)
        for _ in range(WARMUP_CLEANS):
            cleaner._record(model.name, 0.001)
    assert generous.runs_inline(model) and not strict.runs_inline(model)
    for _ in range(WARMUP_CLEANS * 3):  # the model turns slow (bigger pages): back to the pool
        generous._record(model.name, 5.0)
    assert not generous.runs_inline(model)


def test_without_threads_the_cleaner_never_hands_off():
    model = CommonBlocks().fit([])
    assert Cleaner(False, inline_below_ms=1e-6).runs_inline(model)


def run_inline(coro):
    """The result of a coroutine that never waits (an inline clean), without an event loop."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise AssertionError("the clean did not run inline")


def test_an_inline_model_that_turns_slow_still_leaves_the_reactor():
    model = CommonBlocks().fit([])
    cleaner = Cleaner(True, inline_below_ms=2.0)
    for _ in range(WARMUP_CLEANS):
        cleaner._record(model.name, 0.0005)
    assert cleaner.runs_inline(model)

    def slow_clean() -> str:  # 5 ms of CPU: the pages got bigger
        started = time.thread_time()
        while time.thread_time() - started < 0.005:
            pass
        return "cleaned"

    inline_cleans = 0
    while cleaner.runs_inline(model) and inline_cleans < 50 * TIMED_EVERY:
        assert run_inline(cleaner.run(model, slow_clean)) == "cleaned"
        inline_cleans += 1
    assert not cleaner.runs_inline(model)
    assert inline_cleans <= 20 * TIMED_EVERY
