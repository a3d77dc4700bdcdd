"""Iterative document-order walks over lxml trees (no recursion: 10,000-deep pages are fine)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import lxml.etree

Element = lxml.etree._Element


def iter_nodes(root: Element, prune: Callable[[Element], bool] | None = None) -> Iterator[Element]:
    """Yield ``root`` and its descendants (comments included) in document order.

    A node for which ``prune(node)`` is true is yielded but its subtree is not entered.
    """
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        if prune is not None and prune(node):
            continue
        stack.extend(reversed(node))


def iter_elements(root: Element, skip: frozenset[str] = frozenset()) -> Iterator[Element]:
    """Yield the elements under ``root`` in document order, skipping comments, PIs and ``skip`` subtrees.

    Without ``skip`` this is lxml's own (C-level) iteration: edit attributes, not the tree, meanwhile.
    """
    if not skip:
        yield from root.iter(lxml.etree.Element)
        return
    for node in iter_nodes(root, prune=lambda n: not isinstance(n.tag, str) or n.tag in skip):
        if isinstance(node.tag, str) and node.tag not in skip:
            yield node


def post_order(root: Element, prune: Callable[[Element], bool] | None = None) -> Iterator[Element]:
    """Yield the elements under ``root`` children-first (for bottom-up aggregates).

    An element for which ``prune(element)`` is true is left out with its whole subtree.  The walk
    is lxml's C-level ``iterwalk`` (several times faster than a Python stack): do not move or
    remove elements of the tree while it runs.
    """
    if not isinstance(root.tag, str):
        return
    if prune is None:
        for _, element in lxml.etree.iterwalk(root, events=("end",)):
            yield element
        return
    walker = lxml.etree.iterwalk(root, events=("start", "end"))
    skipping = False
    for event, element in walker:
        if event == "start":
            if prune(element):
                walker.skip_subtree()
                skipping = True  # the next event is this element's own "end"
        elif skipping:
            skipping = False
        else:
            yield element
