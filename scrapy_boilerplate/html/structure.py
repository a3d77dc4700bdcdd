"""The cleaned HTML of kept content, with its structure: headings, paragraphs, lists, tables, code,
block quotes, links and emphasis, and nothing else.

Every model's ``CleanedPage.html`` is made here.  A model that keeps whole elements (a region, a
pruned copy of the body) hands over its output element; a block model hands over its kept blocks
and the walk keeps them with the structure around them (the list of a kept item, the table of a
kept cell) and nothing of the blocks it removed: a kept leaf block whole, a kept container block
its own text only.

The output is small, plain HTML: structural tags as they are (``<b>`` as ``<strong>``, ``<i>`` as
``<em>``), other blocks as ``<div>``, other inline tags unwrapped to their text, and only the
attributes a reader needs (``href``, ``src``, ``alt``, cell spans, a list's start).  An element
left without text (a pruned copy's emptied tags) is dropped.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape
from typing import Any

import lxml.etree

from scrapy_boilerplate.html.blocks import BLOCK_TAGS, Block, ancestors_of
from scrapy_boilerplate.html.clean import NON_CONTENT_TAGS

_HEADINGS: frozenset[str] = frozenset(f"h{level}" for level in range(1, 7))
_TABLE_PARTS: frozenset[str] = frozenset({"table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td"})
_KEPT_TAGS: frozenset[str] = _HEADINGS | _TABLE_PARTS | {"p", "ul", "ol", "li", "dl", "dt", "dd", "pre", "blockquote"}
_KEPT_TAGS |= {"a", "em", "strong", "code", "sub", "sup", "del", "br", "hr", "img"}  # inline
_RENAMED: dict[str, str] = {
    "b": "strong",
    "i": "em",
    "s": "del",
    "strike": "del",
    "kbd": "code",
    "samp": "code",
    "tt": "code",
    "menu": "ul",
    "dir": "ul",
}
_DIVS: frozenset[str] = (BLOCK_TAGS - _KEPT_TAGS - set(_RENAMED)) | {"html", "legend"}
_OUTPUT_TAG: dict[str, str] = {
    **{tag: tag for tag in _KEPT_TAGS},
    **_RENAMED,
    **{tag: "div" for tag in _DIVS},
}
_CELLS: frozenset[str] = frozenset({"td", "th"})
_VOID: frozenset[str] = frozenset({"br", "hr", "img"})
# Kept without text: cells keep a table's columns, breaks and rules their place.
_KEPT_EMPTY: frozenset[str] = frozenset({"td", "th", "br", "hr"})
# Inline tags whose end breaks a line in the text (``to_text``): unwrapped with a ``<br>`` after.
_LINE_END: frozenset[str] = frozenset({"option"})
_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "a": ("href",),
    "img": ("src", "alt"),
    "td": ("colspan", "rowspan"),
    "th": ("colspan", "rowspan"),
    "ol": ("start",),
}
# What a data table's cells never hold: a table holding one is a page's layout, not data.
_LAYOUT_CELL_CONTENT: tuple[str, ...] = tuple(
    sorted(BLOCK_TAGS - {"caption", "tbody", "td", "tfoot", "th", "thead", "tr", "body", "hr", "br"})
)
# Where each tag may stand; elsewhere it is written as a <div> (an orphan cell or item).
_CONTEXT: dict[str, frozenset[str]] = {
    "li": frozenset({"ul", "ol"}),
    "dt": frozenset({"dl"}),
    "dd": frozenset({"dl"}),
    "tr": frozenset({"table", "thead", "tbody", "tfoot"}),
    "td": frozenset({"tr"}),
    "th": frozenset({"tr"}),
    "thead": frozenset({"table"}),
    "tbody": frozenset({"table"}),
    "tfoot": frozenset({"table"}),
    "caption": frozenset({"table"}),
}

# What of an element is written: all of it (inside a kept leaf block or a kept element), its own
# text (a kept container block: its text outside the blocks within), or only the structure leading
# to kept blocks below it.
_ALL, _OWN, _PATH = 2, 1, 0
# What an element's end does: nothing more, close its start tag, or break the line of an
# unwrapped line tag (then, in each case, its tail is written when its parent's text is).
_NOTHING, _CLOSE, _LINE = 0, 1, 2


def _escape(text: str) -> str:
    """``html.escape(text, quote=False)``, with no call for the text that needs none (most)."""
    if "&" in text or "<" in text or ">" in text:
        return escape(text, quote=False)
    return text


class _Writer:
    """Serialises the kept elements into one list of strings, dropping each element that ends up
    without text (a pruned copy's emptied tags) back to the point where it started."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        # per open element: its tag, where its start tag lies in ``parts``, whether it holds text
        self.open: list[list[Any]] = [["div", -1, False]]

    def start(self, element: lxml.etree._Element, tag: str) -> bool:
        """Open ``element`` as ``tag`` (a void tag is closed at once); False when it is unwrapped."""
        context = _CONTEXT.get(tag)
        if context is not None and self.open[-1][0] not in context:
            tag = "div"
        elif tag == "table" and next(element.iterdescendants(*_LAYOUT_CELL_CONTENT), None) is not None:
            tag = "div"  # a layout table: its rows and cells are written as <div>s too (see _CONTEXT)
        names = _ATTRIBUTES.get(tag)
        attributes = ""
        if names is not None:
            attributes = "".join(
                f' {name}="{escape(value)}"'
                for name in names
                if (value := element.get(name)) and not value.lower().startswith("javascript:")
            )
            if tag == "a" and not attributes:
                return False
        self.open.append([tag, len(self.parts), tag == "img" and bool(attributes)])
        self.parts.append(f"<{tag}{attributes}>")
        if tag in _VOID:
            self.end()
        return True

    def text(self, text: str | None, spaced: bool = False) -> None:
        """Write a text node of a kept element; ``spaced``: after a space, as the text of a container
        block's own text has one between its pieces (``Block.text``), where its inline elements
        touch (a menu's links drawn as blocks by the page's style)."""
        if text:
            self.parts.append(" " + _escape(text) if spaced and not text[0].isspace() else _escape(text))
            top = self.open[-1]
            if not top[2] and not text.isspace():
                top[2] = True

    def line_break(self) -> None:
        """Write a ``<br>`` (the end of an unwrapped line tag)."""
        self.parts.append("<br>")

    def end(self) -> None:
        """Close the innermost open element; one without text leaves a space at most."""
        tag, start, content = self.open.pop()
        if content:
            parent = self.open[-1]
            parent[2] = True
        elif tag not in _KEPT_EMPTY:
            parts = self.parts
            emptied = len(parts) > start + 1
            del parts[start:]
            if emptied:
                parts.append(" ")
            return
        if tag not in _VOID:
            self.parts.append(f"</{tag}>")

    def result(self) -> str:
        """The written HTML, in one ``<div>``."""
        return "<div>" + "".join(self.parts) + "</div>"


class _Kept:
    """The kept elements of a page: written whole, by their own text, or lying above kept ones."""

    def __init__(
        self,
        whole: Collection[lxml.etree._Element],
        own: Collection[lxml.etree._Element],
        above: Collection[lxml.etree._Element],
        block_tags: frozenset[str],
    ) -> None:
        self.whole, self.own, self.above, self.block_tags = whole, own, above, block_tags


def _mode(element: lxml.etree._Element, tag: str, context: int, kept: _Kept) -> int | None:
    """What of ``element`` is written, under a parent whose text is written as ``context`` says;
    None: nothing (a removed block, or an element with no kept block below it)."""
    if element in kept.whole:
        return _ALL
    if element in kept.own:
        return _OWN
    if tag in _CELLS and context == _PATH and element not in kept.above:
        # a cell of a written row: an empty one keeps the columns, one with text was removed
        return None if "".join(element.itertext()).strip() else _ALL
    if tag in kept.block_tags:
        return _PATH if element in kept.above else None
    if context == _OWN or element in kept.above:
        return context
    return None


def kept_html(root: lxml.etree._Element) -> str:
    """The structure-keeping HTML of ``root`` and everything in it (a model's output element)."""
    writer = _Writer()
    _walk(root, _Kept({root}, (), (), BLOCK_TAGS), writer)
    return writer.result()


def kept_blocks_html(root: lxml.etree._Element, kept: Sequence[Block], block_tags: frozenset[str] = BLOCK_TAGS) -> str:
    """The structure-keeping HTML of the ``kept`` blocks of ``root`` (the blocks :func:`iter_blocks`
    gave with ``block_tags``): leaf blocks whole, container blocks by their own text, and the lists,
    tables and quotes around them; nothing of any other block."""
    whole = {block.element for block in kept if block.leaf}
    own = {block.element for block in kept if not block.leaf}
    writer = _Writer()
    if whole or own:
        _walk(root, _Kept(whole, own, ancestors_of(root, [*whole, *own]), block_tags), writer)
    return writer.result()


def _walk(root: lxml.etree._Element, kept: _Kept, writer: _Writer) -> None:
    """Write what is kept of ``root``, in one C-level walk (lxml's ``iterwalk``) that passes over
    the subtrees with nothing kept; each element's tail is written after it when its parent's
    text is."""
    walker = lxml.etree.iterwalk(root, events=("start", "end"))
    # per open element: its mode, its parent's, what its end does
    open_modes: list[tuple[int, int, int]] = [(_PATH, _PATH, _NOTHING)]
    for event, element in walker:
        if event == "end":
            _, context, then = open_modes.pop()
            if then == _CLOSE:
                writer.end()
            elif then == _LINE:
                writer.line_break()
            if context != _PATH and element is not root:
                writer.text(element.tail, context == _OWN)
            continue
        context = open_modes[-1][0]
        tag = element.tag
        if not isinstance(tag, str) or tag in NON_CONTENT_TAGS:
            mode = None
        else:
            mode = _ALL if context == _ALL else _mode(element, tag, context, kept)
        if mode is None:
            walker.skip_subtree()
            open_modes.append((_PATH, context, _NOTHING))
            continue
        out_tag = _OUTPUT_TAG.get(tag)  # type: ignore[arg-type]
        then = _NOTHING
        if out_tag is not None and not (mode == _PATH and out_tag == "div") and writer.start(element, out_tag):
            then = _NOTHING if out_tag in _VOID else _CLOSE
        elif tag in _LINE_END:
            then = _LINE
        open_modes.append((mode, context, then))
        if mode != _PATH:
            writer.text(element.text, mode == _OWN)
