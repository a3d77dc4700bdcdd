"""``fusion``: the shipped weights on hand-made sites, inference against LightGBM, weights files, training."""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers.fusion_pages import ARTICLES, TEASER, news_site

from scrapy_boilerplate.evaluation.metric import score_text
from scrapy_boilerplate.models import ModelFormatError, create_model, dump_model, load_model
from scrapy_boilerplate.models.fusion.trees import TreeEnsemble
from scrapy_boilerplate.models.fusion.weights import SHIPPED, FusionWeights, load_weights
from scrapy_boilerplate.page import Page


@pytest.mark.parametrize("site", ["harbour.example", "valley.example"])
def test_site_features_remove_a_repeated_teaser_that_reads_like_prose(site):
    pages = news_site(site)
    model = create_model("fusion").fit(pages)
    for page, article in zip(pages, ARTICLES, strict=True):
        cleaned = model.clean(page)
        assert score_text(cleaned.text, " ".join(article)).r > 0.95
        assert "editors have picked" not in cleaned.text


@pytest.mark.parametrize("site", ["harbour.example", "valley.example"])
def test_a_single_page_still_gives_its_article(site):
    pages = news_site(site)
    for regime in (create_model("fusion").fit(pages[:1]), create_model("fusion", site_features=False).fit(pages)):
        for page, article in zip(pages, ARTICLES, strict=True):
            cleaned = regime.clean(page)
            assert score_text(cleaned.text, " ".join(article)).r > 0.95
            assert "All rights reserved" not in cleaned.text


def test_each_decision_names_the_probability_and_the_features_that_moved_it():
    pages = news_site("harbour.example")
    cleaned = create_model("fusion", site_rules=False).fit(pages).clean(pages[0])  # every block through the trees
    assert len(cleaned.decisions) >= 6
    for decision in cleaned.decisions:
        assert decision.reason.startswith("P(main) ")
        assert "moved most by" in decision.reason
    teaser = next(d for d in cleaned.decisions if d.chars == len(TEASER))
    assert not teaser.kept


def test_saved_site_state_cleans_identically(tmp_path):
    pages = news_site("harbour.example")
    model = create_model("fusion").fit(pages)
    (tmp_path / "m.json").write_bytes(dump_model(model))
    again = load_model((tmp_path / "m.json").read_bytes())
    for page in pages:
        assert again.clean(page).text == model.clean(page).text
        assert [d.reason for d in again.clean(page).decisions] == [d.reason for d in model.clean(page).decisions]


@pytest.mark.slow
def test_bad_inputs_never_raise_out_of_clean():
    model = create_model("fusion").fit(news_site("harbour.example"))
    huge = "<html><body>" + "<p>A line of text that goes on.</p>" * (20_000_000 // 34) + "</body></html>"
    deep = "<html><body>" + "<div>" * 100_000 + "deep" + "</div>" * 100_000 + "</body></html>"
    for html in ["", "\x00\xff\x01" * 1000, huge, deep, "<p>only a paragraph"]:
        cleaned = model.clean(Page(html))
        assert cleaned.kept_chars <= max(cleaned.total_chars, len(cleaned.text))


def test_contributions_add_up_to_the_score():
    weights = load_weights()
    rng = np.random.default_rng(0)
    features = rng.normal(size=(50, len(weights.names)))
    features[rng.random(features.shape) < 0.2] = np.nan
    moved, start = weights.trees.contributions(features)
    assert np.allclose(moved.sum(axis=1) + start, weights.trees.raw_scores(features))


def test_weights_name_their_features_and_site_parts():
    document = json.loads(SHIPPED.read_bytes())
    assert document["version"] == 2
    assert [feature["name"] for feature in document["features"]] == [
        "block_cues",
        "site_pages",
        "style_tree",
        "block_dup",
        "entropy",
        "role_words",
        "sibling_groups",
        "page_shape",
    ]
    assert document["parts"] == ["style_tree", "block_dup", "entropy"]
    assert {"sst_importance", "dup_cosine", "term_entropy"} <= set(load_weights().names)


def _roles(document: dict) -> dict:
    return next(entry for entry in document["features"] if entry["name"] == "role_words")


def _changed(change) -> dict:
    document = load_weights().to_json()
    change(document)
    return document


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["features"].append({"name": "page_type", "columns": ["p_forum"]}),
            "'page_type', which this release does not compute",
        ),
        (lambda d: d["features"][0]["columns"].pop(), "other 'block_cues' columns"),
        (lambda d: _roles(d)["columns"].__setitem__(0, "not_a_role"), "role_<word>"),
        (lambda d: _roles(d)["columns"].append("role_one_too_many"), "65 role words, over 64"),
        (lambda d: d["features"].pop(0), "lack the columns .*words_log"),
        (lambda d: d["parts"].pop(), "site parts"),
        (lambda d: d.update(version=99), "version 99 is not supported"),
        (lambda d: d.update(format="scrapy-boilerplate/model"), "not a fusion weights file"),
    ],
)
def test_weights_this_release_cannot_read_are_refused_saying_why(change, message):
    with pytest.raises(ModelFormatError, match=message):
        FusionWeights.from_json(_changed(change))


def _first_format_weights() -> FusionWeights:
    """The shipped trees over the first format's features alone (splits on later features moved onto them)."""
    document = load_weights().to_json()
    document["features"] = [entry for entry in document["features"] if entry["name"] in _FIRST_FORMAT]
    width = sum(len(entry["columns"]) for entry in document["features"])
    document["trees"]["feature"] = [index % width if index >= 0 else index for index in document["trees"]["feature"]]
    return FusionWeights.from_json(document)


_FIRST_FORMAT = ("block_cues", "site_pages", "style_tree", "block_dup", "entropy", "role_words")


def test_weights_of_the_first_format_still_load_as_the_same_trees():
    weights = _first_format_weights()
    roles = weights.layout.to_json()[-1]["columns"]
    first = {**weights.to_json(), "version": 1, "features": weights.names, "vocabulary": [c[5:] for c in roles]}
    del first["parts"]
    assert FusionWeights.from_json(first).dumps() == weights.dumps()
    first["features"] = first["features"][:-1] + ["something_else"]
    with pytest.raises(ModelFormatError, match="other features"):
        FusionWeights.from_json(first)


def test_trees_pointing_outside_themselves_are_refused():
    trees = load_weights().trees.to_json()
    trees["left"][trees["roots"][0]] = 10**9
    with pytest.raises(ModelFormatError, match="outside"):
        TreeEnsemble.from_json(trees, len(load_weights().names))


def test_an_infinite_split_threshold_is_refused():
    # the walk reads a missing value as -inf or +inf to route it: a finite threshold must separate them
    document = load_weights().to_json()
    inner = next(i for i, feature in enumerate(document["trees"]["feature"]) if feature >= 0)
    document["trees"]["threshold"][inner] = float("inf")
    with pytest.raises(ModelFormatError, match="finite"):
        FusionWeights.from_json(document)


def test_shipped_weights_stay_small():
    assert SHIPPED.stat().st_size < 2_000_000
    assert json.loads(SHIPPED.read_bytes())["trained_on"]
