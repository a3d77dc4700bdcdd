"""Why ``pvalue`` kept or removed each region of a page, in P values (for the inspection report).

The kept region is the max-P element (or its repaired region); everything else is explained
by the outermost pieces that lie outside it: the siblings along the path from the region up
to ``<body>`` (each with its own, smaller P), the link lists dropped inside the region, and
the tags the paper's step 1 removes before scoring.
"""

from __future__ import annotations

from collections.abc import Iterator

import lxml.etree

from scrapy_boilerplate.html.density import LINK_DENSITY_LIMIT, p_value
from scrapy_boilerplate.html.walk import element_path_finder
from scrapy_boilerplate.models.base import Decision
from scrapy_boilerplate.models.pvalue.region import Refinement
from scrapy_boilerplate.models.pvalue.score import PValueResult

Element = lxml.etree._Element


def _outside_siblings(region: Element) -> Iterator[Element]:
    """Elements beside ``region`` and beside each of its ancestors, up to (not into) ``<html>``."""
    current = region
    parent = current.getparent()
    while parent is not None and current.tag != "body":
        for sibling in parent:
            if sibling is not current and isinstance(sibling.tag, str):
                yield sibling
        current, parent = parent, parent.getparent()


def _kept(result: PValueResult, region: Element, chars: int, refinement: Refinement | None) -> Decision:
    best = result.element
    assert best is not None  # a page is explained only when it has a max-P element
    getpath = element_path_finder(result.tree)
    best_path = getpath(best)
    if refinement is None:
        return Decision(best_path, True, chars, f"main text: max P = {result.p:.3f}")
    reason = f"main text: max P = {result.p:.3f}"
    if region is not best:
        reason += f" at {best_path}, widened to the enclosing region (its siblings hold article text too)"
    return Decision(refinement.path, True, chars, reason)


def explain(result: PValueResult, region: Element, chars: int, refinement: Refinement | None) -> tuple[Decision, ...]:
    """Decisions for one cleaned page: the kept region first, then what was removed around and inside it."""
    decisions = [_kept(result, region, chars, refinement)]
    getpath = element_path_finder(result.tree)
    for sibling in _outside_siblings(region):
        lengths = result.lengths.get(sibling)
        if lengths is None or lengths.text <= 0:
            continue
        p = p_value(lengths, result.page_valid_text)
        reason = f"outside the main region: P = {p:.3f} (max P = {result.p:.3f})"
        decisions.append(Decision(getpath(sibling), False, lengths.text, reason))
    if refinement is not None:
        for link_list in refinement.dropped:
            reason = (
                f"link list inside the main region: link density {link_list.link_density:.2f} > {LINK_DENSITY_LIMIT}"
            )
            decisions.append(Decision(link_list.path, False, link_list.chars, reason))
    for stripped in result.stripped:
        reason = f"<{stripped.tag}> is never main text (step 1 of the paper)"
        decisions.append(Decision(stripped.path, False, stripped.chars, reason))
    return tuple(decisions)
