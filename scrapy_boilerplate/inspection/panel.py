"""The report's side panel: every decision with its size and reason, filters, and the site's template.

Decisions that explain no visible text (zero-size regions, or text every part of which another
decision explains) are folded into one ``<details>``.  Each entry links to its region on the
page (``#dN``) and each region links back (``#why-N``).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from scrapy_boilerplate.inspection.explain import DecisionView, cite_pages
from scrapy_boilerplate.inspection.summary import SiteSummary

PATH_STEPS = 3  # a path is shown by its last steps; the full path is on hover
SIZE_STEPS = (100, 1000)  # the size filter's steps, in visible characters


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def short_path(path: str) -> str:
    """``/html/body/div[2]/div/article/p[3]`` as ``…/div/article/p[3]``; ``chars:`` paths as they are."""
    steps = path.split("/")
    if path.startswith("chars:") or len(steps) <= PATH_STEPS + 1:
        return path
    return "…/" + "/".join(steps[-PATH_STEPS:])


def _size_class(chars: int) -> str:
    return f"s{sum(chars >= step for step in SIZE_STEPS)}"


def _entry(view: DecisionView, anchor: str | None, sample: Sequence[str]) -> str:
    decision = view.decision
    verdict = "kept" if decision.kept else "removed"
    badge = f'<b class="badge {"b-kp" if decision.kept else "b-rm"}">{verdict}</b>'
    number = f'<a href="#{anchor}">#{view.index}</a>' if anchor else f"#{view.index}"
    size = f"{view.chars:,} characters" if view.chars else "no visible text"
    notes = []
    if not view.found:
        notes.append("its path names nothing on this page")
    if view.disagreeing_chars:
        opposite = "removed" if decision.kept else "kept"
        notes.append(f"the output has {view.disagreeing_chars:,} of them {opposite}")
    note = "".join(f'<div class="note">{_e(n)}</div>' for n in notes)
    css = f"dec v-{verdict} {_size_class(view.chars)}" + ("" if view.chars else " off")
    return (
        f'<li id="why-{view.index}" class="{css}">{number} {badge} {size} '
        f'<code class="path" title="{_e(decision.path)}">{_e(short_path(decision.path))}</code>'
        f'<div class="why">{_e(cite_pages(decision.reason, sample))}</div>{note}</li>'
    )


FILTERS = (
    '<p class="filters">Show '
    '<label><input type="radio" name="fv" id="fv-all" checked> all</label>'
    '<label><input type="radio" name="fv" id="fv-removed"> removed</label>'
    '<label><input type="radio" name="fv" id="fv-kept"> kept</label><br>at least '
    '<label><input type="radio" name="fs" id="fs-0" checked> any size</label>'
    '<label><input type="radio" name="fs" id="fs-100"> 100</label>'
    '<label><input type="radio" name="fs" id="fs-1000"> 1,000</label> characters</p>'
)


def _regions_table(summary: SiteSummary) -> str:
    if not summary.largest_removed:
        return "<p>No removed region on the pages counted.</p>"
    rows = "".join(
        f'<tr><td><code title="{_e(r.key)}">{_e(short_path(r.key))}</code></td><td>{r.pages} of {summary.pages_counted}</td>'
        f"<td>{r.chars // max(r.pages, 1):,}</td><td>{_e(r.example)}</td>"
        f"<td>{_e(cite_pages(r.reason, summary.sample))}</td></tr>"
        for r in summary.largest_removed
    )
    return (
        '<table class="regions"><tr><th>region</th><th>removed on pages</th><th>characters per page</th>'
        f"<th>text</th><th>reason (one page)</th></tr>{rows}</table>"
    )


def render_panel(views: Sequence[DecisionView], anchors: dict[int, str], summary: SiteSummary) -> str:
    """The panel's HTML."""
    sized = [v for v in views if v.chars]
    folded = [v for v in views if not v.chars]
    entries = "".join(_entry(v, anchors.get(v.index), summary.sample) for v in sized)
    body = f'<ol class="decisions">{entries}</ol>' if entries else "<p>No decision explains any visible text.</p>"
    if folded:
        items = "".join(_entry(v, anchors.get(v.index), summary.sample) for v in folded)
        body += (
            f"<details><summary>{len(folded)} decisions explain no visible text</summary>"
            f'<ol class="decisions">{items}</ol></details>'
        )
    site = (
        f"<details><summary>Across the site: the template's largest removed regions</summary>"
        f"{_regions_table(summary)}</details>"
    )
    return f'<aside class="panel"><h2>Decisions ({len(views)})</h2>{FILTERS}{body}{site}</aside>'
