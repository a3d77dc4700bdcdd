"""How often pages are parsed: every :class:`~scrapy_boilerplate.page.Page` parses its HTML with ``parse_html``."""

from __future__ import annotations

import pytest

import scrapy_boilerplate.page


def count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on (for the test), the HTML of each page parse, in order."""
    parses: list[str] = []
    parse = scrapy_boilerplate.page.parse_html

    def counted(html: str):  # the parse's result
        parses.append(html)
        return parse(html)

    monkeypatch.setattr(scrapy_boilerplate.page, "parse_html", counted)
    return parses
