"""``fusion``: the shipped weights on hand-made sites, inference against LightGBM, weights files, training."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scrapy_boilerplate.evaluation.metric import score_text
from scrapy_boilerplate.models import ModelFormatError, create_model, dump_model, load_model
from scrapy_boilerplate.models.fusion.trees import TreeEnsemble
from scrapy_boilerplate.models.fusion.weights import FusionWeights, load_weights
from scrapy_boilerplate.page import Page

ARTICLES = [
    [
        "The city council voted on Tuesday to expand the harbour ferry service to three new stops.",
        "Officials said the first boats would run in the spring, once the piers have been rebuilt.",
        "Residents of the eastern districts have asked for the service for more than a decade.",
        "The plan will be paid for by a regional transport grant and a small rise in fares.",
    ],
    [
        "A small bakery on the old market square has won the national bread prize this year.",
        "Its owner, who took over the shop from her father, bakes every loaf by hand before dawn.",
        "The judges praised the crust of her rye bread and the long, slow rise of the dough.",
        "She said the prize money would go toward a second oven and an apprentice.",
    ],
    [
        "Heavy rain flooded several roads in the valley overnight, and two bridges were closed.",
        "The weather service expects the river to peak on Thursday afternoon before it recedes.",
        "Farmers along the banks moved their animals to higher ground as the water rose.",
        "Volunteers filled sandbags at the fire station until well after midnight.",
    ],
    [
        "The university opened a new library wing with room for two thousand readers at once.",
        "Architects kept the original stone facade and added a glass reading hall behind it.",
        "Students will be able to borrow laptops and book quiet rooms through a new website.",
        "The opening ceremony drew former staff, local writers and the mayor of the town.",
    ],
]
# A teaser that reads like prose but repeats on every page of the site: template, not article.
TEASER = (
    "Our editors have picked the stories that everyone in the region was reading this week, from the "
    "changes to the school calendar to the long debate about the new bus lanes in the centre of town."
)


def _page(site: str, number: int, article: list[str]) -> Page:
    paragraphs = "".join(f"<p>{text}</p>" for text in article)
    html = f"""<html><head><title>Story {number} - {site}</title></head><body>
    <div class="masthead"><a href="/">{site}</a> <a href="/news">News</a> <a href="/sport">Sport</a></div>
    <ul class="menu"><li><a href="/a">Politics</a></li><li><a href="/b">Business</a></li><li><a href="/c">Culture</a></li></ul>
    <div class="story"><h1>Story number {number} from {site}</h1>{paragraphs}</div>
    <div class="picks"><h3>Editors' picks</h3><p>{TEASER}</p></div>
    <div class="footer">Copyright {site}. All rights reserved. <a href="/privacy">Privacy</a></div>
    </body></html>"""
    return Page(html, f"https://{site}/story/{number}")


def _site(name: str) -> list[Page]:
    return [_page(name, i, ARTICLES[i % len(ARTICLES)]) for i in range(len(ARTICLES))]


@pytest.mark.parametrize("site", ["harbour.example", "valley.example"])
def test_site_features_remove_a_repeated_teaser_that_reads_like_prose(site):
    pages = _site(site)
    model = create_model("fusion").fit(pages)
    for page, article in zip(pages, ARTICLES, strict=True):
        cleaned = model.clean(page)
        assert score_text(cleaned.text, " ".join(article)).r > 0.95
        assert "editors have picked" not in cleaned.text


@pytest.mark.parametrize("site", ["harbour.example", "valley.example"])
def test_a_single_page_still_gives_its_article(site):
    pages = _site(site)
    for regime in (create_model("fusion").fit(pages[:1]), create_model("fusion", site_features=False).fit(pages)):
        for page, article in zip(pages, ARTICLES, strict=True):
            cleaned = regime.clean(page)
            assert score_text(cleaned.text, " ".join(article)).r > 0.95
            assert "All rights reserved" not in cleaned.text


def test_each_decision_names_the_probability_and_the_features_that_moved_it():
    pages = _site("harbour.example")
    cleaned = create_model("fusion").fit(pages).clean(pages[0])
    assert len(cleaned.decisions) >= 6
    for decision in cleaned.decisions:
        assert decision.reason.startswith("P(main) ")
        assert "moved most by" in decision.reason
    teaser = next(d for d in cleaned.decisions if d.chars == len(TEASER))
    assert not teaser.kept


def test_saved_site_state_cleans_identically(tmp_path):
    pages = _site("harbour.example")
    model = create_model("fusion").fit(pages)
    (tmp_path / "m.json").write_bytes(dump_model(model))
    again = load_model((tmp_path / "m.json").read_bytes())
    for page in pages:
        assert again.clean(page).text == model.clean(page).text
        assert [d.reason for d in again.clean(page).decisions] == [d.reason for d in model.clean(page).decisions]


@pytest.mark.slow
def test_bad_inputs_never_raise_out_of_clean():
    model = create_model("fusion").fit(_site("harbour.example"))
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


def test_weights_trained_on_other_features_are_refused():
    document = load_weights().to_json()
    document["features"] = document["features"][:-1] + ["something_else"]
    with pytest.raises(ModelFormatError, match="other features"):
        FusionWeights.from_json(document)
    document = load_weights().to_json()
    document["version"] = 99
    with pytest.raises(ModelFormatError, match="version"):
        FusionWeights.from_json(document)


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
    from scrapy_boilerplate.models.fusion.weights import SHIPPED

    assert SHIPPED.stat().st_size < 2_000_000
    assert json.loads(SHIPPED.read_bytes())["trained_on"]
