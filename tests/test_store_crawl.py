"""Real crawls with the model store: incremental crawls, distributed workers on scrapy-redis, drift.

Each crawl runs in its own process (see store_harness); distributed ones share a real Redis server
(the ``redis_url`` fixture) through the scrapy-redis scheduler, as a scrapy-redis deployment does.
"""

from __future__ import annotations

import signal
from collections import Counter
from pathlib import Path

import pytest
from helpers.linked_site import article_urls, served_linked_site
from helpers.store_crawl_models import DIE_IN_FIT_ENV, SLOW_FIT_ENV, StoredBlocks
from helpers.store_harness import start_crawl
from helpers.store_support import redesign

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.models.registry import registry
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store import DirectoryStore, open_store
from scrapy_boilerplate.testing.localsite import serve_directory, write_linked_site

pytestmark = pytest.mark.slow  # real crawls against a Redis server

MODEL = "test_stored_blocks"
N_PAGES = 40


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """One linked synthetic site of 40 pages on a loopback port; yields (base URL, {url: page})."""
    with served_linked_site(tmp_path_factory.mktemp("site"), "store.example", N_PAGES, seed=7) as served:
        yield served


def urls(base: str, n: int = N_PAGES) -> list[str]:
    return article_urls(base, n)


def assert_cleaned_by_site_model(items: list[dict], gold: dict, model: str = MODEL) -> None:
    """Every item was cleaned by the site model (no fallback), keeping the article and dropping the template."""
    assert Counter(item["boilerplate_model"] for item in items) == {model: len(items)}
    for item in items:
        page = gold[item["url"]]
        assert page.article_text.split("\n\n")[1][:80] in item["text"]
        assert page.template_texts[-1] not in item["text"]  # the cookie banner


def test_an_incremental_crawl_cleans_from_its_first_page_with_the_stored_model(site, tmp_path):
    base, gold = site
    settings = {
        "BOILERPLATE_MODEL": MODEL,
        "BOILERPLATE_SAMPLE_SIZE": 10,
        "BOILERPLATE_STORE": str(tmp_path / "models"),
    }
    first = start_crawl(tmp_path / "first", urls(base, 20), settings, follow="^$").result()
    assert first.stats[keys.MODELS_FITTED] == 1 and first.stats[keys.STORE_SAVED] == 1
    second = start_crawl(tmp_path / "second", urls(base)[20:], settings, follow="^$").result()
    assert second.stats.get("finish_reason") == "finished", second.log[-2000:]
    assert keys.MODELS_FITTED not in second.stats and keys.SAMPLE_PAGES not in second.stats
    assert second.stats[keys.STORE_LOADED] == 1
    assert keys.ITEMS_HELD not in second.stats  # nothing waited: cleaned from the first page
    assert len(second.items) == 20
    assert_cleaned_by_site_model(second.items, gold)


def test_a_corrupt_stored_model_is_counted_and_re_learned(site, tmp_path):
    base, gold = site
    models = tmp_path / "models"
    settings = {"BOILERPLATE_MODEL": MODEL, "BOILERPLATE_SAMPLE_SIZE": 10, "BOILERPLATE_STORE": str(models)}
    start_crawl(tmp_path / "first", urls(base, 12), settings, follow="^$").result()
    (before,) = DirectoryStore(models).list()
    (record,) = models.glob("site/*.json")
    record.write_bytes(record.read_bytes()[:100])
    again = start_crawl(tmp_path / "again", urls(base)[12:], settings, follow="^$").result()
    assert again.stats.get("finish_reason") == "finished"
    assert again.stats[keys.STORE_CORRUPT] == 1 and again.stats[keys.MODELS_FITTED] == 1
    assert "is unusable and will be re-learned" in again.log
    assert_cleaned_by_site_model(again.items, gold)
    (after,) = DirectoryStore(models).list()  # the record is whole again: replaced by the new fit
    assert after.fitted_at > before.fitted_at and after.pages == 10


def test_an_unreachable_redis_store_never_stops_the_crawl(site, tmp_path):
    base, gold = site
    pytest.importorskip("redis", reason="redis-py is not installed (pip install 'scrapy-boilerplate-learner[redis]')")
    settings = {
        "BOILERPLATE_MODEL": MODEL,
        "BOILERPLATE_SAMPLE_SIZE": 10,
        "BOILERPLATE_STORE": "redis://127.0.0.1:1/0",
    }  # nothing listens there
    result = start_crawl(tmp_path / "out", urls(base, 25), settings, follow="^$").result()
    assert result.stats.get("finish_reason") == "finished", result.log[-3000:]
    assert result.stats[keys.STORE_ERRORS] >= 1 and result.stats[keys.MODELS_FITTED] == 1
    assert keys.STORE_SAVED not in result.stats
    warnings = [line for line in result.log.splitlines() if "WARNING" in line and "boilerplate" in line]
    assert len(warnings) == 1, warnings  # said once, at start: no later failure of the store to report
    assert "model store redis://127.0.0.1:1/0 cannot be used" in warnings[0] and "will not be stored" in warnings[0]
    assert "persist in" not in result.log
    assert len(result.items) == 25
    assert_cleaned_by_site_model(result.items, gold)


