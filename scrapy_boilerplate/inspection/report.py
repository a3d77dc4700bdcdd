"""One self-contained HTML report: what a site model kept and removed on a page, and why.

The page view is marked by the model's output (:mod:`~scrapy_boilerplate.inspection.marks`):
every span of page text carries ``data-verdict="kept"`` or ``"removed"``, and the spans marked
kept hold, token for token, the text of ``<section id="output">``, which is the model's output
exactly (the words of it that are not on the page are wrapped in ``data-placed="no"``).
Inline CSS only, no script, and a Content-Security-Policy that forbids loading anything, so
the report is safe to open whatever the page held.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from scrapy_boilerplate.html import normalize_space
from scrapy_boilerplate.inspection.explain import DecisionView, decision_views
from scrapy_boilerplate.inspection.header import render_header
from scrapy_boilerplate.inspection.marks import MarkedPage, mark_page
from scrapy_boilerplate.inspection.panel import render_panel
from scrapy_boilerplate.inspection.render import PageWriter
from scrapy_boilerplate.inspection.style import CSP, CSS
from scrapy_boilerplate.inspection.summary import SiteSummary
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.page import Page


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def render_output(marked: MarkedPage) -> str:
    """``<section id="output">``: the output text as it is, its words not on the page wrapped."""
    text = marked.cleaned.text
    out, position = [], 0
    runs: list[list[int]] = []  # [start, end] of runs of unplaced tokens
    for start, end, placed in marked.output_tokens:
        if placed:
            continue
        if runs and not text[runs[-1][1] : start].strip():
            runs[-1][1] = end
        else:
            runs.append([start, end])
    for start, end in runs:
        out.append(_e(text[position:start]))
        out.append(f'<span class="unplaced" data-placed="no">{_e(text[start:end])}</span>')
        position = end
    out.append(_e(text[position:]))
    return f'<section id="output" aria-label="the model\'s output">{"".join(out)}</section>'


def truth_warnings(marked: MarkedPage, views: Sequence[DecisionView]) -> list[str]:
    """An empty page, and where the model's output and its decisions or the page part ways."""
    warnings = []
    if not marked.visible.stream.strip():
        warnings.append("This page has no visible text: there is nothing to keep or remove")
    unplaced = marked.alignment.unplaced
    if unplaced:
        words = f"{unplaced:,} words of the output are" if unplaced > 1 else "1 word of the output is"
        warnings.append(
            f"{words} not on this page as such (marked in the output view): "
            "the model wrote text the page does not show in that order or form"
        )
    disagreeing = sum(v.disagreeing_chars for v in views)
    if disagreeing:
        warnings.append(
            f"The model's decisions and its output part ways on {disagreeing:,} characters (dashed outline): "
            "the marks follow the output"
        )
    return warnings


def build_report(
    page: Page, cleaned: CleanedPage, summary: SiteSummary, page_label: str = "", warnings: Sequence[str] = ()
) -> str:
    """The complete report document for ``page`` as cleaned by the model ``summary`` describes."""
    return render_report(mark_page(page, cleaned), summary, page_label, warnings)


def render_report(marked: MarkedPage, summary: SiteSummary, page_label: str = "", warnings: Sequence[str] = ()) -> str:
    """The report document of a marked page (see :func:`build_report`)."""
    page = marked.page
    title = normalize_space(page.tree.findtext(".//title") or "") or page.url or "page"
    label = page_label or page.url or title
    views = decision_views(marked)
    writer = PageWriter(marked, views)
    body = writer.write()
    header = render_header(marked, summary, label, [*warnings, *truth_warnings(marked, views)])
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>inspect: {_e(title)}</title><style>{CSS}</style></head><body>{header}"
        f'<div class="layout"><main class="page">{body}</main>{render_output(marked)}'
        f"{render_panel(views, writer.anchors, summary)}</div></body></html>"
    )
