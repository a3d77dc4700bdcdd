"""Template grouping: a site's pages grouped by the skeleton of their markup, with a cap per site."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.templates import TemplateGroups, structure_signature
from scrapy_boilerplate.testing.synthetic import make_site


def signature(html: str) -> frozenset[int]:
    return structure_signature(Page(html).body)


def listing(i: int) -> str:
    items = "".join(
        f'<li class="card"><a href="/p/{j}">Product {j}</a><span class="price">{j} EUR</span></li>'
        for j in range(i, i + 12)
    )
    return (
        '<html><body><header class="top"><nav class="menu"><a href="/">Home</a></nav></header>'
        f'<main class="grid"><h1 class="title">Category {i}</h1><ul class="cards">{items}</ul>'
        '<div class="pager"><a href="?p=2">Next</a></div></main><footer class="foot">Shop</footer></body></html>'
    )


def test_articles_and_listings_of_one_site_are_two_templates() -> None:
    articles = [page.html for page in make_site("shop.example", 6, seed=3, variation=False)]
    listings = [listing(i) for i in range(4)]
    groups = TemplateGroups()
    assigned = groups.group(signature(html) for html in [*articles[:3], *listings[:2], *articles[3:], *listings[2:]])
    assert assigned[:3] == [0, 0, 0]
    assert assigned[3:5] == [1, 1]
    assert assigned[5:8] == [0, 0, 0]
    assert assigned[8:] == [1, 1]


def test_layout_variants_of_an_article_template_stay_one_template() -> None:
    # sidebar first on some pages, an extra banner on others: the same template drifting
    pages = make_site("news.example", 10, seed=1, variation=True)
    assert set(TemplateGroups().group(signature(page.html) for page in pages)) == {0}


def test_the_cap_holds_on_a_site_whose_every_page_differs() -> None:
    pages = []
    for i in range(30):
        nested = "".join(
            f'<div class="level{i}-{k}"><section class="s{k}-{i}x">text {k}</section></div>' for k in range(4)
        )
        pages.append(f'<html><body><div class="{chr(97 + i % 26)}wrap{"x" * i}">{nested}</div></body></html>')
    groups = TemplateGroups(cap=5)
    assigned = groups.group(signature(html) for html in pages)
    assert len(groups.signatures) == 5
    assert assigned[:5] == [0, 1, 2, 3, 4]
    assert assigned[5:] == [None] * 25  # past the cap a page has no template (cleaned without site evidence)


def test_state_round_trips_and_bad_state_is_refused() -> None:
    groups = TemplateGroups(cap=3)
    groups.group([signature(listing(0)), signature(make_site("a.example", 1)[0].html)])
    again = TemplateGroups.from_state(groups.state())
    assert again == groups
    assert again.assign(signature(listing(5))) == 0
    with pytest.raises(ModelFormatError):
        TemplateGroups.from_state({"cap": 1, "threshold": 0.7, "signatures": [[1], [2]]})
    with pytest.raises(ModelFormatError):
        TemplateGroups.from_state({"cap": 2})
