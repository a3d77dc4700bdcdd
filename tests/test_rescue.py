"""No empty text where there is an article: the longest prose paragraph stands in for an empty
output, in the crawl's items (the model field says so) and in the offline extract."""

from __future__ import annotations

import logging

from helpers.learners import make_learner, pipeline_of, use_model
from helpers.parses import count_parses

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.pipeline import BoilerplatePipeline
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.rescue import prose_rescue

PROSE = (
    "The harbour board met on Tuesday to weigh the cost of dredging the eastern channel, which has "
    "silted up since the spring floods and now keeps the larger cargo ships waiting offshore for the "
    "tide. Members agreed to ask the county for a loan and to report back before the autumn season."
)
PAGE = (
    "<html><body><nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a></nav>"
    f"<div class='story'><h1>Dredging plan</h1><p>{PROSE}</p><p>Short line.</p></div>"
    "<ul><li><a href='/a'>One more of the many stories about the harbour board and its long meetings</a></li></ul>"
    "<footer>Copyright</footer></body></html>"
)


class KeepsNothing(SiteModel):
    """A model whose output is (almost) empty: what a model left with nothing it recognises gives."""

    name = "test_keeps_nothing"

    def __init__(self, kept: str = "") -> None:
        super().__init__()
        self.kept = kept

    def _fit(self, pages: list[Page]) -> None:
        pass

    def _clean(self, page: Page) -> CleanedPage:
        return CleanedPage(self.kept, "", self.name, 500, len(self.kept))


def test_an_empty_output_gets_the_longest_prose_paragraph():
    rescued = prose_rescue(CleanedPage("", "", "m", 500, 0), Page(PAGE))
    assert (
        rescued.text == PROSE
        and rescued.model == "m"
        and rescued.html.startswith("<div><p>")
        and rescued.html.endswith("</p></div>")
    )
    for kept in ("Dredging plan", "Watch the harbour video"):  # a few words may be all a page has
        assert prose_rescue(CleanedPage(kept, "", "m", 500, len(kept)), Page(PAGE)) is None
    assert prose_rescue(CleanedPage(" \n ", "", "m", 500, 0), Page(PAGE)).text == PROSE


def test_a_page_without_prose_keeps_its_empty_output():
    link_list = "<ul>" + "".join(f"<li><a href='/{i}'>{PROSE[:60]} {i}</a></li>" for i in range(20)) + "</ul>"
    for html in ("<p>too short to be an article</p>", link_list, ""):
        assert prose_rescue(CleanedPage("", "", "m", 0, 0), Page(html)) is None


def pipeline_with(model: SiteModel) -> BoilerplatePipeline:
    learner = make_learner(BOILERPLATE_CLEAN_IN_THREAD=False)
    use_model(learner, "news.example", model)
    return pipeline_of(learner)


def process(pipeline: BoilerplatePipeline, item: dict) -> dict:
    try:
        pipeline.process_item(item).send(None)
    except StopIteration as done:
        return done.value
    raise AssertionError("the item waited")


def test_the_crawl_item_gets_the_prose_and_its_model_field_says_so(caplog):
    caplog.set_level(logging.INFO)
    pipeline = pipeline_with(KeepsNothing().fit([]))
    items = [process(pipeline, {"url": f"http://news.example/{i}", "html": PAGE}) for i in range(2)]
    assert [item["text"] for item in items] == [PROSE, PROSE]
    assert {item["boilerplate_model"] for item in items} == {"test_keeps_nothing (prose block)"}
    assert pipeline.stats.get_value(keys.ITEMS_RESCUED) == 2
    assert sum("longest prose block" in r.getMessage() for r in caplog.records) == 1  # once per domain


def test_an_output_of_a_few_words_is_left_as_the_model_made_it():
    pipeline = pipeline_with(KeepsNothing("Dredging plan").fit([]))
    item = process(pipeline, {"url": "http://news.example/1", "html": PAGE})
    assert item["text"] == "Dredging plan" and item["boilerplate_model"] == "test_keeps_nothing"
    assert pipeline.stats.get_value(keys.ITEMS_RESCUED) is None


class ReadsTheTree(KeepsNothing):
    """Keeps nothing of a page after reading its tree, as a model that recognises nothing on it does."""

    name = "test_reads_the_tree"

    def _clean(self, page: Page) -> CleanedPage:
        assert len(page.body)  # parses the page, once, into the tree it keeps
        return super()._clean(page)


def test_the_rescue_reads_the_tree_the_clean_parsed(monkeypatch):
    parses = count_parses(monkeypatch)
    pipeline = pipeline_with(ReadsTheTree().fit([]))
    item = process(pipeline, {"url": "http://news.example/1", "html": PAGE})
    assert item["text"] == PROSE and item["boilerplate_model"] == "test_reads_the_tree (prose block)"
    assert parses == [PAGE]  # the clean's parse, and no second one for the rescue