def test_workers_share_one_sample_and_one_fit_and_lose_or_repeat_nothing(site, tmp_path, redis_crawl):
    """Each worker crawls its own third of the site (its own scrapy-redis queue; the dupefilter and
    the model store are shared), so each takes part however fast the others start: more pages than
    the sample each, and one fit among them."""
    base, gold = site
    parts = [urls(base)[n::3] for n in range(3)]
    queue = redis_crawl["SCHEDULER_QUEUE_KEY"]
    workers = [
        start_crawl(tmp_path / f"w{n}", part, {**redis_crawl, "SCHEDULER_QUEUE_KEY": f"{queue}:{n}"}, follow="^$")
        for n, part in enumerate(parts)
    ]
    results = [w.result() for w in workers]
    for result in results:
        assert result.stats.get("finish_reason") == "finished", result.log[-3000:]
    items = [item for result in results for item in result.items]
    assert Counter(item["url"] for item in items) == Counter(urls(base))  # every page once, across workers
    assert [sorted(item["url"] for item in result.items) for result in results] == [sorted(p) for p in parts]
    assert min(map(len, parts)) > redis_crawl["BOILERPLATE_SAMPLE_SIZE"]  # each could have fitted alone
    assert sum(r.stats.get(keys.MODELS_FITTED, 0) for r in results) == 1
    assert sum(r.stats.get(keys.SAMPLE_PAGES, 0) for r in results) == 10
    assert_cleaned_by_site_model(items, gold)
    stored = open_store(redis_crawl["REDIS_URL"], prefix=redis_crawl["BOILERPLATE_STORE_PREFIX"])
    (entry,) = stored.list()
    assert entry.pages == 10 and entry.model == MODEL
    with registry.registered(StoredBlocks):  # readable here too, for this test only
        model = stored.get(entry.spider, entry.domain).model
    for item in items:  # the one stored model cleaned every worker's items
        assert item["text"] == model.clean(Page(item["html"], item["url"])).text
    stored.close()


def test_a_worker_killed_while_fitting_does_not_stall_the_others_past_the_lock_expiry(site, tmp_path, redis_crawl):
    base, gold = site
    settings = {**redis_crawl, "BOILERPLATE_FIT_LOCK_TTL": 3.0, "CONCURRENT_REQUESTS": 1}
    doomed = start_crawl(tmp_path / "doomed", urls(base), settings, env={DIE_IN_FIT_ENV: "1"}, follow="^$")
    assert doomed.process.wait(timeout=120) == -signal.SIGKILL  # died fitting: its sample complete in Redis
    result = start_crawl(tmp_path / "survivor", urls(base), settings, follow="^$").result()
    assert result.stats.get("finish_reason") == "finished", result.log[-3000:]
    # fitted once the dead worker's lock expired (3 s) or it was found dead (10 s), long before its items'
    # deadline (60 s)
    assert result.stats[keys.MODELS_FITTED] == 1
    assert result.stats.get(keys.SAMPLE_PAGES, 0) == 0  # it fitted the dead worker's sample pages
    assert result.items and keys.ITEMS_FALLBACK not in result.stats
    assert keys.ITEMS_RELEASED.format(reason="deadline") not in result.stats
    assert_cleaned_by_site_model(result.items, gold)


def redesigned_site(root: Path) -> list:
    """70 pages of one site, redesigned from page 30 on (the written pages, with the old template)."""
    pages = write_linked_site(root, "drift.example", 70, seed=3)
    for i in range(30, 70):
        path = root / "article" / f"{i}.html"
        path.write_text(redesign(path.read_text(encoding="utf-8")), encoding="utf-8")
    return pages


DRIFT_SETTINGS = {
    "BOILERPLATE_MODEL": MODEL,
    "BOILERPLATE_SAMPLE_SIZE": 8,
    "BOILERPLATE_DRIFT_WINDOW": 6,
    "BOILERPLATE_DRIFT_EVERY": 1,
    "CONCURRENT_REQUESTS": 1,
    # one template per domain: grouped by template, the redesigned pages are a new template with a fit
    # of its own (see test_crawl_templates), and no model of the old one would see them drift
    "BOILERPLATE_MAX_TEMPLATES": 1,
}


