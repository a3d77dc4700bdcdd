"""A gradient-boosted tree ensemble evaluated with numpy: all blocks through all trees at once.

The trees are flat arrays over every node of every tree: the feature tested (-1 at a leaf), the
threshold (``x <= threshold`` goes left), where a missing value (NaN) goes, both children, and the
node's value (the leaf value, or the mean output below an inner node, for explanations).  Each
step of :meth:`TreeEnsemble.raw_scores` moves every (block, tree) pair one level down, so the cost
is a few numpy operations per level, whatever the number of blocks.  The walk reads each feature
in two copies, NaN as -inf and NaN as +inf, and each node the copy that sends NaN its way, so a
step needs no test for missing values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scrapy_boilerplate.models.errors import ModelFormatError

CHUNK_ROWS = 2048  # rows walked through the trees at once (a chunk's node matrix is rows x trees)
_FIELDS = ("feature", "threshold", "nan_left", "left", "right", "value", "roots")


@dataclass(frozen=True)
class TreeEnsemble:
    """Flat trees; ``roots`` holds each tree's root node.  Scores are log-odds: sum of leaves + ``bias``."""

    feature: np.ndarray  # int32, -1 at leaves
    threshold: np.ndarray  # float64
    nan_left: np.ndarray  # bool: where NaN goes at an inner node
    left: np.ndarray  # int32 node index (self at a leaf)
    right: np.ndarray  # int32: left + 1 at inner nodes
    value: np.ndarray  # float64: leaf output, or the inner node's mean output
    roots: np.ndarray  # int32
    depth: int  # the longest root-to-leaf path, in edges
    bias: float = 0.0
    _feature: np.ndarray = field(init=False, repr=False, compare=False)
    _threshold: np.ndarray = field(init=False, repr=False, compare=False)
    _nan_right: np.ndarray = field(init=False, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: Any, n_features: int) -> TreeEnsemble:
        """Trees from their JSON form (:meth:`to_json`), checked against ``n_features`` columns."""
        try:
            arrays: dict[str, np.ndarray] = {
                "feature": np.asarray(data["feature"], dtype=np.int32),
                "threshold": np.asarray(data["threshold"], dtype=np.float64),
                "nan_left": np.asarray(data["nan_left"], dtype=bool),
                "left": np.asarray(data["left"], dtype=np.int32),
                "right": np.asarray(data["right"], dtype=np.int32),
                "value": np.asarray(data["value"], dtype=np.float64),
                "roots": np.asarray(data["roots"], dtype=np.int32),
            }
            bias = float(data.get("bias", 0.0))
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFormatError(f"fusion trees are malformed: {exc}") from exc
        n = len(arrays["feature"])
        if any(arrays[name].ndim != 1 or len(arrays[name]) != n for name in _FIELDS[:-1]):
            raise ModelFormatError("fusion tree arrays differ in length")
        inner = arrays["feature"] >= 0
        if not np.isfinite(arrays["threshold"][inner]).all():
            raise ModelFormatError("fusion tree thresholds must be finite")
        children_ok = all(((arrays[s] >= 0) & (arrays[s] < n)).all() for s in ("left", "right", "roots"))
        if not children_ok or (arrays["feature"] >= n_features).any() or (arrays["feature"] < -1).any():
            raise ModelFormatError("fusion trees point outside their nodes or features")
        leaves = np.flatnonzero(~inner)
        if (arrays["left"][leaves] != leaves).any() or (arrays["right"][leaves] != leaves).any():
            raise ModelFormatError("fusion tree leaves must point to themselves")
        if (arrays["right"][inner] != arrays["left"][inner] + 1).any():
            raise ModelFormatError("fusion tree right children must follow their left siblings")
        depth = _depth(arrays["roots"], arrays["left"], arrays["right"], inner)
        return cls(**arrays, depth=depth, bias=bias)

    def to_json(self) -> dict[str, Any]:
        """The trees as JSON lists (floats written in full, so loading gives the same numbers)."""
        return {
            "feature": self.feature.tolist(),
            "threshold": self.threshold.tolist(),
            "nan_left": [int(v) for v in self.nan_left],
            "left": self.left.tolist(),
            "right": self.right.tolist(),
            "value": self.value.tolist(),
            "roots": self.roots.tolist(),
            "bias": self.bias,
        }

    def _step(self, flat: np.ndarray, node: np.ndarray, columns: np.ndarray, base: np.ndarray) -> np.ndarray:
        """Every (row, tree) pair one level down: ``flat`` and ``columns`` are :meth:`_start`'s matrix
        and the column each node reads in it, ``base`` each row's offset.  A right child sits just
        after its left sibling, so the next node is the left child plus one when the pair goes right;
        a leaf is its own left child and never goes right."""
        x = flat.take(base + columns.take(node))
        return self.left.take(node) + (x > self._threshold.take(node))

    def __post_init__(self) -> None:
        # the forms the walk reads: leaves test feature 0 against +inf, so never go right
        leaf = self.feature < 0
        object.__setattr__(self, "_feature", np.where(leaf, 0, self.feature).astype(np.intp))
        object.__setattr__(self, "_threshold", np.where(leaf, np.inf, self.threshold))
        object.__setattr__(self, "_nan_right", ~(self.nan_left | leaf))

    def _start(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The walk's matrix, raveled: each row's features with NaN as -inf, then with NaN as +inf;
        the column of it each node reads (the copy that sends NaN where the node does: NaN as -inf
        never goes right, as +inf always does, thresholds being finite); each tree's root for every
        row; each row's offset in the matrix."""
        features = np.asarray(features, dtype=np.float64)
        n, width = features.shape
        missing = np.isnan(features)
        doubled = np.hstack([np.where(missing, -np.inf, features), np.where(missing, np.inf, features)])
        columns = self._feature + self._nan_right * width
        base = (np.arange(n, dtype=np.intp) * (2 * width))[:, None]
        roots = np.broadcast_to(self.roots.astype(np.intp), (n, len(self.roots)))
        return doubled.ravel(), roots, columns, base

    def leaves(self, features: np.ndarray) -> np.ndarray:
        """The leaf each row reaches in each tree, shape (rows, trees)."""
        flat, node, columns, base = self._start(features)
        for _ in range(self.depth):
            node = self._step(flat, node, columns, base)
        return node

    def raw_scores(self, features: np.ndarray) -> np.ndarray:
        """Log-odds of every row of ``features`` (float64, one column per feature), a chunk of
        rows at a time so that a page of many blocks needs bounded memory."""
        if not len(features):
            return np.zeros(0)
        return np.concatenate(
            [
                self.value[self.leaves(features[start : start + CHUNK_ROWS])].sum(axis=1) + self.bias
                for start in range(0, len(features), CHUNK_ROWS)
            ]
        )

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """P(main content) of every row."""
        return 1.0 / (1.0 + np.exp(-self.raw_scores(features)))

    def contributions(self, features: np.ndarray) -> tuple[np.ndarray, float]:
        """Tree-path contributions: per row and feature, how much the splits on that feature moved
        the log-odds (child value minus parent value, summed along each path), and the common
        starting point; a row's contributions plus that start equal its raw score."""
        n, n_features = features.shape
        out = np.zeros((n, n_features + 1))
        flat, node, columns, base = self._start(features)
        rows = np.arange(n)[:, None]
        start = float(self.value[self.roots].sum()) + self.bias
        for _ in range(self.depth):
            child = self._step(flat, node, columns, base)
            moved = self.value[child] - self.value[node]
            column = np.where(self.feature[node] >= 0, self.feature[node], n_features)
            np.add.at(out, (np.broadcast_to(rows, node.shape), column), moved)
            node = child
        return out[:, :n_features], start


def _depth(roots: np.ndarray, left: np.ndarray, right: np.ndarray, inner: np.ndarray) -> int:
    """Edges on the longest root-to-leaf path (raises on a cycle)."""
    frontier, depth = roots, 0
    while True:
        frontier = frontier[inner[frontier]]
        if not len(frontier):
            return depth
        depth += 1
        if depth > len(inner):
            raise ModelFormatError("fusion trees contain a cycle")
        frontier = np.concatenate([left[frontier], right[frontier]])
