"""Read a report back from its markup alone: what a tool checking a report file sees.

The markup contract (docs/inspect.md): in ``<main class="page">`` every piece of page text is in
a ``span`` with ``data-verdict="kept"`` or ``"removed"`` (blocks are ``div``, inline elements
``span``; placeholders and links to decisions, which are not page text, carry the classes
``media`` and ``ref``); ``<section id="output">`` holds the model's output text exactly, its words
that are not on the page wrapped in ``data-placed="no"``.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass

import lxml.html

from scrapy_boilerplate.html import remove_keeping_tail, to_text
from scrapy_boilerplate.tokenize import tokenize

NOT_PAGE_TEXT = ("media", "ref")  # classes of report elements inside the page view that are not page text


@dataclass(frozen=True)
class ReportTokens:
    """The tokens a report shows: all the page text of its page view, the part marked kept and
    the part marked removed, the output, its unplaced words, and any page-view text outside a
    ``data-verdict`` span (there should be none)."""

    page: list[str]
    kept: list[str]
    removed: list[str]
    output: list[str]
    unplaced: list[str]
    unmarked: list[str]

    def kept_is_output(self) -> bool:
        """True when the page text marked kept is, token for token, the output less its unplaced words."""
        return Counter(self.kept) + Counter(self.unplaced) == Counter(self.output)


def _has_class(element: lxml.html.HtmlElement, names: tuple[str, ...]) -> bool:
    return bool(set((element.get("class") or "").split()) & set(names))


def _view_tokens(main: lxml.html.HtmlElement, verdict: str | None) -> list[str]:
    """Tokens of the page text with ``verdict`` (any, for ``None``), the other spans replaced by a break."""
    view = copy.deepcopy(main)
    for element in list(view.iter()):
        if not isinstance(element.tag, str):
            continue
        if _has_class(element, NOT_PAGE_TEXT):
            remove_keeping_tail(element)
        elif verdict is not None and element.get("data-verdict") not in (None, verdict):
            for child in list(element):
                element.remove(child)
            element.text = "\n"
    return tokenize(to_text(view))


def _unmarked(main: lxml.html.HtmlElement) -> list[str]:
    tokens: list[str] = []
    stack = [(main, False)]
    while stack:
        element, inside = stack.pop()
        if not isinstance(element.tag, str) or _has_class(element, NOT_PAGE_TEXT):
            continue
        inside = inside or element.get("data-verdict") is not None
        if not inside:
            tokens += tokenize(element.text)
        for child in element:
            stack.append((child, inside))
            if not inside:
                tokens += tokenize(child.tail)
    return tokens


def read_report(report: str) -> ReportTokens:
    """The tokens ``report`` shows, read from its markup; ``ValueError`` for a page that is not a report."""
    tree = lxml.html.fromstring(report)
    main = tree.find(".//main")
    output = tree.get_element_by_id("output", None)
    if main is None or output is None:
        raise ValueError("not an inspect report: it has no <main> page view or no #output panel")
    unplaced = [t for span in output.iter() if span.get("data-placed") == "no" for t in tokenize(span.text_content())]
    return ReportTokens(
        _view_tokens(main, None),
        _view_tokens(main, "kept"),
        _view_tokens(main, "removed"),
        tokenize(output.text_content()),
        unplaced,
        _unmarked(main),
    )
