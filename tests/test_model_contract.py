"""The contract every registered site model keeps; runs over the whole registry."""

from __future__ import annotations

import json
import re

import lxml.html
import pytest

from scrapy_boilerplate.evaluation.metric import mean_score, score_text
from scrapy_boilerplate.models import (
    ModelFormatError,
    NotFittedError,
    UnknownModelError,
    available_models,
    create_model,
    dump_model,
    get_model_class,
    load_model,
    read_model,
    save_model,
)
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

MODELS = available_models()
BAD_PAGES = [
    "",
    "\x00\x01\x02" * 300,
    "<html><body><div><p>unclosed <b>tags <table><tr><td>cell",
    "<html><body>" + "<div>" * 3000 + "deep" + "</div>" * 3000 + "</body></html>",
    "plain text with no markup at all",
]


def site_pages(name: str = "contract.example", n: int = 8, seed: int = 3) -> tuple[list[Page], list]:
    synthetic = make_site(name, n, seed=seed)
    return [Page(s.html, s.url) for s in synthetic], synthetic


def test_registry_lists_the_built_in_models():
    assert "pvalue" in MODELS
    with pytest.raises(UnknownModelError, match="choose one of"):
        create_model("no-such-model")


@pytest.mark.parametrize("name", MODELS)
def test_clean_refuses_before_fit(name):
    pages, _ = site_pages()
    with pytest.raises(NotFittedError, match="not fitted"):
        create_model(name).clean(pages[0])


@pytest.mark.parametrize("name", MODELS)
def test_fit_returns_self_and_clean_keeps_the_article(name):
    pages, synthetic = site_pages()
    model = create_model(name)
    assert model.fit(pages) is model
    scores = []
    for page, truth in zip(pages, synthetic, strict=True):
        cleaned = model.clean(page)
        assert cleaned.model == name
        scores.append(score_text(cleaned.text, truth.article_text))
        assert "Copyright contract.example" not in cleaned.text
        assert 0.0 <= cleaned.removed_share <= 1.0
        assert cleaned.kept_chars <= cleaned.total_chars
    assert mean_score(scores).f1 > 0.9  # keeping every word of these pages scores 0.78


@pytest.mark.parametrize("name", MODELS)
def test_clean_never_mutates_its_input(name):
    pages, _ = site_pages()
    model = create_model(name).fit(pages)
    before = [lxml.html.tostring(p.tree) for p in pages]
    html_before = [p.html for p in pages]
    for page in pages:
        model.clean(page)
    assert [lxml.html.tostring(p.tree) for p in pages] == before
    assert [p.html for p in pages] == html_before


@pytest.mark.parametrize("name", MODELS)
def test_save_load_round_trip_cleans_identically(name, tmp_path):
    pages, _ = site_pages()
    unseen, _ = site_pages(n=3, seed=4)
    model = create_model(name).fit(pages)
    path = tmp_path / f"{name}.json"
    save_model(model, path)
    loaded = read_model(path, type(model))
    assert loaded.get_params() == model.get_params()
    for page in pages + unseen:
        assert loaded.clean(page).text == model.clean(page).text
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["model"] == name and document["version"] == model.format_version


@pytest.mark.parametrize("name", MODELS)
def test_load_rejects_damaged_or_foreign_files(name):
    pages, _ = site_pages()
    data = json.loads(dump_model(create_model(name).fit(pages)))
    with pytest.raises(ModelFormatError):
        load_model(b"\x80not json")
    with pytest.raises(ModelFormatError):
        load_model(json.dumps({**data, "format": "pickle"}).encode())
    with pytest.raises(ModelFormatError, match="version"):
        load_model(json.dumps({**data, "version": 999}).encode())
    with pytest.raises(ModelFormatError):
        load_model(json.dumps({**data, "model": "nope"}).encode())
    with pytest.raises(ModelFormatError):
        load_model(json.dumps({**data, "params": {"no_such_param": 1}}).encode())
    with pytest.raises(ModelFormatError):
        load_model(json.dumps({**data, "state": "garbage"}).encode())


