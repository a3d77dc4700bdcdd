"""block_dup and entropy on synthetic multi-page sites: templates go, articles stay."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.corpus import find_sites
from scrapy_boilerplate.evaluation.metric import score_text
from scrapy_boilerplate.models import available_models
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.offline import process_site
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site, write_corpus

SPECS = ["block_dup", "block_dup:variant=paper", "entropy"]


def test_both_models_are_registered():
    assert {"block_dup", "entropy"} <= set(available_models())


@pytest.mark.parametrize("spec", SPECS)
def test_each_site_of_a_corpus_is_fitted_on_its_own_template(spec, tmp_path):
    write_corpus(str(tmp_path), {"alpha.example": 8, "beta.example": 8, "gamma.example": 6}, seed=7)
    for site in find_sites(tmp_path):
        outcome = process_site(site, ModelSpec.parse(spec), sample_size=20)
        assert outcome.model == spec.split(":")[0] and outcome.failures == 0
        for page in outcome.pages:
            gold = page.path.with_suffix(".txt").read_text(encoding="utf-8")
            assert score_text(page.text, gold).r > 0.9
            assert f"Copyright {site.name}" not in page.text
            assert "We use cookies" not in page.text


@pytest.mark.parametrize("spec", SPECS)
def test_pages_beyond_the_sample_lose_the_template(spec):
    synthetic = make_site("unseen.example", 12, seed=4)
    model = ModelSpec.parse(spec).create().fit([Page(s.html) for s in synthetic[:8]])
    for truth in synthetic[8:]:
        cleaned = model.clean(Page(truth.html))
        assert score_text(cleaned.text, truth.article_text).r > 0.9
        lines = set(cleaned.text.splitlines())
        for template_text in truth.template_texts:
            assert template_text not in lines


def test_improved_block_dup_drops_unique_link_lists_and_stray_blocks():
    def page(i: int) -> Page:
        return Page(
            f"<html><body><div class='byline'>Filed at {i} o'clock</div>"
            "<div><p>Shared header line</p><p>Another shared line</p><p>Menu of the site, long enough "
            "to matter for the run of kept blocks and shared on every page</p></div>"
            f"<div class='story'><h1>Headline {i}</h1><p>Article {i} body text that is long and unique to page {i}.</p>"
            f"<p>Second paragraph {i} of the article, unique to this page {i}.</p>"
            f"<ul><li><a href='/r{i}'>Related story {i}</a></li></ul></div></body></html>"
        )

    sample = [page(i) for i in range(4)]
    paper = ModelSpec.parse("block_dup:variant=paper").create().fit(sample).clean(sample[0])
    improved = ModelSpec.parse("block_dup").create().fit(sample).clean(sample[0])
    for text in ("Filed at 0", "Related story 0", "Article 0 body"):
        assert text in paper.text
    assert "Article 0 body" in improved.text and "Second paragraph 0" in improved.text
    assert "Related story 0" not in improved.text and "Filed at 0" not in improved.text
    reasons = [d.reason for d in improved.decisions if not d.kept]
    assert any("links 1.00 >= 0.5" in r for r in reasons)
    assert any("outside the main run" in r for r in reasons)