@pytest.mark.parametrize("stalled", [False, True], ids=["in_step", "pipeline_stalled_at_the_change"])
def test_a_template_change_halfway_triggers_one_refit(tmp_path, stalled):
    """Stalled: a pipeline ahead of the plugin's holds the items from page 29 on for 3 s while the
    crawl downloads on, so the redesigned pages pass the sampling middleware long before the change
    is noticed; the new sample is filled from them as they reach the plugin's pipeline."""
    root = tmp_path / "drifting"
    pages = redesigned_site(root)
    settings = {**DRIFT_SETTINGS, "BOILERPLATE_STORE": str(tmp_path / "m")}
    if stalled:
        settings |= {
            "ITEM_PIPELINES": {"helpers.stalling_pipeline.StallingPipeline": 100},
            "TEST_STALL_URL": "/article/29.html",
            "TEST_STALL_SECONDS": 3.0,
        }
    with serve_directory(root) as base:
        result = start_crawl(tmp_path / "out", urls(base, 70), settings, follow="^$").result()
    assert result.stats.get("finish_reason") == "finished", result.log[-3000:]
    assert result.stats.get(keys.DRIFT_DETECTED) == 1, result.log[-6000:]
    assert result.stats.get(keys.MODELS_REFITTED) == 1 and result.stats.get(keys.MODELS_FITTED) == 2, result.log[-6000:]
    assert result.stats[keys.SAMPLE_PAGES] == 16
    assert len(result.items) == 70 and keys.ITEMS_FALLBACK not in result.stats
    gold = {f"{base}/article/{i}.html": page for i, page in enumerate(pages)}
    assert_cleaned_by_site_model(result.items, gold)
    entry = DirectoryStore(tmp_path / "m").list()[0]
    assert entry.generation == 1  # the stored model is the re-fitted one
    assert "changed its template" in result.log and "re-fitted" in result.log


def test_a_template_change_drops_the_rules_coverage_and_triggers_one_refit(tmp_path):
    """A model whose cleans say how much of the page its rules covered: its sample needs no fingerprint,
    and the redesigned pages, which its rules cover poorly, are the template change."""
    root = tmp_path / "drifting"
    pages = redesigned_site(root)
    settings = {**DRIFT_SETTINGS, "BOILERPLATE_MODEL": "test_rule_blocks", "BOILERPLATE_STORE": str(tmp_path / "m")}
    with serve_directory(root) as base:
        result = start_crawl(tmp_path / "out", urls(base, 70), settings, follow="^$").result()
    assert result.stats.get("finish_reason") == "finished", result.log[-3000:]
    assert result.stats.get(keys.DRIFT_DETECTED) == 1, result.log[-6000:]
    assert result.stats.get(keys.MODELS_REFITTED) == 1 and result.stats.get(keys.MODELS_FITTED) == 2
    (change,) = [line for line in result.log.splitlines() if "changed its template" in line]
    assert "its rules cover" in change, change
    assert len(result.items) == 70 and keys.ITEMS_FALLBACK not in result.stats
    gold = {f"{base}/article/{i}.html": page for i, page in enumerate(pages)}
    assert_cleaned_by_site_model(result.items, gold, "test_rule_blocks")
    (entry,) = DirectoryStore(tmp_path / "m").list()
    assert entry.generation == 1 and entry.baseline.coverage > 0.9  # fitted on the new template's pages
    assert entry.baseline.signatures == frozenset()  # no sample fingerprint: the coverage told


def test_a_refit_still_running_when_the_crawl_ends_is_finished_and_stored(tmp_path):
    """A slow model's fits run in the thread pool; the new sample fills within the last few pages,
    so the crawl has no more pages when the re-fit starts: it closes after the re-fit, not before."""
    root = tmp_path / "drifting"
    redesigned_site(root)
    settings = {**DRIFT_SETTINGS, "BOILERPLATE_STORE": str(tmp_path / "m")}
    with serve_directory(root) as base:
        crawl = start_crawl(tmp_path / "out", urls(base, 42), settings, env={SLOW_FIT_ENV: "0.5"}, follow="^$")
        result = crawl.result()
    assert result.stats.get("finish_reason") == "finished", result.log[-3000:]
    assert result.stats.get(keys.DRIFT_DETECTED) == 1, result.log[-6000:]
    assert "finishing 1 queued fit(s) first" in result.log, result.log[-6000:]
    assert result.stats.get(keys.MODELS_REFITTED) == 1 and result.stats.get(keys.MODELS_FITTED) == 2, result.log[-6000:]
    assert len(result.items) == 42 and keys.ITEMS_FALLBACK not in result.stats
    entry = DirectoryStore(tmp_path / "m").list()[0]
    assert entry.generation == 1  # the stored model is the re-fitted one
