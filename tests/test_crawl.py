"""Real crawls against local HTTP servers: sampling, per-domain fits, holding, fallback, closing.

Each crawl runs in its own process (a Twisted reactor starts once per process); see crawl_harness.
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers.crawl_harness import CrawlResult, run_crawl
from helpers.hanging_site import served_with_hanging_pages
from helpers.page_clock import page_clock_settings

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.config import DEFAULT_FALLBACK_MODEL
from scrapy_boilerplate.testing.localsite import SEED_PATH, serve_directory, write_linked_site

pytestmark = pytest.mark.slow  # real crawls, each in its own process

SITE_MODEL = "test_common_blocks"
FALLBACK = f"{DEFAULT_FALLBACK_MODEL} (fallback)"
SINGLE_PAGE = f"{DEFAULT_FALLBACK_MODEL} (single page)"  # a template without a fit: no failure


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """Three linked sites (100, 40 and 8 pages) served on three loopback ports."""
    root = tmp_path_factory.mktemp("sites")
    gold = {}
    with (
        serve_directory(root / "big") as big,
        serve_directory(root / "mid") as mid,
        serve_directory(root / "small") as small,
    ):
        for name, base, n in (("big", big, 100), ("mid", mid, 40), ("small", small, 8)):
            for page in write_linked_site(root / name, f"{name}.example", n, seed=len(name)):
                gold[base + page.url.split(".example", 1)[1]] = page
        yield {"big": big, "mid": mid, "small": small, "gold": gold}


def first_paragraph(page) -> str:
    return page.article_text.split("\n\n")[1][:80]


def assert_exactly_once(result: CrawlResult, n: int) -> None:
    urls = Counter(item["url"] for item in result.items)
    assert len(urls) == n and set(urls.values()) == {1}, urls.most_common(3)
    assert result.stats.get("item_scraped_count") == n


@pytest.mark.parametrize("concurrency, item_type", [(1, "item"), (16, "dict")])
def test_every_page_of_a_site_is_cleaned_by_its_fitted_model(sites, tmp_path, concurrency, item_type):
    result = run_crawl(
        tmp_path,
        [sites["big"] + SEED_PATH],
        item_type=item_type,
        settings={"BOILERPLATE_MODEL": SITE_MODEL, "BOILERPLATE_SAMPLE_SIZE": 20, "CONCURRENT_REQUESTS": concurrency},
    )
    assert result.stats.get("finish_reason") == "finished", result.log[-2000:]
    assert_exactly_once(result, 100)
    assert {item["boilerplate_model"] for item in result.items} == {SITE_MODEL}
    for item in result.items:
        page = sites["gold"][item["url"]]
        assert first_paragraph(page) in item["text"]
        assert page.template_texts[-1] not in item["text"]  # the cookie banner is gone
    assert result.stats[keys.MODELS_FITTED] == 1
    assert result.stats[keys.SAMPLE_PAGES] == 20
    assert result.stats[keys.ITEMS_HELD] == result.stats[keys.ITEMS_RELEASED.format(reason="model")]
    assert f"fitted {SITE_MODEL} for {sites['big'].split('//')[1]} on 20 pages" in result.log


def test_the_cleaned_html_field_is_written_for_sampled_items_too(sites, tmp_path):
    result = run_crawl(
        tmp_path,
        [sites["big"] + SEED_PATH],
        settings={
            "BOILERPLATE_MODEL": "style_tree",
            "BOILERPLATE_SAMPLE_SIZE": 20,
            "BOILERPLATE_CLEANED_HTML_FIELD": "cleaned_html",
        },
    )
    assert result.returncode == 0
    assert_exactly_once(result, 100)
    assert result.stats[keys.ITEMS_RELEASED.format(reason="model")] >= 1  # some items took a sample page's clean
    for item in result.items:
        assert item["boilerplate_model"] == "style_tree"
        assert item["cleaned_html"].startswith("<") and first_paragraph(sites["gold"][item["url"]])[:40] in item["text"]


def test_a_site_smaller_than_the_sample_ends_by_itself_with_the_fallback(sites, tmp_path):
    result = run_crawl(
        tmp_path,
        [sites["small"] + SEED_PATH],
        opt_out=r"/article/3\.html$",
        settings={"BOILERPLATE_MODEL": SITE_MODEL, "BOILERPLATE_SAMPLE_SIZE": 20, "BOILERPLATE_HOLD_TIMEOUT": 120},
    )
    assert result.stats.get("finish_reason") == "finished"
    assert_exactly_once(result, 8)
    assert keys.ITEMS_RELEASED.format(reason="deadline") not in result.stats  # released when the crawl went quiet
    opted_out = [item for item in result.items if item["url"].endswith("/article/3.html")]
    assert "text" not in opted_out[0] and result.stats[keys.ITEMS_SKIPPED.format(reason="opt_out")] == 1
    cleaned = [item for item in result.items if item not in opted_out]
    assert {item["boilerplate_model"] for item in cleaned} == {SINGLE_PAGE}
    assert all(first_paragraph(sites["gold"][item["url"]]) in item["text"] for item in cleaned)
    assert result.stats[keys.DOMAINS_FALLBACK] == 1
    assert result.stats[keys.ITEMS_RELEASED.format(reason="sample_not_filled")] == len(cleaned)
    assert keys.MODELS_FITTED not in result.stats


def test_three_interleaved_sites_each_get_their_own_model(sites, tmp_path):
    seeds = [sites[name] + SEED_PATH for name in ("big", "mid", "small")]
    result = run_crawl(
        tmp_path,
        seeds,
        settings={"BOILERPLATE_MODEL": SITE_MODEL, "BOILERPLATE_SAMPLE_SIZE": 15, "CONCURRENT_REQUESTS": 8},
    )
    assert result.stats.get("finish_reason") == "finished"
    assert_exactly_once(result, 148)
    by_site = {
        name: Counter(item["boilerplate_model"] for item in result.items if item["url"].startswith(sites[name]))
        for name in ("big", "mid", "small")
    }
    assert by_site == {"big": {SITE_MODEL: 100}, "mid": {SITE_MODEL: 40}, "small": {SINGLE_PAGE: 8}}
    assert result.stats[keys.MODELS_FITTED] == 2
    assert result.log.count(f"fitted {SITE_MODEL} for") == 2


def test_items_whose_sample_stalls_past_the_deadline_go_on_with_the_single_page_model(sites, tmp_path):
    """No failure: the template's items go on without waiting until its sample fills, then its fit
    cleans the pages after it."""
    result = run_crawl(
        tmp_path,
        [sites["mid"] + SEED_PATH],
        settings={
            "BOILERPLATE_MODEL": SITE_MODEL,
            "BOILERPLATE_SAMPLE_SIZE": 8,
            "BOILERPLATE_HOLD_TIMEOUT": 5,
            **page_clock_settings(10),  # each sample page comes twice the timeout after the one before
            "CONCURRENT_REQUESTS": 1,
        },
    )
    assert result.stats.get("finish_reason") == "finished"
    assert_exactly_once(result, 40)
    models = Counter(item["boilerplate_model"] for item in result.items)
    single_page = {k: v for k, v in result.stats.items() if k.startswith(keys.ITEMS_SINGLE_PAGE.format(reason=""))}
    assert models[SINGLE_PAGE] == sum(single_page.values()) >= 1 and keys.ITEMS_FALLBACK not in result.stats
    assert result.stats[keys.ITEMS_RELEASED.format(reason="sample_stalled")] >= 1
    assert models[SITE_MODEL] >= 20  # pages after the fit
    assert result.stats[keys.MODELS_FITTED] == 1


def test_items_wait_past_the_timeout_while_their_domain_keeps_filling_its_sample(sites, tmp_path):
    result = run_crawl(
        tmp_path,
        [sites["mid"] + SEED_PATH],
        settings={
            "BOILERPLATE_MODEL": SITE_MODEL,
            "BOILERPLATE_SAMPLE_SIZE": 20,
            "BOILERPLATE_HOLD_TIMEOUT": 5,
            # a sample page every 2 s: the first items wait 38 s for the sample of 20, never 5 s for a page
            **page_clock_settings(2),
            "CONCURRENT_REQUESTS": 1,
        },
    )
    assert result.stats.get("finish_reason") == "finished"
    assert_exactly_once(result, 40)
    assert {item["boilerplate_model"] for item in result.items} == {SITE_MODEL}
    # every item that waited (how many did depends on the engine's order) went on with the site's model
    assert result.stats[keys.ITEMS_HELD] > 0
    assert result.stats[keys.ITEMS_RELEASED.format(reason="model")] == result.stats[keys.ITEMS_HELD]


def test_a_failing_fit_falls_back_once_and_the_crawl_goes_on(sites, tmp_path):
    result = run_crawl(
        tmp_path,
        [sites["mid"] + SEED_PATH],
        settings={"BOILERPLATE_MODEL": "test_broken:stage=fit", "BOILERPLATE_SAMPLE_SIZE": 10},
    )
    assert result.stats.get("finish_reason") == "finished"
    assert_exactly_once(result, 40)
    assert {item["boilerplate_model"] for item in result.items} == {FALLBACK}
    assert result.stats[keys.ERRORS.format(kind="ValueError")] == 1
    assert result.stats[keys.SAMPLE_PAGES] == 10  # no second sample after the failure
    assert "fitting test_broken:stage=fit on" in result.log


def assert_accounted(result: CrawlResult) -> None:
    """Every scraped item is exported once; every held item was released."""
    assert_exactly_once(result, result.stats.get("item_scraped_count", 0))
    released = sum(v for k, v in result.stats.items() if k.startswith("boilerplate/items/released/"))
    assert result.stats.get(keys.ITEMS_HELD, 0) == released
    assert all(item.get("text") for item in result.items)


def test_closespider_itemcount_during_sampling(sites, tmp_path):
    result = run_crawl(
        tmp_path,
        [sites["big"] + SEED_PATH],
        settings={
            "BOILERPLATE_SAMPLE_SIZE": 50,
            "BOILERPLATE_HOLD_MAX_ITEMS": 3,
            "CLOSESPIDER_ITEMCOUNT": 5,
            "CONCURRENT_REQUESTS": 2,
        },
    )
    assert result.stats.get("finish_reason") == "closespider_itemcount"
    assert result.stats[keys.ITEMS_FALLBACK_REASON.format(reason="hold_full")] >= 1
    assert result.stats[keys.MODELS_PARTIAL] == 1  # the sample of 50 was never complete: fitted as it was
    assert_accounted(result)
    assert result.stats[keys.ITEMS_RELEASED.format(reason="model")] >= 1


def test_closespider_timeout_during_sampling_below_the_minimum_sample(tmp_path):
    write_linked_site(tmp_path / "site", "stalled.example", 30, seed=4)
    # Pages 10-29 never come: the crawl waits on them, its items waiting for a sample of 50, until
    # CLOSESPIDER_TIMEOUT (long enough for the first pages on any machine).  Their requests time out
    # later than that, whenever they were sent, so the close finds them in flight (and the hold's
    # deadline is later still).
    with served_with_hanging_pages(tmp_path / "site", r"^/article/[1-9][0-9]\.html$") as base:
        result = run_crawl(
            tmp_path / "out",
            [base + SEED_PATH],
            settings={
                "BOILERPLATE_SAMPLE_SIZE": 50,
                "BOILERPLATE_MIN_SAMPLE_SIZE": 50,
                "CLOSESPIDER_TIMEOUT": 3,
                "DOWNLOAD_TIMEOUT": 6,
                "BOILERPLATE_HOLD_TIMEOUT": 300,
            },
        )
    assert result.stats.get("finish_reason") == "closespider_timeout"
    assert result.stats[keys.ITEMS_HELD] >= 1
    assert result.stats[keys.ITEMS_RELEASED.format(reason="closing")] == result.stats[keys.ITEMS_HELD]
    assert {item["boilerplate_model"] for item in result.items} == {FALLBACK}
    assert_accounted(result)


@pytest.fixture(scope="module")
def odd_site(tmp_path_factory):
    """A page linking to an image, a PDF, JSON, an empty page and a 20 MB page."""
    root = tmp_path_factory.mktemp("odd")
    links = ["image.png", "doc.pdf", "data.json", "empty.html", "big.html"]
    (root / "index.html").write_text(
        "<html><body><h1>Index</h1><p>"
        + "Links to odd files. " * 20
        + "</p>"
        + "".join(f'<a href="{n}">{n}</a>' for n in links)
        + "</body></html>"
    )
    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    (root / "doc.pdf").write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 40)
    (root / "data.json").write_text('{"html": "<p>not a page</p>", "n": 1}')
    (root / "empty.html").write_bytes(b"")
    paragraph = "<p>" + "lorem ipsum dolor sit amet " * 40 + "</p>\n"
    (root / "big.html").write_text("<html><body>" + paragraph * (20_000_000 // len(paragraph) + 1) + "</body></html>")
    with serve_directory(root) as base:
        yield base


def test_non_html_empty_and_huge_bodies_pass_untouched(odd_site, tmp_path):
    result = run_crawl(tmp_path, [odd_site + "/index.html"], follow=r".", settings={"BOILERPLATE_SAMPLE_SIZE": 5})
    assert result.stats.get("finish_reason") == "finished"
    assert_exactly_once(result, 6)
    items = {item["url"].rsplit("/", 1)[1]: item for item in result.items}
    for name in ("image.png", "doc.pdf", "data.json", "empty.html", "big.html"):
        assert "text" not in items[name] and "boilerplate_model" not in items[name], name
    assert items["big.html"]["size"] > 20_000_000 and len(items["big.html"]["html"]) > 20_000_000
    assert items["index.html"]["boilerplate_model"] == SINGLE_PAGE
    assert result.stats[keys.SAMPLE_SKIPPED.format(reason="non_html")] == 3
    assert result.stats[keys.SAMPLE_SKIPPED.format(reason="empty")] == 1
    assert result.stats[keys.SAMPLE_SKIPPED.format(reason="too_large")] == 1
    assert result.stats[keys.ITEMS_SKIPPED.format(reason="not_html")] == 1  # the JSON text
    assert result.stats[keys.ITEMS_SKIPPED.format(reason="no_html")] == 3  # image, PDF, empty page
    assert result.stats[keys.ITEMS_SKIPPED.format(reason="too_large")] == 1


def test_an_item_class_without_the_text_field_is_reported_before_the_crawl_starts(sites, tmp_path):
    result = run_crawl(tmp_path, [sites["small"] + SEED_PATH], item_type="without_text")
    error = "PageItemWithoutText does not declare the field(s) text, boilerplate_model"
    assert error in result.log and result.log.index(error) < result.log.index("Spider opened")
    assert result.log.count("does not declare") == 1  # not again when its first item comes
    assert result.items and all("text" not in item and item["html"] for item in result.items)
    assert result.stats[keys.ITEMS_SKIPPED.format(reason="undeclared_field")] == len(result.items)


def test_a_bad_setting_stops_the_crawl_at_start_naming_it(sites, tmp_path):
    result = run_crawl(tmp_path, [sites["small"] + SEED_PATH], settings={"BOILERPLATE_SAMPLE_SIZE": 0})
    assert "BOILERPLATE_SAMPLE_SIZE=0 is invalid" in result.log
    assert result.items == []


def test_a_spider_that_puts_no_page_in_its_items_gets_their_text(sites, tmp_path):
    result = run_crawl(
        tmp_path,
        [sites["mid"] + SEED_PATH],
        html_in_item=False,
        settings={"BOILERPLATE_MODEL": SITE_MODEL, "BOILERPLATE_SAMPLE_SIZE": 10, "LOG_LEVEL": "DEBUG"},
    )
    assert result.stats.get("finish_reason") == "finished"
    assert_exactly_once(result, 40)
    assert {item["boilerplate_model"] for item in result.items} == {SITE_MODEL}
    for item in result.items:
        page = sites["gold"][item["url"]]
        assert set(item) == {"url", "size", "text", "boilerplate_model"}
        assert first_paragraph(page) in item["text"] and page.template_texts[-1] not in item["text"]
    feed = (tmp_path / "items.jsonl").read_text()
    assert "<html" not in feed and "cookie-banner" not in feed
    assert "Scraped from" in result.log and "cookie-banner" not in result.log  # DEBUG item lines carry no page


def test_each_entry_of_a_listing_page_gets_the_page_text(sites, tmp_path):
    result = run_crawl(
        tmp_path,
        [sites["mid"] + SEED_PATH],
        html_in_item=False,
        items_per_page=3,
        settings={"BOILERPLATE_MODEL": SITE_MODEL, "BOILERPLATE_SAMPLE_SIZE": 10},
    )
    assert result.stats.get("finish_reason") == "finished"
    assert_exactly_once(result, 120)
    by_page: dict[str, set[str]] = {}
    for item in result.items:
        by_page.setdefault(item["url"].split("#")[0], set()).add(item["text"])
    assert len(by_page) == 40 and all(len(texts) == 1 for texts in by_page.values())
    for url, (text,) in by_page.items():
        assert first_paragraph(sites["gold"][url]) in text
    assert {item["boilerplate_model"] for item in result.items} == {SITE_MODEL}


def test_a_site_too_small_for_a_sample_is_explained_once_and_is_no_failure(sites, tmp_path):
    seeds = [sites[name] + SEED_PATH for name in ("mid", "small")]
    result = run_crawl(
        tmp_path,
        seeds,
        settings={"BOILERPLATE_MODEL": SITE_MODEL, "BOILERPLATE_SAMPLE_SIZE": 10, "CONCURRENT_REQUESTS": 4},
    )
    small = sites["small"].split("//")[1]
    assert not [line for line in result.log.splitlines() if "WARNING" in line and "boilerplate:" in line]
    told = [line for line in result.log.splitlines() if f"pages of {small} are cleaned by the single-page" in line]
    assert len(told) == 1 and "INFO" in told[0] and "(sample_not_filled)" in told[0], told
    assert result.stats[keys.ITEMS_SINGLE_PAGE.format(reason="sample_not_filled")] == 8
    # the stats keep the single-page model's items apart from the site model's, as the summary line does
    assert result.stats[keys.ITEMS_CLEANED.format(model=SITE_MODEL)] == 40 and keys.ITEMS_FALLBACK not in result.stats
    assert keys.ITEMS_CLEANED.format(model=DEFAULT_FALLBACK_MODEL) not in result.stats
    summary = [line for line in result.log.splitlines() if "items cleaned (" in line]
    assert len(summary) == 1 and "INFO" in summary[0]
    assert f"{SITE_MODEL} 40" in summary[0] and "sample_not_filled 8 in 1 domains" in summary[0]
