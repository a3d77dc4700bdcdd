"""The shipped ``fusion`` weights on small hand-made pages of three kinds: the decision that differs by
kind of page (a Q&A page's answers are content, an article's reader comments are not; a listing's
entries are content, its filters are not), each page alone (the single-page regime, the crawl's
fallback)."""

from __future__ import annotations

from helpers import page_kinds

from scrapy_boilerplate.evaluation.metric import score_text
from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.page import Page


def _clean(page: Page) -> str:
    return create_model("fusion").fit([page]).clean(page).text


def test_a_qa_page_keeps_its_question_and_every_answer():
    text = _clean(page_kinds.qa_page())
    for post in (page_kinds.QUESTION, *page_kinds.ANSWERS):
        assert score_text(text, post).r > 0.9, post[:40]
    for title in page_kinds.RELATED:
        assert title not in text


def test_an_article_keeps_its_story_and_drops_the_readers_comments():
    text = _clean(page_kinds.article_page())
    assert score_text(text, " ".join(page_kinds.ARTICLE)).r > 0.9
    for comment in page_kinds.COMMENTS:
        assert comment not in text
    assert "Post comment" not in text


def test_a_listing_keeps_every_entry_and_drops_its_filters():
    text = _clean(page_kinds.listing_page())
    for title, summary in page_kinds.ENTRIES:
        assert score_text(text, f"{title} {summary}").r > 0.9, title
    for control in (*page_kinds.FILTERS, "Filter results", "Apply filters", "Sort by"):
        assert control not in text
