"""Site rules as CSS selectors: learned paths written for people, and pinned selectors applied.

A learned path (:mod:`.paths`) reads as a child-combinator selector from ``<body>``; a class or id
whose digits were masked becomes a prefix match on the part before its first digit.  Pinned
selectors are a user's own, per domain: a block is content when its nearest element matched by a
pinned selector (itself or an ancestor) was matched by a ``content`` selector, boilerplate when by
a ``boilerplate`` one (both: boilerplate); a block no selector reaches is left to the learned rule
and the model.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import lxml.etree
import numpy as np
from parsel.csstranslator import HTMLTranslator

from scrapy_boilerplate.models.fusion.rules import RuleDecisions
from scrapy_boilerplate.models.fusion.siterules.paths import SEPARATOR
from scrapy_boilerplate.models.fusion.siterules.rule import SiteRule

Element = lxml.etree._Element

_STEP = re.compile(r"^([^.#]+)((?:\.[^.#]+)*)(?:#(.+))?$")
_PLAIN = re.compile(r"[A-Za-z_-][\w-]*$")


def _escape(name: str) -> str:
    """``name`` as a CSS identifier (special characters and a leading digit escaped)."""
    if _PLAIN.match(name) and not name.startswith("--"):
        return name
    out = []
    for i, char in enumerate(name):
        if char.isalnum() and not (i == 0 and char.isdigit()) or char in "_-":
            out.append(char)
        else:
            out.append(f"\\{ord(char):x} ")
    return "".join(out)


def _name_selector(kind: str, name: str) -> str:
    """A class (``kind`` ".") or id ("#") selector; a masked name matches by its prefix."""
    if "0" not in name or not re.search(r"\d", name):
        return ("." if kind == "." else "#") + _escape(name)
    prefix = name[: re.search(r"\d", name).start()]  # type: ignore[union-attr]
    attribute = "class" if kind == "." else "id"
    if not prefix:
        return ""
    return f'[{attribute}*="{prefix}"]' if kind == "." else f'[id^="{prefix}"]'


def step_selector(step: str) -> str:
    """One path step (``tag.a.b#id``) as a compound CSS selector."""
    match = _STEP.match(step)
    if match is None:
        return step
    tag, classes, identifier = match.groups()
    parts = [tag]
    parts += [_name_selector(".", name) for name in classes.split(".") if name]
    if identifier:
        parts.append(_name_selector("#", identifier))
    return "".join(parts)


def path_selector(path: str) -> str:
    """A learned path as a CSS selector from ``<body>``."""
    return " > ".join(["body", *(step_selector(step) for step in path.split(SEPARATOR) if step)])


@dataclass(frozen=True)
class PinnedRules:
    """A domain's pinned CSS selectors: what is content, and what is not."""

    content: tuple[str, ...] = ()
    boilerplate: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for selector in (*self.content, *self.boilerplate):
            _compiled(selector)  # a bad selector fails here, with its text

    @classmethod
    def from_mapping(cls, value: Mapping[str, Sequence[str]]) -> PinnedRules:
        """From ``{"content": [...], "boilerplate": [...]}`` (either key may be left out)."""
        unknown = set(value) - {"content", "boilerplate"}
        if unknown:
            raise ValueError(f"site rules take 'content' and 'boilerplate' selector lists, not {sorted(unknown)}")
        lists = {}
        for key in ("content", "boilerplate"):
            selectors = value.get(key, ())
            if isinstance(selectors, str) or not all(isinstance(s, str) for s in selectors):
                raise ValueError(f"site rules {key!r} must be a list of CSS selectors, got {selectors!r}")
            lists[key] = tuple(selectors)
        return cls(lists["content"], lists["boilerplate"])

    def decide(self, root: Element, elements: Sequence[Element]) -> RuleDecisions:
        """The pinned verdict on the blocks whose elements are ``elements`` in the tree ``root``."""
        marks: dict[Element, tuple[bool, str]] = {}
        for selectors, content in ((self.content, True), (self.boilerplate, False)):
            for selector in selectors:
                for element in _compiled(selector)(root):
                    if isinstance(element, Element):  # boilerplate, matched last, wins a tie
                        marks[element] = (content, selector)
        decided = np.zeros(len(elements), dtype=bool)
        keep = np.zeros(len(elements), dtype=bool)
        reasons = [""] * len(elements)
        for i, element in enumerate(elements):
            mark = _nearest_mark(element, marks)
            if mark is not None:
                decided[i], keep[i] = True, mark[0]
                reasons[i] = f"pinned selector {mark[1]!r}: {'content' if mark[0] else 'boilerplate'}"
        return RuleDecisions(decided, keep, reasons)


def _nearest_mark(element: Element, marks: dict[Element, tuple[bool, str]]) -> tuple[bool, str] | None:
    node: Element | None = element
    while node is not None:
        mark = marks.get(node)
        if mark is not None:
            return mark
        node = node.getparent()
    return None


_CACHE: dict[str, lxml.etree.XPath] = {}


def _compiled(selector: str) -> lxml.etree.XPath:
    """The XPath of a CSS selector, compiled once per process; ``ValueError`` for a bad one."""
    found = _CACHE.get(selector)
    if found is None:
        try:
            found = lxml.etree.XPath(HTMLTranslator().css_to_xpath(selector))
        except Exception as exc:  # cssselect's SelectorError and ExpressionError, lxml's XPath errors
            raise ValueError(f"bad CSS selector {selector!r}: {exc}") from None
        _CACHE[selector] = found
    return found


def rule_selectors(rule: SiteRule) -> dict[str, list[dict[str, object]]]:
    """The paths a rule decides, as selectors with how sure each is (the share of the sample's
    votes that agree, and on how many of its pages the path appeared), most blocks first."""
    out: dict[str, list[dict[str, object]]] = {"content": [], "boilerplate": []}
    decisive = sorted(rule.decisive().items(), key=lambda item: (-item[1].seen, item[0]))
    for path, votes in decisive:
        out["content" if votes.content else "boilerplate"].append(
            {
                "selector": path_selector(path),
                "confidence": round(votes.confidence, 3),
                "pages": f"{votes.pages} of {rule.pages}",
                "blocks": votes.seen,
            }
        )
    return out
