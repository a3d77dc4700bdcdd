"""Removing nodes that never carry visible content: scripts, styles, templates, comments."""

from __future__ import annotations

from collections.abc import Iterable

import lxml.etree

NON_CONTENT_TAGS: frozenset[str] = frozenset({"script", "style", "noscript", "template"})


def remove_keeping_tail(element: lxml.etree._Element) -> None:
    """Remove ``element`` and its subtree but keep its tail text in the parent (like ``drop_tree``)."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    if tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
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
