"""A test-only site model that marks synthetic pages' regions in both decision forms (XPath and chars)."""

from __future__ import annotations

import html

from scrapy_boilerplate.html import to_text
from scrapy_boilerplate.models.base import CleanedPage, Decision, SiteModel
from scrapy_boilerplate.page import Page

COOKIE = "We use cookies to improve your experience."
UNRESOLVABLE = "/html/body/div[99]/p[7]"


def chars_of(page: Page, text: str) -> str:
    """``chars:START-END`` of the first occurrence of ``text`` (escaped as in the markup) in ``page.html``."""
    escaped = html.escape(text, quote=True)
    start = page.html.index(escaped)
    return f"chars:{start}-{start + len(escaped)}"


class MarkerModel(SiteModel):
    """Keeps the article, removes header, footer and sidebar by XPath, the cookie banner by chars.

    It also keeps the sidebar's heading by a ``chars:`` range inside the removed sidebar, removes
    the second half of the article's first paragraph by a ``chars:`` range, and names one
    element that does not exist.  Related links and comments get no decision at all, and the
    article's title, though inside the kept article, is left out of the text.
    """

    name = "test-marker"

    def _fit(self, pages: list[Page]) -> None:
        """Nothing to learn."""

    def _clean(self, page: Page) -> CleanedPage:
        tree = page.tree
        getpath = tree.getroottree().getpath
        article = tree.find(".//article")
        first_paragraph = article.find(".//p").text
        half = first_paragraph[len(first_paragraph) // 2 :]
        decisions = [
            Decision(getpath(tree.find(".//header")), False, 0, "header: shared by every page"),
            Decision(getpath(tree.find(".//footer")), False, 0, "footer: shared by every page"),
            Decision(getpath(tree.find(".//aside")), False, 0, "sidebar: shared by every page"),
            Decision(getpath(article), True, 0, "article: unique to this page"),
            Decision(chars_of(page, COOKIE), False, len(COOKIE), "cookie range: seen on every page"),
            Decision(chars_of(page, "Popular"), True, 7, "sidebar heading range: kept on purpose"),
            Decision(chars_of(page, half), False, len(half), "second half of the first paragraph"),
            Decision(UNRESOLVABLE, False, 0, "an element this page does not have"),
        ]
        title = article.findtext("h1")  # kept by the article's decision but left out of the text
        article_text = to_text(article).replace(half.strip(), "").replace(title, "")
        text = article_text + "\n\nPopular"
        total = len(to_text(page.body))
        return CleanedPage(text, "", self.name, total, min(len(text), total), None, tuple(decisions))
