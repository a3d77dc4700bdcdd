"""The pipeline cleans every item type with the domain's fitted model, and never breaks an item."""

from __future__ import annotations

import dataclasses
import logging
import sys
import types

import attrs
import pytest
import scrapy
from helpers.crawl_models import Broken, CleanCounter, CommonBlocks
from helpers.learners import make_learner, pipeline_of, use_model
from helpers.scrapy_compat import opened_crawler
from itemadapter import ItemAdapter
from scrapy.http import HtmlResponse
from scrapy.loader import ItemLoader

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.config import DEFAULT_FALLBACK_MODEL
from scrapy_boilerplate.crawl.learner import BoilerplateLearner
from scrapy_boilerplate.crawl.pipeline import BoilerplatePipeline
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

SITE = make_site("shop.example", 8, seed=5)
DOMAIN = "shop.example"


class DeclaredItem(scrapy.Item):
    url = scrapy.Field()
    html = scrapy.Field()
    text = scrapy.Field()
    boilerplate_model = scrapy.Field()


class UndeclaredItem(scrapy.Item):
    url = scrapy.Field()
    html = scrapy.Field()


@dataclasses.dataclass
class DataItem:
    url: str
    html: str
    text: str | None = None
    boilerplate_model: str | None = None


@attrs.define
class AttrsItem:
    url: str
    html: str
    text: str | None = None
    boilerplate_model: str | None = None


def learner_and_pipeline(model=None, spidercls=None, **settings) -> tuple[BoilerplateLearner, BoilerplatePipeline]:
    """A learner that already has ``model`` fitted for DOMAIN, and its pipeline; cleaning stays in this thread."""
    learner = make_learner(**{"BOILERPLATE_CLEAN_IN_THREAD": False, **settings})
    if model is not None:
        use_model(learner, DOMAIN, model, len(SITE))
    return learner, pipeline_of(learner, spidercls)


def make_pipeline(model=None, spidercls=None, **settings) -> BoilerplatePipeline:
    """A pipeline whose learner already has ``model`` fitted for DOMAIN; cleaning stays in this thread."""
    return learner_and_pipeline(model, spidercls, **settings)[1]


MISSING = object()
ELSEWHERE = "http://elsewhere.example/a.html"  # a domain never sampled: cleaned by the fallback at once


def crawl_pipeline(**settings) -> BoilerplatePipeline:
    """The pipeline of a crawler with the add-on, made as Scrapy makes it; cleaning stays in this thread."""
    crawler = opened_crawler(
        {"ADDONS": {"scrapy_boilerplate.Addon": 500}, "BOILERPLATE_CLEAN_IN_THREAD": False, **settings}
    )
    return BoilerplatePipeline.from_crawler(crawler)


def fitted() -> CommonBlocks:
    return CommonBlocks().fit([Page(p.html, p.url) for p in SITE])


def process(pipeline: BoilerplatePipeline, item):
    """Run ``process_item`` to the end; it must not wait when the model is already fitted."""
    coro = pipeline.process_item(item)
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise AssertionError("process_item waited although the domain's model is fitted")


@pytest.mark.parametrize(
    "make_item",
    [
        lambda p: {"url": p.url, "html": p.html},
        lambda p: DeclaredItem(url=p.url, html=p.html),
        lambda p: DataItem(url=p.url, html=p.html),
        lambda p: AttrsItem(url=p.url, html=p.html),
    ],
    ids=["dict", "scrapy.Item", "dataclass", "attrs"],
)
def test_every_item_type_gets_the_article_text(make_item):
    pipeline = make_pipeline(fitted())
    page = SITE[3]
    item = process(pipeline, make_item(page))
    text = item["text"] if not dataclasses.is_dataclass(item) and not attrs.has(type(item)) else item.text
    model = item["boilerplate_model"] if isinstance(item, (dict, scrapy.Item)) else item.boilerplate_model
    assert model == "test_common_blocks"
    assert page.article_text.split("\n\n")[1][:60] in text
    assert SITE[0].template_texts[-1] not in text  # the footer is template
    assert pipeline.stats.get_value(keys.ITEMS_CLEANED.format(model="test_common_blocks")) == 1


def test_text_field_names_are_configurable_and_cleaned_html_is_optional():
    pipeline = make_pipeline(
        fitted(),
        BOILERPLATE_HTML_FIELD="body",
        BOILERPLATE_URL_FIELD="link",
        BOILERPLATE_TEXT_FIELD="main",
        BOILERPLATE_CLEANED_HTML_FIELD="main_html",
        BOILERPLATE_MODEL_FIELD=None,
    )
    item = process(pipeline, {"link": SITE[1].url, "body": SITE[1].html})
    assert set(item) == {"link", "body", "main", "main_html"}
    assert SITE[1].article_text.split("\n\n")[1][:60] in item["main"]


