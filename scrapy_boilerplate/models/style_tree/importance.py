"""Importance in a Site Style Tree and the noisy / meaningful marks (Yi, Liu, Li, KDD 2003, section 4).

- NodeImp(E) = -sum_i p_i log_m p_i over E's child style nodes (1 when m = 1), m = pages containing E.
- CompImp(E) = (1 - g^l) NodeImp(E) + g^l sum_i p_i CompImp(S_i), CompImp(S) = mean CompImp of its
  element nodes, g the attenuating factor and l the number of child style nodes.
- A leaf's CompImp = 1 - sum_i H(a_i) / N over its N content features, H(a) = -sum_j p_j log_m p_j
  the entropy of feature a over the m pages (1 when m = 1).
- A node is noisy when it and all its descendants have CompImp below the threshold; meaningful when
  it is not noisy and holds no noisy descendant.  Pages where a node was a leaf count as one more
  (empty) style node whose CompImp is the leaf importance.  A node without any content feature
  (an empty ``<div>``, a ``<br>``) carries no evidence: it is marked noisy but does not stop its
  ancestors from being meaningful.
"""

from __future__ import annotations

import math
from collections import _count_elements  # type: ignore[attr-defined]  # (what Counter.update calls)
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from scrapy_boilerplate.models.style_tree.build import ElementNode

ATTENUATION = 0.9  # the paper's attenuating factor g
NOISE_THRESHOLD = 0.2
LOCAL_NOISE_ENTROPY = 0.9  # a feature this evenly spread over the pages is locally noisy


@dataclass
class NodeInfo:
    """Importances and marks of one element node."""

    node_imp: float
    comp_imp: float
    has_content: bool
    noisy: bool = False
    meaningful: bool = False
    local_noise: frozenset[str] = field(default_factory=frozenset)


def entropy(counts: Iterable[int], m: int) -> float:
    """``-sum p_j log_m p_j`` of a distribution given by counts, with log base ``m`` (0 when m <= 1)."""
    values = [c for c in counts if c > 0]
    total = sum(values)
    if m <= 1 or total <= 0:
        return 0.0
    log_m = math.log(m)
    return -sum((c / total) * math.log(c / total) / log_m for c in values)


def node_importance(node: ElementNode) -> float:
    """NodeImp: entropy of the page shares of ``node``'s style nodes (leaf pages are one style)."""
    m = node.pages
    if m <= 1:
        return 1.0
    counts = [style.pages for style in node.styles.values()]
    if node.leaf_pages:
        counts.append(node.leaf_pages)
    return min(entropy(counts, m), 1.0)


class EntropyCache:
    """Memoised :func:`entropy` of count sequences, for one marking pass.

    A site's features fall into few distinct distributions (a menu word once on each of the 20
    pages), so most of the fit's entropies are repeats.  Keyed by the counts in order and ``m``,
    the cached value is the very float :func:`entropy` returns.
    """

    def __init__(self) -> None:
        self._values: dict[tuple[tuple[int, ...], int], float] = {}

    def __call__(self, counts: Iterable[int], m: int) -> float:
        key = (tuple(counts), m)
        value = self._values.get(key)
        if value is None:
            value = self._values[key] = entropy(key[0], m)
        return value

    def spread_total(self, per_pages: Iterable[dict[int, int]], m: int) -> float:
        """``sum`` of the entropies of the distributions seen on more than one page (the others are 0),
        added in the same order, so the total is the same float as a sum over every feature."""
        return sum([self(per_page.values(), m) for per_page in per_pages if len(per_page) > 1])


def leaf_importance(node: ElementNode, entropies: EntropyCache | None = None) -> float | None:
    """1 - mean entropy of the leaf's content features over its pages; None without features."""
    recorded = node.page_features
    pages = [page for page, _ in recorded]
    if pages != sorted(set(pages)):  # a page recorded twice, or out of order (not from a build)
        features = node.features
        return _importance(
            len(features), node.leaf_pages, entropies, lambda of: of.spread_total(features.values(), node.leaf_pages)
        )
    per_page = [features for _, features in recorded]
    m = len(per_page)
    first = per_page[0] if per_page else {}
    if per_page.count(first) == m:  # a template's leaf: the same features on every page
        # Every feature is on all m pages with its one count: the entropies of the general case.
        return _importance(len(first), m, entropies, lambda of: sum([of((count,) * m, m) for count in first.values()]))
    spread: dict[str, int] = {}  # feature -> pages that have it, in first-seen order
    for page_features in per_page:
        _count_elements(spread, page_features)
    # A feature seen on one page only has entropy exactly 0: leaving it out of the sum changes
    # no bit of the total (most features of prose are such), and it still counts in the mean.
    return _importance(
        len(spread),
        m,
        entropies,
        lambda of: sum(
            [of(tuple([features[f] for features in per_page if f in features]), m) for f, n in spread.items() if n > 1]
        ),
    )


