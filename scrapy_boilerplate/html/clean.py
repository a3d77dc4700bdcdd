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


def drop_non_content(root: lxml.etree._Element, tags: Iterable[str] = NON_CONTENT_TAGS) -> int:
    """Drop comments, processing instructions and ``tags`` subtrees from ``root`` in place.

    Returns how many subtrees were removed.
    """
    wanted = frozenset(tags)
    if not isinstance(root.tag, str) or root.tag in wanted:
        return 0
    # lxml finds the candidates at C level, in document order; keep the outermost ones.
    found = root.iter(lxml.etree.Comment, lxml.etree.ProcessingInstruction, lxml.etree.Entity, *wanted)
    doomed: set[lxml.etree._Element] = set()
    outermost = []
    for node in found:
        doomed.add(node)
        if not any(ancestor in doomed for ancestor in node.iterancestors()):
            outermost.append(node)
    for node in outermost:
        remove_keeping_tail(node)
    return len(outermost)
