"""How often pages are parsed: every :class:`~scrapy_boilerplate.page.Page` parses its HTML with ``parse_html``."""

from __future__ import annotations

import threading

import pytest

import scrapy_boilerplate.page


def count_parses(monkeypatch: pytest.MonkeyPatch, threads: list[str] | None = None) -> list[str]:
    """From now on (for the test), the HTML of each page parse, in order (and into ``threads``, when
    given, the name of the thread each parse ran in)."""
    parses: list[str] = []
    parse = scrapy_boilerplate.page.parse_html

    def counted(html: str):  # the parse's result
        parses.append(html)
        if threads is not None:
            threads.append(threading.current_thread().name)
        return parse(html)

    monkeypatch.setattr(scrapy_boilerplate.page, "parse_html", counted)
    return parses