def test_undeclared_output_field_is_reported_once_and_items_pass_untouched(caplog):
    pipeline = make_pipeline(fitted())
    with caplog.at_level(logging.ERROR):
        items = [process(pipeline, UndeclaredItem(url=p.url, html=p.html)) for p in SITE[:3]]
    assert all(set(item.keys()) == {"url", "html"} for item in items)
    errors = [r for r in caplog.records if "does not declare" in r.getMessage()]
    assert len(errors) == 1 and "text" in errors[0].getMessage() and "UndeclaredItem" in errors[0].getMessage()
    assert pipeline.stats.get_value(keys.ITEMS_SKIPPED.format(reason="undeclared_field")) == 3


def spider_module_naming(name: str, **globals_) -> type:
    """A spider class defined in a module (registered as ``name``) whose globals are ``globals_``."""
    module = types.ModuleType(name)
    module.__dict__.update(globals_)
    sys.modules[name] = module
    spider = type("NewsSpider", (scrapy.Spider,), {"name": "news", "__module__": name})
    module.NewsSpider = spider
    return spider


def test_item_classes_the_spider_names_without_the_output_fields_are_reported_at_start(caplog):
    class ArticleLoader(ItemLoader):
        default_item_class = UndeclaredItem

    class TeaserItem(scrapy.Item):  # has the HTML field but only the text
        html = scrapy.Field()
        text = scrapy.Field()

    class ProductItem(scrapy.Item):  # no HTML field: never cleaned, nothing to report
        url = scrapy.Field()

    class PageBase(scrapy.Item):  # a base its subclasses complete: not reported
        html = scrapy.Field()

    class StoryItem(PageBase):
        text = scrapy.Field()
        boilerplate_model = scrapy.Field()

    spider = spider_module_naming(
        "news_project.spiders.news",
        DeclaredItem=DeclaredItem,
        ArticleLoader=ArticleLoader,
        TeaserItem=TeaserItem,
        ProductItem=ProductItem,
        DataItem=DataItem,
        PageBase=PageBase,
        StoryItem=StoryItem,
    )
    try:
        with caplog.at_level(logging.ERROR):
            pipeline = make_pipeline(fitted(), spidercls=spider)
            errors = [r.getMessage() for r in caplog.records if "does not declare" in r.getMessage()]
            assert len(errors) == 2
            assert any(
                "UndeclaredItem" in e and "text, boilerplate_model" in e and "NewsSpider names it" in e for e in errors
            )
            assert any("TeaserItem" in e and "boilerplate_model" in e and "text," not in e for e in errors)
            # the first such item is skipped and counted, without a second error for its class
            item = process(pipeline, UndeclaredItem(url=SITE[0].url, html=SITE[0].html))
        assert set(item.keys()) == {"url", "html"}
        assert len([r for r in caplog.records if "does not declare" in r.getMessage()]) == 2
        assert pipeline.stats.get_value(keys.ITEMS_SKIPPED.format(reason="undeclared_field")) == 1
    finally:
        del sys.modules["news_project.spiders.news"]


class _Raising(type):
    def __getattr__(cls, name):
        raise RuntimeError(f"no {name} here")


def test_a_spider_naming_only_writable_item_classes_logs_nothing(caplog):
    odd = _Raising("Odd", (), {})  # any class can sit in a spider's module; looking at it must not fail
    spider = spider_module_naming(
        "shop_project.spiders.shop", DeclaredItem=DeclaredItem, DataItem=DataItem, AttrsItem=AttrsItem, Odd=odd
    )
    try:
        with caplog.at_level(logging.ERROR):
            make_pipeline(fitted(), spidercls=spider)
        assert not [r for r in caplog.records if "does not declare" in r.getMessage()]
    finally:
        del sys.modules["shop_project.spiders.shop"]


