"""A marked page as safe, inert HTML: every span of page text carries ``data-verdict``.

Built from the parsed tree, never from the page's markup: only ``div``, ``span``, ``br`` and
``hr`` are written (so no browser or parser rebuilds the structure and moves text around),
with a class for the page's tag and none of the page's attributes; every text is escaped;
images and media become a short placeholder when they have alt text.  Elements without
visible text are left out (no rows of empty bullets).  Nothing here can run a script, apply the
page's styles or load a resource.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

import lxml.etree

from scrapy_boilerplate.html import BLOCK_TAGS
from scrapy_boilerplate.html.text import CELL_TAGS
from scrapy_boilerplate.inspection.explain import DecisionView
from scrapy_boilerplate.inspection.marks import MarkedPage, Segment
from scrapy_boilerplate.inspection.visible import BREAK_TAGS, Close, Open

Element = lxml.etree._Element
# Page tags that keep a class of their own (the stylesheet draws headings, lists, tables...).
STYLED_TAGS: frozenset[str] = frozenset(
    [
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "p",
        "li",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "table",
        "tr",
        "td",
        "th",
        "caption",
        "pre",
        "blockquote",
        "b",
        "strong",
        "i",
        "em",
        "code",
        "small",
        "sub",
        "sup",
        "u",
        "s",
        "a",
    ]
)
DIV_TAGS: frozenset[str] = BREAK_TAGS | BLOCK_TAGS | CELL_TAGS | {"body", "html"}
VOID_TAGS: frozenset[str] = frozenset({"br", "hr"})
MEDIA_TAGS: frozenset[str] = frozenset({"img", "area", "input"})  # shown as a placeholder when they have alt text


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _alt(element: Element) -> str:
    return (element.get("alt") or "").strip() if element.tag in MEDIA_TAGS else ""


def shown_elements(marked: MarkedPage) -> set[Element]:
    """Elements with visible text (or alt text) inside: the others are not drawn."""
    shown: set[Element] = set()
    root = marked.visible.root

    def climb(element: Element) -> None:
        while element not in shown:
            shown.add(element)
            if element is root:
                return
            parent = element.getparent()
            if parent is None:
                return
            element = parent

    for piece in marked.visible.pieces:
        if piece.text.strip():
            climb(piece.owner)
    for element in root.iter(*MEDIA_TAGS):
        if _alt(element):
            climb(element)
    return shown


def _stand_in(element: Element) -> str:
    """What stands for an element without visible text: ``br``/``hr`` as they are, an empty ``div``
    where the element or anything inside it breaks the line, a space where it holds only
    whitespace (``<b>&nbsp;</b>`` still parts two words), else nothing."""
    if element.tag in VOID_TAGS:
        return f"<{element.tag}>"
    if element.tag in DIV_TAGS or next(element.iter(*DIV_TAGS), None) is not None:
        return "<div></div>"
    return " " if any(element.itertext()) else ""


class PageWriter:
    """Writes the marked page; ``anchors`` maps a decision to the id its region carries."""

    def __init__(self, marked: MarkedPage, views: list[DecisionView]) -> None:
        self.marked = marked
        self.views = views
        self.named = marked.named
        self.anchors: dict[int, str] = {}  # decision -> id of its region on the page

    def _refs(self, indices: Iterable[int]) -> str:
        return "".join(f'<a class="ref" href="#why-{i}" title="decision #{i}">#{i}</a>' for i in indices)

    def _open(self, element: Element) -> str:
        tag = element.tag
        name = "div" if tag in DIV_TAGS else "span"
        css = [f"t-{tag}"] if tag in STYLED_TAGS else []
        attributes = ""
        decided = [i for i in self.named.get(element, []) if self.views[i].chars]
        if decided:
            region_id = f"d{decided[0]}"
            for index in self.named[element]:
                self.anchors[index] = region_id
            last = self.marked.decisions[decided[-1]]
            css.append("dk" if last.kept else "dr")
            reasons = "; ".join(f"#{i} {self._verdict(i)}: {self.marked.decisions[i].reason}" for i in decided)
            attributes = f' id="{region_id}" title="{_e(reasons)}"'
        classes = f' class="{" ".join(css)}"' if css else ""
        alt = _alt(element)
        placeholder = f'<span class="media">[{_e(tag)}: {_e(alt)}]</span>' if alt else ""
        return f"<{name}{classes}{attributes}>{self._refs(decided)}{placeholder}"

    def _verdict(self, index: int) -> str:
        return "kept" if self.marked.decisions[index].kept else "removed"

    def _segment(self, segment: Segment) -> str:
        text = _e(segment.text)
        if not segment.text.strip():
            return text
        verdict = "kept" if segment.kept else "removed"
        css = "kp" if segment.kept else "rm"
        attributes, prefix = "", ""
        if segment.decision is not None:
            attributes = f' data-decision="{segment.decision}"'
            if not segment.agrees:
                css += " x"
                said = self._verdict(segment.decision)
                attributes += f' title="decision #{segment.decision} says {said}; the output says {verdict}"'
            is_range = self.marked.decisions[segment.decision].path.startswith("chars:")
            if is_range and segment.decision not in self.anchors:
                self.anchors[segment.decision] = f"d{segment.decision}"
                attributes += f' id="d{segment.decision}"'
                prefix = self._refs([segment.decision])
        else:
            attributes = ' title="no decision speaks for this text"'
        return f'{prefix}<span data-verdict="{verdict}" class="{css}"{attributes}>{text}</span>'

    def write(self) -> str:
        """The page's HTML."""
        shown = shown_elements(self.marked)
        out: list[str] = []
        skipping = None  # an element without visible text, until its end
        for event in self.marked.visible.events:
            if skipping is not None:
                if isinstance(event, Close) and event.element is skipping:
                    skipping = None
                continue
            if isinstance(event, Open):
                element = event.element
                if element not in shown:
                    # still a line break where the page has one (a textless block between two
                    # runs of text keeps their words apart, as on screen and in the output)
                    out.append(_stand_in(element))
                    skipping = element
                    continue
                out.append(self._open(element))
            elif isinstance(event, Close):
                out.append("</div>" if event.element.tag in DIV_TAGS else "</span>")
            else:
                out.extend(self._segment(s) for s in self.marked.segments[event.number])
        return "".join(out)
