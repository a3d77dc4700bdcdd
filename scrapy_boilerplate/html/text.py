"""A (cleaned) tree to readable text: blank lines between paragraphs, one line per item or row."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

import lxml.etree

from scrapy_boilerplate.html.clean import NON_CONTENT_TAGS

PARAGRAPH_TAGS: frozenset[str] = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "center",
        "details",
        "dialog",
        "div",
        "dl",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "ul",
    ]
)
LINE_TAGS: frozenset[str] = frozenset(["br", "caption", "dd", "dt", "legend", "li", "option", "tr"])
CELL_TAGS: frozenset[str] = frozenset({"td", "th"})

_LINE = 1
_PARAGRAPH = 2
# Break after (and before) each tag: the two sets above as one lookup (the text walk's hot path).
_BREAKS: dict[str, int] = {**{tag: _LINE for tag in LINE_TAGS}, **{tag: _PARAGRAPH for tag in PARAGRAPH_TAGS}}


def normalize_space(text: str) -> str:
    """Collapse every run of whitespace to one space and strip the ends.

    ``str.split()`` splits on exactly the characters that ``re``'s ``\\s`` matches (both use
    Python's Unicode whitespace test), and is several times faster than a regex substitution.
    Text with no whitespace but single inner ASCII spaces is its own collapsed form and is
    returned as it is, without splitting it into words.  In ASCII text (``isascii`` reads a flag)
    the other nine characters ``str.split`` splits on are looked for one by one (each a
    ``memchr``); in other text ``isprintable`` rules them all out (they are all unprintable), at
    a table lookup per character.
    """
    if "  " not in text and text[:1] != " " and text[-1:] != " ":
        if text.isascii():
            if (
                "\n" not in text
                and "\t" not in text
                and "\r" not in text
                and "\x0b" not in text
                and "\x0c" not in text
                and "\x1c" not in text
                and "\x1d" not in text
                and "\x1e" not in text
                and "\x1f" not in text
            ):
                return text
        elif text.isprintable():
            return text
    return " ".join(text.split())


def collapsed_length(text: str) -> int:
    """``len(normalize_space(text))``: the visible length of a text node, for measuring passes."""
    return len(normalize_space(text))


# The thread the crawl's reactor runs in (Scrapy's CrawlerProcess: the main thread).
_MAIN_THREAD_ID = threading.main_thread().ident


def raw_text(root: lxml.etree._Element) -> str:
    """``"".join(root.itertext())``: every text node under ``root``, its own tail excluded.

    On the main thread it is made by libxml2's text serialiser, without a Python object per text
    node (several times faster).  The serialiser releases the GIL, though: in a worker thread (a
    crawl's fit) each release hands the GIL to the busy reactor thread and back, two context
    switches costing more than the join (docs/perf.md), so other threads join in Python.
    """
    if threading.get_ident() != _MAIN_THREAD_ID:
        return "".join(root.itertext())
    return lxml.etree.tostring(root, method="text", encoding="unicode", with_tail=False)


def to_text(root: lxml.etree._Element) -> str:
    """Text of ``root``: paragraphs and headings separated by a blank line, list items and table
    rows on their own lines, whitespace inside each line collapsed.

    One walk by lxml's C-level ``iterwalk`` that collects the current line's text nodes and ends
    the line at each break; comments and processing instructions give only their tails.
    """
    tag = root.tag
    if not isinstance(tag, str) or tag in NON_CONTENT_TAGS:
        return ""
    out: list[str] = []
    line: list[str] = []
    pending = 0  # the strongest break since the last line written

    def brk(kind: int) -> None:
        """End the current line (if it has visible text); ``kind`` is a line or a paragraph break."""
        nonlocal pending
        if not line and kind <= pending:  # the break changes nothing
            return
        if line:
            text = normalize_space("".join(line))
            line.clear()
            if text:
                if out:
                    out.append("\n\n" if pending == _PARAGRAPH else "\n")
                out.append(text)
                pending = 0
        if kind > pending:
            pending = kind

    _walk_pieces(root, tag, line.append, brk)
    brk(0)
    return "".join(out)


def spaced_text(root: lxml.etree._Element) -> str:
    """``to_text``'s text nodes with a space at each of its breaks instead of its lines: the same
    words (whitespace and breaks both separate words) without building lines, for word counts."""
    tag = root.tag
    if not isinstance(tag, str) or tag in NON_CONTENT_TAGS:
        return ""
    pieces: list[str] = []
    append = pieces.append
    _walk_pieces(root, tag, append, lambda kind: append(" "))
    return "".join(pieces)


def _walk_pieces(
    root: lxml.etree._Element, tag: str, append: Callable[[str], object], brk: Callable[[int], object]
) -> None:
    """The one text walk of ``to_text`` and ``spaced_text`` (``tag`` is the root's): hands text
    nodes to ``append`` in document order, calls ``brk`` with the break kind at each breaking tag's
    start and end, and a space after each cell; non-content subtrees give only their tails, as do
    comments and PIs.

    lxml's C-level ``iterdescendants`` (several times cheaper per element than ``iterwalk``'s
    events): an open element ends when the walk reaches one outside it (``getparent``), and a
    non-content subtree's elements are passed over because their parents were never opened.
    """
    breaks, cells, skipped = _BREAKS, CELL_TAGS, NON_CONTENT_TAGS
    opened = {root}
    stack: list[tuple[lxml.etree._Element, str]] = []  # the open ancestors of ``current``
    push, pop, add = stack.append, stack.pop, opened.add
    current = root
    kind = breaks.get(tag, 0)
    if kind:
        brk(kind)
    if root.text:
        append(root.text)
    for el in root.iterdescendants():
        parent = el.getparent()
        if parent is not current:
            if parent not in opened:  # inside a non-content subtree
                continue
            while current is not parent:  # the end of what ``el`` is not inside of
                kind = breaks.get(tag, 0)
                if kind:
                    brk(kind)
                elif tag in cells:
                    append(" ")
                tail = current.tail
                if tail:
                    append(tail)
                current, tag = pop()
        child_tag = el.tag
        if not isinstance(child_tag, str) or child_tag in skipped:  # a comment, a PI, a non-content subtree
            tail = el.tail
            if tail:
                append(tail)
            continue
        push((current, tag))
        add(el)
        current, tag = el, child_tag
        kind = breaks.get(tag, 0)
        if kind:
            brk(kind)
        text = el.text
        if text:
            append(text)
    while True:  # the ends of the open elements, the root's last (without its tail)
        kind = breaks.get(tag, 0)
        if kind:
            brk(kind)
        elif tag in cells:
            append(" ")
        if not stack:
            return
        tail = current.tail
        if tail:
            append(tail)
        current, tag = pop()


# body_text: libxslt writes the text with a mark at each line and paragraph break: DEL and a C1
# control, neither whitespace nor ever seen in a page's text (body_text checks they are absent).
_LINE_MARK, _PARAGRAPH_MARK = "\x7f", "\x80"
_PARAGRAPH_RUN = re.compile("\x80[\x7f\x80 ]*")  # from a run's first paragraph break to its end
_LINE_RUN = re.compile("\x7f[\x7f ]*")
_TRANSFORMS = threading.local()  # an XSLT object per thread


def _stylesheet() -> bytes:
    """The XSLT that writes ``to_text``'s pieces: marks around breaking tags, a space after cells.

    Only the first element of the document is walked: lxml hands a document's root element over
    with the whole document (where a broken page can have more top-level elements), any other
    element as the only one of a stand-in document.
    """

    def names(tags: frozenset[str]) -> str:
        return "|".join(sorted(tags))

    line, paragraph = f"&#x{ord(_LINE_MARK):X};", f"&#x{ord(_PARAGRAPH_MARK):X};"
    return f"""<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="text" encoding="UTF-8"/>
<xsl:template match="/"><xsl:apply-templates select="*[1]"/></xsl:template>
<xsl:template match="{names(PARAGRAPH_TAGS)}">{paragraph}<xsl:apply-templates/>{paragraph}</xsl:template>
<xsl:template match="{names(LINE_TAGS)}">{line}<xsl:apply-templates/>{line}</xsl:template>
<xsl:template match="{names(CELL_TAGS)}"><xsl:apply-templates/><xsl:text> </xsl:text></xsl:template>
<xsl:template match="{names(NON_CONTENT_TAGS)}|comment()|processing-instruction()"/>
</xsl:stylesheet>""".encode()


def _transform() -> lxml.etree.XSLT:
    transform = getattr(_TRANSFORMS, "xslt", None)
    if transform is None:
        transform = _TRANSFORMS.xslt = lxml.etree.XSLT(lxml.etree.fromstring(_stylesheet()))
    return transform


def body_text(root: lxml.etree._Element) -> str:
    """``to_text(root)``, computed by libxslt's tree walk: for a large subtree such as a page's
    body (two to three times faster there; for a small element, call :func:`to_text`)."""
    if not isinstance(root.tag, str):
        return to_text(root)
    raw = raw_text(root)
    if _LINE_MARK in raw or _PARAGRAPH_MARK in raw:
        return to_text(root)  # a mark would be ambiguous (never seen on real pages)
    try:
        text = str(_transform()(root))
    except lxml.etree.XSLTApplyError:  # e.g. nesting past libxslt's template depth
        return to_text(root)
    text = " ".join(text.split())  # the marks are not whitespace: they stay
    # a run of breaks (and the spaces in and around it) is one separator, a paragraph if it holds one
    text = _LINE_RUN.sub(_LINE_MARK, _PARAGRAPH_RUN.sub(_PARAGRAPH_MARK, text))
    text = text.replace(" " + _LINE_MARK, _LINE_MARK).replace(" " + _PARAGRAPH_MARK, _PARAGRAPH_MARK)
    text = text.replace(_LINE_MARK + _PARAGRAPH_MARK, _PARAGRAPH_MARK)
    return text.replace(_PARAGRAPH_MARK, "\n\n").replace(_LINE_MARK, "\n").strip("\n")
