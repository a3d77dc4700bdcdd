"""A crawl stopped before its samples filled (CLOSESPIDER_*, Ctrl-C) fits what it sampled.

The stops come after a number of pages (CLOSESPIDER_PAGECOUNT, and a SIGINT the crawl sends itself
after as many responses), so what the stop finds does not depend on the machine's speed.

Each crawl runs in its own process (see crawl_harness).
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers.crawl_harness import CrawlResult, run_crawl
from helpers.linked_site import served_linked_site
from helpers.signal_stats import signal_at

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.config import DEFAULT_FALLBACK_MODEL
from scrapy_boilerplate.testing.localsite import SEED_PATH

pytestmark = pytest.mark.slow  # real crawls, each in its own process

SITE_MODEL = "test_common_blocks"  # needs 3 sample pages to tell the template (see helpers.crawl_models)
N_PAGES = 100


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A linked site of 100 pages; yields (base URL, {url: page})."""
    with served_linked_site(tmp_path_factory.mktemp("site"), "stop.example", N_PAGES, seed=5) as served:
        yield served


# A sample that cannot fill before the stop, which comes after 10 pages: the stop finds their items waiting.
UNFILLED = {
    "BOILERPLATE_MODEL": SITE_MODEL,
    "BOILERPLATE_SAMPLE_SIZE": 1000,
    "BOILERPLATE_MIN_SAMPLE_SIZE": 3,
    "CONCURRENT_REQUESTS": 1,
}
STOP_AFTER = 10


def assert_cleaned_by_the_partial_model(result: CrawlResult, gold: dict) -> None:
    """Every item exported once, each cleaned by the site model fitted on the partial sample."""
    urls = Counter(item["url"] for item in result.items)
    assert urls and set(urls.values()) == {1}
    assert result.stats.get(keys.ITEMS_HELD, 0) >= 3
    assert result.stats[keys.MODELS_PARTIAL] == 1 and result.stats[keys.MODELS_FITTED] == 1
    assert Counter(item["boilerplate_model"] for item in result.items) == {SITE_MODEL: len(result.items)}
    assert keys.ITEMS_FALLBACK not in result.stats
    for item in result.items:
        page = gold[item["url"]]
        assert page.article_text.split("\n\n")[1][:80] in item["text"]
        assert page.template_texts[-1] not in item["text"]  # the cookie banner
    assert "the crawl is stopping before its sample of 1000 pages filled" in result.log


def test_closespider_fits_the_partial_sample_before_releasing_its_items(site, tmp_path):
    base, gold = site
    result = run_crawl(tmp_path, [base + SEED_PATH], settings={**UNFILLED, "CLOSESPIDER_PAGECOUNT": STOP_AFTER})
    assert result.stats.get("finish_reason") == "closespider_pagecount", result.log[-2000:]
    assert_cleaned_by_the_partial_model(result, gold)
    assert not list((tmp_path / "models").rglob("*.json"))  # a partial model is not stored


def test_ctrl_c_fits_the_partial_sample_before_releasing_its_items(site, tmp_path):
    base, gold = site
    ctrl_c = signal_at(("response_received_count", STOP_AFTER, "SIGINT"))  # the process gets SIGINT, as from Ctrl-C
    result = run_crawl(tmp_path, [base + SEED_PATH], settings={**UNFILLED, **ctrl_c})
    assert result.stats.get("finish_reason") == "shutdown", result.log[-2000:]
    assert "Received SIGINT, shutting down gracefully" in result.log
    assert_cleaned_by_the_partial_model(result, gold)


def test_a_sample_below_the_minimum_takes_the_fallback_at_the_stop(site, tmp_path):
    base, _ = site
    settings = {**UNFILLED, "BOILERPLATE_MIN_SAMPLE_SIZE": 500, "CLOSESPIDER_PAGECOUNT": STOP_AFTER}
    result = run_crawl(tmp_path, [base + SEED_PATH], settings=settings)
    assert result.stats.get("finish_reason") == "closespider_pagecount"
    assert keys.MODELS_FITTED not in result.stats
    assert result.stats[keys.ITEMS_RELEASED.format(reason="closing")] == result.stats[keys.ITEMS_HELD] >= 3
    assert {item["boilerplate_model"] for item in result.items} == {f"{DEFAULT_FALLBACK_MODEL} (fallback)"}
    assert "smaller BOILERPLATE_MIN_SAMPLE_SIZE" in result.log


def test_a_resumed_crawl_goes_on_with_the_sample_kept_in_jobdir(site, tmp_path):
    base, gold = site
    settings = {
        "BOILERPLATE_MODEL": SITE_MODEL,
        "BOILERPLATE_SAMPLE_SIZE": 20,
        "BOILERPLATE_STORE": str(tmp_path / "models"),
        "JOBDIR": str(tmp_path / "job"),
        "CONCURRENT_REQUESTS": 1,
    }
    first = run_crawl(tmp_path / "first", [base + SEED_PATH], settings={**settings, "CLOSESPIDER_PAGECOUNT": 8})
    assert first.stats.get("finish_reason") == "closespider_pagecount", first.log[-2000:]
    sampled_before = first.stats[keys.SAMPLE_PAGES]
    assert 3 <= sampled_before < 20
    second = run_crawl(tmp_path / "second", [base + SEED_PATH], settings=settings)
    assert second.stats.get("finish_reason") == "finished", second.log[-2000:]
    assert second.stats[keys.SAMPLE_RESUMED] == 1
    assert second.stats[keys.SAMPLE_PAGES] == 20 - sampled_before  # the kept pages count towards the sample
    assert second.stats[keys.MODELS_FITTED] == 1 and f"{SITE_MODEL} for" in second.log
    assert "on 20 pages" in second.log
    urls = Counter(item["url"] for item in first.items + second.items)
    assert len(urls) == N_PAGES and set(urls.values()) == {1}
    assert {item["boilerplate_model"] for item in second.items} == {SITE_MODEL}
    assert not list((tmp_path / "job" / "boilerplate" / "samples").rglob("*.jsonl"))  # fitted: nothing kept
