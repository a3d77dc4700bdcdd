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


def pre_order(root: Element, prune: Callable[[Element], bool] | None = None) -> Iterator[Element]:
    """Yield the elements under ``root`` in document order, by lxml's C-level ``iterwalk``.

    An element for which ``prune(element)`` is true is left out with its whole subtree.  ``prune``
    is asked as the walk reaches each element, so it may depend on what the caller did with the
    elements before it (e.g. skip what it has just set aside).  Do not move or remove elements.
    """
    if not isinstance(root.tag, str):
        return
    walker = lxml.etree.iterwalk(root, events=("start",))
    for _, element in walker:
        if prune is not None and prune(element):
            walker.skip_subtree()
        else:
            yield element


def post_order(root: Element, prune: Callable[[Element], bool] | None = None) -> list[Element]:
    """The elements under ``root`` children-first (for bottom-up aggregates).

    An element for which ``prune(element)`` is true is left out with its whole subtree.  The walk
    is lxml's C-level ``iterwalk`` read straight into a list (a generator in between cost as much
    as the walk itself), so the elements may be edited once it has returned.
    """
    if not isinstance(root.tag, str):
        return []
    if prune is None:
        return [element for _, element in lxml.etree.iterwalk(root, events=("end",))]
    order: list[Element] = []
    append = order.append
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
            append(element)
    return order


def element_path_finder(root: lxml.etree._Element) -> Callable[[lxml.etree._Element], str]:
    """A function giving ``root.getroottree().getpath(el)`` for elements of ``root``'s tree.

    lxml's ``getpath`` scans an element's siblings on every call, so naming every child of a
    parent with 100,000 children is quadratic (a hang on huge flat pages).  This indexes each
    parent's children once and memoises the paths, giving the same strings in linear time.
    """
    getpath = root.getroottree().getpath
    steps: dict[lxml.etree._Element, str] = {}
    paths: dict[lxml.etree._Element, str] = {}

    def index_children(parent: lxml.etree._Element) -> None:
        groups: dict[str, list[lxml.etree._Element]] = {}  # one pass: each tag's children in order
        for child in parent:
            tag = child.tag
            if isinstance(tag, str):
                group = groups.get(tag)
                if group is None:
                    groups[tag] = [child]
                else:
                    group.append(child)
        for tag, group in groups.items():
            if len(group) == 1:
                steps[group[0]] = tag
            else:
                for number, child in enumerate(group, 1):
                    steps[child] = f"{tag}[{number}]"

    def path_of(element: lxml.etree._Element) -> str:
        if not isinstance(element.tag, str):
            return getpath(element)
        chain: list[tuple[lxml.etree._Element, lxml.etree._Element]] = []  # (node, its parent), upwards
        node = element
        path = paths.get(node)
        while path is None:
            parent = node.getparent()
            if parent is None:
                path = paths[node] = getpath(node)
                break
            chain.append((node, parent))
            node = parent
            path = paths.get(node)
        for node, parent in reversed(chain):
            step = steps.get(node)
            if step is None:
                index_children(parent)
                step = steps[node]
            path = paths[node] = path + "/" + step
        return path

    return path_of
