"""Training the page-type classifier: the export against LightGBM's own predictions, and a
training command that writes the same bytes twice."""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers.typed_pages import BUILDERS

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.pagetype import PAGE_TYPES
from scrapy_boilerplate.pagetype.classify import PageTypeClassifier
from scrapy_boilerplate.pagetype.weights import PageTypeWeights

lightgbm = pytest.importorskip("lightgbm", reason="training needs the train extra")


def test_exported_trees_give_lightgbm_s_probabilities():
    from scrapy_boilerplate.pagetype.training.fit import export_ensembles, fit_booster

    rng = np.random.default_rng(11)
    features = rng.normal(size=(1200, 7))
    features[:, 6] = rng.integers(0, 3, 1200)
    labels = (np.abs(features[:, 0] * 2 + features[:, 6]).astype(int) + rng.integers(0, 2, 1200)) % len(PAGE_TYPES)
    booster = fit_booster(features, labels)
    trees = export_ensembles(booster.dump_model(), features.shape[1])
    probe = rng.normal(size=(300, 7))
    probe[:, 6] = rng.integers(0, 3, 300)
    raw = np.stack([ensemble.raw_scores(probe) for ensemble in trees], axis=1)
    assert np.allclose(raw, booster.predict(probe, raw_score=True), rtol=0, atol=1e-9)
    weights = PageTypeWeights([], None, trees)  # type: ignore[arg-type]
    assert np.allclose(weights.probabilities(probe), booster.predict(probe), rtol=0, atol=1e-9)


def _labelled_corpus(root):
    """Pages of every type on six sites each, with a WCXB-shaped manifest."""
    entries = []
    for label, build in BUILDERS.items():
        for number in range(6):
            site = f"{label}-{number}.example"
            url, html = build(site, number)
            path = f"{site}/{number:04d}"
            (root / site).mkdir(parents=True, exist_ok=True)
            (root / f"{path}.html").write_text(html, encoding="utf-8")
            kind = "product" if label == "no_content" else label
            entries.append(
                {"path": path, "site": site, "url": url, "page_type": kind, "gold_empty": label == "no_content"}
            )
    (root / "manifest.json").write_text(json.dumps({"pages": entries}), encoding="utf-8")
    return root


def test_training_twice_writes_the_same_bytes_and_the_weights_tell_types(tmp_path):
    data = _labelled_corpus(tmp_path / "data")
    for name in ("a.json", "b.json"):
        assert main(["train-page-types", "-q", str(data), "-o", str(tmp_path / name)]) == 0
    first = (tmp_path / "a.json").read_bytes()
    assert first == (tmp_path / "b.json").read_bytes()
    weights = PageTypeWeights.from_json(json.loads(first))
    assert weights.training["pages"] == 6 * len(PAGE_TYPES)
    classifier = PageTypeClassifier(tmp_path / "a.json")
    url, html = BUILDERS["documentation"]("unseen.example", 9)
    assert classifier.classify(Page(html, url)).label == "documentation"


def test_training_without_a_manifest_says_so(tmp_path, capsys):
    assert main(["train-page-types", "-q", str(tmp_path), "-o", str(tmp_path / "w.json")]) == 2
    assert "manifest.json" in capsys.readouterr().err
    assert not (tmp_path / "w.json").exists()
