"""fusion's safeguard against losing the article: a page-relative threshold."""

from __future__ import annotations

import numpy as np

from scrapy_boilerplate.models.fusion.decide import LOST_SHARE, PROSE_CUES, page_threshold
from scrapy_boilerplate.models.fusion.inputs import PageInputs
from scrapy_boilerplate.models.fusion.page_features import BLOCK_CUES, block_cues
from scrapy_boilerplate.page import Page

SENTENCE = "The committee met on Monday and agreed that the new rules would apply from the spring of next year."


def _page() -> Page:
    menu = "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(8))
    article = "".join(f"<p>{SENTENCE} Paragraph {i}.</p>" for i in range(6))
    html = f"""<html><head><title>New rules from the spring</title></head><body>
    <ul class="menu">{menu}</ul><div class="story"><h1>New rules from the spring</h1>{article}</div></body></html>"""
    return Page(html, "https://news.example/rules")


class Found:
    """A page's blocks and the prose cues the threshold stage reads of them."""

    def __init__(self, page: Page) -> None:
        inputs = PageInputs.of(page)
        self.blocks = inputs.blocks
        self.cues = block_cues(inputs)[:, [BLOCK_CUES.index(name) for name in PROSE_CUES]]


def _matrix(found: Found) -> np.ndarray:
    return found.cues


def test_a_lost_article_lowers_the_page_threshold_to_its_best_prose():
    found = Found(_page())
    prose = np.array([block.text.startswith(SENTENCE) for block in found.blocks])
    probability = np.where(prose, 0.12, 0.01)  # the trees doubt every block
    threshold = page_threshold(probability, _matrix(found), 0.35)
    assert threshold < 0.12
    kept = [block.text for block, p in zip(found.blocks, probability, strict=True) if p >= threshold]
    assert sum(text.startswith(SENTENCE) for text in kept) == 6


def test_the_threshold_stands_when_the_kept_text_holds_the_prose():
    found = Found(_page())
    article = np.array([block.text.startswith(SENTENCE) for block in found.blocks])
    probability = np.where(article, 0.9, 0.2)
    assert page_threshold(probability, _matrix(found), 0.35) == 0.35
    # keeping under a quarter of the core's prose counts as losing it
    first = np.flatnonzero(article)[0]
    probability = np.where(np.arange(len(article)) == first, 0.9, 0.2)
    assert LOST_SHARE > 1 / 6  # one paragraph of six
    assert page_threshold(probability, _matrix(found), 0.35) < 0.35


def test_a_page_without_prose_keeps_the_threshold():
    html = (
        "<html><body><ul>" + "".join(f'<li><a href="/{i}">Link {i}</a></li>' for i in range(20)) + "</ul></body></html>"
    )
    found = Found(Page(html))
    assert page_threshold(np.full(len(found.blocks), 0.01), _matrix(found), 0.35) == 0.35
    assert page_threshold(np.zeros(0), np.zeros((0, len(PROSE_CUES))), 0.35) == 0.35
