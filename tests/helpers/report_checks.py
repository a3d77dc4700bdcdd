"""What every inspection report must show, read back from its markup: shared by the report tests."""

from __future__ import annotations

import copy

from scrapy_boilerplate.html import remove_keeping_tail, to_text
from scrapy_boilerplate.inspection import ReportTokens, read_report
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.tokenize import tokenize


def page_tokens(page: Page) -> list[str]:
    """The tokens of all the page shows: its tree as text, the head left out."""
    tree = copy.deepcopy(page.tree)
    for head in tree.findall("head"):
        remove_keeping_tail(head)
    return tokenize(to_text(tree))


def check_report(report: str, page: Page, cleaned: CleanedPage, where: str = "") -> ReportTokens:
    """Assert the token equality: the page view shows the page's text, all of it in ``data-verdict``
    spans; the output section is the model's output; what is marked kept is, token for token, that
    output less the words flagged as not on the page."""
    shown = read_report(report)
    assert shown.output == tokenize(cleaned.text), where
    assert shown.page == page_tokens(page), where
    assert shown.unmarked == [], where
    assert shown.kept_is_output(), where
    return shown
