"""The learner bounds what it keeps: sample memory across domains, and held items."""

from __future__ import annotations

import logging

import pytest
from helpers.learners import make_learner
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.domain import DomainStatus, domain_of
from scrapy_boilerplate.crawl.events import ModelSource
from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.crawl.holding import HoldQueue, ToFallback, WithModel
from scrapy_boilerplate.crawl.itempages import ItemPage
from scrapy_boilerplate.crawl.learner import BoilerplateLearner
from scrapy_boilerplate.crawl.quiet import QuietWatcher
from scrapy_boilerplate.crawl.sample_cleans import KEPT_SECONDS
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

learner = make_learner


def sampled_pages(lrn: BoilerplateLearner, domain: str) -> list:
    """The pages the learner keeps in ``domain``'s sample (its coordinator holds them)."""
    samples = lrn.session.samples
    return samples.coordinator.pages(samples.spider, domain)


def test_domain_keys_are_host_and_port():
    assert domain_of("http://user:pw@News.Example:8080/a?b") == "news.example:8080"
    assert domain_of("https://news.example/a") == "news.example"


def test_too_many_sampling_domains_evict_the_oldest_to_the_fallback():
    lrn = learner(BOILERPLATE_MAX_SAMPLING_DOMAINS=2, BOILERPLATE_SAMPLE_SIZE=5)
    for name in ("a.example", "b.example", "c.example"):
        page = make_site(name, 1)[0]
        lrn.sampler.offer(name, Page(page.html, page.url))
    assert not lrn.sampler.wants("a.example") and not lrn.book.items_wait("a.example")
    assert sampled_pages(lrn, "a.example") == []  # its sample memory is freed
    assert lrn.sampler.wants("b.example") and lrn.book.items_wait("c.example")
    assert lrn.stats.get_value(keys.DOMAINS_EVICTED) == 1
    assert lrn.stats.get_value(keys.DOMAINS_FALLBACK) == 1


def test_the_page_offered_when_the_shared_store_fails_still_holds_its_item():
    pytest.importorskip("redis", reason="redis-py is not installed (pip install 'scrapy-boilerplate-learner[redis]')")
    lrn = learner(BOILERPLATE_STORE="redis://127.0.0.1:1/0", BOILERPLATE_SAMPLE_SIZE=5)  # nothing listens there
    page = make_site("a.example", 1)[0]
    lrn.sampler.offer("a.example", Page(page.html, page.url))
    assert not lrn.session.shared  # the crawl went on without the store, sampling in this process
    assert sampled_pages(lrn, "a.example") == [(page.url, page.html)]
    assert lrn.book.items_wait("a.example")  # the page's item waits for the model, as the others will


def test_items_of_pages_sampled_before_the_shared_store_was_lost_wait_for_the_new_sample():
    lrn = learner(BOILERPLATE_SAMPLE_SIZE=5)
    pages = make_site("b.example", 6)
    for page in pages[:2]:
        lrn.sampler.offer("b.example", Page(page.html, page.url))
    lrn.store_lost()  # as when the shared store goes away: the domain samples again, here
    assert lrn.book.items_wait("b.example")  # the items of the two pages, still on their way, wait
    for page in pages[2:]:
        lrn.sampler.offer("b.example", Page(page.html, page.url))
    assert not lrn.sampler.wants("b.example") and lrn.book.items_wait("b.example")  # full: its fit is due


def test_a_page_is_sampled_once():
    lrn = learner(BOILERPLATE_SAMPLE_SIZE=5)
    page = make_site("a.example", 1)[0]
    for _ in range(3):
        lrn.sampler.offer("a.example", Page(page.html, page.url))
    assert len(sampled_pages(lrn, "a.example")) == 1
    assert lrn.stats.get_value(keys.SAMPLE_PAGES) == 1


class FakeClock:
    """callLater stand-in: records timers, fires them on demand (time moves to a timer's as it fires)."""

    def __init__(self):
        self.timers = []
        self.now = 0.0

    def __call__(self, delay, func, *args):
        timer = FakeTimer(self, self.now + delay, func, args)
        self.timers.append(timer)
        return timer

    def time(self):
        return self.now


