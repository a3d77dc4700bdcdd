"""Real crawls of sites with several page templates: a sample and a fit per template, a cap per domain.

The crawls run one after another in one subprocess (see helpers.crawl_batch), once for the module.
The site model, ``test_fit_pages``, ends each text with the URL paths of the sample it was fitted
on, so an item tells which fit cleaned it (none: the single-page model).
"""

from __future__ import annotations

import random
from collections import Counter

import lxml.html
import pytest
from helpers.crawl_batch import run_crawls
from helpers.crawl_harness import CrawlResult

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.testing.localsite import serve_directory, write_two_template_site
from scrapy_boilerplate.testing.synthetic import make_site

MODEL, PINNED_MODEL = "test_fit_pages", "test_pinned_blocks"
PINS = {"content": ["footer"], "boilerplate": [".comments", ".related"]}
ARTICLES, LISTINGS, ODD_PAGES, CAP = 8, 5, 6, 2
SETTINGS = {"BOILERPLATE_MODEL": MODEL, "BOILERPLATE_FALLBACK_MODEL": MODEL, "BOILERPLATE_SAMPLE_SIZE": 3}
FOLLOW = r"/(article|list|odd)/"
WORDS = ["amber", "birch", "cedar", "dune", "ember", "fjord", "grove", "heath", "inlet", "juniper", "kelp", "larch"]


def odd_page(index: int) -> str:
    """A page whose skeleton is its own: its top elements' class names are found on no other page."""
    rng = random.Random(index)
    a, b, c = rng.sample(WORDS, 3)
    links = "".join(f'<a href="/odd/{j}.html">page {j}</a> ' for j in range(ODD_PAGES))
    return (
        f'<html><head><title>Odd {index}</title></head><body><div class="{a}-{b}"><p class="{c}">{links}</p></div>'
        f'<section class="{b}-{c}"><article class="{a}-{c}"><p>Text of the odd page {a} {b} {c}, written for '
        f"page number {index} of a site whose every page looks different.</p></article></section></body></html>"
    )


@pytest.fixture(scope="module")
def crawls(tmp_path_factory) -> dict[str, CrawlResult]:
    root = tmp_path_factory.mktemp("template_sites")
    seeds = write_two_template_site(root / "two", "two.example", ARTICLES, LISTINGS)
    (root / "odd" / "odd").mkdir(parents=True)
    for i in range(ODD_PAGES):
        (root / "odd" / "odd" / f"{i}.html").write_text(odd_page(i), encoding="utf-8")
    store = str(tmp_path_factory.mktemp("template_store"))
    with serve_directory(root / "two") as two, serve_directory(root / "odd") as odd:
        starts = [two + seed for seed in seeds]
        pinned = {**SETTINGS, "BOILERPLATE_MODEL": PINNED_MODEL, "BOILERPLATE_FALLBACK_MODEL": PINNED_MODEL}
        pinned["BOILERPLATE_SITE_RULES"] = {two.split("//")[1]: PINS}
        specs = {
            "templates": {"start_urls": starts, "follow": FOLLOW, "settings": {**SETTINGS, "BOILERPLATE_STORE": store}},
            "stored": {"start_urls": starts, "follow": FOLLOW, "settings": {**SETTINGS, "BOILERPLATE_STORE": store}},
            "listings_without_items": {
                "start_urls": starts,
                "follow": FOLLOW,
                "no_items": r"/list/",
                "settings": SETTINGS,
            },
            "pinned_no_sample": {
                "start_urls": starts,
                "follow": FOLLOW,
                "settings": {**pinned, "BOILERPLATE_SAMPLE_SIZE": 50},  # no template fills a sample
            },
            "pinned_fitted": {"start_urls": starts, "follow": FOLLOW, "settings": pinned},
            "one_model": {
                "start_urls": starts,
                "follow": FOLLOW,
                "settings": {**SETTINGS, "BOILERPLATE_MAX_TEMPLATES": 1},
            },
            "cap": {
                "start_urls": [odd + "/odd/0.html"],
                "follow": FOLLOW,
                "settings": {**SETTINGS, "BOILERPLATE_MAX_TEMPLATES": CAP, "BOILERPLATE_SAMPLE_SIZE": 2},
            },
        }
        return run_crawls(tmp_path_factory.mktemp("template_crawls"), specs)


def finished(result: CrawlResult, n_items: int) -> None:
    """The crawl finished and exported ``n_items`` items, each URL once."""
    assert result.returncode == 0 and result.stats.get("finish_reason") == "finished", result.log[-3000:]
    urls = Counter(item["url"] for item in result.items)
    assert len(urls) == n_items and set(urls.values()) == {1}, urls.most_common(3)


