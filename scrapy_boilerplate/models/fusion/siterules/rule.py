"""A site rule: what a model decided on a template's sample pages, by block path.

At fit time the model cleans each sample page; every block's keep-or-remove decision is a vote
for its path (:mod:`.paths`).  A path the sample saw on enough pages, whose votes agree, decides
its blocks on later pages without the model; the rule is silent on a path the sample disagreed on
or never showed, and the model decides those blocks.  The share of a page's blocks the rule
decides is its coverage: a page of the template covers well, a page of a changed or other
template poorly.
"""

from __future__ import annotations

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
    """A path's votes over the sample: blocks kept, blocks seen, pages it appeared on."""

    kept: int = 0
    seen: int = 0
    pages: int = 0

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

    def add_page(self, paths: Sequence[str], keep: Sequence[bool]) -> None:
        """Count one sample page's decisions (``keep[i]`` for the block on ``paths[i]``)."""
        self.pages += 1
        for path in set(paths):
            self.votes.setdefault(path, PathVotes()).pages += 1
        for path, kept in zip(paths, keep, strict=True):
            votes = self.votes[path]
            votes.seen += 1
            votes.kept += bool(kept)

    def decides(self, votes: PathVotes) -> bool:
        """True when ``votes`` are enough, and agree enough, to decide without the model."""
        return votes.pages >= self.min_pages and votes.confidence >= self.agreement

    def decide(self, paths: Sequence[str]) -> RuleDecisions:
        """The rule's verdict on the blocks on ``paths``."""
        decided = np.zeros(len(paths), dtype=bool)
        keep = np.zeros(len(paths), dtype=bool)
        reasons = [""] * len(paths)
        for i, path in enumerate(paths):
            votes = self.votes.get(path)
            if votes is not None and self.decides(votes):
                decided[i] = True
                keep[i] = votes.content
                reasons[i] = self.reason(votes)
        return RuleDecisions(decided, keep, reasons)

    def reason(self, votes: PathVotes) -> str:
        """Why the rule decided a block on a path with ``votes`` (for ``inspect``)."""
        verdict = "kept" if votes.content else "removed"
        share = votes.kept if votes.content else votes.seen - votes.kept
        return f"site rule: {verdict} ({share} of {votes.seen} blocks on this path, on {votes.pages} of {self.pages} sample pages)"

    def decisive(self) -> dict[str, PathVotes]:
        """The paths that decide, with their votes."""
        return {path: votes for path, votes in self.votes.items() if self.decides(votes)}

    def state(self) -> dict[str, Any]:
        """JSON-able state: the thresholds and every path's votes ``[kept, seen, pages]``."""
        return {
            "pages": self.pages,
            "min_pages": self.min_pages,
            "agreement": self.agreement,
            "votes": {path: [v.kept, v.seen, v.pages] for path, v in sorted(self.votes.items())},
        }

    @classmethod
    def from_state(cls, state: Any) -> SiteRule:
        """Rebuild what :meth:`state` gave; raise ``ModelFormatError`` on anything else."""
        try:
            votes = {str(path): PathVotes(*(int(n) for n in counts)) for path, counts in state["votes"].items()}
            rule = cls(votes, int(state["pages"]), int(state["min_pages"]), float(state["agreement"]))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ModelFormatError(f"bad site rule state: {exc!r}") from None
        if any(not 0 <= v.kept <= v.seen or v.pages > rule.pages for v in votes.values()):
            raise ModelFormatError("bad site rule state: votes out of range")
        return rule
