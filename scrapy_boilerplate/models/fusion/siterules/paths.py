"""A block's path signature: the tag, classes and id of it and its ancestors, digits masked.

The pages of one template build the same parts of the page with the same markup, so the path of
a block names its place in the template; the digits of generated class names and ids
(``post-1234``, ``comment-17``) are masked so that the same place matches from page to page.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

import lxml.etree

Element = lxml.etree._Element

SEPARATOR = " > "
_DIGITS = re.compile(r"\d+")


def element_step(element: Element) -> str:
    """One step of a path: ``tag.class1.class2#id`` with classes sorted and digit runs as ``0``."""
    return _step(str(element.tag), element.get("class"), element.get("id"))


@functools.lru_cache(maxsize=4096)
def _step(tag: str, class_attribute: str | None, id_attribute: str | None) -> str:
    """The step of an element with these tag, class and id attributes (a site repeats them)."""
    classes = (class_attribute or "").split()
    step = tag
    if classes:
        step += "." + ".".join(sorted({_DIGITS.sub("0", name) for name in classes}))
    identifier = (id_attribute or "").strip()
    if identifier and " " not in identifier:
        step += "#" + _DIGITS.sub("0", identifier)
    return step


class PathFinder:
    """Path signatures of elements of one page, each ancestor's path computed once."""

    def __init__(self) -> None:
        self._known: dict[Element, str] = {}

    def path(self, element: Element) -> str:
        """The path of ``element`` from below ``<body>`` (``<body>`` itself is the empty path)."""
        known = self._known
        chain: list[Element] = []
        node: Element | None = element
        prefix = ""
        while node is not None:
            found = known.get(node)
            if found is not None:
                prefix = found
                break
            if node.tag == "body" or node.tag == "html":
                break
            chain.append(node)
            node = node.getparent()
        for visited in reversed(chain):
            step = element_step(visited)
            prefix = known[visited] = prefix + SEPARATOR + step if prefix else step
        return prefix

    def paths(self, elements: Iterable[Element]) -> list[str]:
        """The path of each element, in order."""
        return [self.path(element) for element in elements]