@pytest.mark.parametrize(
    "item, reason",
    [
        ({"url": "http://shop.example/a"}, "no_html"),
        ({"url": "http://shop.example/a", "html": None}, "no_html"),
        ({"url": "http://shop.example/a", "html": "   "}, "no_html"),
        ({"url": "http://shop.example/a", "html": '{"json": true}'}, "not_html"),
        ({"url": "http://shop.example/a", "html": "<p>" + "x" * 2000}, "too_large"),
        # 600 characters, but 1,202 bytes in UTF-16: the limit counts bytes, so it is never decoded
        ({"url": "http://shop.example/a", "html": ("<p>" + "x" * 597).encode("utf-16")}, "too_large"),
    ],
)
def test_unusable_html_passes_untouched_with_a_count(item, reason):
    pipeline = make_pipeline(fitted(), BOILERPLATE_MAX_PAGE_BYTES=1000)
    before = dict(item)
    assert process(pipeline, item) == before
    assert pipeline.stats.get_value(keys.ITEMS_SKIPPED.format(reason=reason)) == 1


def test_bytes_html_is_decoded():
    pipeline = make_pipeline(fitted())
    item = process(pipeline, {"url": SITE[2].url, "html": SITE[2].html.encode("utf-8")})
    assert SITE[2].article_text.split("\n\n")[1][:60] in item["text"]


def test_bytes_html_declaring_a_codec_that_is_no_text_encoding_is_cleaned():
    html = SITE[2].html.replace('<meta charset="utf-8">', '<meta charset="base64">')
    assert html != SITE[2].html
    pipeline = make_pipeline(fitted())
    item = process(pipeline, {"url": SITE[2].url, "html": html.encode("utf-8")})
    assert SITE[2].article_text.split("\n\n")[1][:60] in item["text"]


def test_a_failing_site_model_falls_back_and_the_item_says_so():
    pipeline = make_pipeline(Broken().fit([Page("<p>x</p>")]))
    item = process(pipeline, {"url": SITE[0].url, "html": SITE[0].html})
    assert item["boilerplate_model"] == f"{DEFAULT_FALLBACK_MODEL} (fallback)"
    assert SITE[0].title in item["text"]
    assert pipeline.stats.get_value(keys.ERRORS.format(kind="RuntimeError")) == 1
    assert pipeline.stats.get_value(keys.ITEMS_FALLBACK) == 1


def test_item_without_url_is_cleaned_by_the_fallback():
    pipeline = make_pipeline(fitted())
    item = process(pipeline, {"html": SITE[0].html})
    assert item["boilerplate_model"] == f"{DEFAULT_FALLBACK_MODEL} (fallback)"


def test_opted_out_item_passes_untouched():
    pipeline = make_pipeline(fitted())
    item = {"url": SITE[0].url, "html": SITE[0].html}
    pipeline.pages.opt_out(item)
    assert process(pipeline, item) == {"url": SITE[0].url, "html": SITE[0].html}
    assert pipeline.stats.get_value(keys.ITEMS_SKIPPED.format(reason="opt_out")) == 1
    assert len(pipeline.pages) == 0  # the pipeline took the mark
    assert "text" in process(pipeline, item)


@pytest.mark.parametrize("signal_name", ["item_dropped", "item_error"])
def test_an_item_that_leaves_before_the_pipeline_is_forgotten(signal_name):
    from scrapy import signals

    learner, pipeline = learner_and_pipeline(fitted())
    item = {"url": SITE[0].url, "title": "no html here"}
    pipeline.pages.link(item, html_response(SITE[0]))
    learner.crawler.signals.send_catch_log(getattr(signals, signal_name), item=item, response=None)
    assert len(pipeline.pages) == 0
    assert "text" not in process(pipeline, item)  # no HTML, no link: passes on untouched


def html_response(page) -> HtmlResponse:
    return HtmlResponse(page.url, body=page.html.encode("utf-8"), encoding="utf-8")


def test_an_item_without_html_is_cleaned_from_its_response_and_never_carries_the_page():
    pipeline = make_pipeline(fitted())
    item = {"url": SITE[0].url, "title": SITE[0].title}
    pipeline.pages.link(item, html_response(SITE[0]))
    cleaned = process(pipeline, item)
    assert cleaned["boilerplate_model"] == CommonBlocks.name
    assert SITE[0].article_text.split("\n\n")[1][:60] in cleaned["text"]
    assert set(cleaned) == {"url", "title", "text", "boilerplate_model"}
    assert len(pipeline.pages) == 0


def test_every_item_of_a_listing_page_gets_the_page_text_from_one_clean():
    model = CleanCounter().fit([Page(p.html, p.url) for p in SITE])
    pipeline = make_pipeline(model)
    response = html_response(SITE[1])
    items = [{"url": f"{SITE[1].url}#entry-{i}", "n": i} for i in range(5)]
    for item in items:
        pipeline.pages.link(item, response)
    texts = {process(pipeline, item)["text"] for item in items}
    assert len(texts) == 1, texts  # each clean ends with its own number: five cleans make five texts
    text = texts.pop()
    assert SITE[1].article_text.split("\n\n")[1][:60] in text and text.endswith("clean #1")
    assert model.cleans == 1
    assert pipeline.stats.get_value(keys.ITEMS_CLEANED.format(model=CleanCounter.name)) == 5


