"""What every inspection report must show, read back from its markup: shared by the report tests."""

from __future__ import annotations

import copy

from scrapy_boilerplate.corpus import Site
from scrapy_boilerplate.html import remove_keeping_tail, to_text
from scrapy_boilerplate.inspection import ReportTokens, build_report, read_report, summarize_site
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.offline import process_site
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


def check_site(site: Site, model: str, sample_size: int = 20) -> tuple[int, int, int]:
    """:func:`check_report` on every page of ``site`` as ``inspect`` fits it: pages checked, output
    words, output words not placed on their page.  A plain function of picklable arguments, so a
    process pool can run it."""
    pages = words = unplaced = 0
    outcome = process_site(site, ModelSpec.parse(model), sample_size)
    summary = summarize_site(model, outcome.sample_pages, [])
    for result in outcome.pages:
        if result.cleaned is None:
            continue
        report = build_report(result.page, result.cleaned, summary)
        shown = check_report(report, result.page, result.cleaned, f"{model} {result.path}")
        pages, words, unplaced = pages + 1, words + len(shown.output), unplaced + len(shown.unplaced)
    return pages, words, unplaced
