"""The report's header: the page's figures, its type and why, warnings, the decisive reason, the
largest removed regions.

It is kept short (one line per item, long text cut with an ellipsis) so the page stays in view.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from scrapy_boilerplate.inspection.explain import Cause, cite_pages, prose_pieces, prose_tokens, removal_causes
from scrapy_boilerplate.inspection.marks import MarkedPage
from scrapy_boilerplate.inspection.summary import SiteSummary
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.pagetype.classify import explain_page_type

DECISIVE_PROSE_SHARE = 0.5  # a cause that removes more of the prose than this gets its own line
HEADER_REGIONS = 3


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _n(count: int) -> str:
    return f"{count:,}"


def _refs(members: Sequence[int]) -> str:
    if not members:
        return ""
    first = f'<a href="#why-{members[0]}">#{members[0]}</a>'
    more = len(members) - 1
    return first + (f" and {more} more like it" if more else "")


def _cause_words(cause: Cause, summary: SiteSummary) -> str:
    reason = _e(cite_pages(cause.reason, summary.sample))
    if cause.kind == "removed":
        return f"{_refs(cause.members)}: {reason}"
    if cause.kind == "kept":
        keeps = "keeps" if len(cause.members) == 1 else "keep"
        return f"not in the output, although {_refs(cause.members)} {keeps} it ({reason}); the model gave no reason"
    return "not in the output, and no decision speaks for it"


def _facts(marked: MarkedPage, summary: SiteSummary) -> str:
    total, removed = marked.chars(), marked.chars(kept=False)
    share = f"{removed / total:.0%}" if total else "nothing"
    page = f"Removed {share} of this page: {_n(removed)} of {_n(total)} characters."
    if summary.sample_pages is None:
        fit = "Stored model (its sample size is not recorded)."
    elif summary.mean_removed_share is None:
        fit = f"Stored model, fitted on {summary.sample_pages} pages."
    else:
        over = summary.site_pages if summary.pages_counted == summary.site_pages else summary.pages_counted
        fit = (
            f"Fitted on {summary.sample_pages} of the site's {summary.site_pages} pages; "
            f"{summary.mean_removed_share:.0%} removed on average over {over} pages."
        )
    return f"<p>{page} {fit}</p>"


def page_type_line(page: Page) -> str:
    """The page's type, how sure the classifier is, and the signals that raised that type most."""
    try:
        told, reasons = explain_page_type(page)
    except Exception as exc:  # a report is still worth having without the type
        return f'<p class="page-type line">Page type: not told ({_e(repr(exc))}).</p>'
    why = "; ".join(reason.describe() for reason in reasons) or "no signal stands out"
    return (
        f'<p class="page-type line" title="{_e(why)}">Page type: <b>{_e(told.label)}</b> '
        f"({told.confidence:.0%}); why: {_e(why)}</p>"
    )


def decisive_line(marked: MarkedPage, causes: Sequence[Cause], prose: set[int], summary: SiteSummary) -> str:
    """The highlighted line for a cause that removed more than half of the page's ``prose``."""
    total, removed = prose_tokens(marked, prose)
    if not total or removed <= total * DECISIVE_PROSE_SHARE or not causes:
        return ""
    cause = max(causes, key=lambda c: c.prose_tokens)
    share = cause.prose_tokens / total
    by = "by " if cause.kind == "removed" else ""
    what = f"{removed / total:.0%} of this page's prose removed, {share:.0%} {by}{_cause_words(cause, summary)}"
    return f'<p class="decisive line" title="{_e(cause.reason)}"><b>Decisive:</b> {what}</p>'


def _largest(causes: Sequence[Cause], summary: SiteSummary) -> str:
    rows = [
        f'<li title="{_e(cite_pages(c.reason, summary.sample))}"><b>{_n(c.chars)}</b> characters: '
        f"{_cause_words(c, summary)}</li>"
        for c in causes[:HEADER_REGIONS]
    ]
    if not rows:
        return "<p>Nothing was removed.</p>"
    return f'<p>Largest removed:</p><ol class="largest">{"".join(rows)}</ol>'


def _warnings(warnings: Sequence[str]) -> str:
    if not warnings:
        return ""
    return '<ul class="warnings">' + "".join(f'<li class="line">{_e(w)}</li>' for w in warnings) + "</ul>"


CONTROLS = (
    '<p class="controls line">'
    '<label><input type="radio" name="view" id="view-page" checked> marked page</label>'
    '<label><input type="radio" name="view" id="view-output"> output only</label>'
    '<span class="legend"><span class="kp">kept</span><span class="rm">removed</span>'
    '<span class="kp x">decision disagrees with the output</span></span></p>'
)


def render_header(marked: MarkedPage, summary: SiteSummary, page_label: str, warnings: Sequence[str]) -> str:
    """The header's HTML."""
    prose = prose_pieces(marked)
    causes = removal_causes(marked, prose)
    title = f"What <code>{_e(summary.model)}</code> removed from {_e(page_label)}"
    return (
        f'<header class="summary"><h1 class="line" title="{_e(page_label)}">{title}</h1>'
        f"{_facts(marked, summary)}{page_type_line(marked.page)}{_warnings(warnings)}{decisive_line(marked, causes, prose, summary)}"
        f"{_largest(causes, summary)}{CONTROLS}</header>"
    )
