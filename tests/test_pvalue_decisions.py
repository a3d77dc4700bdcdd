"""pvalue explains its cleaning: one kept region plus the removed regions around and inside it."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.html import normalize_space, to_text
from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

ARTICLE = " ".join(f"Sentence {i} of the council report on the river bridge repairs." for i in range(30))
LINKED_PAGE = f"""<html><body>
<nav><a href="/a">Home</a> <a href="/b">World</a> <a href="/c">Sport</a></nav>
<div id="main"><h1>Bridge repairs</h1><p>{ARTICLE}</p><p>{ARTICLE}</p>
<ul class="tags"><li><a href="/t/1">bridges</a></li><li><a href="/t/2">rivers</a></li></ul></div>
<form><label>Search the archive</label><input name="q"></form>
<footer>Copyright Example News</footer></body></html>"""


def _element(page: Page, path: str):
    found = page.tree.getroottree().xpath(path)
    assert len(found) == 1, path
    return found[0]


@pytest.mark.parametrize("variant", ["improved", "paper"])
def test_every_decision_points_at_the_page_tree_and_matches_the_output(variant):
    model = create_model("pvalue", variant=variant).fit([])
    for synthetic in make_site("explain.example", 4, seed=5):
        page = Page(synthetic.html)
        cleaned = model.clean(page)
        kept = [d for d in cleaned.decisions if d.kept]
        removed = [d for d in cleaned.decisions if not d.kept]
        assert len(kept) == 1 and removed
        text = normalize_space(cleaned.text)
        kept_region = normalize_space(to_text(_element(page, kept[0].path)))
        assert all(normalize_space(line) in kept_region for line in cleaned.text.splitlines())
        for decision in removed:
            region = normalize_space(to_text(_element(page, decision.path)))
            assert region and region not in text, decision
        outside = " ".join(normalize_space(to_text(_element(page, d.path))) for d in removed)
        for template_text in synthetic.template_texts:
            assert template_text in outside  # nav, sidebar, footer, cookie banner are all explained
        assert all(any(term in d.reason for term in ("P = ", "link density", "never main text")) for d in removed)


def test_dropped_link_lists_and_step_one_tags_are_explained():
    page = Page(LINKED_PAGE)
    cleaned = create_model("pvalue").fit([]).clean(page)
    reasons = {_element(page, d.path).tag: d.reason for d in cleaned.decisions if not d.kept}
    assert "link density" in reasons["li"] and "bridges" not in cleaned.text
    assert "<form> is never main text" in reasons["form"]
    assert "outside the main region: P = " in reasons["nav"] and "outside" in reasons["footer"]
    kept = [d for d in cleaned.decisions if d.kept]
    assert kept[0].reason.startswith("main text: max P = ")
    assert _element(page, kept[0].path).get("id") == "main"
