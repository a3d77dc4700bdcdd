"""Honest figures for models learned from labelled pages: each site is scored with weights that
were trained without it (cross-validation folds), or the row says that it was not."""

from __future__ import annotations

from pathlib import Path

from scrapy_boilerplate.corpus import Site
from scrapy_boilerplate.models.registry import get_model_class
from scrapy_boilerplate.models.spec import ModelSpec


class HeldOut:
    """The spec to run on each site, and how to label the row, for one model of a bench run."""

    def __init__(self, spec: ModelSpec, folds: Path | None) -> None:
        self.spec = spec
        self.folds = folds
        self.learned = bool(getattr(get_model_class(spec.name), "learned_from_pages", False))
        self.sites = 0
        self.seen = 0

    def spec_for(self, site: Site) -> ModelSpec:
        """``spec``, with the fold weights that never saw ``site`` when folds were given."""
        if not self.learned:
            return self.spec
        from scrapy_boilerplate.models.fusion.heldout import held_out_weights, seen_in_training
        from scrapy_boilerplate.models.fusion.weights import load_weights

        self.sites += 1
        if self.folds is not None:
            return ModelSpec(self.spec.name, {**self.spec.params, "weights": str(held_out_weights(self.folds, site))})
        self.seen += seen_in_training(load_weights(self.spec.params.get("weights")), site)
        return self.spec

    @property
    def label(self) -> str:
        """The row's label: the spec, marked ``[cv]`` or ``[in-sample]`` for a learned model."""
        if self.learned and self.folds is not None:
            return f"{self.spec.label} [cv]"
        if self.seen:
            return f"{self.spec.label} [in-sample]"
        return self.spec.label

    def note(self) -> str:
        """One line under the table saying how a learned model's figures were measured."""
        if not self.learned:
            return ""
        if self.folds is not None:
            return (
                f"{self.label}: cross-validated by site: every site scored with the fold weights "
                f"of {self.folds} that were trained without it"
            )
        if self.seen:
            return (
                f"{self.label}: {self.seen} of {self.sites} sites were in its weights' training data, so these "
                "figures are not a result; train --folds K --folds-dir DIR, then bench --folds DIR"
            )
        return f"{self.label}: none of these sites was in its weights' training data"
