"""Removing nodes that never carry visible content: scripts, styles, templates, comments."""

from __future__ import annotations

import re
from collections.abc import Iterable

import lxml.etree

NON_CONTENT_TAGS: frozenset[str] = frozenset({"script", "style", "noscript", "template"})

# What lxml refuses in a string written into a tree (XML 1.0 has no place for it): control
# characters other than tab, newline and carriage return, U+FFFE, U+FFFF and lone surrogates.
# libxml2's HTML parser keeps such characters in the text it reads, so text moved within a tree
# may hold them.
_XML_REFUSED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def xml_compatible(text: str) -> str:
    """``text`` without the characters lxml refuses to write into a tree (see ``_XML_REFUSED``)."""
    return _XML_REFUSED.sub("", text)


def write_text(element: lxml.etree._Element, attribute: str, text: str | None) -> None:
    """Set ``element.text`` or ``element.tail`` (``attribute``), dropping what lxml refuses to write.

    Text read from a parsed page can hold control characters; lxml raises ``ValueError`` when
    such text is written back, so it is written without them (no cost for text that has none).
    """
    try:
        setattr(element, attribute, text)
    except ValueError:
        setattr(element, attribute, xml_compatible(text or "") or None)


def remove_keeping_tail(element: lxml.etree._Element) -> None:
    """Remove ``element`` and its subtree but keep its tail text in the parent (like ``drop_tree``)."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    if tail:
        previous = element.getprevious()
        if previous is not None:
            write_text(previous, "tail", (previous.tail or "") + tail)
        else:
            write_text(parent, "text", (parent.text or "") + tail)
    parent.remove(element)


def drop_non_content(root: lxml.etree._Element, tags: Iterable[str] = NON_CONTENT_TAGS) -> None:
    """Drop comments, processing instructions and ``tags`` subtrees from ``root`` in place, keeping
    their tails where they stood (as :func:`remove_keeping_tail` does).

    One ``strip_elements`` call: libxml2 walks the tree and unlinks the outermost matches, where a
    Python loop made an object per candidate and checked its ancestors.
    """
    wanted = frozenset(tags)
    if not isinstance(root.tag, str) or root.tag in wanted:
        return
    # with_tail=False unlinks the node alone: its tail text stays after the previous sibling's
    # tail (or the parent's text), and lxml reads adjacent text nodes as one string
    lxml.etree.strip_elements(
        root, lxml.etree.Comment, lxml.etree.ProcessingInstruction, lxml.etree.Entity, *wanted, with_tail=False
    )


# A page whose ``<noscript>`` holds at least this many visible characters, and at least as many as
# the rest of its body, is read as a client without script reads it (see :func:`reveal_noscript`).
NOSCRIPT_MIN_CHARS = 200
_UNSHOWN_TEXT_TAGS = frozenset({"script", "style", "template"})


def _shown_chars(element: lxml.etree._Element) -> int:
    """Visible characters (whitespace not counted) in ``element``'s text, outside scripts and styles."""
    total = 0
    for node in element.iter():
        if node.text and node.tag not in _UNSHOWN_TEXT_TAGS and isinstance(node.tag, str):
            total += len("".join(node.text.split()))
        if node is not element and node.tail:
            total += len("".join(node.tail.split()))
    return total


def reveal_noscript(root: lxml.etree._Element) -> bool:
    """Unwrap every ``<noscript>`` in place when together they hold the page's text; True if so.

    A page drawn by script may serve its whole content to clients without script inside
    ``<noscript>`` (forum software does), and a crawler is such a client: there the noscript
    content is the page.  Elsewhere ``<noscript>`` holds a tracking pixel or a plea to enable
    script, and :func:`drop_non_content` drops it as before.
    """
    boxes = list(root.iter("noscript"))
    hidden = sum(_shown_chars(box) for box in boxes)
    if hidden < NOSCRIPT_MIN_CHARS or hidden < _shown_chars(root) - hidden:
        return False
    lxml.etree.strip_tags(root, "noscript")
    return True
