"""A crawl's Markdown and metadata fields are read with the clean, from the tree it parsed: each page
is parsed once, and with a threaded clean the fields are read in the cleaner's thread."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from helpers.harbour_site import TOPICS, article_page
from helpers.learners import make_learner, pipeline_of, use_model

from scrapy_boilerplate import records
from scrapy_boilerplate.crawl import cleaner as cleaner_module
from scrapy_boilerplate.crawl.config import RECORD_SETTINGS
from scrapy_boilerplate.crawl.events import ModelSource
from scrapy_boilerplate.crawl.pipeline import BoilerplatePipeline
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.page import Page

FIELDS = {setting: name for name, setting in RECORD_SETTINGS.items()}  # every field, under its own name


def page(number: int) -> Page:
    jsonld = {
        "@type": "NewsArticle",
        "headline": f"Notes on {TOPICS[number]}",
        "author": {"@type": "Person", "name": "Ana Pereira"},
        "datePublished": f"1998-05-{10 + number:02d}",
    }
    return article_page(number, jsonld)


def process(pipeline: BoilerplatePipeline, number: int) -> dict:
    item = {"url": page(number).url, "html": page(number).html}
    try:
        pipeline.process_item(item).send(None)
    except StopIteration as done:
        return done.value
    raise AssertionError("the item waited")


def assert_fields(item: dict, number: int) -> None:
    topic = TOPICS[number]
    assert (item["title"], item["author"], item["published"], item["language"]) == (
        f"Notes on {topic}",
        "Ana Pereira",
        f"1998-05-{10 + number:02d}",
        "en-GB",
    )
    assert f"## Steps taken for {topic}" in item["markdown"] and "Gull census" not in item["markdown"]


@pytest.fixture
def parses(monkeypatch) -> list[tuple[str, str]]:
    """(URL, thread name) of every parse of a page from now on."""
    found: list[tuple[str, str]] = []
    parse = Page._parse
    monkeypatch.setattr(
        Page, "_parse", lambda page: found.append((page.url, threading.current_thread().name)) or parse(page)
    )
    return found


@pytest.mark.parametrize("model", ["fusion", "style_tree", "ngram"])  # ngram edits a tree of its own
def test_each_page_is_parsed_once_for_its_clean_and_its_fields(model, monkeypatch):
    learner = make_learner(BOILERPLATE_CLEAN_IN_THREAD=False, **FIELDS)
    use_model(learner, "harbour.example", ModelSpec(model).create().fit([page(n) for n in range(3)]))
    pipeline = pipeline_of(learner)
    found = []
    parse = Page._parse
    monkeypatch.setattr(Page, "_parse", lambda page: found.append(page.url) or parse(page))
    items = [process(pipeline, number) for number in (3, 4)]
    for number, item in zip((3, 4), items, strict=True):
        assert_fields(item, number)
    assert found == [page(3).url, page(4).url]


def test_with_a_threaded_clean_the_fields_are_read_in_the_cleaners_thread(parses, monkeypatch):
    async def in_a_thread(function, *args):
        with ThreadPoolExecutor(1, thread_name_prefix="cleaner") as pool:
            return pool.submit(function, *args).result()

    readers: list[str] = []
    for name in ("read_metadata", "to_markdown"):
        reader = getattr(records, name)
        monkeypatch.setattr(
            records, name, lambda *a, _r=reader: readers.append(threading.current_thread().name) or _r(*a)
        )
    monkeypatch.setattr(cleaner_module, "run_in_thread", in_a_thread)
    learner = make_learner(BOILERPLATE_CLEAN_IN_THREAD=True, **FIELDS)
    use_model(learner, "harbour.example", ModelSpec("style_tree").create().fit([page(n) for n in range(3)]))
    parses.clear()
    item = process(pipeline_of(learner), 4)
    assert_fields(item, 4)
    assert len(parses) == 1 and len(readers) == 2  # one parse; the metadata and the Markdown
    assert all(name.startswith("cleaner") for name in [*readers, *(thread for _, thread in parses)])


def test_a_sample_pages_item_takes_the_fields_its_fit_read(parses, tmp_path):
    settings = {"BOILERPLATE_SAMPLE_SIZE": 3, "BOILERPLATE_MODEL": "style_tree", "BOILERPLATE_STORE": str(tmp_path)}
    learner = make_learner(BOILERPLATE_CLEAN_IN_THREAD=False, **settings, **FIELDS)
    learner.book.open("harbour.example")
    for number in range(3):
        learner.sampler.offer("harbour.example", page(number))
    outcome = learner.session.fit("harbour.example")
    learner.route(
        learner.book.adopt("harbour.example", outcome.stored, ModelSource.FITTED, sample_cleans=outcome.sample_cleans)
    )
    fitted = len(parses)
    pipeline = pipeline_of(learner)
    for number in range(3):
        assert_fields(process(pipeline, number), number)
    assert fitted == 3 and len(parses) == fitted  # the fit parsed each sample page; its item, none
