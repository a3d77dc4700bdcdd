"""One suite run against every model-store backend: round trips, listing, replacing, corruption."""

from __future__ import annotations

import json
import logging
import uuid
from pathlib import Path

import pytest
from helpers.model_outputs import STATEFUL_MODELS, assert_same_outputs
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from scrapy_boilerplate import Page, create_model
from scrapy_boilerplate.drift import fit_baseline
from scrapy_boilerplate.models import ModelFormatError
from scrapy_boilerplate.store import DirectoryStore, MemoryStore, RedisStore, StoredModel, StoreError, open_store
from scrapy_boilerplate.testing.synthetic import make_site


@pytest.fixture(params=["directory", "redis", "memory"])
def store(request, tmp_path: Path):
    """A fresh, empty store of each backend, counting into a real Scrapy stats collector."""
    stats = MemoryStatsCollector(get_crawler())
    if request.param == "directory":
        yield DirectoryStore(tmp_path / "models", stats)
        return
    if request.param == "memory":
        yield MemoryStore(stats)
        return
    url = request.getfixturevalue("redis_url")
    redis_store = RedisStore.from_url(url, prefix=f"test-{uuid.uuid4().hex}", stats=stats)
    yield redis_store
    for name in redis_store.client.scan_iter(f"{redis_store.prefix}:*"):
        redis_store.client.delete(name)
    redis_store.close()


def fitted(
    site: str = "news.example", n: int = 6, seed: int = 1, model: str = "pvalue", **params
) -> tuple[StoredModel, list[Page]]:
    """``model`` fitted on the first ``n`` pages of a synthetic site; returns it stored, and twice as many pages."""
    pages = [Page(s.html, s.url) for s in make_site(site, 2 * n, seed=seed)]
    fitted_model = create_model(model, **params).fit(pages[:n])
    return StoredModel.new("news", site, fitted_model, n, fit_baseline(fitted_model, pages[:n])), pages


@pytest.mark.parametrize("model", STATEFUL_MODELS)
def test_a_stored_model_comes_back_cleaning_exactly_as_before(store, model):
    stored, pages = fitted(n=3, model=model)
    entry = store.put(stored)
    loaded = store.get("news", "news.example")
    assert loaded is not None
    assert_same_outputs(loaded.model, stored.model, pages)  # the sample's pages and three it never saw
    assert loaded.entry.baseline == stored.entry.baseline
    assert (loaded.entry.pages, loaded.entry.model, loaded.entry.fitted_at) == (3, model, stored.entry.fitted_at)
    assert entry.size == len(store.get_record("news", "news.example")) > 0


def test_missing_models_are_absent_not_errors(store):
    assert store.get("news", "nowhere.example") is None
    assert store.entry("news", "nowhere.example") is None
    assert store.list() == []
    assert store.delete("news", "nowhere.example") is False


def test_list_is_sorted_and_filters_by_spider_and_delete_removes(store):
    for spider, domain in [("news", "b.example"), ("blog", "z.example"), ("news", "a.example")]:
        stored, _ = fitted(domain)
        store.put(StoredModel.new(spider, domain, stored.model, 6, stored.entry.baseline))
    assert [(e.spider, e.domain) for e in store.list()] == [
        ("blog", "z.example"),
        ("news", "a.example"),
        ("news", "b.example"),
    ]
    assert [e.domain for e in store.list("news")] == ["a.example", "b.example"]
    assert all(e.size > 0 and e.model == "pvalue" and e.pages == 6 for e in store.list())
    assert store.delete("news", "a.example") is True
    assert store.get("news", "a.example") is None
    assert [e.domain for e in store.list("news")] == ["b.example"]


def test_put_replaces_the_model_and_changes_its_revision(store):
    first, _ = fitted()
    store.put(first)
    before = store.revision("news", "news.example")
    second, _ = fitted(variant="paper")
    store.put(StoredModel.new("news", "news.example", second.model, 4, second.entry.baseline, generation=1))
    loaded = store.get("news", "news.example")
    assert loaded.model.get_params()["variant"] == "paper"
    assert (loaded.entry.pages, loaded.entry.generation) == (4, 1)
    assert store.revision("news", "news.example") != before
    assert len(store.list()) == 1


def test_names_with_separators_round_trip_and_dot_names_are_refused(store):
    stored, _ = fitted()
    odd = StoredModel.new("my/spider", "host:8080", stored.model, 6)
    store.put(odd)
    assert store.get("my/spider", "host:8080") is not None
    assert [(e.spider, e.domain) for e in store.list()] == [("my/spider", "host:8080")]
    with pytest.raises(ValueError, match="name"):
        store.put(StoredModel.new("news", "..", stored.model, 6))


