"""Fast models clean on the reactor thread (no hand-off cost), slow ones in the thread pool."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers.crawl_harness import run_crawl
from helpers.crawl_models import CommonBlocks
from twisted.internet.task import Clock

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.cleaner import TIMED_EVERY, WARMUP_CLEANS, Cleaner
from scrapy_boilerplate.testing.localsite import SEED_PATH, serve_directory, write_linked_site

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


class ThreadPool:
    """Stands for the crawl's thread pool: runs each clean handed to it at once, and counts them."""

    def __init__(self) -> None:
        self.cleans = 0

    async def __call__(self, function, *args):
        self.cleans += 1
        return function(*args)


def taking(cpu: Clock, seconds: float):
    """A clean that takes ``seconds`` of CPU time on ``cpu``."""

    def clean() -> str:
        cpu.advance(seconds)
        return "cleaned"

    return clean


def run_inline(coro):
    """The result of a coroutine that never waits (a clean on the calling thread), without an event loop."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise AssertionError("the clean waited")


def test_the_limit_follows_the_mean_clean_time_of_each_model():
    model, cpu = CommonBlocks().fit([]), Clock()
    generous_pool, strict_pool = ThreadPool(), ThreadPool()
    generous = Cleaner(True, 1000.0, cpu.seconds, generous_pool)
    strict = Cleaner(True, 1e-6, cpu.seconds, strict_pool)
    for cleaner in (generous, strict):
        for _ in range(WARMUP_CLEANS):
            assert not cleaner.runs_inline(model)  # timed in the pool first
            assert run_inline(cleaner.run(model, taking(cpu, 0.001))) == "cleaned"
    assert generous.runs_inline(model) and not strict.runs_inline(model)
    assert generous_pool.cleans == strict_pool.cleans == WARMUP_CLEANS
    inline_cleans = 0
    while generous.runs_inline(model) and inline_cleans < 50 * TIMED_EVERY:  # bigger pages: 5 s each
        assert run_inline(generous.run(model, taking(cpu, 5.0))) == "cleaned"
        inline_cleans += 1
    assert not generous.runs_inline(model)  # back to the pool
    assert generous_pool.cleans == WARMUP_CLEANS
    assert inline_cleans <= 3 * TIMED_EVERY


def test_without_threads_the_cleaner_never_hands_off():
    model, pool = CommonBlocks().fit([]), ThreadPool()
    cleaner = Cleaner(False, 1e-6, Clock().seconds, pool)
    assert cleaner.runs_inline(model)
    assert run_inline(cleaner.run(model, lambda: "cleaned")) == "cleaned" and pool.cleans == 0


def test_an_inline_model_that_turns_slow_still_leaves_the_reactor():
    model, cpu, pool = CommonBlocks().fit([]), Clock(), ThreadPool()
    cleaner = Cleaner(True, 2.0, cpu.seconds, pool)
    for _ in range(WARMUP_CLEANS):
        run_inline(cleaner.run(model, taking(cpu, 0.0005)))
    assert cleaner.runs_inline(model)
    inline_cleans = 0
    while cleaner.runs_inline(model) and inline_cleans < 50 * TIMED_EVERY:  # 5 ms each: the pages got bigger
        assert run_inline(cleaner.run(model, taking(cpu, 0.005))) == "cleaned"
        inline_cleans += 1
    assert not cleaner.runs_inline(model)
    assert inline_cleans <= 20 * TIMED_EVERY
    assert pool.cleans == WARMUP_CLEANS  # no clean went to the pool meanwhile