class FakeTimer:
    def __init__(self, clock, due, func, args):
        self.clock, self.due = clock, due
        self.func, self.args, self.cancelled, self.called = func, args, False, False

    def active(self):
        return not (self.cancelled or self.called)

    def cancel(self):
        self.cancelled = True

    def fire(self):
        if self.active():
            self.called = True
            self.clock.now = max(self.clock.now, self.due)
            self.func(*self.args)


def test_hold_queue_caps_items_and_bytes_and_releases_each_once():
    clock = FakeClock()
    queue = HoldQueue(max_items=3, max_bytes=10_000, timeout=5, call_later=clock, clock=clock.time)
    fired = []
    first = queue.hold("a", 4000)
    second = queue.hold("a", 100)  # counted as 1024 bytes, like Scrapy's scraper slot
    assert queue.hold("b", 6000) is None  # bytes cap
    third = queue.hold("b", 10)
    assert queue.hold("b", 10) is None  # items cap
    for d in (first, second, third):
        d.addCallback(fired.append)
    clock.timers[0].fire()  # the first item's deadline
    assert queue.release_domain("a", None) == 1
    assert queue.release_all(None) == 1
    clock.timers[1].fire()  # already released: no second release
    assert fired == [ToFallback(FallbackReason.DEADLINE), None, None]
    assert (queue.count, queue.bytes) == (0, 0)


def test_a_waiting_item_falls_back_only_once_its_domain_stalls_for_the_timeout():
    clock = FakeClock()
    queue = HoldQueue(max_items=10, max_bytes=100_000, timeout=5, call_later=clock, clock=clock.time)
    fired = []
    queue.hold("a", 1000).addCallback(fired.append)
    queue.hold("b", 1000).addCallback(fired.append)
    clock.now = 4.0
    queue.progressed(["a", "elsewhere"])  # a new sample page of a (a domain without waiting items is ignored)
    clock.timers[0].fire()  # a's first deadline (at 5 s): a progressed at 4 s, so it waits until 9 s
    clock.timers[1].fire()  # b made no progress: released
    assert fired == [ToFallback(FallbackReason.DEADLINE)] and queue.waiting("a") == 1
    clock.timers[-1].fire()  # the deadline that a's progress set
    assert fired == [ToFallback(FallbackReason.DEADLINE)] * 2 and queue.count == 0


def test_a_new_sample_page_restarts_the_deadline_of_its_domains_waiting_items():
    clock = Clock()
    lrn = learner(clock, BOILERPLATE_SAMPLE_SIZE=3, BOILERPLATE_HOLD_TIMEOUT=5)
    pages = make_site("a.example", 2)
    lrn.sampler.offer("a.example", Page(pages[0].html, pages[0].url))
    held = lrn.hold.hold("a.example", 1000)
    clock.advance(4)
    lrn.sampler.offer("a.example", Page(pages[1].html, pages[1].url))
    clock.advance(1)  # the item's first deadline: its domain came closer 1 s ago
    assert lrn.hold.waiting("a.example") == 1 and not held.called
    clock.advance(4)  # 5 s after the last sample page
    assert held.called and lrn.hold.waiting("a.example") == 0


def test_the_sample_is_not_kept_once_its_items_took_their_pages_or_their_time_is_up(tmp_path):
    clock = Clock()
    settings = {"BOILERPLATE_SAMPLE_SIZE": 6, "BOILERPLATE_MODEL": "style_tree", "BOILERPLATE_STORE": str(tmp_path)}
    lrn = learner(clock, **settings)
    pages = make_site("a.example", 6)
    for page in pages:
        lrn.sampler.offer("a.example", Page(page.html, page.url))
    outcome = lrn.session.fit("a.example")
    assert len(outcome.sample_cleans) == len(pages)  # the fit cleaned its own sample for those pages' items
    lrn.route(lrn.book.adopt("a.example", outcome.stored, ModelSource.FITTED, sample_cleans=outcome.sample_cleans))
    for page in pages[:5]:
        assert lrn.sample_cleans.take("a.example", page.url, page.html) is not None
    assert lrn.sample_cleans.take("a.example", pages[0].url, pages[0].html) is None  # each page's clean once
    assert len(lrn.sample_cleans) == 1  # the sixth page's item has not come yet
    clock.advance(KEPT_SECONDS)
    assert len(lrn.sample_cleans) == 0 and lrn.book.in_use("a.example") is outcome.stored