def _corrupt(store, data: bytes) -> None:
    """Write a bad record behind the store's back, as a crash or another release would."""
    if isinstance(store, MemoryStore):
        store.records[("news", "news.example")] = data
    elif isinstance(store, RedisStore):
        store.client.hset(f"{store.prefix}:models:news", "news.example", data)
    else:
        store.path("news", "news.example").write_bytes(data)


@pytest.mark.parametrize(
    "damage",
    ["garbage", "truncated", "future-version", "foreign-model", "huge-integer", "infinite-pages", "model-a-list"],
)
def test_a_corrupt_record_is_logged_counted_and_treated_as_absent(store, damage, caplog):
    stored, pages = fitted()
    store.put(stored)
    good = store.get_record("news", "news.example")
    document = json.loads(good)
    if damage == "garbage":
        bad = b"\x00\xffnot json at all"
    elif damage == "truncated":
        bad = good[: len(good) // 2]
    elif damage == "future-version":
        document["model"]["version"] = 99
        bad = json.dumps(document).encode()
    elif damage == "foreign-model":
        document["model"]["model"] = "no-such-model"
        bad = json.dumps(document).encode()
    elif damage == "huge-integer":  # more digits than Python converts to an int by default
        bad = good.replace(b'"pages":6', b'"pages":' + b"6" * 4301, 1)
    elif damage == "infinite-pages":
        bad = good.replace(b'"pages":6', b'"pages":1e400', 1)
    else:
        document["model"]["model"] = ["pvalue"]
        bad = json.dumps(document).encode()
    assert bad != good
    _corrupt(store, bad)
    with caplog.at_level(logging.WARNING):
        assert store.get("news", "news.example") is None
        assert store.get("news", "news.example") is None
    assert store.stats.get_value("boilerplate/store/corrupt") == 1  # counted and logged once per record
    assert sum("re-learned" in r.getMessage() for r in caplog.records) == 1
    store.put(stored)  # re-learning replaces it
    assert store.get("news", "news.example").model.clean(pages[0]).text == stored.model.clean(pages[0]).text
    _corrupt(store, bad)  # a new defect in the replacement is news again
    assert store.get("news", "news.example") is None
    assert store.stats.get_value("boilerplate/store/corrupt") == 2


def test_put_record_refuses_invalid_bytes_and_keeps_what_was_stored(store):
    stored, _ = fitted()
    store.put(stored)
    with pytest.raises(ModelFormatError):
        store.put_record(b'{"format": "scrapy-boilerplate/stored-model", "version": 1}')
    assert store.get("news", "news.example") is not None


@pytest.mark.parametrize("model", STATEFUL_MODELS)
def test_records_move_between_backends_unchanged(store, tmp_path: Path, model):
    stored, pages = fitted(n=3, model=model)
    store.put(stored)
    other = DirectoryStore(tmp_path / "elsewhere")
    other.put_record(store.get_record("news", "news.example"))
    moved = other.get("news", "news.example")
    assert moved.entry.fitted_at == stored.entry.fitted_at
    assert_same_outputs(moved.model, stored.model, pages)


def test_directory_writes_leave_no_temporary_files_and_a_failed_write_keeps_the_old_model(tmp_path, monkeypatch):
    store = DirectoryStore(tmp_path / "models")
    stored, pages = fitted()
    store.put(stored)
    assert sorted(p.name for p in (tmp_path / "models" / "news").iterdir()) == ["news.example.json"]

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", failing_replace)
    other, _ = fitted(variant="paper")
    with pytest.raises(StoreError, match="No space left"):
        store.put(other)
    monkeypatch.undo()
    assert sorted(p.name for p in (tmp_path / "models" / "news").iterdir()) == ["news.example.json"]
    assert store.get("news", "news.example").model.get_params()["variant"] == "improved"


def test_directory_layout_is_spider_then_domain_json(tmp_path):
    store = open_store(str(tmp_path / "models"))
    stored, _ = fitted()
    store.put(stored)
    record = json.loads((tmp_path / "models" / "news" / "news.example.json").read_bytes())
    assert record["meta"]["domain"] == "news.example"
    assert record["model"]["format"] == "scrapy-boilerplate/model"  # the model contract's own document


def test_redis_down_raises_store_error_not_a_crash():
    pytest.importorskip("redis", reason="redis-py is not installed (pip install 'scrapy-boilerplate-learner[redis]')")
    store = open_store("redis://127.0.0.1:1/0")
    store.client.connection_pool.connection_kwargs.update(socket_connect_timeout=0.5, retry_on_timeout=False)
    with pytest.raises(StoreError, match="redis"):
        store.get("news", "news.example")