@pytest.mark.parametrize(
    "item_type, html_after", [(dict, MISSING), (DeclaredItem, MISSING), (DataItem, None), (AttrsItem, None)]
)
def test_drop_html_removes_the_page_from_cleaned_items(item_type, html_after):
    """Dicts and scrapy.Item lose the field; dataclass and attrs items keep the attribute, emptied."""
    pipeline = crawl_pipeline(BOILERPLATE_DROP_HTML=True)
    item = process(pipeline, item_type(url=ELSEWHERE, html=SITE[0].html))
    adapter = ItemAdapter(item)
    assert SITE[0].article_text.split("\n\n")[1][:60] in adapter["text"]
    assert adapter.get("html", MISSING) is html_after


@pytest.mark.parametrize(
    "make_item",
    [
        lambda: {"url": ELSEWHERE, "html": None},
        lambda: {"url": ELSEWHERE},
        lambda: DeclaredItem(url=ELSEWHERE),
        lambda: DataItem(url=ELSEWHERE, html=None),
        lambda: AttrsItem(url=ELSEWHERE, html=None),
    ],
    ids=["dict-None", "dict-missing", "Item-missing", "dataclass-None", "attrs-None"],
)
def test_drop_html_leaves_an_item_without_a_page_as_it_came(make_item):
    pipeline = crawl_pipeline(BOILERPLATE_DROP_HTML=True)
    item = process(pipeline, make_item())
    assert ItemAdapter(item).asdict() == ItemAdapter(make_item()).asdict()  # a None stays, a missing field stays out
    assert pipeline.stats.get_value(keys.ITEMS_SKIPPED.format(reason="no_html")) == 1


def test_non_items_pass_through():
    pipeline = make_pipeline(fitted())
    assert process(pipeline, "not an item") == "not an item"


def test_item_of_a_domain_never_sampled_does_not_wait():
    pipeline = make_pipeline(fitted())
    item = process(pipeline, {"url": "http://elsewhere.example/a.html", "html": SITE[0].html})
    assert item["boilerplate_model"] == f"{DEFAULT_FALLBACK_MODEL} (single page)"  # no failure: nothing to fit
    assert pipeline.stats.get_value(keys.ITEMS_HELD) is None
    assert pipeline.stats.get_value(keys.ITEMS_SINGLE_PAGE.format(reason="not_sampled")) == 1
    assert pipeline.stats.get_value(keys.ITEMS_FALLBACK) is None


@pytest.mark.parametrize(
    ("html", "reason"),
    [
        (None, "no_html"),
        (b"<p>x</p>", "no_html"),
        ("", "no_html"),
        (" \n\t\u00a0\u2003", "no_html"),
        ("<p>" + "x" * 100 + "</p>", "too_large"),
        ('{"a": "<p>"}', "not_html"),
        ("\u00a0<p>x</p>", "not_html"),
        ("text <p>x</p>", "not_html"),
        ("<p>x</p>", None),
        ("\ufeff \r\n\t<!DOCTYPE html><p>x</p>", None),
        ("\n<p>x</p>\n", None),
    ],
)
def test_skip_reason_names_what_cannot_be_cleaned(html, reason):
    from scrapy_boilerplate.crawl.page_checks import skip_reason

    assert skip_reason(html, max_bytes=50) == reason


@pytest.mark.parametrize("waits", [True, False])
def test_a_response_kept_for_waiting_items_keeps_no_parsed_tree(waits):
    from scrapy_boilerplate.crawl.spidermw import BoilerplateSpiderMiddleware

    learner, pipeline = learner_and_pipeline(None if waits else fitted())
    if waits:  # a page of the domain is in its sample: its items wait for the model
        learner.sampler.offer(DOMAIN, Page(SITE[5].html, SITE[5].url))
    middleware = BoilerplateSpiderMiddleware(learner.item_pages, learner.config.html_field, learner.book.items_wait)
    response = html_response(SITE[0])
    selector, title = response.selector, response.css("title::text").get()
    items = list(middleware.process_spider_output(response, [{"url": SITE[0].url, "title": SITE[0].title}]))
    assert len(items) == 1 and len(pipeline.pages) == 1
    assert (response.selector is not selector) is waits  # dropped only while the items wait
    assert response.css("title::text").get() == title  # parsed again on demand
