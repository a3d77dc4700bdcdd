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
    """Yield the elements under ``root`` in document order, skipping comments, PIs and ``skip`` subtrees."""
    for node in iter_nodes(root, prune=lambda n: not isinstance(n.tag, str) or n.tag in skip):
        if isinstance(node.tag, str) and node.tag not in skip:
            yield node


def post_order(root: Element, prune: Callable[[Element], bool] | None = None) -> Iterator[Element]:
    """Yield the elements under ``root`` children-first (for bottom-up aggregates).

    An element for which ``prune(element)`` is true is left out with its whole subtree.
    """
    stack: list[tuple[Element, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if not isinstance(node.tag, str):
            continue
        if not expanded and prune is not None and prune(node):
            continue
        if expanded:
            yield node
            continue
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(node))
