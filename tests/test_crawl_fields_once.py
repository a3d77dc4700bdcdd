"""A crawl's Markdown and metadata fields are read with the clean, from the tree it parsed: each page
is parsed once, and with a threaded clean the fields are read in the cleaner's thread."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from helpers.harbour_site import TOPICS, article_page
from helpers.learners import make_learner, pipeline_of, use_model
from helpers.parses import count_parses

from scrapy_boilerplate import records
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


@pytest.mark.parametrize("model", ["fusion", "style_tree", "ngram"])  # ngram edits a tree of its own
def test_each_page_is_parsed_once_for_its_clean_and_its_fields(model, monkeypatch):
    learner = make_learner(BOILERPLATE_CLEAN_IN_THREAD=False, **FIELDS)
    use_model(learner, "harbour.example", ModelSpec(model).create().fit([page(n) for n in range(3)]))
    pipeline = pipeline_of(learner)
    parses = count_parses(monkeypatch)
    items = [process(pipeline, number) for number in (3, 4)]
    for number, item in zip((3, 4), items, strict=True):
        assert_fields(item, number)
    assert parses == [page(3).html, page(4).html]


def test_a_page_parsed_to_tell_its_template_is_cleaned_and_read_from_that_tree(monkeypatch):
    learner = make_learner(BOILERPLATE_CLEAN_IN_THREAD=False, BOILERPLATE_MAX_TEMPLATES=4, **FIELDS)
    key = learner.templates.key(page(0))
    use_model(learner, key, ModelSpec("ngram").create().fit([page(n) for n in range(3)]))
    pipeline = pipeline_of(learner)
    parses = count_parses(monkeypatch)
    items = [process(pipeline, number) for number in (3, 4)]
    for number, item in zip((3, 4), items, strict=True):
        assert_fields(item, number)
        assert item["boilerplate_model"] == "ngram"  # the template's model, not the single-page one
    assert parses == [page(3).html, page(4).html]


def test_with_a_threaded_clean_the_fields_are_read_in_the_cleaners_thread(monkeypatch):
    async def in_a_thread(function, *args):
        with ThreadPoolExecutor(1, thread_name_prefix="cleaner") as pool:
            return pool.submit(function, *args).result()

    readers: list[str] = []
    for name in ("read_metadata", "to_markdown"):
        reader = getattr(records, name)
        monkeypatch.setattr(
            records, name, lambda *a, _r=reader: readers.append(threading.current_thread().name) or _r(*a)
        )
    learner = make_learner(BOILERPLATE_CLEAN_IN_THREAD=True, **FIELDS)
    learner.item_steps.clean.cleaner.hand_off = in_a_thread
    use_model(learner, "harbour.example", ModelSpec("style_tree").create().fit([page(n) for n in range(3)]))
    parse_threads: list[str] = []
    parses = count_parses(monkeypatch, parse_threads)
    item = process(pipeline_of(learner), 4)
    assert_fields(item, 4)
    assert len(parses) == 1 and len(readers) == 2  # one parse; the metadata and the Markdown
    assert all(name.startswith("cleaner") for name in [*readers, *parse_threads])


def test_a_sample_pages_item_takes_the_fields_its_fit_read(monkeypatch, tmp_path):
    settings = {"BOILERPLATE_SAMPLE_SIZE": 3, "BOILERPLATE_MODEL": "style_tree", "BOILERPLATE_STORE": str(tmp_path)}
    learner = make_learner(BOILERPLATE_CLEAN_IN_THREAD=False, **settings, **FIELDS)
    parses = count_parses(monkeypatch)
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
