"""Cleaning a page with a simplified SST: map its tree onto the SST and collect kept/removed regions.

The paper's MapSST: a page element mapped to a noisy node is removed with its subtree, one mapped
to a meaningful node is kept whole, a mixed node's children are matched through the style node
with the same child key sequence, and a part whose style the sample never showed is kept as
possibly meaningful.  The ``aligned`` form matches each child by (key, occurrence) instead, so one
inserted or missing sibling does not make the whole parent "unseen".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import lxml.etree

from scrapy_boilerplate.models.style_tree.build import (
    DISPLAY_ATTRIBUTES,
    content_features,
    element_children,
    element_key,
    is_leaf,
)
from scrapy_boilerplate.models.style_tree.compact import MEANINGFUL, NOISY, CompactNode

Element = lxml.etree._Element


class Region(NamedTuple):
    """A page element the SST decided on, with the reason in the model's terms (a tuple: cheaper to make)."""

    element: Element
    kept: bool
    reason: str
    node: CompactNode | None = None


# ``Region(...)`` at C speed: a NamedTuple's own ``__new__`` is a Python function (one call more).
_make_region = tuple.__new__


def label(key: str) -> str:
    """An SST key shown as a start tag: ``div|class=nav`` -> ``<div class=nav>``."""
    return "<" + key.replace("|", " ") + ">"


def _verdict(node: CompactNode, threshold: float) -> tuple[bool, str]:
    """Kept or not, and why, for a page element mapped to a noisy or meaningful ``node``."""
    name = f"style node {label(node.key)} CompImp {node.comp_imp:.2f}"
    if node.status == NOISY:
        return False, f"{name} < threshold {threshold:.2f} (noisy)"
    relation = ">=" if node.comp_imp >= threshold else "<"
    return True, f"{name} {relation} threshold {threshold:.2f}, no noisy descendant (meaningful)"


class Verdicts:
    """Memoised :func:`_verdict` of one fitted SST: every page maps onto the same few nodes, so
    their reasons are formatted once, not once per page."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self._known: dict[CompactNode, tuple[bool, str]] = {}

    def region(self, node: CompactNode, el: Element) -> Region:
        """The region of ``el``, mapped to the noisy or meaningful ``node``."""
        verdict = self._known.get(node)
        if verdict is None:
            verdict = self._known[node] = _verdict(node, self.threshold)
        return _make_region(Region, (el, verdict[0], verdict[1], node))


def _unseen(el: Element, why: str) -> Region:
    return Region(el, True, f"{label(element_key(el))} {why}: possibly meaningful")


def map_page(
    root: CompactNode,
    body: Element,
    threshold: float,
    aligned: bool,
    attributes: tuple[str, ...] = DISPLAY_ATTRIBUTES,
    verdicts: Verdicts | None = None,
) -> list[Region]:
    """Regions of ``body`` (read-only) decided by the simplified SST ``root``, in document order.

    ``verdicts`` (for ``threshold``) can be kept across the pages cleaned with one SST.
    """
    if verdicts is None or verdicts.threshold != threshold:
        verdicts = Verdicts(threshold)
    regions: list[Region] = []
    stack: list[tuple[CompactNode, Element]] = [(root, body)]
    while stack:
        node, el = stack.pop()
        if node.status in (NOISY, MEANINGFUL):
            regions.append(verdicts.region(node, el))
            continue
        children = element_children(el)
        if not children:
            regions.append(_unseen(el, "is a leaf here but internal in the sample"))
            continue
        pairs: list[tuple[CompactNode, Element]] = []
        if aligned:
            seen: dict[str, int] = {}
            for child in children:
                key = element_key(child, attributes)
                occurrence = seen.get(key, 0)
                seen[key] = occurrence + 1
                target = node.by_occurrence.get((key, occurrence))
                if target is None:
                    regions.append(_unseen(child, "never appeared here in the sample"))
                else:
                    pairs.append((target, child))
        else:
            indexes = node.styles.get(tuple(element_key(child, attributes) for child in children))
            if indexes is None:
                regions.append(_unseen(el, "has a child style node the sample never showed"))
                continue
            pairs = [(node.children[i], child) for i, child in zip(indexes, children, strict=False)]
        stack.extend(reversed(pairs))
    return regions


def locally_noisy_leaves(
    region: Element,
    noise: frozenset[str],
    virtual_leaves: bool,
    shingle: int = 1,
    worth_checking: Callable[[Element], bool] | None = None,
) -> list[Element]:
    """Leaves inside a meaningful ``region`` whose content features are all locally noisy.

    ``worth_checking`` can skip leaves (e.g. long ones) before their features are extracted.
    """
    if not noise:
        return []
    doomed = []
    stack = [region]
    while stack:
        el = stack.pop()
        if el is not region and is_leaf(el, virtual_leaves):
            if worth_checking is not None and not worth_checking(el):
                continue
            features = content_features(el, shingle)
            if features and all(f in noise for f in features):
                doomed.append(el)
            continue
        stack.extend(element_children(el))
    return doomed
