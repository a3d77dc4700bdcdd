"""A site rule: what a model decided on a template's sample pages, by block path.

At fit time the model cleans each sample page; every block's keep-or-remove decision is a vote
for its path (:mod:`.paths`).  A path the sample saw on enough pages, whose votes agree, decides
its blocks on later pages without the model; the rule is silent on a path the sample disagreed on
or never showed, and the model decides those blocks.  The share of a page's blocks the rule
decides is its coverage: a page of the template covers well, a page of a changed or other
template poorly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.fusion.rules import RuleDecisions

MIN_PAGES = 2  # sample pages on which a path must appear before it decides anything
AGREEMENT = 1.0  # share of a path's sample votes that must agree


@dataclass
class PathVotes:
    """A path's votes over the sample: blocks kept, blocks seen, pages it appeared on, and the sum
    and count of the model's P over them (blocks a pinned selector decided have none)."""

    kept: int = 0
    seen: int = 0
    pages: int = 0
    p_sum: float = 0.0
    scored: int = 0

    @property
    def mean_p(self) -> float:
        """The model's mean P(main) over the path's sample blocks (NaN when none was scored)."""
        return self.p_sum / self.scored if self.scored else float("nan")

    @property
    def confidence(self) -> float:
        """The share of the votes for the majority decision."""
        return max(self.kept, self.seen - self.kept) / self.seen if self.seen else 0.0

    @property
    def content(self) -> bool:
        """The majority decision: True for main content."""
        return 2 * self.kept > self.seen


@dataclass
class SiteRule:
    """Votes per block path from a template's sample pages, and when a path decides."""

    votes: dict[str, PathVotes] = field(default_factory=dict)
    pages: int = 0
    min_pages: int = MIN_PAGES
    agreement: float = AGREEMENT

    def add_page(self, paths: Sequence[str], keep: Sequence[bool], probability: Sequence[float] | None = None) -> None:
        """Count one sample page's decisions (``keep[i]`` for the block on ``paths[i]``, the model's
        ``probability[i]`` when given, NaN where it scored none)."""
        self.pages += 1
        for path in set(paths):
            self.votes.setdefault(path, PathVotes()).pages += 1
        scores = probability if probability is not None else [math.nan] * len(paths)
        for path, kept, p in zip(paths, keep, scores, strict=True):
            votes = self.votes[path]
            votes.seen += 1
            votes.kept += bool(kept)
            if not math.isnan(p):
                votes.p_sum += float(p)
                votes.scored += 1

    def decides(self, votes: PathVotes) -> bool:
        """True when ``votes`` are enough, and agree enough, to decide without the model."""
        return votes.pages >= self.min_pages and votes.confidence >= self.agreement

    def decide(self, paths: Sequence[str]) -> RuleDecisions:
        """The rule's verdict on the blocks on ``paths``."""
        decided = np.zeros(len(paths), dtype=bool)
        keep = np.zeros(len(paths), dtype=bool)
        probability = np.full(len(paths), np.nan)
        reasons = [""] * len(paths)
        for i, path in enumerate(paths):
            votes = self.votes.get(path)
            if votes is not None and self.decides(votes):
                decided[i] = True
                keep[i] = votes.content
                probability[i] = votes.mean_p
                reasons[i] = self.reason(votes)
        return RuleDecisions(decided, keep, reasons, probability)

    def reason(self, votes: PathVotes) -> str:
        """Why the rule decided a block on a path with ``votes`` (for ``inspect``)."""
        verdict = "kept" if votes.content else "removed"
        share = votes.kept if votes.content else votes.seen - votes.kept
        return f"site rule: {verdict} ({share} of {votes.seen} blocks on this path, on {votes.pages} of {self.pages} sample pages)"

    def decisive(self) -> dict[str, PathVotes]:
        """The paths that decide, with their votes."""
        return {path: votes for path, votes in self.votes.items() if self.decides(votes)}

    def state(self) -> dict[str, Any]:
        """JSON-able state: the thresholds and every path's votes ``[kept, seen, pages, p_sum, scored]``."""
        return {
            "pages": self.pages,
            "min_pages": self.min_pages,
            "agreement": self.agreement,
            "votes": {path: [v.kept, v.seen, v.pages, v.p_sum, v.scored] for path, v in sorted(self.votes.items())},
        }

    @classmethod
    def from_state(cls, state: Any) -> SiteRule:
        """Rebuild what :meth:`state` gave; raise ``ModelFormatError`` on anything else."""
        try:
            votes = {str(path): _votes(counts) for path, counts in state["votes"].items()}
            rule = cls(votes, int(state["pages"]), int(state["min_pages"]), float(state["agreement"]))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ModelFormatError(f"bad site rule state: {exc!r}") from None
        if any(not 0 <= v.kept <= v.seen or v.pages > rule.pages or v.scored > v.seen for v in votes.values()):
            raise ModelFormatError("bad site rule state: votes out of range")
        return rule


def _votes(counts: Any) -> PathVotes:
    """A path's votes from their saved ``[kept, seen, pages, p_sum, scored]``."""
    kept, seen, pages, p_sum, scored = counts
    return PathVotes(int(kept), int(seen), int(pages), float(p_sum), int(scored))
