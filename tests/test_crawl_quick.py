"""Real crawls in the quick tier: a few local pages, the add-on, Scrapy's engine and reactor.

The crawls run one after another in one subprocess (see helpers.crawl_batch), once for the module;
each test reads what one of them exported, counted and logged.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from helpers.crawl_batch import run_crawls
from helpers.crawl_harness import CrawlResult
from helpers.encoded_site import MOVED, GzipRedirectHandler

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.config import DEFAULT_FALLBACK_MODEL
from scrapy_boilerplate.testing.localsite import SEED_PATH, serve_directory, write_linked_site
from scrapy_boilerplate.testing.synthetic import SyntheticPage

SITE_MODEL = "test_clean_counter"
SITE_PAGES, SMALL_PAGES, ENCODED_PAGES, LISTING_ENTRIES = 6, 3, 4, 3
SAMPLE = {"BOILERPLATE_MODEL": SITE_MODEL, "BOILERPLATE_SAMPLE_SIZE": 3}
CLEAN_NUMBER = re.compile(r"\nclean #(\d+)$")
LOG_RECORD = re.compile(r"^(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d )", re.MULTILINE)  # where each record starts


def crawl_specs(site: str, small: str, encoded: str) -> dict[str, dict]:
    """The module's crawls by name: base URLs of the 6-page site, the 3-page site and the encoded one."""
    never = {"BOILERPLATE_SAMPLE_SIZE": 10, "BOILERPLATE_MODEL": SITE_MODEL}  # more than the small site has
    return {
        "cleaned": {
            "start_urls": [site + SEED_PATH],
            "settings": {**SAMPLE, "ITEM_PIPELINES": {"helpers.crawl_harness.TextSeenPipeline": 300}},
        },
        "listing": {
            "start_urls": [site + SEED_PATH],
            "settings": {**SAMPLE, "BOILERPLATE_DROP_HTML": True},  # items without the field: nothing to drop
            "html_in_item": False,
            "items_per_page": LISTING_ENTRIES,
        },
        "disabled": {"start_urls": [site + SEED_PATH], "settings": {**SAMPLE, "BOILERPLATE_ENABLED": False}},
        "drop_html": {
            "start_urls": [site + SEED_PATH],
            "settings": {**SAMPLE, "BOILERPLATE_DROP_HTML": True},
            "item_type": "attrs",
        },
        "encoded": {
            "start_urls": [f"{encoded}{MOVED}/article/{i}.html" for i in range(ENCODED_PAGES)],
            "settings": {**SAMPLE, "BOILERPLATE_SAMPLE_SIZE": ENCODED_PAGES},
            "follow": "^$",  # only the redirected start URLs
        },
        # the sample never fills: waiting items leave when the crawl is quiet long enough, or at the deadline
        "quiet_short": {
            "start_urls": [small + SEED_PATH],
            "settings": {**never, "BOILERPLATE_QUIET_SECONDS": 0.2, "BOILERPLATE_HOLD_TIMEOUT": 3600},
        },
        "quiet_long": {
            "start_urls": [small + SEED_PATH],
            "settings": {**never, "BOILERPLATE_QUIET_SECONDS": 3600, "BOILERPLATE_HOLD_TIMEOUT": 2.5},
        },
    }


SITES = {"site": (SITE_PAGES, 3), "small": (SMALL_PAGES, 4), "encoded": (ENCODED_PAGES, 5)}  # pages, seed


@pytest.fixture(scope="module")
def web_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("quick_sites")


@pytest.fixture(scope="module")
def gold(web_root) -> dict[str, SyntheticPage]:
    """The served sites' pages by ``SITE:PATH``, written under ``web_root/SITE``."""
    pages = {}
    for name, (n, seed) in SITES.items():
        for page in write_linked_site(web_root / name, f"{name}.example", n, seed=seed):
            pages[f"{name}:{page.url.split('.example', 1)[1]}"] = page
    return pages


@pytest.fixture(scope="module")
def crawls(gold, web_root, tmp_path_factory) -> dict[str, CrawlResult]:
    with (
        serve_directory(web_root / "site") as site,
        serve_directory(web_root / "small") as small,
        serve_directory(web_root / "encoded", handler_class=GzipRedirectHandler) as encoded,
    ):
        return run_crawls(tmp_path_factory.mktemp("quick_crawls"), crawl_specs(site, small, encoded))


def page_of(gold: dict[str, SyntheticPage], site: str, url: str) -> SyntheticPage:
    return gold[f"{site}:{'/' + url.split('/', 3)[3].split('#')[0]}"]


def first_paragraph(page: SyntheticPage) -> str:
    return page.article_text.split("\n\n")[1][:80]


def finished(result: CrawlResult, n_items: int) -> Counter[str]:
    """Assert the crawl finished and exported ``n_items`` items, each URL once; the URLs."""
    assert result.returncode == 0 and result.stats.get("finish_reason") == "finished", result.log[-3000:]
    urls = Counter(item["url"] for item in result.items)
    assert len(urls) == n_items and set(urls.values()) == {1}, urls.most_common(3)
    assert result.stats.get("item_scraped_count") == n_items
    return urls