def run_to_end(coroutine):
    """Run a coroutine that never waits (its thread hand-offs are replaced by direct calls)."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("the coroutine waited for something")


def test_a_store_failure_inside_a_fit_is_counted_and_the_fit_runs_again_without_the_store(
    tmp_path, monkeypatch, caplog
):
    from twisted.internet.defer import succeed

    from scrapy_boilerplate.crawl import fitting as fitting_module
    from scrapy_boilerplate.store import MemoryStore, StoreError

    async def in_this_thread(func, *args):
        return func(*args)

    async def no_turn():
        return None

    monkeypatch.setattr(fitting_module, "run_in_thread", in_this_thread)
    monkeypatch.setattr(fitting_module, "next_reactor_turn", no_turn)  # a slow machine parses past a slice
    lrn = learner(BOILERPLATE_SAMPLE_SIZE=4, BOILERPLATE_MODEL="pvalue", BOILERPLATE_STORE=str(tmp_path))
    pages = make_site("a.example", 4)
    for page in pages[:3]:
        lrn.sampler.offer("a.example", Page(page.html, page.url))
    held = lrn.hold.hold("a.example", 1000)
    released = []
    held.addCallback(released.append)

    def lock_lost(domain):
        raise StoreError("cannot take the fit lock: connection reset", "lock")

    monkeypatch.setattr(lrn.session.samples, "fit_lock", lock_lost)
    # the fit starts with the last page and runs to its end at once
    monkeypatch.setattr(fitting_module, "deferred_from_coro", lambda coroutine: succeed(run_to_end(coroutine)))
    lrn.sampler.offer("a.example", Page(pages[3].html, pages[3].url))
    assert [type(release) for release in released] == [WithModel] and lrn.book.in_use("a.example") is not None
    assert lrn.stats.get_value(keys.STORE_ERRORS) == 1 and lrn.stats.get_value(keys.MODELS_FITTED) == 1
    assert isinstance(lrn.session.store, MemoryStore)  # the rest of the crawl goes on without the store
    (line,) = [r.getMessage() for r in caplog.records if "failed (lock step)" in r.getMessage()]
    assert "fitting the model of a.example" in line


def fitted_learner(monkeypatch, tmp_path, **settings) -> tuple[BoilerplateLearner, list[Page]]:
    """A learner whose fits run at once on this thread (no reactor), with "a.example" fitted on
    the first 3 of its 8 pages; returns it and those 8 pages."""
    from scrapy_boilerplate.crawl import fitting
    from scrapy_boilerplate.crawl import learner as learner_module

    monkeypatch.setattr(fitting, "deferred_from_coro", Deferred.fromCoroutine)  # no event loop needed
    monkeypatch.setattr(learner_module, "maybe_deferred_to_future", lambda deferred: deferred)
    lrn = learner(Clock(), BOILERPLATE_SAMPLE_SIZE=3, BOILERPLATE_STORE=str(tmp_path / "models"), **settings)
    lrn.fit_runner.per_page = 0.0  # a known cheap fit: it runs inline, not in the pool
    pages = [Page(page.html, page.url) for page in make_site("a.example", 8)]
    lrn.fit_gate.item_arrived("a.example")  # its pages yield items: a full sample is fitted at once
    for page in pages[:3]:
        lrn.sampler.offer("a.example", page)
    assert lrn.book.in_use("a.example") is not None
    return lrn, pages


def test_after_a_template_change_the_pipeline_fills_the_new_sample_and_the_close_says_when_it_did_not(
    monkeypatch, tmp_path, caplog
):
    lrn, pages = fitted_learner(monkeypatch, tmp_path, BOILERPLATE_DRIFT_WINDOW=1)
    lrn.sampler.offer_late("a.example", pages[3].url, pages[3].html)
    assert lrn.book.sample_pages("a.example") == 0  # no template change: nothing is sampled
    lrn.drift.observe("a.example", lrn.book.in_use("a.example").model, 0.0, 1.0)  # every word in unseen regions
    assert lrn.stats.get_value(keys.DRIFT_DETECTED) == 1
    assert lrn.book.status("a.example") is DomainStatus.RESAMPLING
    for url in (pages[3].url, pages[3].url + "#comments"):  # downloaded before the change was noticed
        lrn.sampler.offer_late("a.example", url, pages[3].html)
    assert lrn.book.sample_pages("a.example") == 1 and lrn.stats.get_value(keys.SAMPLE_PAGES) == 4
    with caplog.at_level(logging.INFO, logger="scrapy_boilerplate"):
        assert Deferred.fromCoroutine(lrn.spider_closed()).called
    assert "the crawl ended before a.example's new sample filled after its template changed (1 of 3 pages)" in (
        caplog.text
    )
    assert keys.MODELS_REFITTED not in lrn.stats.get_stats()


def test_a_refit_still_running_when_the_crawl_closes_is_finished_before_the_stats_close(monkeypatch, tmp_path, caplog):
    lrn, pages = fitted_learner(monkeypatch, tmp_path, BOILERPLATE_DRIFT_WINDOW=1)
    lrn.drift.observe("a.example", lrn.book.in_use("a.example").model, 0.0, 1.0)
    gate: Deferred[None] = Deferred()
    fit = lrn.fit_runner.fit

    async def slow_fit(key: str, min_pages: int | None = None):
        await gate
        return await fit(key, min_pages)

    monkeypatch.setattr(lrn.fit_runner, "fit", slow_fit)
    for page in pages[3:6]:
        lrn.sampler.offer_late("a.example", page.url, page.html)
    assert "a.example" in lrn.fits
    with caplog.at_level(logging.INFO, logger="scrapy_boilerplate"):
        closed = Deferred.fromCoroutine(lrn.spider_closed())
        assert not closed.called and "finishing 1 queued fit(s) first" in caplog.text
        gate.callback(None)
    assert closed.called
    assert lrn.stats.get_value(keys.MODELS_REFITTED) == 1 and lrn.stats.get_value(keys.MODELS_FITTED) == 2
    assert "re-fitted" in caplog.text and "new sample filled" not in caplog.text


class QuietEngine:
    """An engine with nothing left but the waiting items (the two questions the quiet watcher asks)."""

    def closing(self) -> bool:
        return False

    def only_items_left(self, waiting: int) -> bool:
        return True


def quiet_watcher(clock: Clock, released: list[float]) -> QuietWatcher:
    watcher = QuietWatcher(QuietEngine(), lambda: 1, [], lambda: released.append(clock.seconds()), list, clock)
    watcher.start(1.0)  # a look every 0.25 s
    return watcher


def test_the_crawl_is_quiet_after_a_period_of_looks_that_found_only_waiting_items():
    clock, released = Clock(), []
    quiet_watcher(clock, released)
    clock.pump([0.25] * 6)
    assert released == [1.25]  # quiet from the first look (0.25 s) to the fifth: one period


def test_a_stalled_reactor_counts_as_one_look_not_as_a_quiet_period():
    clock, released = Clock(), []
    quiet_watcher(clock, released)
    clock.pump([0.25, 0.25])  # two looks find it quiet
    clock.advance(1.0)  # a stall: one late look, before anything that came meanwhile was scraped
    assert released == []
    clock.pump([0.25] * 3)
    assert released == [2.0]  # two more looks after the late one, past the period


def test_items_do_not_wait_where_samples_fill_slower_than_the_deadline():
    """Sample pages of a template 80 s apart (the deadline is 60 s): a new template's item is cleaned at
    once by the single-page model, no failure; where they come 40 s apart, it waits."""
    for gap, waits in ((40, True), (80, False)):
        clock = Clock()
        lrn = learner(clock, BOILERPLATE_SAMPLE_SIZE=5, BOILERPLATE_HOLD_TIMEOUT=60)
        for page in make_site("a.example", 3):
            lrn.sampler.offer("a.example", Page(page.html, page.url))
            clock.advance(gap)
        page = make_site("b.example", 1)[0]
        lrn.sampler.offer("b.example", Page(page.html, page.url))
        release = lrn.item_steps.wait.release("b.example", ItemPage(page.html, page.url, len(page.html)), {})
        if waits:
            with pytest.raises(AssertionError):  # it waits: the coroutine does not end by itself
                run_to_end(release)
            assert lrn.hold.waiting("b.example") == 1
        else:
            assert run_to_end(release) == ToFallback(FallbackReason.NOT_WAITING)
            assert lrn.hold.count == 0 and not FallbackReason.NOT_WAITING.failure
