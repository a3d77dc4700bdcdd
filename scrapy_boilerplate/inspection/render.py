"""A page's content as safe, inert HTML with every text piece marked kept or removed.

Built from the parsed tree, never from the page's markup: only a fixed set of structural tags
is written, with none of the page's attributes, every text escaped, and embedded objects
(images, frames, media, forms) replaced by a short placeholder or left out.  Nothing in the
output can run a script, apply the page's styles or load a resource.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from scrapy_boilerplate.html import BLOCK_TAGS
from scrapy_boilerplate.inspection.coverage import Close, Open, Text, walk
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.page import Page

# Tags written as themselves (without attributes): structure and inline emphasis only.
SAFE_TAGS: frozenset[str] = frozenset(
    [
        "p",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "ul",
        "ol",
        "li",
        "dl",
        "dt",
        "dd",
        "table",
        "thead",
        "tbody",
        "tfoot",
        "tr",
        "td",
        "th",
        "caption",
        "pre",
        "blockquote",
        "b",
        "i",
        "em",
        "strong",
        "code",
        "small",
        "sub",
        "sup",
        "u",
        "s",
        "br",
        "hr",
    ]
)
VOID_TAGS: frozenset[str] = frozenset({"br", "hr"})
# Tags whose subtree is not shown: media, frames, forms' controls, vector graphics.
HIDDEN_TAGS: frozenset[str] = frozenset(
    [
        "head",
        "svg",
        "math",
        "iframe",
        "frame",
        "frameset",
        "object",
        "embed",
        "video",
        "audio",
        "canvas",
        "map",
        "select",
        "textarea",
        "input",
        "button",
        "option",
        "datalist",
        "picture",
        "source",
        "track",
        "img",
    ]
)
MEDIA_TAGS: frozenset[str] = frozenset(
    {"img", "iframe", "video", "audio", "object", "embed", "svg", "canvas", "picture"}
)


def _label(kept: bool) -> str:
    return "kept" if kept else "removed"


def _output_tag(page_tag: str) -> str:
    """The tag written for a page's tag: itself when safe, else ``div`` for blocks and ``span`` for the rest."""
    if page_tag in SAFE_TAGS:
        return page_tag
    return "div" if page_tag in BLOCK_TAGS or page_tag == "body" else "span"


def _open_tag(page_tag: str, decision: int | None, cleaned: CleanedPage) -> str:
    tag = _output_tag(page_tag)
    if decision is None:
        return f"<{tag}>"
    chosen = cleaned.decisions[decision]
    css = "dkp" if chosen.kept else "drm"
    title = html.escape(f"#{decision} {_label(chosen.kept)}: {chosen.reason}")
    return f'<{tag} id="d{decision}" class="{css}" title="{title}">'


def _close_tag(page_tag: str) -> str:
    return "" if page_tag in VOID_TAGS else f"</{_output_tag(page_tag)}>"


def _text(piece: Text, cleaned: CleanedPage, first_segment: set[int]) -> str:
    escaped = html.escape(piece.text, quote=False)
    if not piece.text.strip():
        return escaped
    verdict = piece.verdict
    css = "kp" if verdict.kept else "rm"
    if verdict.decision is None:
        title = "no decision covers this text; " + ("found in" if verdict.kept else "absent from") + " the cleaned text"
        return f'<span class="{css} inf" title="{html.escape(title)}">{escaped}</span>'
    chosen = cleaned.decisions[verdict.decision]
    attributes = ""
    if chosen.path.startswith("chars:") or verdict.missing:
        title = f"#{verdict.decision} {_label(chosen.kept)}: {chosen.reason}"
        if verdict.missing:
            css += " miss"
            title += "; but this text is not in the model's output"
        attributes = f' title="{html.escape(title)}"'
    if chosen.path.startswith("chars:") and verdict.decision not in first_segment:
        first_segment.add(verdict.decision)
        attributes = f' id="d{verdict.decision}"' + attributes
    return f'<span class="{css}"{attributes}>{escaped}</span>'


def _placeholder(tag: str, alt: str | None) -> str:
    label = f"[{tag}: {alt.strip()}]" if alt and alt.strip() else f"[{tag}]"
    return f'<span class="media">{html.escape(label, quote=False)}</span>'


@dataclass(frozen=True)
class Rendered:
    """The page's inert HTML, and how many characters decisions keep that the output lacks."""

    html: str
    missing_chars: int


def render_content(page: Page, cleaned: CleanedPage) -> Rendered:
    """``page.body`` as inert HTML: decision roots carry ``id="dN"`` and a title, text spans ``kp``/``rm``."""
    out: list[str] = []
    missing = 0
    hidden_depth = 0  # > 0 inside a subtree that is not shown
    first_segment: set[int] = set()
    for event in walk(page, cleaned):
        if isinstance(event, Open):
            tag = event.element.tag
            if hidden_depth or tag in HIDDEN_TAGS:
                if not hidden_depth and tag in MEDIA_TAGS:
                    out.append(_placeholder(tag, event.element.get("alt") or event.element.get("title")))
                hidden_depth += 1
                continue
            out.append(_open_tag(tag, event.decision, cleaned))
        elif isinstance(event, Close):
            if hidden_depth:
                hidden_depth -= 1
                continue
            out.append(_close_tag(event.element.tag))
        elif not hidden_depth:
            out.append(_text(event, cleaned, first_segment))
            missing += len(event.text.strip()) if event.verdict.missing else 0
    return Rendered("".join(out), missing)
