"""The rules stage: blocks decided before any feature is computed, and the mask the later stages honour.

A rules stage looks at a page's blocks and may decide some of them outright (kept or removed, with
a reason for ``inspect``); the features stage may skip those blocks, the trees never score them,
and the threshold stage counts the kept ones as kept.  A site's learned or pinned
rules (:class:`~.siterules.stage.SiteRules`) are the one stage fusion runs; they decide nothing before a fit or a pin.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from scrapy_boilerplate.html import Block
from scrapy_boilerplate.page import Page


@dataclass(frozen=True)
class RuleDecisions:
    """Per block: whether a rule decided it, whether it keeps it, and why (read where decided)."""

    decided: np.ndarray  # bool
    keep: np.ndarray  # bool
    reasons: Sequence[str]
    probability: np.ndarray | None = None  # the model's mean P on the sample behind a decision (NaN: none)

    def known_probability(self) -> np.ndarray:
        """The model's P behind each decided block where a learned rule knows it, NaN elsewhere."""
        if self.probability is None:
            return np.full(len(self.decided), np.nan)
        return np.where(self.decided, self.probability, np.nan)

    @classmethod
    def none(cls, blocks: int) -> RuleDecisions:
        """No block decided."""
        return cls(np.zeros(blocks, dtype=bool), np.zeros(blocks, dtype=bool), ("",) * blocks)

    @property
    def undecided(self) -> np.ndarray:
        """The blocks left to the features and the trees."""
        return ~self.decided

    @property
    def any(self) -> bool:
        """True when a rule decided at least one block."""
        return bool(self.decided.any())

    @property
    def all(self) -> bool:
        """True when a rule decided every block: the page needs no feature and no tree."""
        return bool(self.decided.all())

    @property
    def coverage(self) -> float:
        """The share of the page's blocks a rule decided (1.0 for a page without blocks): a page of
        the template the rules were learned on is covered well, a page of a changed one poorly."""
        return float(self.decided.mean()) if len(self.decided) else 1.0


class Rules(Protocol):
    """What decides blocks before the model: one call per page, before any feature is computed."""

    def decide(self, page: Page, blocks: Sequence[Block]) -> RuleDecisions:
        """The decisions on ``page``'s ``blocks`` (arrays of ``len(blocks)``)."""
        ...
