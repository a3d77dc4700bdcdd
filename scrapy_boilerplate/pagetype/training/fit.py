"""Fitting the page-type trees with LightGBM (one ensemble per type, softmax over their scores)
and exporting them to the weights format.

Deterministic: fixed seed, one thread, rows in the order the pages were read; the same pages
give the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from scrapy_boilerplate.models.fusion.training.fit import export_trees
from scrapy_boilerplate.pagetype.features import feature_matrix, feature_names
from scrapy_boilerplate.pagetype.labels import PAGE_TYPES
from scrapy_boilerplate.pagetype.training.dataset import LabelledPage
from scrapy_boilerplate.pagetype.training.evidence import fit_evidence, held_out_evidence
from scrapy_boilerplate.pagetype.training.vocabulary import count_words, select_vocabulary
from scrapy_boilerplate.pagetype.weights import PageTypeWeights

SEED = 20250611
PARAMS: dict[str, Any] = {
    "objective": "multiclass",
    "learning_rate": 0.15,
    "num_leaves": 8,
    "max_depth": 4,
    "min_data_in_leaf": 8,
    "lambda_l2": 1.0,
    "feature_fraction": 0.5,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "num_iterations": 60,
}
FIXED: dict[str, Any] = {
    "seed": SEED,
    "deterministic": True,
    "force_col_wise": True,
    "num_threads": 1,
    "verbosity": -1,
    "zero_as_missing": False,
}


def fit_booster(features: np.ndarray, labels: np.ndarray, params: dict[str, Any] | None = None) -> Any:
    """A LightGBM multiclass booster over ``features`` (rows) and ``labels`` (type indices)."""
    import lightgbm

    dataset = lightgbm.Dataset(
        features, label=labels, feature_name=[f"f{i}" for i in range(features.shape[1])], free_raw_data=True
    )
    return lightgbm.train({**PARAMS, **(params or {}), **FIXED, "num_class": len(PAGE_TYPES)}, dataset)


def export_ensembles(dump: dict[str, Any], n_features: int) -> list:
    """LightGBM's multiclass ``dump_model()`` as one tree ensemble per type (its trees go round the
    types in turn: tree ``i`` adds to type ``i % types``)."""
    trees = dump["tree_info"]
    names = dump.get("feature_names") or [f"f{i}" for i in range(n_features)]
    return [
        export_trees({"tree_info": trees[kind :: len(PAGE_TYPES)], "feature_names": names})
        for kind in range(len(PAGE_TYPES))
    ]


def train_page_types(pages: Sequence[LabelledPage], params: dict[str, Any] | None = None) -> PageTypeWeights:
    """Choose the vocabulary, learn the word evidence, fit the trees on ``pages``; the weights."""
    counts = count_words(pages)
    vocabulary = select_vocabulary(counts)
    evidence = fit_evidence(counts, pages)
    features = feature_matrix([page.signals for page in pages], vocabulary, held_out_evidence(pages))
    index = {label: i for i, label in enumerate(PAGE_TYPES)}
    labels = np.array([index[page.label] for page in pages])
    booster = fit_booster(features, labels, params)
    trees = export_ensembles(booster.dump_model(), len(feature_names(vocabulary)))
    training = {
        "params": {**PARAMS, **(params or {})},
        "pages": len(pages),
        "sites": len({page.site for page in pages}),
        "pages_per_type": {label: int((labels == i).sum()) for label, i in index.items()},
    }
    return PageTypeWeights(vocabulary, evidence, trees, training)
