"""``fusion``'s site rules: learned from the sample, deciding most blocks of later pages as the model would,
pinned selectors winning from the first page, coverage dropping on another template, shown as selectors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapy_boilerplate import Page, create_model
from scrapy_boilerplate.cli import main
from scrapy_boilerplate.models import ModelFormatError, dump_model, load_model
from scrapy_boilerplate.store import DirectoryStore, StoredModel
from scrapy_boilerplate.testing.synthetic import make_site

SITE = make_site("news.example", 10, seed=1)


def fitted(**params) -> object:
    return create_model("fusion", **params).fit([Page(page.html) for page in SITE[:3]])


def listing(i: int) -> str:
    items = "".join(
        f'<div class="tile"><h2><a href="/p/{j}">Product {j}</a></h2><span>{j} EUR</span></div>' for j in range(12)
    )
    return (
        f'<html><head><title>Shop {i}</title></head><body><div class="shell"><div class="grid">{items}</div>'
        '<div class="pager"><a href="?p=2">Next page</a></div></div></body></html>'
    )


def test_a_learned_rule_decides_most_blocks_of_later_pages_and_gives_the_models_text() -> None:
    with_rules, without = fitted(), fitted(site_rules=False)
    coverages = []
    for page in SITE[3:]:
        cleaned = with_rules.clean(Page(page.html))
        assert cleaned.text == without.clean(Page(page.html)).text
        assert page.title in cleaned.text
        coverages.append(cleaned.coverage)
    assert min(coverages) >= 0.9
    assert without.clean(Page(SITE[5].html)).coverage is None  # no rules: no coverage to report


def test_inspect_says_which_blocks_the_rule_decided() -> None:
    page = Page(SITE[6].html)
    reasons = [decision.reason for decision in fitted().clean(page).decisions]
    assert sum(reason.startswith("site rule: removed") for reason in reasons) >= 10
    assert any(reason.startswith("site rule: kept") for reason in reasons)
    assert all(reason.startswith(("site rule: ", "P(main)")) for reason in reasons)


def test_another_template_drops_the_coverage() -> None:
    model = fitted()
    assert model.clean(Page(SITE[4].html)).coverage >= 0.9
    assert model.clean(Page(listing(1))).coverage <= 0.2


def test_a_pinned_selector_wins_over_the_learned_rule_from_the_first_page() -> None:
    title = SITE[4].title
    pinned = {"boilerplate": ["article.post h1"], "content": ["div.related li"]}
    first = create_model("fusion", pinned=pinned).fit([])  # no sample yet: the single-page regime
    cleaned = first.clean(Page(SITE[4].html))
    assert title not in cleaned.text and "Related" not in cleaned.text
    related = [
        t for t in SITE[4].html.split('<div class="related">')[1].split("</ul>")[0].split(">") if t.endswith("</a")
    ]
    assert related and all(text[: -len("</a")] in cleaned.text for text in related)
    learned = fitted(pinned=pinned)
    later = learned.clean(Page(SITE[4].html))
    assert title not in later.text and title in fitted().clean(Page(SITE[4].html)).text
    assert later.coverage >= 0.9


def test_rules_save_and_load_with_the_model() -> None:
    model = fitted(pinned={"boilerplate": ["div.comments"]})
    again = load_model(dump_model(model))
    page = Page(SITE[7].html)
    assert again.clean(page).text == model.clean(page).text
    assert again.clean(page).coverage == model.clean(page).coverage
    document = json.loads(dump_model(model))
    assert document["state"]["rule"]["pages"] == 3
    del document["state"]["rule"]  # a model saved before site rules: loads, without a rule
    before = load_model(json.dumps(document).encode()).clean(page)
    assert before.text == model.clean(page).text
    assert before.coverage < 0.2 < model.clean(page).coverage  # only the pinned selector decides there
    document["state"]["rule"] = {"votes": "nonsense"}
    with pytest.raises(ModelFormatError):
        load_model(json.dumps(document).encode())


def test_models_show_prints_the_rule_as_css_selectors(tmp_path: Path, capsys) -> None:
    model = fitted(pinned={"content": ["div.entry"]})
    DirectoryStore(tmp_path / "models").put(StoredModel.new("news", "news.example", model, 3))
    assert main(["models", "show", "--store", str(tmp_path / "models"), "news", "news.example"]) == 0
    rules = json.loads(capsys.readouterr().out)["site_rules"]
    content = {rule["selector"]: rule for rule in rules["content"]}
    assert "body > div.wrap > div.main > article.post > div.entry > p" in content
    assert content["body > div.wrap > div.main > article.post > div.entry > p"]["pages"] == "3 of 3"
    not_content = [rule["selector"] for rule in rules["boilerplate"]]
    assert "body > header > nav > ul > li" in not_content and "body > div#cookie-banner" in not_content
    assert all(rule["confidence"] == 1.0 for rule in rules["content"] + rules["boilerplate"])
    assert rules["pinned"] == {"content": ["div.entry"], "boilerplate": []}
