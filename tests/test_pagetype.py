"""The page-type classifier: pages of every type told right, why, and the weights format."""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers.typed_pages import BUILDERS

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.fusion.weights import SHIPPED as FUSION_WEIGHTS
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.pagetype import NO_CONTENT, PAGE_TYPES
from scrapy_boilerplate.pagetype.classify import PageTypeClassifier, classify_page
from scrapy_boilerplate.pagetype.signals import read_signals
from scrapy_boilerplate.pagetype.weights import SHIPPED, PageTypeWeights, load_page_type_weights


# A page with no main content is left out: the classifier learned that type from 21 pages and tells
# a quarter of them (benchmarks/README.md, "Page types"); the script-drawn page of the helpers reads
# as a listing.
@pytest.mark.parametrize("label", [label for label in PAGE_TYPES if label != NO_CONTENT])
def test_a_page_of_each_type_is_told_right(label):
    url, html = BUILDERS[label]("riverside.example", 3)
    found = classify_page(Page(html, url))
    assert found.label == label, found.probabilities
    assert sum(found.probabilities.values()) == pytest.approx(1.0)


def test_a_saved_page_is_told_by_the_address_it_declares():
    url, html = BUILDERS["forum"]("riverside.example", 4)
    saved = html.replace("<head>", f'<head><link rel="canonical" href="{url}">')
    assert classify_page(Page(saved, "file:///tmp/page.html")).label == "forum"


def test_the_reasons_raise_the_type_and_name_the_telling_words():
    classifier = PageTypeClassifier()
    url, html = BUILDERS["forum"]("riverside.example", 5)
    signals = read_signals(Page(html, url))
    reasons = classifier.explain(signals, "forum")
    assert reasons, "a forum page has reasons to be a forum"
    assert [reason.contribution for reason in reasons] == sorted((r.contribution for r in reasons), reverse=True)
    assert all(reason.contribution > 0 for reason in reasons)
    told = [word for reason in reasons for word in reason.words]
    assert told and all(word in signals.words for word in told)
    assert all(reason.describe().endswith(f"{reason.contribution:+.2f}") for reason in reasons)


def test_the_shipped_weights_load_and_are_small():
    weights = load_page_type_weights()
    assert len(weights.trees) == len(PAGE_TYPES)
    assert SHIPPED.stat().st_size < 1_000_000


def _document():
    return json.loads(SHIPPED.read_bytes())


@pytest.mark.parametrize(
    "damage",
    [
        lambda doc: doc.update(format="scrapy-boilerplate/fusion-weights"),
        lambda doc: doc.update(version=99),
        lambda doc: doc.update(types=doc["types"][:-1]),
        lambda doc: doc["features"].reverse(),
        lambda doc: doc["trees"].pop(),
        lambda doc: doc["trees"][0]["left"].pop(),
        lambda doc: doc["trees"][0]["feature"].__setitem__(0, 10**6),
        lambda doc: doc["evidence"].pop("roles"),
        lambda doc: doc["evidence"]["roles"]["weights"].pop(),
    ],
    ids=["foreign format", "version", "types", "features", "trees", "tree arrays", "feature index", "kinds", "weights"],
)
def test_a_foreign_or_damaged_document_is_refused(damage):
    document = _document()
    damage(document)
    with pytest.raises(ModelFormatError):
        PageTypeWeights.from_json(document)


def test_a_fusion_file_or_a_truncated_file_is_refused(tmp_path):
    with pytest.raises(ModelFormatError, match="not a page-type weights file"):
        load_page_type_weights(FUSION_WEIGHTS)
    truncated = tmp_path / "truncated.json"
    truncated.write_bytes(SHIPPED.read_bytes()[:5000])
    with pytest.raises(ModelFormatError, match="cannot read"):
        load_page_type_weights(truncated)
    with pytest.raises(ModelFormatError, match="no page-type weights"):
        load_page_type_weights(tmp_path / "missing.json")


def test_weights_read_back_give_the_same_probabilities():
    weights = load_page_type_weights()
    again = PageTypeWeights.from_json(json.loads(weights.dumps()))
    pages = [Page(html, url) for url, html in (build("again.example", 1) for build in BUILDERS.values())]
    rows = weights.features([read_signals(page) for page in pages])
    assert np.array_equal(weights.probabilities(rows), again.probabilities(rows))
