"""entropy (InfoDiscoverer, Lin & Ho) from the paper's definitions, on hand-made pages."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from scrapy_boilerplate.models import ModelFormatError, dump_model, load_model, read_model, save_model
from scrapy_boilerplate.models.blocks.entropy import EntropyModel, block_entropy, feature_entropies, greedy_threshold
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

NAV = "<ul><li>Home</li><li>World</li><li>Sport</li></ul>"


def page(article: str, nav: str = NAV) -> Page:
    return Page(f"<html><body>{nav}<div>{article}</div></body></html>")


def test_feature_entropy_is_normalised_over_the_pages():
    h = feature_entropies(
        [
            Counter({"a": 2, "b": 1}),
            Counter({"a": 2}),
            Counter({"c": 1, "e": 1}),
        ]
    )
    # "a" splits 1/2, 1/2 over d = 3 pages: -2 * 0.5 * log_3 0.5 = log 2 / log 3
    assert h["a"] == pytest.approx(math.log(2) / math.log(3))
    assert h["b"] == 0.0 and h["c"] == 0.0
    even = feature_entropies([Counter({"x": 1}), Counter({"x": 1}), Counter({"x": 1})])
    assert even["x"] == pytest.approx(1.0)
    assert feature_entropies([Counter({"x": 3})]) == {"x": 0.0}


def test_block_entropy_is_the_mean_over_distinct_features_and_unseen_terms_count_zero():
    h = {"a": 0.6, "b": 0.0, "c": 1.0}
    assert block_entropy(["a", "b", "b"], h) == pytest.approx(0.3)
    assert block_entropy(["c", "new"], h) == pytest.approx(0.5)
    assert block_entropy([], h) is None


def test_greedy_threshold_rises_while_informative_features_grow():
    # 0.0 -> {x}; 0.1 -> {x, y}; 0.2 -> {x, y, z}; 0.3 adds nothing: stop at 0.2
    assert greedy_threshold(
        [(0.0, frozenset("x")), (0.05, frozenset("y")), (0.15, frozenset("z")), (0.9, frozenset("w"))]
    ) == pytest.approx(0.2)
    # nothing between 0 and 0.1: the search stops at once
    assert greedy_threshold([(0.0, frozenset("x")), (0.15, frozenset("y"))]) == 0.0
    # a block repeating known features adds no features, so it does not move the threshold
    assert greedy_threshold([(0.0, frozenset("xy")), (0.05, frozenset("x"))]) == 0.0


def test_template_blocks_are_redundant_and_articles_informative():
    sample = [
        page("<p>Storm floods harbour</p>"),
        page("<p>Council passes budget</p>"),
        page("<p>Museum reopens doors</p>"),
    ]
    model = EntropyModel(variant="paper").fit(sample)
    # nav terms appear once on each of the 3 pages: entropy 1; article terms on one page: 0.
    assert model.threshold_ == 0.0
    cleaned = model.clean(sample[1])
    assert cleaned.text == "Council passes budget"
    reasons = [d.reason for d in cleaned.decisions]
    assert reasons.count("entropy 1.00 > threshold 0.00: redundant") == 3
    assert "entropy 0.00 <= threshold 0.00: informative" in reasons
    fresh = model.clean(page("<p>Brand new words here</p>"))
    assert fresh.text == "Brand new words here"


def test_partly_shared_blocks_against_a_fixed_threshold():
    # "storm" is on pages 1 and 2 (entropy log 2 / log 3 = 0.63), "harbour"/"river" on one page (0)
    sample = [page("<p>storm harbour</p>"), page("<p>storm river</p>"), page("<p>quiet day</p>")]
    loose = EntropyModel(variant="paper", threshold=0.4).fit(sample).clean(sample[0])
    assert "storm harbour" in loose.text  # mean (0.63 + 0) / 2 = 0.32 <= 0.4
    strict = EntropyModel(variant="paper", threshold=0.3).fit(sample).clean(sample[0])
    assert "storm harbour" not in strict.text
    assert "entropy 0.32 > threshold 0.30: redundant" in [d.reason for d in strict.decisions]


def test_table_partition_scores_whole_tables():
    def table_page(story: str) -> Page:
        return Page(
            "<html><body><table><tr><td>Home</td><td>World</td></tr></table>"
            f"<table><tr><td><p>{story}</p><p>{story[::-1]}</p></td></tr></table></body></html>"
        )

    sample = [table_page("alpha beta"), table_page("gamma delta"), table_page("epsilon zeta")]
    model = EntropyModel(variant="paper", partition="table").fit(sample)
    cleaned = model.clean(sample[0])
    assert [d.path for d in cleaned.decisions] == ["/html/body/table[1]", "/html/body/table[2]"]
    assert "alpha beta" in cleaned.text and "Home" not in cleaned.text


def test_round_trip_and_damaged_state(tmp_path):
    sample = [Page(s.html) for s in make_site("trip.example", 6, seed=2)]
    model = EntropyModel(variant="paper").fit(sample)
    save_model(model, tmp_path / "m.json")
    loaded = read_model(tmp_path / "m.json", EntropyModel)
    assert loaded.threshold_ == model.threshold_
    for p in sample + [Page(s.html) for s in make_site("other.example", 2, seed=1)]:
        assert loaded.clean(p).text == model.clean(p).text
    document = json.loads(dump_model(model))
    document["arrays"]["entropy"] = document["arrays"].get("post_keys", {})
    with pytest.raises(ModelFormatError):
        load_model(json.dumps(document).encode())
    document = json.loads(dump_model(model))
    document["state"]["threshold"] = 7
    with pytest.raises(ModelFormatError):
        load_model(json.dumps(document).encode())
