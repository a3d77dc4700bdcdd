"""Training the fusion weights: labels, determinism, the export against LightGBM's own predictions."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.models.fusion.training.labels import block_labels
from scrapy_boilerplate.models.fusion.weights import FusionWeights, load_weights
from scrapy_boilerplate.testing.synthetic import write_corpus


@pytest.fixture
def lightgbm():
    """LightGBM (the train extra); the test that asks for it skips without it."""
    return pytest.importorskip("lightgbm", reason="training needs the train extra")


def test_labels_follow_the_gold_sequence_not_a_bag_of_words():
    blocks = [["home", "news", "the", "city"], ["the", "city", "council", "voted", "on", "the", "plan"], ["the", "end"]]
    labels, gold_tokens = block_labels(blocks, "The city council voted on the plan.")
    assert gold_tokens == 7
    assert labels.tolist() == [0.0, 1.0, 0.0]


def test_exported_trees_predict_what_lightgbm_predicts(lightgbm):
    from scrapy_boilerplate.models.fusion.training.fit import export_trees

    rng = np.random.default_rng(7)
    features = rng.normal(size=(3000, 6))
    features[:, 5] = rng.integers(0, 2, 3000)
    features[rng.random(features.shape) < 0.15] = np.nan  # NaN routing is part of the format
    features[:, 4] = rng.normal(size=3000)  # a column without NaN: LightGBM reads NaN there as 0
    labels = ((np.nan_to_num(features[:, 0]) + features[:, 4] * 0.5 + rng.normal(size=3000) * 0.3) > 0).astype(float)
    booster = lightgbm.train(
        {"objective": "cross_entropy", "num_leaves": 15, "verbosity": -1, "num_threads": 1, "seed": 1},
        lightgbm.Dataset(features, label=labels),
        num_boost_round=40,
    )
    trees = export_trees(booster.dump_model())
    probe = rng.normal(size=(500, 6))
    probe[rng.random(probe.shape) < 0.2] = np.nan
    expected = booster.predict(probe, raw_score=True)
    assert np.allclose(trees.raw_scores(probe), expected, rtol=0, atol=1e-9)


def _corpus(root):
    write_corpus(str(root), {"one.example": 6, "two.example": 5, "three.example": 1}, seed=4)
    return root


@pytest.mark.usefixtures("lightgbm")
def test_training_twice_writes_the_same_bytes(tmp_path):
    data = _corpus(tmp_path / "data")
    for name in ("a.json", "b.json"):
        assert main(["train", "-q", str(data), "-o", str(tmp_path / name)]) == 0
    first = (tmp_path / "a.json").read_bytes()
    assert first == (tmp_path / "b.json").read_bytes()
    weights = FusionWeights.from_json(__import__("json").loads(first))
    assert weights.trained_on == {"one.example", "two.example", "three.example"}


@pytest.mark.usefixtures("lightgbm")
def test_trained_weights_drive_the_model(tmp_path):
    data = _corpus(tmp_path / "data")
    assert main(["train", "-q", str(data), "-o", str(tmp_path / "w.json")]) == 0
    model = create_model("fusion", weights=str(tmp_path / "w.json")).fit([])
    assert load_weights(tmp_path / "w.json").trees.roots.size > 0
    assert model.loaded_weights is load_weights(tmp_path / "w.json")


@pytest.mark.usefixtures("lightgbm")
def test_folds_hold_each_site_out_of_one_fold(tmp_path):
    data = _corpus(tmp_path / "data")
    assert main(["train", "-q", str(data), "--folds", "2", "--folds-dir", str(tmp_path / "folds")]) == 0
    folds = [load_weights(tmp_path / "folds" / f"fold-{k}.json") for k in range(2)]
    every = {"one.example", "two.example", "three.example"}
    for site in every:
        assert sum(site not in fold.trained_on for fold in folds) == 1
    assert set().union(*(fold.trained_on for fold in folds)) == every


def test_train_without_an_output_says_so(tmp_path, capsys):
    assert main(["train", str(_corpus(tmp_path / "data"))]) == 2
    assert "nothing to write" in capsys.readouterr().err


def test_train_without_lightgbm_names_the_extra_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "lightgbm", None)  # an import of it now fails, as where it is absent
    assert main(["train", "-q", str(_corpus(tmp_path / "data")), "-o", str(tmp_path / "w.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'scrapy-boilerplate-learner[train]'" in err
    assert not (tmp_path / "w.json").exists()


@pytest.mark.usefixtures("lightgbm")
def test_bench_scores_each_site_with_weights_that_never_saw_it(tmp_path):
    from scrapy_boilerplate.evaluation.bench import footnotes, run_model
    from scrapy_boilerplate.models.spec import ModelSpec

    data = _corpus(tmp_path / "data")
    assert main(["train", "-q", str(data), "-o", str(tmp_path / "w.json")]) == 0
    assert main(["train", "-q", str(data), "--folds", "2", "--folds-dir", str(tmp_path / "folds")]) == 0
    trained_here = run_model(data, ModelSpec("fusion", {"weights": str(tmp_path / "w.json")}), 20, None)
    assert trained_here.label.endswith("[in-sample]")
    assert "3 of 3 sites were in its weights' training data" in footnotes([trained_here])[0]
    held_out = run_model(data, ModelSpec("fusion"), 20, None, folds=tmp_path / "folds")
    assert held_out.label == "fusion [cv]"
    assert "cross-validated by site" in held_out.note
    assert held_out.all.n == 12
