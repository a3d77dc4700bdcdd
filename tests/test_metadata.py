"""Title, author, publication date and language, as the page declares them; nothing guessed."""

from __future__ import annotations

import datetime

import pytest
from helpers.harbour_site import article_page

from scrapy_boilerplate.metadata import read_metadata
from scrapy_boilerplate.metadata.dates import parse_date
from scrapy_boilerplate.page import Page

ARTICLE_GRAPH = {
    "@context": "https://schema.org",
    "@graph": [
        {"@type": "WebSite", "@id": "https://harbour.example/#site", "name": "Harbour Notes"},
        {
            "@type": "NewsArticle",
            "headline": "Notes on tide tables",
            "datePublished": "2024-03-09T23:15:00-08:00",
            "author": [
                {"@id": "https://harbour.example/#/person/ana"},
                {"@type": "Organization", "name": "Harbour Notes"},
            ],
        },
        {"@type": "Person", "@id": "https://harbour.example/#/person/ana", "name": "Ana Pereira"},
    ],
}


def test_a_page_whose_json_ld_names_an_author_and_a_date_yields_both():
    found = read_metadata(article_page(0, ARTICLE_GRAPH))
    # the person behind the reference, not the organisation; the date as written, not moved to UTC
    assert (found.author, found.published) == ("Ana Pereira", "2024-03-09")
    assert (found.title, found.language) == ("Notes on tide tables", "en-GB")
    assert found.sources == {"title": "h1", "author": "json-ld", "published": "json-ld", "language": "html"}


PRODUCT = """<html lang="de"><head><title>Brass ship lamp - Harbour Shop</title>
<meta property="og:title" content="Brass ship lamp | Harbour Shop"><meta property="og:site_name" content="Harbour Shop">
<script type="application/ld+json">{"@type": "Product", "name": "Brass ship lamp", "offers": {"price": "80"}}</script>
</head><body><nav><a href="/">Shop</a></nav><div class="product"><h1>Brass ship lamp</h1><p class="price">80 EUR</p>
<p>A lamp of solid brass, made in the harbour's workshop since 1931.</p></div>
<section class="reviews"><h2>Reviews</h2><div class="review"><span class="review-date">March 3, 2024</span>
<span class="author">Tom</span><p>Bright and sturdy.</p></div></section>
<footer><p class="updated">Page updated 2024-05-01</p></footer></body></html>"""


def test_a_page_without_a_date_yields_none():
    found = read_metadata(Page(PRODUCT, "https://shop.example/lamp"))
    # the review's date and its author sit far from the headline: they are not the page's
    assert found.published is None and found.author is None
    assert (found.title, found.language) == ("Brass ship lamp", "de")


def test_the_byline_beside_the_headline_gives_the_date_and_the_author():
    html = """<html><body><div class="menu">Posted 2019-01-01</div><main><header><h1>Gull census results</h1>
    <p class="byline">By <a rel="author" href="/people/mo">Mo Wilson</a> | <time datetime="2023-11-02T08:00">2 Nov</time></p>
    </header><p>Counting gulls took three days.</p></main></body></html>"""
    found = read_metadata(Page(html))
    assert (found.author, found.published, found.title) == ("Mo Wilson", "2023-11-02", "Gull census results")
    assert (found.sources["author"], found.sources["published"]) == ("byline", "byline")


def test_meta_tags_give_the_fields_and_the_title_loses_the_site_name():
    html = """<html><head><title>Gull census | Harbour Notes</title>
    <meta property="og:site_name" content="Harbour Notes"><meta name="author" content="Mo Wilson">
    <meta property="article:published_time" content="2022-06-30T10:00:00Z">
    <meta http-equiv="content-language" content="pt-BR"></head><body><p>Text.</p></body></html>"""
    found = read_metadata(Page(html))
    assert (found.title, found.author, found.published, found.language) == (
        "Gull census",
        "Mo Wilson",
        "2022-06-30",
        "pt-BR",
    )


def test_only_the_fields_asked_for_are_read():
    found = read_metadata(article_page(0, ARTICLE_GRAPH), ("published",))
    assert (found.title, found.author, found.published, found.language) == (None, None, "2024-03-09", None)


def test_broken_json_ld_is_passed_over():
    html = '<html><head><script type="application/ld+json">{"@type": "Article", "author": </script></head><body></body></html>'
    assert read_metadata(Page(html)).author is None


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("2024-03-09", "2024-03-09"),
        ("2024-03-09T23:15:00-08:00", "2024-03-09"),
        ("20240309", "2024-03-09"),
        ("Published on March 9th, 2024", "2024-03-09"),
        ("9 Sept. 2024", "2024-09-09"),
        ("03/09/2024", None),  # day or month first: not told
        ("2024-02-30", None),
        ("1985-01-01", None),  # before the web
        ("2030-01-01", None),  # in the future
        ("", None),
    ],
)
def test_dates_are_read_only_when_written_plainly(text, date):
    assert parse_date(text, today=datetime.date(2025, 1, 1)) == date
