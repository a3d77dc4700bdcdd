"""style_tree on synthetic multi-page sites: the template goes, the article stays."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.evaluation.metric import score_text
from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import SyntheticPage, make_site

SITES = ["news.example", "blog.example", "shop.example"]


def pages_of(synthetic: list[SyntheticPage]) -> list[Page]:
    return [Page(s.html, s.url) for s in synthetic]


def template_left(text: str, truth: SyntheticPage) -> list[str]:
    """Template texts (navigation items, sidebar, footer, cookie banner) found in ``text``."""
    lines = set(text.splitlines())
    return [t for t in truth.template_texts if (t in lines or (" " in t and t in text)) and t not in truth.article_text]


@pytest.mark.parametrize("site", SITES)
def test_each_site_loses_its_template_and_keeps_its_articles(site):
    synthetic = make_site(site, 12, seed=7)
    model = create_model("style_tree").fit(pages_of(synthetic[:8]))
    for page, truth in zip(pages_of(synthetic), synthetic, strict=False):  # sampled and unseen pages alike
        cleaned = model.clean(page)
        assert score_text(cleaned.text, truth.article_text).r > 0.95
        assert template_left(cleaned.text, truth) == []
        assert cleaned.removed_share > 0.2


def test_models_of_two_sites_do_not_share_a_template():
    a, b = make_site("a.example", 6, seed=1), make_site("b.example", 6, seed=2)
    model_a = create_model("style_tree").fit(pages_of(a))
    cleaned = model_a.clean(pages_of(b)[0])  # b's template was never learned: possibly meaningful
    assert score_text(cleaned.text, b[0].article_text).r > 0.95


def deviating_site() -> tuple[list[Page], list[tuple[Page, SyntheticPage]]]:
    """A sample of the site's usual layout, and pages whose layout differs (sidebar first, banner)."""
    synthetic = make_site("drift.example", 20, seed=5)
    usual = [s for i, s in enumerate(synthetic) if i % 5 not in (1, 2)]
    odd = [s for i, s in enumerate(synthetic) if i % 5 in (1, 2)]
    return pages_of(usual), [(Page(s.html, s.url), s) for s in odd]


def test_a_page_whose_layout_deviates_from_the_sample_is_still_cleaned():
    sample, odd = deviating_site()
    model = create_model("style_tree").fit(sample)
    for page, truth in odd:
        cleaned = model.clean(page)
        assert score_text(cleaned.text, truth.article_text).r > 0.95
        assert template_left(cleaned.text, truth) == []


def test_the_paper_keeps_a_deviating_region_whole_as_possibly_meaningful():
    sample, odd = deviating_site()
    model = create_model("style_tree", variant="paper").fit(sample)
    page, truth = next((p, s) for p, s in odd if "sidebar" in s.html.split('class="wrap"')[1][:40])
    cleaned = model.clean(page)
    assert truth.template_texts[7] in cleaned.text  # a sidebar title: the swapped columns are unseen
    assert any("possibly meaningful" in d.reason for d in cleaned.decisions)


def comments_of(page: Page) -> list[str]:
    """The reader comments of a synthetic page."""
    return [p.text for p in page.tree.iterfind(".//div[@class='comment']/p")]


def test_improved_variant_also_drops_what_varies_but_is_not_the_article():
    synthetic = make_site("talk.example", 10, seed=9)
    pages = pages_of(synthetic)
    improved = create_model("style_tree").fit(pages)
    paper = create_model("style_tree", variant="paper").fit(pages)
    with_comments = [(p, s) for p, s in zip(pages, synthetic, strict=False) if comments_of(p)]
    assert with_comments
    for page, truth in with_comments:
        others = [s.title for s in synthetic if s is not truth]
        kept_by_paper = paper.clean(page).text
        cleaned = improved.clean(page)
        # Comments and related links change from page to page, so SST alone keeps them ...
        assert all(c in kept_by_paper for c in comments_of(page))
        assert any(title in kept_by_paper for title in others)
        # ... the improved variant drops them and keeps the article.
        assert not any(c in cleaned.text for c in comments_of(page))
        assert not any(title in cleaned.text for title in others)
        assert score_text(cleaned.text, truth.article_text).f1 > 0.95
        assert any(d.reason.startswith("main text inside the SST's keep") for d in cleaned.decisions)


def test_an_article_the_sample_repeats_is_still_found():
    synthetic = make_site("mirror.example", 3, seed=4)
    page = Page(synthetic[0].html, synthetic[0].url)
    model = create_model("style_tree").fit([Page(synthetic[0].html, f"{synthetic[0].url}?copy={i}") for i in range(5)])
    cleaned = model.clean(page)  # SST calls every part of it noise: it was identical on every page
    assert score_text(cleaned.text, synthetic[0].article_text).r > 0.95
    assert any("without the SST" in d.reason for d in cleaned.decisions)
