"""Removing nodes that never carry visible content: scripts, styles, templates, comments."""

from __future__ import annotations

from collections.abc import Iterable

import lxml.etree

from scrapy_boilerplate.html.walk import iter_nodes

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

    def doomed(node: lxml.etree._Element) -> bool:
        return not isinstance(node.tag, str) or node.tag in wanted

    outermost = [node for node in iter_nodes(root, prune=doomed) if doomed(node) and node is not root]
    for node in outermost:
        remove_keeping_tail(node)
    return len(outermost)
