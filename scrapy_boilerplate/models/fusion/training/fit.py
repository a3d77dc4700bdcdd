"""Fitting the fusion trees with LightGBM and exporting them to the weights format.

Deterministic: fixed seed, one thread, no early stopping on a random split, rows in the order
the sites were read; the same rows give the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from scrapy_boilerplate.models.fusion.layout import FeatureLayout
from scrapy_boilerplate.models.fusion.registry import LabelledPage, LearnedFeature
from scrapy_boilerplate.models.fusion.training.dataset import PageRows
from scrapy_boilerplate.models.fusion.trees import TreeEnsemble
from scrapy_boilerplate.models.fusion.weights import FusionWeights

SEED = 20240527
PARAMS: dict[str, Any] = {
    "objective": "cross_entropy",
    "learning_rate": 0.08,
    "num_leaves": 24,
    "max_depth": 7,
    "min_data_in_leaf": 80,
    "lambda_l2": 2.0,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "num_iterations": 200,
}
THRESHOLD = 0.35  # P(main) cut: best mean F1 of 0.35 / 0.40 / 0.45 over the four dev sets in 5-fold CV


def choose_columns(layout: FeatureLayout, rows: Sequence[PageRows]) -> FeatureLayout:
    """``layout`` with each learned feature's columns chosen from the labelled ``rows``."""
    for item in layout.bound:
        feature = item.feature
        if isinstance(feature, LearnedFeature):
            pages = [LabelledPage(page.site, page.values[feature.name], page.labels, page.tokens) for page in rows]
            layout = layout.with_columns(feature.name, feature.choose(pages))
    return layout


def training_matrix(rows: Sequence[PageRows], layout: FeatureLayout) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features, labels, weights) of both regimes; each page's blocks weigh by their share of its tokens."""
    parts, labels, weights = [], [], []
    for page in rows:
        share = page.tokens / max(int(page.tokens.sum()), 1) * len(page.tokens)
        for site in (False, True) if page.with_site else (False,):
            parts.append(layout.matrix(page.values, len(page.labels), site=site, dtype=np.float32))
            labels.append(page.labels)
            weights.append(share)
    return np.vstack(parts), np.concatenate(labels), np.concatenate(weights).astype(np.float64)


def train_weights(
    rows: Sequence[PageRows], layout: FeatureLayout, params: dict[str, Any] | None = None
) -> FusionWeights:
    """Choose the learned columns, fit the trees on ``rows`` and return them as weights over ``layout``'s features."""
    import lightgbm

    settings = {**PARAMS, **(params or {})}
    layout = choose_columns(layout, rows)
    features, labels, weights = training_matrix(rows, layout)
    dataset = lightgbm.Dataset(
        features,
        label=labels,
        weight=weights,
        feature_name=[f"f{i}" for i in range(len(layout.names))],
        free_raw_data=True,
    )
    fixed = {
        "seed": SEED,
        "deterministic": True,
        "force_col_wise": True,
        "num_threads": 1,
        "verbosity": -1,
        "zero_as_missing": False,
    }
    booster = lightgbm.train({**settings, **fixed}, dataset)
    trees = export_trees(booster.dump_model())
    trained_on = frozenset(page.site for page in rows)
    training = {"params": settings, "pages": len(rows), "sites": len(trained_on), "blocks": int(len(labels))}
    return FusionWeights(layout, trees, THRESHOLD, trained_on, training)


def export_trees(dump: dict[str, Any]) -> TreeEnsemble:
    """LightGBM's ``dump_model()`` as flat :class:`TreeEnsemble` arrays (numerical splits only)."""
    feature: list[int] = []
    threshold: list[float] = []
    nan_left: list[bool] = []
    left: list[int] = []
    right: list[int] = []
    value: list[float] = []
    roots: list[int] = []

    def add(node: dict[str, Any]) -> int:
        index = len(feature)
        feature.append(-1)
        threshold.append(0.0)
        nan_left.append(False)
        left.append(index)
        right.append(index)
        value.append(float(node.get("leaf_value", node.get("internal_value", 0.0))))
        return index

    for tree in dump["tree_info"]:
        stack = [(tree["tree_structure"], add(tree["tree_structure"]))]
        roots.append(stack[0][1])
        while stack:
            node, index = stack.pop()
            if "split_feature" not in node:
                continue
            if node.get("decision_type") != "<=":
                raise ValueError(f"cannot export split {node.get('decision_type')!r}: numerical splits only")
            missing = node.get("missing_type")
            cut = float(node["threshold"])
            if missing == "NaN":
                nan_left[index] = bool(node["default_left"])
            elif missing == "None":
                nan_left[index] = cut >= 0.0  # LightGBM reads NaN as 0 when it saw none in training
            else:
                raise ValueError(f"cannot export missing type {missing!r}")
            feature[index] = int(node["split_feature"])
            threshold[index] = cut
            left_index, right_index = add(node["left_child"]), add(node["right_child"])  # adjacent
            left[index], right[index] = left_index, right_index
            stack += [(node["left_child"], left_index), (node["right_child"], right_index)]
    n_features = len(dump.get("feature_names", [])) or (max(feature) + 1 if feature else 0)
    return TreeEnsemble.from_json(
        {
            "feature": feature,
            "threshold": threshold,
            "nan_left": nan_left,
            "left": left,
            "right": right,
            "value": value,
            "roots": roots,
            "bias": 0.0,
        },
        max(n_features, 1),
    )


def log_loss(probability: np.ndarray, labels: np.ndarray, weights: np.ndarray) -> float:
    """Weighted cross-entropy of soft labels (for reports)."""
    p = np.clip(probability, 1e-9, 1 - 1e-9)
    loss = -(labels * np.log(p) + (1 - labels) * np.log(1 - p))
    return float((loss * weights).sum() / weights.sum()) if len(weights) else math.nan
