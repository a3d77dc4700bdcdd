"""The simplified SST that cleaning uses and that is saved: marks only, no per-page statistics.

Following the paper, descendants of maximal noisy and maximal meaningful nodes are dropped; only
the "mixed" nodes on the way to them keep their children.  Each kept node stores its decision
(noisy / meaningful / mixed) and its composite importance, so cleaning a page is a walk that
compares child keys and never recomputes a statistic.  In ``aligned`` form a mixed node keeps one
child per (key, occurrence) instead of every style node, which bounds the size whatever the sample.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.style_tree.build import ElementNode
from scrapy_boilerplate.models.style_tree.importance import NodeInfo

NOISY, MEANINGFUL, MIXED = 0, 1, 2
STATUS_NAMES = {NOISY: "noisy", MEANINGFUL: "meaningful", MIXED: "mixed"}


@dataclass(eq=False)
class CompactNode:
    """One node of the simplified SST."""

    key: str
    status: int
    comp_imp: float
    children: list[CompactNode] = field(default_factory=list)
    styles: dict[tuple[str, ...], tuple[int, ...]] = field(default_factory=dict)  # keys -> child indexes
    local_noise: frozenset[str] = frozenset()
    by_occurrence: dict[tuple[str, int], CompactNode] = field(default_factory=dict)

    def index_children(self) -> None:
        """Fill ``by_occurrence``: (key, n-th sibling with that key) -> child, first one wins."""
        self.by_occurrence = {}
        seen: dict[str, int] = {}
        for child in self.children:
            occurrence = seen.get(child.key, 0)
            seen[child.key] = occurrence + 1
            self.by_occurrence.setdefault((child.key, occurrence), child)


def _status(info: NodeInfo) -> int:
    return NOISY if info.noisy else MEANINGFUL if info.meaningful else MIXED


def _occurrences(keys: tuple[str, ...]) -> list[tuple[str, int]]:
    seen: dict[str, int] = {}
    out = []
    for key in keys:
        out.append((key, seen.get(key, 0)))
        seen[key] = seen.get(key, 0) + 1
    return out


def simplify(root: ElementNode, infos: dict[int, NodeInfo], aligned: bool) -> CompactNode:
    """The simplified SST of ``root`` (iterative, so very deep pages are fine)."""

    def make(node: ElementNode) -> CompactNode:
        info = infos[id(node)]
        return CompactNode(node.key, _status(info), info.comp_imp, local_noise=info.local_noise)

    top = make(root)
    stack = [(root, top)]
    while stack:
        node, compact = stack.pop()
        if compact.status != MIXED:
            continue
        styles = sorted(node.styles.items(), key=lambda item: -item[1].pages)
        made: dict[int, int] = {}
        if aligned:
            slots: dict[tuple[str, int], ElementNode] = {}
            for keys, style in styles:
                for slot, child in zip(_occurrences(keys), style.elements, strict=False):
                    slots.setdefault(slot, child)
            ordered = list(slots.values())
        else:
            ordered = node.children()
        for child in ordered:
            if id(child) not in made:
                made[id(child)] = len(compact.children)
                compact.children.append(make(child))
                stack.append((child, compact.children[-1]))
        if not aligned:
            compact.styles = {keys: tuple(made[id(c)] for c in style.elements) for keys, style in styles}
        compact.index_children()
    return top


def iter_compact(root: CompactNode) -> list[CompactNode]:
    """Every node in pre-order."""
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(node.children))
    return out


def to_state(root: CompactNode) -> tuple[dict[str, Any], dict[str, array]]:
    """Flatten to JSON (keys, styles, local noise) plus arrays (parent, status, importance).

    The arrays are stdlib ``array.array`` (saved as ``<i4``, ``|u1`` and ``<f8``), so saving and
    loading a style tree never imports numpy.
    """
    nodes = iter_compact(root)
    index = {id(n): i for i, n in enumerate(nodes)}
    parent = array("i", [-1]) * len(nodes)
    for n in nodes:
        for child in n.children:
            parent[index[id(child)]] = index[id(n)]
    key_table = sorted({n.key for n in nodes})
    key_index = {k: i for i, k in enumerate(key_table)}
    state: dict[str, Any] = {
        "keys": key_table,
        "styles": [[index[id(n)], list(ids)] for n in nodes for ids in n.styles.values()],
        "local_noise": {str(index[id(n)]): sorted(n.local_noise) for n in nodes if n.local_noise},
    }
    arrays: dict[str, array] = {
        "parent": parent,
        "key": array("i", [key_index[n.key] for n in nodes]),
        "status": array("B", [n.status for n in nodes]),
        "comp_imp": array("d", [n.comp_imp for n in nodes]),
    }
    return state, arrays


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise ModelFormatError(f"style_tree state: {message}")


def from_state(state: dict[str, Any], arrays: dict[str, Any]) -> CompactNode:
    """Rebuild what :func:`to_state` flattened (1-D arrays of any kind), validating every part."""
    _check(all(name in arrays for name in ("parent", "key", "status", "comp_imp")), "missing arrays")
    parent, key, status, imp = arrays["parent"], arrays["key"], arrays["status"], arrays["comp_imp"]
    n = len(parent)
    _check(
        n > 0 and all(len(a) == n and getattr(a, "ndim", 1) == 1 for a in (parent, key, status, imp)),
        "array shapes differ",
    )
    keys = state.get("keys")
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise ModelFormatError("style_tree state: bad key table")
    _check(all(0 <= k < len(keys) for k in key) and all(0 <= s <= MIXED for s in status), "index out of range")
    _check(parent[0] == -1 and all(0 <= parent[i] < i for i in range(1, n)), "bad parents")
    nodes = [CompactNode(keys[int(key[i])], int(status[i]), float(imp[i])) for i in range(n)]
    for i in range(1, n):
        nodes[int(parent[i])].children.append(nodes[i])
    styles, noise = state.get("styles"), state.get("local_noise")
    if not isinstance(styles, list) or not isinstance(noise, dict):
        raise ModelFormatError("style_tree state: bad styles or local noise")
    try:
        for owner, ids in styles:
            children = nodes[int(owner)].children
            if min((int(i) for i in ids), default=0) < 0:
                raise IndexError("negative child index")
            nodes[int(owner)].styles[tuple(children[int(i)].key for i in ids)] = tuple(int(i) for i in ids)
        for owner, features in noise.items():
            nodes[int(owner)].local_noise = frozenset(str(f) for f in features)
    except (TypeError, ValueError, IndexError) as exc:
        raise ModelFormatError(f"style_tree state: bad styles or local noise: {exc}") from exc
    for node in nodes:
        node.index_children()
    return nodes[0]
