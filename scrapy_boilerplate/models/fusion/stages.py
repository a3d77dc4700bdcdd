"""Fusion's clean as stages: rules, then features, then trees, then threshold.

The rules stage may decide blocks before any feature is computed; the features stage computes the
weights' features (a feature may skip the decided blocks); the trees score the undecided blocks
only; the threshold stage keeps the scored blocks at or above the page's threshold and the decided
ones as the rules said.  Each stage is a method, so benchmarks time the very code a clean runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.models.fusion.decide import PROSE_CUES, page_threshold
from scrapy_boilerplate.models.fusion.inputs import PageInputs, text_blocks
from scrapy_boilerplate.models.fusion.layout import FeatureLayout
from scrapy_boilerplate.models.fusion.rules import RuleDecisions, Rules
from scrapy_boilerplate.models.fusion.site_evidence import SiteEvidence
from scrapy_boilerplate.models.fusion.trees import TreeEnsemble
from scrapy_boilerplate.page import Page


@dataclass(frozen=True)
class Scored:
    """One page through the stages: its blocks, the rules' decisions, the feature matrix (every
    block's row; decided rows are not scored), P(main) (NaN where a rule decided), the page's
    threshold and what is kept."""

    blocks: list[Block]
    rules: RuleDecisions
    matrix: np.ndarray
    probability: np.ndarray
    threshold: float
    keep: np.ndarray


@dataclass(frozen=True)
class Stages:
    """The four stages of one fitted model: its rules, the weights' layout and trees, its site evidence."""

    rules: Rules
    layout: FeatureLayout
    trees: TreeEnsemble
    threshold: float
    site: SiteEvidence

    def decide(self, page: Page) -> tuple[list[Block], RuleDecisions]:
        """The rules stage: the page's blocks and what the rules decided of them."""
        blocks = text_blocks(page)
        return blocks, self.rules.decide(page, blocks)

    def features(
        self, page: Page, blocks: list[Block], rules: RuleDecisions, done: Callable[[str], None] | None = None
    ) -> np.ndarray:
        """The features stage: one row per block, in the layout's columns (``done``: see
        :meth:`~.layout.FeatureLayout.compute`)."""
        site = self.site if self.site.present else None
        return self.layout.rows(PageInputs(page, blocks, rules.undecided, site), done)

    def score(self, matrix: np.ndarray, rules: RuleDecisions) -> np.ndarray:
        """The trees stage: P(main) of each undecided block, NaN where a rule decided."""
        if not rules.any:
            return self.trees.probabilities(matrix)
        probability = np.full(len(matrix), np.nan)
        probability[rules.undecided] = self.trees.probabilities(matrix[rules.undecided])
        return probability

    def keep(self, matrix: np.ndarray, probability: np.ndarray, rules: RuleDecisions) -> tuple[float, np.ndarray]:
        """The threshold stage: the page's threshold and which blocks are kept."""
        cues = matrix[:, [self.layout.column(name) for name in PROSE_CUES]]
        threshold = page_threshold(probability, cues, self.threshold, rules)
        kept = probability >= threshold
        return threshold, np.where(rules.decided, rules.keep, kept) if rules.any else kept

    def run(self, page: Page) -> Scored:
        """Every stage on ``page`` (only the rules stage when the rules decided every block)."""
        blocks, rules = self.decide(page)
        if rules.all:
            unscored = np.full(len(blocks), np.nan)
            return Scored(blocks, rules, np.zeros((len(blocks), 0)), unscored, self.threshold, rules.keep)
        matrix = self.features(page, blocks, rules)
        probability = self.score(matrix, rules)
        threshold, keep = self.keep(matrix, probability, rules)
        return Scored(blocks, rules, matrix, probability, threshold, keep)
