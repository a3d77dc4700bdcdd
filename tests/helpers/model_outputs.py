"""Compare what two models do to pages, decision for decision: a loaded model against the one saved."""

from __future__ import annotations

from collections.abc import Sequence

from scrapy_boilerplate import Page
from scrapy_boilerplate.models.base import Decisions, SiteModel

# Models whose fit learns state that cleaning reads: a store that lost it changes their decisions.
STATEFUL_MODELS = ("style_tree", "fusion")


def outputs(model: SiteModel, pages: Sequence[Page]) -> list[tuple[str, str, Decisions]]:
    """Each page's cleaned text, cleaned HTML and every keep/remove decision with its reason."""
    return [(cleaned.text, cleaned.html, cleaned.decisions) for cleaned in map(model.clean, pages)]


def assert_same_outputs(loaded: SiteModel, original: SiteModel, pages: Sequence[Page]) -> None:
    """``loaded`` cleans ``pages`` exactly as ``original`` does (and decides something on each)."""
    expected = outputs(original, pages)
    assert all(decisions for _, _, decisions in expected), "the model explains no decision to compare"
    assert outputs(loaded, pages) == expected
