"""Sample slots, shared sample pages and the fit lock, in one process and across Redis clients."""

from __future__ import annotations

import threading
import uuid

import pytest
from helpers.store_support import run_out_fit_lock
from twisted.internet.task import Clock

from scrapy_boilerplate.store import LocalCoordinator, SampleState
from scrapy_boilerplate.store.redis_coordination import RedisCoordinator


@pytest.fixture(params=["local", "redis"])
def coordinators(request):
    """(a factory of coordinators that share state, a function that runs a fit lock's TTL out): the
    same object locally, on a clock the test moves; new clients on Redis, where the lock's key goes as
    its expiry would take it."""
    if request.param == "local":
        clock = Clock()
        shared = LocalCoordinator(clock.seconds)
        yield (lambda: shared), lambda _coordinator, _spider, _domain, ttl: clock.advance(ttl)
        return
    url, prefix, clients = request.getfixturevalue("redis_url"), f"test-{uuid.uuid4().hex}", []
    import redis

    def make() -> RedisCoordinator:
        clients.append(redis.Redis.from_url(url))
        return RedisCoordinator(clients[-1], prefix)

    yield make, run_out_fit_lock
    for name in clients[0].scan_iter(f"{prefix}:*"):
        clients[0].delete(name)
    for client in clients:
        client.close()


@pytest.fixture
def make_coordinator(coordinators):
    """A factory of coordinators that share state."""
    return coordinators[0]


def test_offers_fill_the_sample_once_and_repeat_urls_do_not_count(make_coordinator):
    c = make_coordinator()
    outcomes = [c.offer("s", "d.example", f"http://d.example/{i}", f"<p>{i}</p>", 3) for i in range(5)]
    assert [o.accepted for o in outcomes] == [True, True, True, False, False]
    assert [o.count for o in outcomes] == [1, 2, 3, 3, 3]
    assert c.offer("s", "d.example", "http://d.example/0", "<p>again</p>", 10).accepted is False
    assert c.pages("s", "d.example") == [(f"http://d.example/{i}", f"<p>{i}</p>") for i in range(3)]
    assert c.state("s", "other.example").count == 0  # domains are independent


def test_concurrent_workers_never_overshoot_the_sample(make_coordinator):
    size, workers, per_worker = 10, 8, 15
    accepted: list[str] = []
    guard = threading.Lock()
    start = threading.Barrier(workers)

    def worker(n: int) -> None:
        c = make_coordinator()
        start.wait()
        for i in range(per_worker):
            url = f"http://d.example/{n}/{i}"
            if c.offer("s", "d.example", url, "<p>x</p>", size).accepted:
                with guard:
                    accepted.append(url)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    c = make_coordinator()
    assert len(accepted) == size
    assert sorted(url for url, _ in c.pages("s", "d.example")) == sorted(accepted)
    assert c.state("s", "d.example").count == size


def test_a_finished_sample_drops_its_pages_and_stays_closed(make_coordinator):
    c = make_coordinator()
    c.offer("s", "d.example", "http://d.example/1", "<p>1</p>", 5)
    c.finish_sample("s", "d.example", 0)
    assert c.pages("s", "d.example") == []
    assert c.offer("s", "d.example", "http://d.example/2", "<p>2</p>", 5).accepted is False
    assert c.state("s", "d.example") == SampleState(0, 1, closed=True)


def test_restart_opens_a_new_generation_once_even_if_several_workers_ask(make_coordinator):
    a, b = make_coordinator(), make_coordinator()
    a.offer("s", "d.example", "http://d.example/1", "<p>old</p>", 1)
    a.finish_sample("s", "d.example", 0)
    assert a.restart_sample("s", "d.example", 0) == 1
    assert b.restart_sample("s", "d.example", 0) is None  # stale generation: someone else already did it
    offer = b.offer("s", "d.example", "http://d.example/1", "<p>new</p>", 1)
    assert (offer.accepted, offer.generation) == (True, 1)
    assert a.pages("s", "d.example") == [("http://d.example/1", "<p>new</p>")]
    assert a.restart_sample("s", "d.example", 7) == 8  # a model of generation 7 (from an older crawl)
    assert b.state("s", "d.example").generation == 8


def test_the_fit_lock_admits_one_holder_until_released(make_coordinator):
    a, b = make_coordinator(), make_coordinator()
    lock = a.acquire_fit_lock("s", "d.example", ttl=30)
    assert lock is not None
    assert b.acquire_fit_lock("s", "d.example", ttl=30) is None
    assert a.acquire_fit_lock("s", "other.example", ttl=30) is not None
    assert lock.release() is True
    assert b.acquire_fit_lock("s", "d.example", ttl=30) is not None


def test_a_failed_fit_releases_the_lock(make_coordinator):
    a, b = make_coordinator(), make_coordinator()
    with pytest.raises(RuntimeError), a.acquire_fit_lock("s", "d.example", ttl=30):
        raise RuntimeError("model bug")
    assert b.acquire_fit_lock("s", "d.example", ttl=30) is not None


def test_an_abandoned_lock_expires_and_its_late_release_cannot_free_the_successor(coordinators):
    make_coordinator, run_out = coordinators
    a, b, c = make_coordinator(), make_coordinator(), make_coordinator()
    dead = a.acquire_fit_lock("s", "d.example", ttl=20)  # a worker that dies while fitting
    assert b.acquire_fit_lock("s", "d.example", ttl=30) is None
    run_out(a, "s", "d.example", 20)
    successor = b.acquire_fit_lock("s", "d.example", ttl=30)
    assert successor is not None
    assert dead.release() is False
    assert c.acquire_fit_lock("s", "d.example", ttl=30) is None


def test_a_local_lock_is_held_until_its_ttl_by_the_coordinators_clock():
    clock = Clock()
    coordinator = LocalCoordinator(clock.seconds)
    assert coordinator.acquire_fit_lock("s", "d.example", ttl=30) is not None
    clock.advance(29.9)
    assert coordinator.acquire_fit_lock("s", "d.example", ttl=30) is None
    clock.advance(0.1)
    assert coordinator.acquire_fit_lock("s", "d.example", ttl=30) is not None
