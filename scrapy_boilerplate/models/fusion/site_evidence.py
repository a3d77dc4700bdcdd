"""The site models fitted on the sample, by name, whose verdicts the site features read.

``style_tree``, ``block_dup`` and ``entropy`` are fitted as their own ``improved`` variants and
only read, through the public names of their families' packages (``models.style_tree``,
``models.blocks``): their behaviour as models is unchanged, and tests/test_import_graph.py keeps
``fusion`` the only family that imports another.  A fit fits the parts the weights' features name
(:attr:`~.layout.FeatureLayout.parts`); with fewer than two sample pages there is no site
evidence, and every site feature is missing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from scrapy_boilerplate.models.base import SiteModel
from scrapy_boilerplate.models.blocks import BlockDupModel, EntropyModel
from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.serialization import dump_model, load_model
from scrapy_boilerplate.models.style_tree import StyleTreeModel
from scrapy_boilerplate.page import Page

MIN_SAMPLE_PAGES = 2  # one page shows nothing repeating
SITE_PARTS: dict[str, type[SiteModel]] = {
    "style_tree": StyleTreeModel,
    "block_dup": BlockDupModel,
    "entropy": EntropyModel,
}


class SiteEvidence:
    """The fitted site models, by name, and the number of sample pages they were fitted on."""

    def __init__(self, pages: int = 0, parts: dict[str, SiteModel] | None = None) -> None:
        self.pages = pages
        self.parts: dict[str, SiteModel] = dict(parts or {})

    @classmethod
    def fit(cls, pages: list[Page], parts: Iterable[str]) -> SiteEvidence:
        """Every named site model fitted on ``pages`` (none below :data:`MIN_SAMPLE_PAGES` pages)."""
        unknown = set(parts) - set(SITE_PARTS)
        if unknown:
            raise ValueError(f"no site part named {sorted(unknown)}; known: {sorted(SITE_PARTS)}")
        if len(pages) < MIN_SAMPLE_PAGES:
            return cls(len(pages))
        return cls(len(pages), {name: SITE_PARTS[name]().fit(pages) for name in parts})

    @property
    def present(self) -> bool:
        """True when fitted on enough pages to give site features."""
        return self.pages >= MIN_SAMPLE_PAGES

    def part(self, name: str) -> Any:
        """The fitted site model ``name`` (its own class: the caller knows which it asked for)."""
        return self.parts[name]

    def state(self) -> dict[str, Any]:
        """JSON-able state: each fitted part as its own saved-model document."""
        return {"pages": self.pages, "parts": {name: json.loads(dump_model(m)) for name, m in self.parts.items()}}

    @classmethod
    def from_state(cls, state: Any) -> SiteEvidence:
        """Rebuild what :meth:`state` gave; raise ``ModelFormatError`` on anything else."""
        if not isinstance(state, dict) or not isinstance(state.get("pages"), int) or state["pages"] < 0:
            raise ModelFormatError("fusion site state lacks its page count")
        parts = state.get("parts")
        if not isinstance(parts, dict) or not set(parts) <= set(SITE_PARTS):
            raise ModelFormatError(f"fusion site state needs parts among {sorted(SITE_PARTS)}")
        evidence = cls(state["pages"])
        for name, document in parts.items():
            model = load_model(document)
            if not isinstance(model, SITE_PARTS[name]):
                raise ModelFormatError(f"fusion site part {name!r} holds a {model.name} model")
            evidence.parts[name] = model
        return evidence
