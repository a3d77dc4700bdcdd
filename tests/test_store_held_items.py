"""Held-item records on Redis and the items they hold: one owner per record, items rebuilt as they were."""

from __future__ import annotations

import dataclasses
import uuid

import attrs
import pytest
import scrapy

from scrapy_boilerplate.crawl.itemrecords import UnrecordableItem, decode_record, encode_record
from scrapy_boilerplate.store.held_items import HeldItemRecords


class ArticleItem(scrapy.Item):
    url = scrapy.Field()
    body = scrapy.Field()
    text = scrapy.Field()


@dataclasses.dataclass
class ArticleData:
    url: str
    body: bytes = b""


@attrs.define
class ArticleAttrs:
    url: str
    tags: list = attrs.Factory(list)


@pytest.mark.parametrize(
    "item",
    [
        {"url": "http://a.example/1", "title": "Ünïcode", "n": 3, "nested": {"k": [1, 2.5, None]}},
        ArticleItem(url="http://a.example/1", body="<p>x</p>"),
        ArticleData("http://a.example/1", "caf\u00e9 \u00a9".encode("cp1252")),
        ArticleAttrs("http://a.example/1", ["a", "b"]),
    ],
    ids=["dict", "scrapy.Item", "dataclass with bytes", "attrs"],
)
def test_an_item_comes_back_as_its_own_class_with_its_page(item):
    record = decode_record(encode_record(item, "http://a.example/1", "<html><p>page é</p></html>"))
    assert type(record.item) is type(item) and record.own_class
    assert record.item == item
    assert (record.url, record.html) == ("http://a.example/1", "<html><p>page é</p></html>")


def test_an_item_that_carries_its_page_is_recorded_once():
    item = {"url": "http://a.example/1", "html": "<p>" + "word " * 5000 + "</p>"}
    data = encode_record(item, item["url"], None)
    assert len(data) < len(item["html"]) / 10  # compressed, and the page not repeated
    assert decode_record(data).html is None and decode_record(data).item == item


def test_an_item_json_cannot_hold_is_refused():
    from datetime import datetime

    with pytest.raises(UnrecordableItem):
        encode_record({"url": "http://a.example/", "seen": datetime(2020, 1, 1)}, "http://a.example/", "<p/>")


def test_a_class_that_no_longer_imports_comes_back_as_a_dict_of_its_fields():
    Local = type("Local", (scrapy.Item,), {"url": scrapy.Field()})  # not importable by its path
    record = decode_record(encode_record(Local(url="http://a.example/"), "http://a.example/", "<p/>"))
    assert record.item == {"url": "http://a.example/"} and not record.own_class


@pytest.mark.parametrize("data", [b"", b"garbage", encode_record({"a": 1}, "u", "h")[:-5]])
def test_a_damaged_record_is_a_value_error(data):
    with pytest.raises(ValueError):
        decode_record(data)


@pytest.fixture
def records(redis_url):
    """A factory of workers' record views on one fresh prefix; the keys are removed after."""
    import redis

    client = redis.Redis.from_url(redis_url)
    prefix = f"test-{uuid.uuid4().hex}"
    yield lambda worker: HeldItemRecords(client, prefix, "spider", worker)
    for name in client.scan_iter(f"{prefix}:*"):
        client.delete(name)
    client.close()


def lapse(worker: HeldItemRecords) -> None:
    """``worker``'s heartbeat lapses, as its key expiring does when the worker stops beating."""
    from scrapy_boilerplate.store.redis_backend import key

    worker.client.delete(key(worker.prefix, "alive", worker.spider, worker.worker))


def test_a_dead_workers_records_move_once_to_one_live_worker(records):
    dead, first, second = records("dead"), records("first"), records("second")
    dead.beat(10)
    for n in range(5):
        dead.put(f"dead:{n}", f"record {n}".encode())
    first.beat(10)
    assert first.holders() == {"dead": True}
    assert first.claim("dead", 10) == []  # its heartbeat is alive: nothing moves
    lapse(dead)
    assert first.holders() == {"dead": False}
    taken = first.claim("dead", 3) + second.claim("dead", 10) + first.claim("dead", 10)
    assert sorted(taken) == [(f"dead:{n}", f"record {n}".encode()) for n in range(5)]
    assert "dead" not in first.holders()  # gone once empty
    assert dead.remove("dead:0") == "taken_over"  # a stalled owner learns its record was taken over
    assert [first.remove(f"dead:{n}") for n in range(3)] == ["removed"] * 3
    assert [second.remove(f"dead:{n}") for n in (3, 4)] == ["removed"] * 2
    assert first.remove("dead:3") == "vanished"  # never first's: as if the server had lost it


def test_a_worker_that_leaves_with_nothing_held_is_forgotten(records):
    worker, other = records("w"), records("other")
    worker.beat(10)
    worker.put("w:0", b"x")
    assert worker.remove("w:0") == "removed"
    worker.leave()
    assert other.holders() == {}


def test_a_dead_worker_that_held_no_item_is_found_and_its_fit_locks_released(records, redis_url):
    import redis

    from scrapy_boilerplate.store.redis_coordination import RedisCoordinator

    dead, live = records("dead"), records("live")
    dead.beat(10)
    live.beat(10)
    coordinator = RedisCoordinator(redis.Redis.from_url(redis_url), dead.prefix)
    coordinator.lock_owner = "dead"
    assert coordinator.acquire_fit_lock("spider", "a.example", 120) is not None  # it dies fitting
    assert live.dead_workers() == [] and live.holders() == {}  # it held no item: no holder to find
    lapse(dead)
    assert live.dead_workers() == ["dead"]
    assert live.release_locks("dead") == 1
    live.forget("dead")
    assert live.dead_workers() == []
    coordinator.lock_owner = "live"
    assert coordinator.acquire_fit_lock("spider", "a.example", 120) is not None  # fitted at once, not in 120 s
    coordinator.client.close()


def test_a_worker_that_leaves_is_not_taken_for_dead(records):
    worker, other = records("w"), records("other")
    worker.beat(10)
    worker.leave()
    assert other.dead_workers() == []
