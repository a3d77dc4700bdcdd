"""``fusion``: one learned block classifier over the site's evidence and the page's own cues.

A clean runs the stages of :mod:`.stages`: the rules stage (a user's pinned selectors, then the rule
by block path learned from what the model decided on the sample, :mod:`.siterules`), the features
the weights name (:mod:`.features`: the page's block cues and role words, and, when the model was
fitted on two or more pages of the site, the site features), a gradient-boosted tree ensemble (:mod:`.trees`, weights trained by ``scrapy-boilerplate train``) turning each block's
row into P(main content), and the threshold.  Fitted on fewer pages (or with
``site_features=false``) it is a single-page extractor: the site features are missing and the trees
route them as trained.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.html.structure import kept_blocks_html
from scrapy_boilerplate.models.base import CleanedPage, SiteModel
from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.fusion.explain import decisions
from scrapy_boilerplate.models.fusion.site_evidence import SiteEvidence
from scrapy_boilerplate.models.fusion.siterules.rule import SiteRule
from scrapy_boilerplate.models.fusion.siterules.selectors import PinnedRules, rule_selectors
from scrapy_boilerplate.models.fusion.siterules.stage import SiteRules, learn_rule
from scrapy_boilerplate.models.fusion.stages import Scored, Stages
from scrapy_boilerplate.models.fusion.weights import FusionWeights, load_weights
from scrapy_boilerplate.models.registry import register
from scrapy_boilerplate.page import Page

BLOCK_SEPARATOR = "\n\n"


@register
class FusionModel(SiteModel):
    """Learned block classifier over site and page features.

    Parameters
    ----------
    weights:
        Path of a weights file written by ``scrapy-boilerplate train``; None: the shipped weights.
    site_features:
        Fit the site models on the sample (two pages or more); false: the single-page regime always.
    threshold:
        P(main content) at or above which a block is kept; None: the weights' own threshold.
    site_rules:
        Distil what the model decided on the sample (two pages or more, with site features) into a
        rule by block path that decides the blocks it covers on later pages before any feature is
        computed; false: every block goes through the trees.
    pinned:
        A user's CSS selectors for this site, ``{"content": [...], "boilerplate": [...]}``: the
        blocks they reach are decided by them, before the learned rule and the trees, from the first
        page on (no sample needed).
    """

    name = "fusion"
    learned_from_pages = True  # bench scores it on held-out sites only (see evaluation.heldout)

    def __init__(
        self,
        weights: str | None = None,
        site_features: bool = True,
        threshold: float | None = None,
        site_rules: bool = True,
        pinned: dict[str, list[str]] | None = None,
    ) -> None:
        super().__init__()
        if weights is not None and not isinstance(weights, str):
            raise ValueError(f"weights must be a file path, got {weights!r}")
        if site_features not in (True, False):
            raise ValueError(f"site_features must be true or false, got {site_features!r}")
        if threshold is not None and not 0.0 <= float(threshold) <= 1.0:
            raise ValueError(f"threshold must be within [0, 1], got {threshold!r}")
        if site_rules not in (True, False):
            raise ValueError(f"site_rules must be true or false, got {site_rules!r}")
        pinned_rules = None if pinned is None else PinnedRules.from_mapping(pinned)
        self.weights = weights
        self.site_features = site_features
        self.threshold = None if threshold is None else float(threshold)
        self.site_rules = site_rules
        self.pinned = pinned
        self.evidence_ = SiteEvidence()  # learned: the site models fitted on the sample
        self.rules_ = SiteRules(None, pinned_rules)  # learned: what is decided before the trees

    @property
    def loaded_weights(self) -> FusionWeights:
        """The weights in use (read once per process and file)."""
        return load_weights(self.weights)

    @property
    def stages(self) -> Stages:
        """The stages a clean runs, with this model's rules, weights and site evidence."""
        weights = self.loaded_weights
        threshold = weights.threshold if self.threshold is None else self.threshold
        return Stages(self.rules_, weights.layout, weights.trees, threshold, self.evidence_)

    def _fit(self, pages: list[Page]) -> None:
        parts = self.loaded_weights.layout.parts  # a missing or foreign weights file fails the fit, not each clean
        self.evidence_ = SiteEvidence.fit(pages if self.site_features else [], parts)
        self.rules_ = SiteRules(None, self.rules_.pinned)
        if self.site_rules and self.evidence_.present:
            self.rules_ = SiteRules(learn_rule(pages, self._decided), self.rules_.pinned)

    def _decided(self, page: Page) -> tuple[list[Block], np.ndarray, np.ndarray]:
        """The blocks of ``page``, which the model keeps and their P (a sample page, as the rule learns it)."""
        scored = self.stages.run(page)
        return scored.blocks, scored.keep, scored.probability

    def rule_selectors(self) -> dict[str, Any]:
        """The site's rules as CSS selectors: the learned rule's (content / boilerplate, each with how
        sure it is) and the pinned ones, which win over them."""
        learned = self.rules_.learned
        shown: dict[str, Any] = rule_selectors(learned) if learned is not None else {"content": [], "boilerplate": []}
        shown["sample_pages"] = 0 if learned is None else learned.pages
        shown["pinned"] = {"content": [], "boilerplate": [], **(self.pinned or {})}
        return shown

    def score(self, page: Page) -> Scored:
        """``page`` through every stage: blocks, features, P(main content), threshold and what is kept."""
        return self.stages.run(page)

    def _clean(self, page: Page) -> CleanedPage:
        weights = self.loaded_weights
        scored = self.score(page)
        blocks, keep = scored.blocks, scored.keep.tolist()
        kept = [block for block, k in zip(blocks, keep, strict=True) if k]
        text = BLOCK_SEPARATOR.join(block.text for block in kept)
        total = len(BLOCK_SEPARATOR.join(block.text for block in blocks))
        explained = partial(decisions, page, scored, weights.trees, weights.names)
        scored_blocks = scored.probability[scored.rules.undecided] if scored.rules.any else scored.probability
        best = float(scored_blocks.max()) if len(scored_blocks) else 0.0
        coverage = scored.rules.coverage if self.rules_.active else None
        return CleanedPage(
            text, partial(kept_blocks_html, page.body, kept), self.name, total, len(text), best, explained, coverage
        )

    def _get_state(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return {"site": self.evidence_.state(), "rule": self.rules_.state()}, {}

    def _set_state(self, state: dict[str, Any], arrays: dict[str, Any]) -> None:
        if not {"site"} <= set(state) <= {"site", "rule"} or arrays:
            raise ModelFormatError(
                f"fusion state needs 'site' and 'rule', got {sorted(state)} and arrays {sorted(arrays)}"
            )
        rule = state.get("rule")
        self.rules_ = SiteRules(None if rule is None else SiteRule.from_state(rule), self.rules_.pinned)
        evidence = SiteEvidence.from_state(state["site"])
        missing = set(self.loaded_weights.layout.parts) - set(evidence.parts)
        if evidence.present and missing:
            raise ModelFormatError(f"fusion site state lacks the parts {sorted(missing)} its weights read; re-fit")
        self.evidence_ = evidence