def assert_cleaned_by(item: dict, page: SyntheticPage, model: str) -> None:
    assert item["boilerplate_model"] == model
    assert first_paragraph(page) in item["text"]
    assert page.template_texts[-1] not in item["text"]  # the footer is template


def test_every_page_is_exported_once_with_its_text_cleaned_by_the_site_model(crawls, gold):
    result = crawls["cleaned"]
    finished(result, SITE_PAGES)
    for item in result.items:
        assert_cleaned_by(item, page_of(gold, "site", item["url"]), SITE_MODEL)
        assert item["html"] == page_of(gold, "site", item["url"]).html
        assert item["text_seen_by_user_pipeline"] is True  # cleaning runs before users' pipelines
    assert result.stats[keys.MODELS_FITTED] == 1 and result.stats[keys.SAMPLE_PAGES] == 3
    assert result.stats[keys.ITEMS_CLEANED.format(model=SITE_MODEL)] == SITE_PAGES


def test_the_items_of_a_listing_page_share_one_clean(crawls, gold):
    result = crawls["listing"]
    finished(result, SITE_PAGES * LISTING_ENTRIES)
    numbers: dict[str, set[int]] = {}
    for item in result.items:
        assert_cleaned_by(item, page_of(gold, "site", item["url"]), SITE_MODEL)
        assert "html" not in item  # the page came from the response, and stays out of the item
        match = CLEAN_NUMBER.search(item["text"])
        assert match, item["text"][-200:]
        numbers.setdefault(item["url"].split("#")[0], set()).add(int(match.group(1)))
    assert all(len(found) == 1 for found in numbers.values()), numbers  # one clean per page
    assert set().union(*numbers.values()) == set(range(1, SITE_PAGES + 1))  # and no other clean at all


def test_a_disabled_plugin_leaves_items_untouched_and_enables_no_component(crawls, gold):
    result = crawls["disabled"]
    finished(result, SITE_PAGES)
    for item in result.items:
        assert set(item) == {"url", "html", "size"}
        assert item["html"] == page_of(gold, "site", item["url"]).html
    assert not [key for key in result.stats if key.startswith(keys.PREFIX)]
    records = LOG_RECORD.split(result.log)
    enabled = [record for record in records if "[scrapy.middleware] INFO: Enabled " in record]
    assert len(enabled) == 4 and not [record for record in enabled if "scrapy_boilerplate" in record], enabled
    for component in ("Learner", "SamplingMiddleware", "SpiderMiddleware", "Pipeline"):  # each says why it is off
        assert [r for r in records if f".Boilerplate{component}'>: BOILERPLATE_ENABLED is False" in r], component


def test_drop_html_leaves_attrs_items_with_the_text_and_no_page(crawls, gold):
    result = crawls["drop_html"]
    finished(result, SITE_PAGES)
    for item in result.items:
        assert_cleaned_by(item, page_of(gold, "site", item["url"]), SITE_MODEL)
        assert item["html"] is None  # an attrs item keeps its attribute, emptied


def test_pages_are_sampled_after_decompression_and_redirects(crawls, gold):
    result = crawls["encoded"]
    finished(result, ENCODED_PAGES)
    assert result.stats["downloader/response_status_count/301"] == ENCODED_PAGES
    assert result.stats["httpcompression/response_count"] == ENCODED_PAGES
    assert result.stats[keys.SAMPLE_PAGES] == ENCODED_PAGES and result.stats[keys.MODELS_FITTED] == 1
    assert not [key for key in result.stats if key.startswith(keys.SAMPLE_SKIPPED.format(reason=""))]
    for item in result.items:
        assert MOVED not in item["url"]
        assert_cleaned_by(item, page_of(gold, "encoded", item["url"]), SITE_MODEL)


@pytest.mark.parametrize(
    "crawl, release", [("quiet_short", "sample_not_filled"), ("quiet_long", "sample_stalled")], ids=["short", "long"]
)
def test_waiting_items_leave_after_the_quiet_seconds_set(crawls, gold, crawl, release):
    """Quiet for 0.2 s: released as the sample never filled.  Quiet for an hour: the 2.5 s hold
    deadline comes first (the default 1 s quiet period would have released them before it): the
    sample stalled, and its template's items go on with the single-page model, no failure."""
    result = crawls[crawl]
    finished(result, SMALL_PAGES)
    fallback = f"{DEFAULT_FALLBACK_MODEL} (single page)"
    for item in result.items:
        assert_cleaned_by(item, page_of(gold, "small", item["url"]), fallback)
    released = {key: n for key, n in result.stats.items() if key.startswith(keys.ITEMS_RELEASED.format(reason=""))}
    assert released == {keys.ITEMS_RELEASED.format(reason=release): SMALL_PAGES}
