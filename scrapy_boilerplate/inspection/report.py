"""One self-contained HTML report: what a site model kept and removed on a page, and why.

Inline CSS only, no script, and a Content-Security-Policy that forbids loading anything, so
the report is safe to open whatever the page held.
"""

from __future__ import annotations

import html

from scrapy_boilerplate.html import normalize_space
from scrapy_boilerplate.inspection.coverage import resolve_paths
from scrapy_boilerplate.inspection.render import render_content
from scrapy_boilerplate.inspection.summary import SiteSummary
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.page import Page

REMOVED_GREY = "#c8c8c8"  # the shade of removed text; the browser test looks for it
CSS = f"""
body{{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#111;background:#fff}}
header.summary{{padding:12px 20px;background:#f3f3f3;border-bottom:1px solid #bbb}}
header.summary h1{{font-size:18px;margin:0 0 6px}}
header.summary dl{{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0}}
header.summary dt{{font-weight:600}} header.summary dd{{margin:0}}
header.summary h2,aside.panel h2{{font-size:15px;margin:8px 0 4px}}
table.regions{{border-collapse:collapse;font-size:13px;margin-top:6px}}
table.regions th,table.regions td{{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}}
.legend span{{padding:0 4px;margin-right:8px}}
.layout{{display:grid;grid-template-columns:minmax(0,1fr) 24rem}}
main.page{{padding:16px 24px;overflow-wrap:anywhere}}
main.page li{{margin-left:1.2em}}
aside.panel{{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;border-left:1px solid #bbb;
  padding:8px 12px;font-size:13px;background:#fafafa}}
aside.panel ol{{padding-left:1.6em}} aside.panel li{{margin-bottom:6px}}
aside.panel code{{font-size:11px;color:#333;overflow-wrap:anywhere}}
.badge{{display:inline-block;padding:0 5px;border-radius:3px;font-size:11px;font-weight:700}}
.b-kp{{background:#2e8b57;color:#fff}} .b-rm{{background:#666;color:#fff}}
.drm{{background:{REMOVED_GREY}}}
.dkp{{background:#fff;box-shadow:inset 4px 0 0 #2e8b57;padding-left:10px}}
.rm{{background:{REMOVED_GREY};color:#3a3a3a;text-decoration:line-through}}
.kp{{background:#fff;color:#111}}
.inf{{border-bottom:1px dotted #555}}
.miss{{background:#fff2b3;outline:1px dashed #a67c00}}
.media{{color:#555;font-style:italic}}
:target{{outline:3px solid #d2691e}}
"""
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{share:.0%}"


def _regions_table(summary: SiteSummary) -> str:
    if not summary.largest_removed:
        return "<p>No removed region was reported by the model.</p>"
    rows = "".join(
        f"<tr><td><code>{_e(r.key)}</code></td><td>{r.pages} of {summary.site_pages}</td>"
        f"<td>{r.chars // max(r.pages, 1)}</td><td>{_e(r.example)}</td><td>{_e(r.reason)}</td></tr>"
        for r in summary.largest_removed
    )
    return (
        '<table class="regions"><tr><th>region</th><th>removed on pages</th><th>chars per page</th>'
        f"<th>text</th><th>reason (one page)</th></tr>{rows}</table>"
    )


def _mismatch(missing_chars: int) -> str:
    if not missing_chars:
        return ""
    return (
        "<dt>kept but not in the output</dt>"
        f'<dd><span class="kp miss">{missing_chars} characters</span> that a decision keeps are missing '
        "from the model's cleaned text</dd>"
    )


def _header(page_label: str, cleaned: CleanedPage, summary: SiteSummary, missing_chars: int) -> str:
    if summary.sample_pages is None:
        sampled = "stored model (its sample is not recorded)"
    elif summary.mean_removed_share is None:
        sampled = f"{summary.sample_pages} (recorded with the stored model)"
    else:
        sampled = f"{summary.sample_pages} of the site's {summary.site_pages} pages"
    average = (
        f"{_percent(summary.mean_removed_share)} over {summary.site_pages} pages"
        if summary.mean_removed_share is not None
        else "-"
    )
    return (
        f'<header class="summary"><h1>What <code>{_e(summary.model)}</code> removed from {_e(page_label)}</h1>'
        f"<dl><dt>model</dt><dd>{_e(summary.model)}</dd><dt>pages sampled</dt><dd>{_e(sampled)}</dd>"
        f"<dt>removed on this page</dt><dd>{_percent(cleaned.removed_share)} "
        f"({cleaned.removed_chars} of {cleaned.total_chars} characters)</dd>"
        f"<dt>removed on average</dt><dd>{_e(average)}</dd>{_mismatch(missing_chars)}</dl>"
        '<div class="legend"><span class="rm">removed</span><span class="kp">kept</span>'
        '<span class="kp inf">no decision: inferred from the cleaned text</span></div>'
        f"<h2>Largest removed regions of the template</h2>{_regions_table(summary)}</header>"
    )


def _panel(page: Page, cleaned: CleanedPage) -> str:
    _, unresolved = resolve_paths(page, cleaned.decisions)
    missing = set(unresolved)
    items = []
    for index, decision in enumerate(cleaned.decisions):
        badge = '<b class="badge b-kp">kept</b>' if decision.kept else '<b class="badge b-rm">removed</b>'
        head = f"{badge} {decision.chars} chars"
        if index in missing:
            head += " (not found in this page)"
        else:
            head = f'<a href="#d{index}">{head}</a>'
        items.append(
            f'<li value="{index}">{head}<br><code>{_e(decision.path)}</code><div>{_e(decision.reason)}</div></li>'
        )
    body = "".join(items) or "<li>The model reported no decision; every verdict is inferred.</li>"
    return f'<aside class="panel"><h2>Decisions ({len(cleaned.decisions)})</h2><ol start="0">{body}</ol></aside>'


def build_report(page: Page, cleaned: CleanedPage, summary: SiteSummary, page_label: str = "") -> str:
    """The complete report document for ``page`` as cleaned by the model ``summary`` describes."""
    title = normalize_space(page.tree.findtext(".//title") or "") or page.url or "page"
    label = page_label or page.url or title
    content = render_content(page, cleaned)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>inspect: {_e(title)}</title><style>{CSS}</style></head><body>"
        f"{_header(label, cleaned, summary, content.missing_chars)}"
        f'<div class="layout"><main class="page">{content.html}</main>'
        f"{_panel(page, cleaned)}</div></body></html>"
    )