def damaged_documents(data: bytes) -> list[bytes]:
    """Damage that JSON parses but a loader may trip on: each raised something other than
    ``ModelFormatError`` once (a 4,301-digit integer, a list for the model name, an array shape of
    +-1e400 or -Infinity, an ngram cut of +-Infinity, deep nesting)."""
    document = json.loads(data)
    damaged = [
        data.replace(b'"version":', b'"version":' + b"7" * 4301 + b',"was":', 1),
        json.dumps({**document, "model": [document["model"]]}).encode(),
        data.replace(b'"state":', b'"state":' + b"[" * 100_000 + b"]" * 100_000 + b',"was":', 1),
    ]
    for shape in (b"1e400", b"-1e400", b"-Infinity"):
        damaged.append(re.sub(rb'"shape":\[\d+', b'"shape":[' + shape, data, count=1))
    if isinstance(document["state"].get("cut"), dict):
        for value in ("inf", "-inf"):
            cut = {**document["state"]["cut"], "n": float(value)}
            damaged.append(json.dumps({**document, "state": {**document["state"], "cut": cut}}).encode())
    return [d for d in damaged if d != data]


@pytest.mark.parametrize("name", MODELS)
def test_load_raises_only_model_format_error_for_values_json_allows(name):
    pages, _ = site_pages()
    data = dump_model(create_model(name).fit(pages))
    for damaged in damaged_documents(data):
        with pytest.raises(ModelFormatError):
            load_model(damaged)


def test_unfitted_model_cannot_be_saved():
    with pytest.raises(ValueError, match="unfitted"):
        dump_model(create_model("pvalue"))
    with pytest.raises(NotFittedError):
        create_model("entropy").get_state()


def test_a_file_of_another_model_is_refused_by_name(tmp_path):
    pages, _ = site_pages()
    save_model(create_model("entropy").fit(pages), tmp_path / "m.json")
    assert read_model(tmp_path / "m.json").name == "entropy"
    with pytest.raises(ModelFormatError, match="is a saved entropy model, not BlockDupModel"):
        read_model(tmp_path / "m.json", get_model_class("block_dup"))


def test_set_state_restores_a_fitted_model_from_another_ones_state():
    pages, _ = site_pages()
    unseen, _ = site_pages(n=3, seed=4)
    model = create_model("block_dup").fit(pages)
    state, arrays = model.get_state()
    again = create_model("block_dup").set_state(state, arrays)
    assert again.is_fitted
    assert [again.clean(page).text for page in unseen] == [model.clean(page).text for page in unseen]


@pytest.mark.parametrize("name", MODELS)
def test_bad_pages_do_not_crash_fit_or_clean(name):
    pages, _ = site_pages()
    bad = [Page(text) for text in BAD_PAGES]
    model = create_model(name).fit(pages + bad)
    for page in bad + pages[:2]:
        cleaned = model.clean(page)
        assert isinstance(cleaned.text, str)


# Pages whose text holds control characters that lxml refuses to write back into a tree: each is
# the smallest found that made a model's clean raise, on the page (or tail) it moves or removes.
CONTROL_CHARACTER_PAGES = ["<a></a>\x01", "<aside></aside>\x08", "<div class=comment></div>\x01"]


@pytest.mark.parametrize("name", MODELS)
def test_control_characters_never_make_clean_raise(name):
    pages, synthetic = site_pages()
    model = create_model(name).fit(pages)
    for html in CONTROL_CHARACTER_PAGES:
        assert isinstance(model.clean(Page(html, "http://contract.example/x")).text, str)
    with_controls = synthetic[0].html.replace("<p>", '<div class="comments"><p>c</p></div>\x01<p>')
    assert score_text(model.clean(Page(with_controls)).text, synthetic[0].article_text).r > 0.8


@pytest.mark.parametrize("name", MODELS)
def test_tiny_samples_do_not_crash(name):
    pages, _ = site_pages(n=3)
    for sample in ([], pages[:1]):
        model = create_model(name).fit(sample)
        assert isinstance(model.clean(pages[2]).text, str)
