"""Fusion's rules stage for a fitted site: pinned selectors first, then the rule learned from the sample.

A site's rule (:mod:`.rule`) is learned at fit time from what the model decided on the sample pages,
each block's decision a vote for its path; on any page, the blocks a user's pinned selectors reach
(:mod:`.selectors`) are decided by them, the blocks on a path the rule decides by the rule, and the
rest are left to the features and the trees.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.models.fusion.rules import RuleDecisions
from scrapy_boilerplate.models.fusion.siterules.paths import PathFinder
from scrapy_boilerplate.models.fusion.siterules.rule import SiteRule
from scrapy_boilerplate.models.fusion.siterules.selectors import PinnedRules
from scrapy_boilerplate.page import Page


def block_paths(blocks: Sequence[Block]) -> list[str]:
    """The path signature of each block (one walk up per ancestor)."""
    finder = PathFinder()
    return [finder.path(block.element) for block in blocks]


Verdicts = tuple[list[Block], np.ndarray, np.ndarray]  # a page's blocks, which are kept, the model's P


def learn_rule(pages: Sequence[Page], decide: Callable[[Page], Verdicts]) -> SiteRule:
    """The rule distilled from ``decide``'s verdicts (blocks, kept, P) on each sample page."""
    rule = SiteRule()
    for page in pages:
        blocks, kept, probability = decide(page)
        rule.add_page(block_paths(blocks), kept.tolist(), probability.tolist())
    return rule


class SiteRules:
    """The rules stage of a fitted site: pinned selectors, then the learned rule (either may be None)."""

    def __init__(self, learned: SiteRule | None = None, pinned: PinnedRules | None = None) -> None:
        self.learned = learned
        self.pinned = pinned

    @property
    def active(self) -> bool:
        """True when there is a learned rule or a pinned selector to apply."""
        return self.learned is not None or self.pinned is not None

    def decide(self, page: Page, blocks: Sequence[Block]) -> RuleDecisions:
        """Pinned decisions where a pinned selector reaches a block, the learned rule's elsewhere."""
        if self.learned is not None and self.learned.votes:
            decided = self.learned.decide(block_paths(blocks))
        else:
            decided = RuleDecisions.none(len(blocks))
        if self.pinned is None:
            return decided
        pinned = self.pinned.decide(page.tree, [block.element for block in blocks])
        if not pinned.any:
            return decided
        reasons = [
            p if d else r for p, r, d in zip(pinned.reasons, decided.reasons, pinned.decided.tolist(), strict=True)
        ]
        keep = np.where(pinned.decided, pinned.keep, decided.keep)
        probability = np.where(pinned.decided, np.nan, decided.known_probability())  # pinned: no model's P
        return RuleDecisions(pinned.decided | decided.decided, keep, reasons, probability)

    def state(self) -> dict[str, Any] | None:
        """The learned rule's JSON-able state (pinned selectors are the model's parameters)."""
        return None if self.learned is None else self.learned.state()