def fitted_on(item: dict) -> list[str]:
    """The URL paths of the sample whose fit cleaned ``item`` (empty: the single-page model)."""
    paths = item["text"].rsplit("\nfitted on ", 1)[1]
    return paths.split(",") if paths else []


def folder(url: str) -> str:
    return url.split("/")[3]


def test_each_template_gets_its_own_fit_and_cleans_its_own_pages(crawls):
    result = crawls["templates"]
    finished(result, ARTICLES + LISTINGS)
    assert result.stats[keys.TEMPLATES_FOUND] == 2 and result.stats[keys.MODELS_FITTED] == 2
    for item in result.items:
        sample = fitted_on(item)
        assert len(sample) == 3 and {folder("http://x" + path) for path in sample} == {folder(item["url"])}, item
        assert item["boilerplate_model"] == MODEL
    assert result.stats[keys.ITEMS_CLEANED.format(model=MODEL)] == ARTICLES + LISTINGS
    found = [line for line in result.log.splitlines() if "page template" in line and "found on" in line]
    assert len(found) == 2, found


def test_a_template_whose_pages_yield_no_items_costs_no_fit(crawls):
    """The listing pages fill their template's sample, but yield no item: only the articles are fitted."""
    result = crawls["listings_without_items"]
    finished(result, ARTICLES)
    assert result.stats[keys.TEMPLATES_FOUND] == 2 and result.stats[keys.MODELS_FITTED] == 1
    assert result.stats[keys.TEMPLATES_WITHOUT_ITEMS] == 1
    for item in result.items:
        assert {folder("http://x" + path) for path in fitted_on(item)} == {"article"}, item


@pytest.mark.parametrize("crawl", ["pinned_no_sample", "pinned_fitted"])
def test_pinned_selectors_win_over_what_was_learned_from_the_first_page(crawls, crawl):
    """The footer, template on every page (so learned as boilerplate), is pinned as content; the
    comments and related links, which vary (so learned as content), are pinned as boilerplate: every
    article item has the footer and neither, whether its template was fitted or not."""
    result = crawls[crawl]
    finished(result, ARTICLES + LISTINGS)
    pages = {
        page.url.split("/", 3)[3]: page for page in make_site("two.example", ARTICLES, variation=False, linked=True)
    }
    for item in result.items:
        if folder(item["url"]) != "article":
            continue
        page = pages[item["url"].split("/", 3)[3]]
        assert page.template_texts[-2] in item["text"]  # the footer
        pinned_out = lxml.html.fromstring(page.html).xpath('//*[@class="comments"]//p | //*[@class="related"]//a')
        assert pinned_out and not [el.text for el in pinned_out if el.text in item["text"]]
        assert page.article_text.split("\n\n")[1][:60] in item["text"]
    fitted = crawl == "pinned_fitted"
    assert (keys.MODELS_FITTED in result.stats) is fitted
    assert {item["boilerplate_model"] for item in result.items} == {
        PINNED_MODEL if fitted else f"{PINNED_MODEL} (single page)"
    }


def test_one_model_per_domain_mixes_the_templates_in_one_sample(crawls):
    """The same site with BOILERPLATE_MAX_TEMPLATES = 1: one fit, on pages of both templates."""
    result = crawls["one_model"]
    finished(result, ARTICLES + LISTINGS)
    assert result.stats[keys.MODELS_FITTED] == 1 and keys.TEMPLATES_FOUND not in result.stats
    assert len({tuple(fitted_on(item)) for item in result.items}) == 1


def test_a_stored_domain_s_templates_come_back(crawls):
    """The second crawl on the same store: each page takes its own template's stored model."""
    result = crawls["stored"]
    finished(result, ARTICLES + LISTINGS)
    assert keys.MODELS_FITTED not in result.stats and keys.TEMPLATES_FOUND not in result.stats
    assert result.stats[keys.STORE_LOADED] == 2
    for item in result.items:
        assert {folder("http://x" + path) for path in fitted_on(item)} == {folder(item["url"])}, item


def test_the_cap_on_templates_holds_on_a_site_whose_every_page_differs(crawls):
    result = crawls["cap"]
    finished(result, ODD_PAGES)
    assert result.stats[keys.TEMPLATES_FOUND] == CAP and keys.MODELS_FITTED not in result.stats
    beyond = result.stats[keys.ITEMS_SINGLE_PAGE.format(reason="template_cap")]
    assert beyond == ODD_PAGES - CAP
    for item in result.items:  # a template of one page never fills its sample: no failure either
        assert item["boilerplate_model"] == f"{MODEL} (single page)" and fitted_on(item) == []
    assert keys.ITEMS_FALLBACK not in result.stats
    assert "BOILERPLATE_MAX_TEMPLATES allows (2)" in result.log
    assert not [line for line in result.log.splitlines() if "WARNING" in line and "boilerplate:" in line]