def _importance(
    features: int, m: int, entropies: EntropyCache | None, total_of: Callable[[EntropyCache], float]
) -> float | None:
    """1 - ``total_of(cache)`` / ``features``: the mean entropy of a leaf's ``features`` content
    features over its ``m`` pages; None without features, 1 on a single page."""
    if not features:
        return None
    if m <= 1:
        return 1.0
    return max(0.0, 1.0 - total_of(entropies or EntropyCache()) / features)


def post_order(root: ElementNode) -> Iterator[ElementNode]:
    """Every distinct element node, children before parents (iterative; merged nodes once)."""
    seen: set[int] = set()
    stack: list[tuple[ElementNode, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            yield node
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(node.children()) if id(child) not in seen)


def composite_importance(
    node: ElementNode, infos: dict[int, NodeInfo], attenuation: float, entropies: EntropyCache | None = None
) -> NodeInfo:
    """CompImp of ``node`` from its children's (already computed) infos."""
    leaf_imp = leaf_importance(node, entropies)
    node_imp = node_importance(node)
    styles = list(node.styles.values())
    has_content = leaf_imp is not None or any(infos[id(c)].has_content for s in styles for c in s.elements)
    if not styles:
        return NodeInfo(node_imp, leaf_imp if leaf_imp is not None else 0.0, has_content)
    m = max(node.pages, 1)
    weighted = 0.0
    for style in styles:
        style_imp = sum(infos[id(c)].comp_imp for c in style.elements) / len(style.elements) if style.elements else 0.0
        weighted += style.pages / m * style_imp
    if node.leaf_pages:
        weighted += node.leaf_pages / m * (leaf_imp or 0.0)
    n_styles = len(styles) + (1 if node.leaf_pages else 0)
    g_l = attenuation**n_styles
    return NodeInfo(node_imp, (1 - g_l) * node_imp + g_l * weighted, has_content)


def local_noise(node: ElementNode, threshold: float, entropies: EntropyCache | None = None) -> frozenset[str]:
    """Features of ``node``'s subtree whose entropy over the node's pages reaches ``threshold``."""
    merged: dict[str, dict[int, int]] = {}
    for leaf in post_order(node):
        # (page by page as recorded: the features and pages land in the order of a merge of
        # each leaf's ``features``, with the same sums)
        for page, features in leaf.page_features:
            for feature, count in features.items():
                target = merged.setdefault(feature, {})
                target[page] = target.get(page, 0) + count
    m = node.pages
    of = entropies or entropy
    return frozenset(f for f, per_page in merged.items() if len(per_page) > 1 and of(per_page.values(), m) >= threshold)


def mark(
    root: ElementNode,
    threshold: float = NOISE_THRESHOLD,
    attenuation: float = ATTENUATION,
    local_noise_entropy: float | None = LOCAL_NOISE_ENTROPY,
) -> dict[int, NodeInfo]:
    """Importances and noisy/meaningful marks of every node, keyed by ``id(node)``.

    With ``local_noise_entropy`` set, maximal meaningful nodes also get their locally noisy features.
    """
    infos: dict[int, NodeInfo] = {}
    noisy_below: dict[int, bool] = {}  # some contentful descendant is noisy
    entropies = EntropyCache()
    for node in post_order(root):
        info = composite_importance(node, infos, attenuation, entropies)
        children = node.children()
        info.noisy = info.comp_imp < threshold and all(infos[id(c)].noisy for c in children)
        noisy_below[id(node)] = any(
            (infos[id(c)].noisy and infos[id(c)].has_content) or noisy_below[id(c)] for c in children
        )
        info.meaningful = not info.noisy and not noisy_below[id(node)]
        infos[id(node)] = info
    if local_noise_entropy is not None:
        for node in maximal_meaningful(root, infos):
            infos[id(node)].local_noise = local_noise(node, local_noise_entropy, entropies)
    return infos


def maximal_meaningful(root: ElementNode, infos: dict[int, NodeInfo]) -> list[ElementNode]:
    """Meaningful nodes without a meaningful ancestor."""
    found, stack, seen = [], [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if infos[id(node)].meaningful:
            found.append(node)
        elif not infos[id(node)].noisy:
            stack.extend(node.children())
    return found
